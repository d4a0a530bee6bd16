// Session cache over Redis (REDIS_URL set; the real Redis at 127.0.0.1:6379 or TEST_REDIS_URL): no LISTEN on the
// database; every change that must end or alter a session, made through the API of one process, takes effect on
// the very next request to another process (its cached session dropped through the Redis bus).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSecondProcess, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { cacheStats } from './session-cache.ts';
import { ASSETS, crossProcessChecks, secondProcess, sessionKit } from './session-cache.kit.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
process.env.REDIS_URL = REDIS_URL;
process.env.JWT_SECRET ??= 'session-cache-redis-test-secret-0123456789';

let ts: TestServer;
let admin: Api;
let other: { base: string; stop: () => Promise<void> } | undefined;
let redis: Redis;
let A: number, B: number, amb: number;
let kit: Awaited<ReturnType<typeof sessionKit>>;
const user = (empresas: number[], keys: string[], senha?: string) => kit.user(empresas, keys, senha);
const sql = (text: string, params: unknown[] = []) => kit.sql(text, params);
const p2 = secondProcess(() => other!.base);
const { get2, warm2 } = p2;
const checks = () => crossProcessChecks(ts, kit, p2);
const counter = async () => Number(await redis.get(`rastro_sessao:${String(ts.orm.config.get('dbName'))}:versao`));

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  ts = await startTestServer();
  kit = await sessionKit(ts, 'rd');
  ({ admin, A, B, amb } = kit);
  expect(cacheStats(ts.orm.config)).toMatchObject({ listening: true, bus: 'redis' });
  other = await startSecondProcess(ts, { REDIS_URL, GATEWAY: 'off' });
  // Its subscriber connects right after start: wait until Redis counts both processes on the database's channel.
  const channel = `rastro_sessao:${String(ts.orm.config.get('dbName'))}`;
  await vi.waitFor(async () => {
    const subscribers = ((await redis.pubsub('NUMSUB', channel)) as [string, number])[1];
    if (subscribers !== 2) throw new Error(`${subscribers} assinante(s) em ${channel}, esperados 2`);
  }, { timeout: 30_000, interval: 50 });
}, 90_000);
afterAll(async () => {
  await other?.stop();
  await ts?.stop();
  redis?.disconnect();
});

describe('session cache over Redis', () => {
  it('uses Redis, not LISTEN on the database; a plain SQL write is not published (the other process keeps its cache)', async () => {
    const listeners = (await sql(`select count(*)::int as n from pg_stat_activity where application_name = 'rastro-sessao-listener' and datname = current_database()`)) as { n: number }[];
    expect(listeners[0].n).toBe(0);
    const u = await user([A], ASSETS);
    await warm2(u.api);
    await sql('update usuario set permissoes_extras = ? where id = ?', [JSON.stringify([]), u.id]);
    // Served from the other process's cache (the bus carries changes made through the app)...
    expect((await get2(u.api)).status).toBe(200);
    // ...while an uncached session reads the row: refused.
    const fresh = await ts.login(u.login, 'senha-teste-123');
    expect((await get2(fresh)).status).toBe(403);
  });

  it('a logout is counted in Redis before its answer leaves', async () => {
    const a = await user([A], ASSETS);
    await warm2(a.api);
    const before = await counter();
    expect((await a.api.post('/api/auth/logout')).status).toBe(200);
    expect(await counter()).toBeGreaterThan(before);
    expect((await get2(a.api)).status).toBe(401);
  });

  it('logout, forced logout (both routes), password change, user disabled: 401 on the other process', () => checks().sessionsEnded());

  it('company suspended, company removed from the user: 401 on the other process', () => checks().companies());

  it('keys, cargos, roles and cargo keys changed, cargo deleted, company switched: effective on the other process', () => checks().keys());

  it('in this process too: logout -> 401 at once, served from the cache before', async () => {
    const u = await user([A], ASSETS);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(200);
    const h = cacheStats(ts.orm.config)!.hits;
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(200);
    expect(cacheStats(ts.orm.config)!.hits).toBeGreaterThan(h);
    expect((await u.api.post('/api/auth/logout')).status).toBe(200);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
  });
});
