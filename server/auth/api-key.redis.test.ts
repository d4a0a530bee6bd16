// API-key rate limits over Redis (REDIS_URL set; the real Redis at 127.0.0.1:6379 or TEST_REDIS_URL): two server
// processes share one count per minute and per hour, so the limit holds across both (429, pt-BR); the total stays
// the row's exact counter.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startSecondProcess, startTestServer, type Api, type TestServer } from '../test/harness.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
process.env.REDIS_URL = REDIS_URL;

let ts: TestServer;
let admin: Api;
let other: { base: string; stop: () => Promise<void> } | undefined;
let redis: Redis;
let n = 0;

async function newKey(o: Record<string, unknown>): Promise<{ id: number; chave: string }> {
  const res = await admin.post('/api/chave_de_api', {
    descricao: `Chave redis ${++n}`, limiteConexaoMinutos: 100, limiteConexaoHoras: 1000, limite: 10000,
    permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'], ...o,
  });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return { id: body.id, chave: body.chave };
}
const one = (key: string) => ts.fetch('/api/ativo?range=[0,0]', { headers: { 'x-api-key': key } });
const two = (key: string) => fetch(`${other!.base}/api/ativo?range=[0,0]`, { headers: { 'x-api-key': key } });

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  other = await startSecondProcess(ts, { REDIS_URL, GATEWAY: 'off' });
}, 90_000);
afterAll(async () => {
  await other?.stop();
  await ts?.stop();
  redis?.disconnect();
});

describe('API-key limits across processes (Redis)', () => {
  it('a per-minute limit of 3 holds across two processes: the 4th call, on either, is 429 in pt-BR', async () => {
    const { id, chave } = await newKey({ limiteConexaoMinutos: 3 });
    const statuses = [(await one(chave)).status, (await two(chave)).status, (await one(chave)).status];
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await two(chave);
    expect(refused.status).toBe(429);
    expect((await refused.json()).msg).toMatch(/^Limite de chamadas por minuto da chave de API atingido\. Tente novamente em \d+ s\.$/);
    expect((await one(chave)).status).toBe(429);
    // counted in Redis, under the database's name and the key's id
    const keys = await redis.keys(`rastro_chave_api:3/60:${String(ts.orm.config.get('dbName'))}:${id}`);
    expect(keys.length).toBe(1);
    expect(Number(await redis.get(keys[0]))).toBe(5);
    // the exact total counts only the calls let through
    const [row] = await ts.em().getConnection().execute('select usos from chave_de_api where id = ?', [id]);
    expect(Number(row.usos)).toBe(3);
  });

  it('a per-hour limit of 2 holds across both processes', async () => {
    const { chave } = await newKey({ limiteConexaoHoras: 2 });
    expect([(await two(chave)).status, (await one(chave)).status, (await two(chave)).status]).toEqual([200, 200, 429]);
  });
});
