// Issue 18: an API key never changes users, passwords, roles, grants, sessions or API keys, whatever keys it carries
// (metadata `credentials`, server/core/pipeline.ts sessionStep). Over real HTTP with a key carrying every key of the
// admin: every such route of the route table answers 403 and leaves the database as it was; the same key still reads
// them (no password or key hash in sight) and still does an ordinary write it carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { credentialWrites, endpoints } from '../core/route-table.ts';

const REFUSAL = 'Chaves de API não podem alterar usuários, senhas, cargos, permissões, sessões nem chaves de API.';
const SENHA = 'vitima-senha-123';
const NOVA = 'tomada-senha-999';
/** Sign-in routes that take no session (only a token or password): not reachable with an API key. */
const PUBLIC_AUTH = new Set(['POST /api/auth/login', 'POST /api/auth/logout', 'POST /api/auth/changepwd', 'POST /api/auth/recover']);
/** Credential tables and the columns a call with the key may change (its own usage counter, a session's last access). */
const TABLES: Record<string, string[]> = {
  usuario: [], cargo: [], permissao: [], chave_de_api: ['usos', 'ultimo_uso', 'updated_at'], sessao: ['data_ultimo_acesso'], recuperacao_senha: [],
};

let ts: TestServer;
let admin: Api;
let victim: Api;
let A: number, B: number;
let chave: string;
let ids: Record<string, number>;

const withKey = (p: string, init: RequestInit = {}) =>
  ts.fetch(p, { ...init, headers: { 'x-api-key': chave, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });

async function snapshot(): Promise<Record<string, unknown[]>> {
  const conn = ts.em().getConnection();
  const out: Record<string, unknown[]> = {};
  for (const [t, skip] of Object.entries(TABLES)) {
    const rows = (await conn.execute(`select * from ${t} order by id`)) as Record<string, unknown>[];
    out[t] = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !skip.includes(k))));
  }
  return out;
}
const hashOf = async (id: number) => ((await ts.em().getConnection().execute('select senha from usuario where id = ?', [id])) as { senha: string }[])[0].senha;
const signIn = async (login: string, senha: string) =>
  (await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, senha }) })).status;

/** A hostile body fit for any of the routes: a new password, every key, the roles, another company. */
const hostile = () => ({
  nome: 'Tomado', login: 'tomado', email: 'tomado@x.local', senha: NOVA, novaSenha: NOVA, confirmacao: NOVA, roles: ['dev'], ativo: true,
  empresas: [A, B], empresaAtiva: A, cargos: [ids.cargo], permissoesExtras: admin.user.permissoes, permissoes: admin.user.permissoes,
  descricao: 'Tomada', limiteConexaoMinutos: 100000, limiteConexaoHoras: 1000000, limite: 1000000, ui: { x: 1 },
  ids: [ids.usuario], payload: { empresa: B },
});

/** A route path with its parameters filled: the row of the nearest register named before it (the victim's). */
function fill(path: string): string {
  const segs = path.split('/');
  return segs.map((s, i) => {
    if (!s.startsWith(':')) return s;
    const owner = segs.slice(0, i).reverse().find((x) => x in ids);
    return String(owner ? ids[owner] : ids.usuario);
  }).join('/');
}

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  expect(admin.user.permissoes.length).toBeGreaterThan(100);
  // The key carries every key of the admin (role dev: all of them).
  const res = await admin.post('/api/chave_de_api', {
    descricao: 'Integração com tudo', limiteConexaoMinutos: 100000, limiteConexaoHoras: 10000000, limite: 2000000000, permissoes: admin.user.permissoes,
  });
  const key = await json(res);
  expect(res.status, JSON.stringify(key)).toBe(201);
  expect(key.permissoes).toEqual(admin.user.permissoes);
  chave = key.chave;
  const other = await json(await admin.post('/api/chave_de_api', { descricao: 'Outra chave', permissoes: [] }));
  const cargo = await json(await admin.post('/api/cargo', { descricao: 'Cargo da vítima', permissoes: ['tlm.fro.ativo.lista'] }));
  const permissao = await json(await admin.post('/api/permissao', { descricao: 'Perfil da vítima', permissoes: ['tlm.fro.ativo.lista'] }));
  const usuario = await ts.createUser({ login: 'vitima', senha: SENHA, ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  victim = await ts.login('vitima', SENHA);
  ids = { usuario, cargo: cargo.id, permissao: permissao.id, chave_de_api: other.id, sessao: victim.user.sessaoId, empresa: A };
  for (const [k, v] of Object.entries(ids)) expect(Number.isSafeInteger(v) && v > 0, k).toBe(true);
});
afterAll(async () => { await ts?.stop(); });

describe('API key and credentials', () => {
  it('the same key still reads those registers, with no password or key hash, and does an ordinary write it carries', async () => {
    const users = await withKey('/api/usuario?range=[0,999]');
    expect(users.status).toBe(200);
    const text = await users.text();
    const hash = await hashOf(ids.usuario);
    expect(text).toContain('"login":"vitima"');
    expect(text).not.toContain(hash);
    expect(text).not.toContain('"senha"');
    const one = await json(await withKey(`/api/usuario/${ids.usuario}`));
    expect(one.login).toBe('vitima');
    expect('senha' in one).toBe(false);
    const keys = await withKey('/api/chave_de_api?range=[0,999]');
    expect(keys.status).toBe(200);
    const stored = (await ts.em().getConnection().execute('select chave from chave_de_api')) as { chave: string }[];
    const keysText = await keys.text();
    for (const r of stored) expect(keysText).not.toContain(r.chave);
    expect(keysText).not.toContain(chave);
    // The refusal is targeted: an ordinary register the key carries is written.
    const garagem = await withKey('/api/garagem', { method: 'POST', body: JSON.stringify({ nome: 'Garagem da integração' }) });
    const created = await json(garagem);
    expect(garagem.status, JSON.stringify(created)).toBe(201);
    expect(created.nome).toBe('Garagem da integração');
    expect(created.empresaId).toBe(A);
    const [row] = (await ts.em().getConnection().execute('select nome, empresa_id from garagem where id = ?', [created.id])) as { nome: string; empresa_id: number }[];
    expect(row).toEqual({ nome: 'Garagem da integração', empresa_id: A });
  });

  it('every route of the route table writing users, roles, grants, sessions or keys answers 403 to the key; nothing changes', async () => {
    const routes = credentialWrites(endpoints(ts.app.routes), ts.model).filter((e) => !PUBLIC_AUTH.has(e.id));
    expect(routes.length).toBeGreaterThan(30);
    const before = await snapshot();
    const hash = await hashOf(ids.usuario);
    const wrong: string[] = [];
    for (const e of routes) {
      const res = await withKey(fill(e.path), { method: e.method, body: JSON.stringify(hostile()) });
      const body = await json(res);
      if (res.status !== 403 || body?.msg !== REFUSAL) wrong.push(`${e.id}: ${res.status} ${body?.msg ?? ''}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(await hashOf(ids.usuario)).toBe(hash);
    expect(await signIn('vitima', NOVA)).toBe(401);
    expect(await signIn('vitima', SENHA)).toBe(200);
  });

  it('the important ones, one by one: the victim keeps password, roles, grants and session; no user or key is created', async () => {
    const cases: [string, string, unknown][] = [
      ['PUT', `/api/usuario/${ids.usuario}`, { nome: 'vitima', login: 'vitima', senha: NOVA, empresas: [A], empresaAtiva: A }],
      ['PUT', `/api/adm/cad/usuario/${ids.usuario}`, { nome: 'vitima', login: 'vitima', senha: NOVA, empresas: [A], empresaAtiva: A }],
      ['POST', '/api/usuario', { nome: 'Intruso', login: 'intruso', senha: NOVA, empresas: [A], empresaAtiva: A, roles: ['dev'] }],
      ['DELETE', `/api/usuario/${ids.usuario}`, undefined],
      ['POST', `/api/usuario/${ids.usuario}/desativa`, {}],
      ['POST', `/api/usuario/${ids.usuario}/vincula_empresa`, { empresa: B }],
      ['POST', '/api/cargo', { descricao: 'Cargo intruso', permissoes: admin.user.permissoes }],
      ['PUT', `/api/cargo/${ids.cargo}`, { descricao: 'Cargo da vítima', permissoes: admin.user.permissoes }],
      ['DELETE', `/api/cargo/${ids.cargo}`, undefined],
      ['POST', '/api/permissao', { descricao: 'Perfil intruso', permissoes: admin.user.permissoes }],
      ['PUT', `/api/permissao/${ids.permissao}`, { descricao: 'Perfil da vítima', permissoes: admin.user.permissoes }],
      ['POST', '/api/chave_de_api', { descricao: 'Chave filha', permissoes: admin.user.permissoes }],
      ['PUT', `/api/chave_de_api/${ids.chave_de_api}`, { descricao: 'Outra chave', permissoes: admin.user.permissoes }],
      ['POST', `/api/chave_de_api/${ids.chave_de_api}/revoga`, {}],
      ['POST', `/api/sessao/${ids.sessao}/elimina`, {}],
      ['POST', `/api/adm/sessao/elimina/${ids.sessao}`, {}],
      ['PUT', '/api/usuario/perfil', { nome: 'Chave', email: 'x@x.local' }],
      ['PUT', '/api/usuario', { ui: { x: 1 } }],
      ['POST', `/api/auth/empresa/${A}`, {}],
    ];
    const before = await snapshot();
    const got = [];
    for (const [method, p, body] of cases) {
      const res = await withKey(p, { method, body: body === undefined ? undefined : JSON.stringify(body) });
      got.push([method, p, res.status, (await json(res)).msg]);
    }
    expect(got).toEqual(cases.map(([m, p]) => [m, p, 403, REFUSAL]));
    expect(await snapshot()).toEqual(before);
    // The password change takes no API key at all (only a session token or a recovery token).
    const pwd = await withKey('/api/auth/changepwd', { method: 'POST', body: JSON.stringify({ senhaAtual: SENHA, novaSenha: NOVA, confirmacao: NOVA }) });
    expect(pwd.status).toBe(401);
    expect(await snapshot()).toEqual(before);
    // The victim's session is alive, and only the old password signs in.
    expect((await victim.get('/api/auth/get_session')).status).toBe(200);
    expect(await signIn('vitima', NOVA)).toBe(401);
    expect(await signIn('intruso', NOVA)).toBe(401);
    expect(await signIn('vitima', SENHA)).toBe(200);
  });
});
