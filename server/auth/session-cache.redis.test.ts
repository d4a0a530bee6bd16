// Session cache over Redis (REDIS_URL set; the real Redis at 127.0.0.1:6379 or TEST_REDIS_URL): no LISTEN on the
// database; every change that must end or alter a session, made through the API of one process, takes effect on
// the very next request to another process (its cached session dropped through the Redis bus).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startSecondProcess, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { cacheStats } from './session-cache.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
process.env.REDIS_URL = REDIS_URL;
process.env.JWT_SECRET ??= 'session-cache-redis-test-secret-0123456789';

let ts: TestServer;
let admin: Api;
let other: { base: string; stop: () => Promise<void> } | undefined;
let redis: Redis;
let A: number, B: number, amb: number;
const ASSETS = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'];

let n = 0;
async function user(empresas: number[], keys: string[], senha = 'senha-teste-123') {
  const login = `rd.user${++n}`;
  const id = await ts.createUser({ login, senha, ambienteId: amb, empresas, permissoes: keys });
  return { id, login, api: await ts.login(login, senha) };
}
const sql = (text: string, params: unknown[] = []) => ts.em().getConnection().execute(text, params);
const get2 = (api: Api, p = '/api/ativo?range=[0,0]') => fetch(other!.base + p, { headers: api.headers() });
/** Cached in the other process: two requests answered there. */
async function warm2(api: Api, p?: string) {
  expect((await get2(api, p)).status).toBe(200);
  expect((await get2(api, p)).status).toBe(200);
}
const counter = async () => Number(await redis.get(`rastro_sessao:${String(ts.orm.config.get('dbName'))}:versao`));

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  amb = admin.user.ambienteId;
  for (let i = 0; i < 100 && !cacheStats(ts.orm.config)?.listening; i++) await new Promise((r) => setTimeout(r, 20));
  expect(cacheStats(ts.orm.config)).toMatchObject({ listening: true, bus: 'redis' });
  other = await startSecondProcess(ts, { REDIS_URL, GATEWAY: 'off' });
  // Its subscriber connects right after start.
  await new Promise((res) => setTimeout(res, 300));
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

  it('logout, forced logout (both routes), password change, user disabled: 401 on the other process', async () => {
    const a = await user([A], ASSETS);
    await warm2(a.api);
    const before = await counter();
    expect((await a.api.post('/api/auth/logout')).status).toBe(200);
    expect(await counter()).toBeGreaterThan(before); // counted before the answer left
    expect((await get2(a.api)).status).toBe(401);

    const b = await user([A], ASSETS);
    await warm2(b.api);
    expect((await admin.post(`/api/adm/sessao/elimina/${b.api.user.sessaoId}`)).status).toBe(200);
    expect((await get2(b.api)).status).toBe(401);
    const b2 = await ts.login(b.login, 'senha-teste-123');
    await warm2(b2);
    expect((await admin.post(`/api/sessao/${b2.user.sessaoId}/elimina`)).status).toBe(200);
    expect((await get2(b2)).status).toBe(401);

    const c = await user([A], ASSETS);
    const c2 = await ts.login(c.login, 'senha-teste-123');
    await warm2(c.api); await warm2(c2);
    expect((await c.api.post('/api/auth/changepwd', { senhaAtual: 'senha-teste-123', novaSenha: 'trocada-12345' })).status).toBe(200);
    expect((await get2(c.api)).status).toBe(401);
    expect((await get2(c2)).status).toBe(401);
    const c3 = await ts.login(c.login, 'trocada-12345');
    await warm2(c3);
    const row = await (await admin.get(`/api/usuario/${c.id}`)).json();
    expect((await admin.put(`/api/usuario/${c.id}`, { ...row, senha: 'outra-senha-123' })).status).toBe(200);
    expect((await get2(c3)).status).toBe(401);

    const d = await user([A], ASSETS);
    await warm2(d.api);
    expect((await admin.post(`/api/usuario/${d.id}/desativa`)).status).toBe(200);
    expect((await get2(d.api)).status).toBe(401);
  });

  it('company suspended, company removed from the user: 401 on the other process', async () => {
    const e = Number((await ts.insert('empresa', { ambienteId: amb, fantasia: 'Empresa Redis', status: 'ativa' })).id);
    const x = await user([e], ['adm.sis.usuario.lista']);
    await warm2(x.api, '/api/usuario/permissoes');
    expect((await admin.post(`/api/empresa/${e}/suspende`)).status).toBe(200);
    expect((await get2(x.api, '/api/usuario/permissoes')).status).toBe(401);

    const w = await user([A, B], ASSETS);
    await warm2(w.api);
    const row = await (await admin.get(`/api/usuario/${w.id}`)).json();
    expect((await admin.put(`/api/usuario/${w.id}`, { ...row, empresas: [B], empresaAtiva: B })).status).toBe(200);
    expect((await get2(w.api)).status).toBe(401);
  });

  it('keys, cargos, roles and cargo keys changed, cargo deleted, company switched: effective on the other process', async () => {
    const keys2 = async (api: Api) => ((await (await get2(api, '/api/usuario/permissoes')).json()).payload as string[]);
    const u = await user([A], ASSETS);
    await warm2(u.api);
    let row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, permissoesExtras: ['tlm.fro.ativo.visualizar'] })).status).toBe(200);
    expect((await get2(u.api)).status).toBe(403);
    const cargo = Number((await ts.insert('cargo', { empresaId: A, descricao: 'Redis frota', permissoes: ['tlm.fro.ativo.lista'] })).id);
    row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, cargos: [cargo] })).status).toBe(200);
    await warm2(u.api);
    row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, roles: ['dev'] })).status).toBe(200);
    expect((await keys2(u.api)).length).toBe(ts.model.permissions.length);

    const held = Number((await ts.insert('cargo', { empresaId: A, descricao: 'Redis cargo', permissoes: ASSETS })).id);
    const h = await user([A], []);
    await sql('update usuario set cargos = ? where id = ?', [`{${held}}`, h.id]);
    const hApi = await ts.login(h.login, 'senha-teste-123');
    await warm2(hApi);
    const c = await (await admin.get(`/api/cargo/${held}`)).json();
    expect((await admin.put(`/api/cargo/${held}`, { ...c, permissoes: ['tlm.fro.ativo.visualizar'] })).status).toBe(200);
    expect((await get2(hApi)).status).toBe(403);
    expect(await keys2(hApi)).toEqual(['tlm.fro.ativo.visualizar']);
    expect((await admin.del(`/api/cargo/${held}`)).status).toBe(200);
    expect(await keys2(hApi)).toEqual([]);

    const s = await user([A, B], ASSETS);
    await warm2(s.api);
    expect((await ts.fetch(`/api/auth/empresa/${B}`, { method: 'POST', headers: s.api.headers() })).status).toBe(200);
    const rows = (await (await get2(s.api, '/api/ativo?range=[0,999]')).json()) as { empresaId: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.empresaId === B)).toBe(true);
  });

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
