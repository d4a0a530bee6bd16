// Shared by the session-cache tests (pg LISTEN and Redis): the server signed in as admin with its two companies,
// users made and signed in, and the checks against a second API process.
import { expect } from 'vitest';
import { ADMIN, type Api, type TestServer } from '../test/harness.ts';
import { cacheStats } from './session-cache.ts';

export const ASSETS = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'];

export async function sessionKit(ts: TestServer, prefix: string) {
  const admin = await ts.login(ADMIN.login, ADMIN.senha);
  const [A, B] = admin.user.empresas.map((e: { id: number }) => e.id) as number[];
  const amb = Number(admin.user.ambienteId);
  // The listener connects in the background at start.
  for (let i = 0; i < 100 && !cacheStats(ts.orm.config)?.listening; i++) await new Promise((r) => setTimeout(r, 20));
  expect(cacheStats(ts.orm.config)?.listening).toBe(true);
  let n = 0;
  return {
    admin, A, B, amb,
    /** A new user with these companies and keys, signed in. */
    user: async (empresas: number[], keys: string[], senha = 'senha-teste-123') => {
      const login = `${prefix}.user${++n}`;
      const id = await ts.createUser({ login, senha, ambienteId: amb, empresas, permissoes: keys });
      return { id, login, api: await ts.login(login, senha) };
    },
    sql: (text: string, params: unknown[] = []) => ts.em().getConnection().execute(text, params),
  };
}

type Kit = Awaited<ReturnType<typeof sessionKit>>;

/** The changes that must end or alter a session, each checked on the very next request to the second process
 *  (run by the test of each invalidation bus). */
export function crossProcessChecks(ts: TestServer, kit: Kit, other: ReturnType<typeof secondProcess>) {
  const { admin, A, B, amb, user, sql } = kit;
  const { get2, warm2 } = other;
  return {
    sessionsEnded: async () => {
      const a = await user([A], ASSETS);
      await warm2(a.api);
      expect((await a.api.post('/api/auth/logout')).status).toBe(200);
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
    },
    companies: async () => {
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
    },
    keys: async () => {
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
    },
  };
}

/** Requests to a second API process (base URL) with a session of this one. */
export function secondProcess(base: () => string) {
  const get2 = (api: Api, p = '/api/ativo?range=[0,0]') => fetch(base() + p, { headers: api.headers() });
  return {
    get2,
    /** Two requests answered there (the second from its cache). */
    warm2: async (api: Api, p?: string) => {
      expect((await get2(api, p)).status).toBe(200);
      expect((await get2(api, p)).status).toBe(200);
    },
  };
}
