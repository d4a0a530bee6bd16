// Session cache (issue 7, speed): sessions are served from the in-process cache, and every change that must
// end or alter a session takes effect on the very next request — in this process and in a second API process
// on the same database (LISTEN/NOTIFY on rastro_sessao, fed by database triggers; a cache hit first waits for the
// notifications committed before it).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSecondProcess, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { cacheStats } from './session-cache.ts';
import { ASSETS, crossProcessChecks, secondProcess, sessionKit } from './session-cache.kit.ts';

process.env.JWT_SECRET ??= 'session-cache-test-secret-0123456789abcdef';

let ts: TestServer;
let admin: Api;
let A: number, B: number, amb: number;
let kit: Awaited<ReturnType<typeof sessionKit>>;
const user = (empresas: number[], keys: string[], senha?: string) => kit.user(empresas, keys, senha);
const sql = (text: string, params: unknown[] = []) => kit.sql(text, params);
const hits = () => cacheStats(ts.orm.config)!.hits;
/** Two requests: the second is served from the cache (proved by the hit counter). */
async function warm(api: Api, p = '/api/ativo?range=[0,0]') {
  expect((await api.get(p)).status).toBe(200);
  const h = hits();
  expect((await api.get(p)).status).toBe(200);
  expect(hits()).toBeGreaterThan(h);
}
const keys = async (api: Api) => ((await (await api.get('/api/usuario/permissoes')).json()).payload as string[]);

beforeAll(async () => {
  ts = await startTestServer();
  kit = await sessionKit(ts, 'sc');
  ({ admin, A, B, amb } = kit);
});
afterAll(async () => { await ts?.stop(); });

describe('in this process: the very next request', () => {
  it('logout -> 401', async () => {
    const u = await user([A], ASSETS);
    await warm(u.api);
    expect((await u.api.post('/api/auth/logout')).status).toBe(200);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
  });

  it('forced logout (both routes) -> 401', async () => {
    const u = await user([A], ASSETS);
    await warm(u.api);
    expect((await admin.post(`/api/adm/sessao/elimina/${u.api.user.sessaoId}`)).status).toBe(200);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
    const v = await ts.login(u.login, 'senha-teste-123');
    await warm(v);
    expect((await admin.post(`/api/sessao/${v.user.sessaoId}/elimina`)).status).toBe(200);
    expect((await v.get('/api/ativo?range=[0,0]')).status).toBe(401);
  });

  it('password change (own, and reset by an administrator) -> 401 on every session', async () => {
    const u = await user([A], ASSETS);
    const other = await ts.login(u.login, 'senha-teste-123');
    await warm(u.api); await warm(other);
    expect((await u.api.post('/api/auth/changepwd', { senhaAtual: 'senha-teste-123', novaSenha: 'trocada-12345' })).status).toBe(200);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
    expect((await other.get('/api/ativo?range=[0,0]')).status).toBe(401);
    const again = await ts.login(u.login, 'trocada-12345');
    await warm(again);
    const row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, senha: 'outra-senha-123' })).status).toBe(200);
    expect((await again.get('/api/ativo?range=[0,0]')).status).toBe(401);
  });

  it('user disabled, user deleted -> 401', async () => {
    const u = await user([A], ASSETS);
    await warm(u.api);
    expect((await admin.post(`/api/usuario/${u.id}/desativa`)).status).toBe(200);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
    const d = await user([A], ASSETS);
    await warm(d.api);
    expect((await admin.del(`/api/usuario/${d.id}`)).status).toBe(200);
    expect((await d.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
  });

  it('company suspended -> 401; company removed from the user -> 401', async () => {
    const e = Number((await ts.insert('empresa', { ambienteId: amb, fantasia: 'Empresa Cache', status: 'ativa' })).id);
    const u = await user([e], ['adm.sis.usuario.lista']);
    await warm(u.api, '/api/usuario/permissoes');
    expect((await admin.post(`/api/empresa/${e}/suspende`)).status).toBe(200);
    expect((await u.api.get('/api/usuario/permissoes')).status).toBe(401);
    const w = await user([A, B], ASSETS);
    await warm(w.api);
    const row = await (await admin.get(`/api/usuario/${w.id}`)).json();
    expect((await admin.put(`/api/usuario/${w.id}`, { ...row, empresas: [B], empresaAtiva: B })).status).toBe(200);
    expect((await w.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
  });

  it('permissoesExtras, cargos and roles changed -> the new keys apply', async () => {
    const u = await user([A], ASSETS);
    await warm(u.api);
    let row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, permissoesExtras: ['tlm.fro.ativo.visualizar'] })).status).toBe(200);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(403);
    expect(await keys(u.api)).toEqual(['tlm.fro.ativo.visualizar']);
    const cargo = Number((await ts.insert('cargo', { empresaId: A, descricao: 'Cache frota', permissoes: ['tlm.fro.ativo.lista'] })).id);
    row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, cargos: [cargo] })).status).toBe(200);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(200);
    await warm(u.api);
    row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, roles: ['dev'] })).status).toBe(200);
    expect((await keys(u.api)).length).toBe(ts.model.permissions.length);
  });

  it('cargo keys changed, cargo deleted -> the holder loses the keys', async () => {
    const cargo = Number((await ts.insert('cargo', { empresaId: A, descricao: 'Cache cargo', permissoes: ASSETS })).id);
    const u = await user([A], []);
    await sql('update usuario set cargos = ? where id = ?', [`{${cargo}}`, u.id]);
    const api = await ts.login(u.login, 'senha-teste-123');
    await warm(api);
    const c = await (await admin.get(`/api/cargo/${cargo}`)).json();
    expect((await admin.put(`/api/cargo/${cargo}`, { ...c, permissoes: ['tlm.fro.ativo.visualizar'] })).status).toBe(200);
    expect((await api.get('/api/ativo?range=[0,0]')).status).toBe(403);
    expect(await keys(api)).toEqual(['tlm.fro.ativo.visualizar']);
    expect((await admin.del(`/api/cargo/${cargo}`)).status).toBe(200);
    expect(await keys(api)).toEqual([]);
  });

  it('company switch -> the next request works in the new company', async () => {
    const u = await user([A, B], ASSETS);
    await warm(u.api);
    const sw = await ts.fetch(`/api/auth/empresa/${B}`, { method: 'POST', headers: u.api.headers() });
    expect(sw.status).toBe(200);
    const rows = (await (await u.api.get('/api/ativo?range=[0,999]')).json()) as { empresaId: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.empresaId === B)).toBe(true);
  });

  it('a write outside the API (plain SQL) reaches the cache through the database notification', async () => {
    const u = await user([A], ASSETS);
    await warm(u.api);
    await sql('update usuario set ativo = false where id = ?', [u.id]);
    expect((await u.api.get('/api/ativo?range=[0,0]')).status).toBe(401);
  });
});

describe('a change whose notification has not arrived (only the committed counter moved)', () => {
  /** What another process's commit looks like before its NOTIFY reaches this one: the row changed and the
   *  counter bumped, no notification (triggers off for the change, the counter bumped by hand). */
  async function silently(text: string, params: unknown[]) {
    const c = new pg.Client({ connectionString: ts.databaseUrl });
    await c.connect();
    try {
      await c.query('set session_replication_role = replica');
      await c.query(text, params);
      await c.query('update rastro_sessao_versao set v = v + 1 where id = 1');
    } finally { await c.end(); }
  }
  const barriers = () => cacheStats(ts.orm.config)!.barriers;

  it('list and by id read the counter in their own statement: no extra round trip, and the change applies', async () => {
    const u = await user([A], ASSETS);
    await warm(u.api);
    const id = ((await (await u.api.get('/api/ativo?range=[0,0]')).json()) as { id: number }[])[0].id;
    const b = barriers(), h = hits();
    for (let i = 0; i < 5; i++) {
      expect((await u.api.get('/api/ativo?range=[0,4]')).status).toBe(200);
      expect((await u.api.get(`/api/ativo/${id}`)).status).toBe(200);
    }
    expect(hits() - h).toBe(10);
    expect(barriers()).toBe(b);
    await silently('update usuario set permissoes_extras = $1 where id = $2', [JSON.stringify(['tlm.fro.ativo.visualizar']), u.id]);
    expect((await u.api.get('/api/ativo?range=[0,4]')).status).toBe(403);
    await warm(u.api, `/api/ativo/${id}`);
    await silently('update usuario set ativo = false where id = $1', [u.id]);
    expect((await u.api.get(`/api/ativo/${id}`)).status).toBe(401);
  });

  it('other routes settle with a round trip before the handler; a 404 settles after it', async () => {
    const u = await user([A], ASSETS);
    await warm(u.api, '/api/usuario/permissoes');
    const b = barriers();
    expect((await u.api.get('/api/usuario/permissoes')).status).toBe(200);
    expect(barriers()).toBeGreaterThan(b);
    await silently('update usuario set permissoes_extras = $1 where id = $2', [JSON.stringify(['tlm.fro.ativo.lista']), u.id]);
    expect(await keys(u.api)).toEqual(['tlm.fro.ativo.lista']);
    await warm(u.api);
    await silently('update sessao set ativa = false where id = $1', [u.api.user.sessaoId]);
    expect((await u.api.get('/api/ativo/999999999')).status).toBe(401);
  });
});

describe('a second API process on the same database', () => {
  let other: { base: string; stop: () => Promise<void> } | undefined;
  const p2 = secondProcess(() => other!.base);
  const { get2, warm2 } = p2;
  const checks = () => crossProcessChecks(ts, kit, p2);

  beforeAll(async () => {
    other = await startSecondProcess(ts);
    // Its listener connects right after start (a warm cache is the proof it listens, same latency otherwise): wait
    // until the database shows both processes' listener connections.
    await vi.waitFor(async () => {
      const [{ n }] = await sql(`select count(*)::int n from pg_stat_activity where datname = current_database() and application_name = 'rastro-sessao-listener'`);
      if (n !== 2) throw new Error(`${n} conexão(ões) de escuta, esperadas 2 (uma por processo)`);
    }, { timeout: 30_000, interval: 50 });
  }, 60_000);
  afterAll(async () => { await other?.stop(); });

  it('serves from its own cache (a write with the triggers off stays unseen there)', async () => {
    const u = await user([A], ASSETS);
    await warm2(u.api);
    const c = new pg.Client({ connectionString: ts.databaseUrl });
    await c.connect();
    try {
      await c.query('set session_replication_role = replica'); // no triggers, no notification
      await c.query('update usuario set permissoes_extras = $1 where id = $2', [JSON.stringify([]), u.id]);
    } finally { await c.end(); }
    expect((await get2(u.api)).status).toBe(200);
    // An uncached process reads the row: refused.
    const fresh = await ts.login(u.login, 'senha-teste-123');
    expect((await get2(fresh)).status).toBe(403);
  });

  it('logout, forced logout (both routes), password change, user disabled: 401 on the other process', () => checks().sessionsEnded());

  it('company suspended, company removed from the user: 401 on the other process', () => checks().companies());

  it('keys, cargos, roles and cargo keys changed, cargo deleted, company switched: effective on the other process', () => checks().keys());
});
