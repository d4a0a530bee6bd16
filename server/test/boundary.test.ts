// Issue 6 §2 (company boundary), §3 (rate-limited logins recorded) and §5 (standard clients): each attack
// reproduced over real HTTP and refused. Companies A and B are the seeded two of the same ambiente.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectIo, type Socket } from 'socket.io-client';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils } from 'ra-core';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from './harness.ts';
import { SOCKET_PATH } from '../realtime/index.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number, amb: number;
let base: string;

const USER_ADMIN = ['adm.sis.usuario.lista', 'adm.sis.usuario.visualizar', 'adm.sis.usuario.adicionar', 'adm.sis.usuario.editar', 'adm.sis.usuario.desativa'];
const ROLE_ADMIN = ['adm.sis.cargo.lista', 'adm.sis.cargo.visualizar', 'adm.sis.cargo.adicionar', 'adm.sis.cargo.editar', 'adm.sis.cargo.excluir'];
const SESSION_ADMIN = ['adm.sis.sessao.lista', 'adm.sis.sessao.visualizar', 'adm.sis.sessao.elimina', 'adm.sis.historico_de_login.lista', 'adm.sis.historico_de_login.visualizar'];
const ASSETS = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'];

let n = 0;
/** A user of the given companies holding `keys` (permissoesExtras), signed in. */
async function user(empresas: number[], keys: string[], o: { roles?: string[] } = {}) {
  const login = `b.user${++n}`;
  const id = await ts.createUser({ login, senha: 'senha-teste-123', ambienteId: amb, empresas, permissoes: keys, roles: o.roles });
  return { id, login, api: await ts.login(login, 'senha-teste-123') };
}
const row = async (table: string, id: number) => (await ts.em().getConnection().execute(`select * from ${table} where id = ?`, [id]))[0];
const canLogin = async (login: string, senha: string) =>
  (await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, senha }) })).status === 200;
const ids = async (res: Response) => ((await res.json()) as { id: number }[]).map((r) => r.id);

beforeAll(async () => {
  delete process.env.PUBLIC_URL;
  ts = await startTestServer({ auth: { maxFailsPerLogin: 2, maxFailsPerIp: 1000 } });
  base = ts.url.replace('localhost', '127.0.0.1');
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  amb = admin.user.ambienteId;
  expect(A).not.toBe(B);
  expect((await row('empresa', B)).ambiente_id).toBe(amb);
});
afterAll(async () => { await ts?.stop(); });

describe('self-assigned company', () => {
  it('PUT /api/usuario/{own id} {empresas:[A,B]} is refused, and so is POST /api/auth/empresa/B', async () => {
    const g = await user([A], [...USER_ADMIN, ...ASSETS]);
    const me = await (await g.api.get(`/api/usuario/${g.id}`)).json();
    const res = await g.api.put(`/api/usuario/${g.id}`, { ...me, empresas: [A, B] });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('Você só pode incluir ou retirar empresas que você administra');
    expect((await row('usuario', g.id)).empresas).toEqual([A]);
    const sw = await ts.fetch(`/api/auth/empresa/${B}`, { method: 'POST', headers: g.api.headers() });
    expect(sw.status).toBe(403);
    expect((await sw.json()).msg).toBe('Você não tem acesso a esta empresa');
    // Still in A: B's assets are not in sight.
    const rows = (await (await g.api.get('/api/ativo?range=[0,999]')).json()) as { empresaId: number }[];
    expect(rows.length).toBe(40);
    expect(rows.every((r) => r.empresaId === A)).toBe(true);
  });

  it('nobody adds to another user a company they do not administer; an administrator of both companies may', async () => {
    const g = await user([A], [...USER_ADMIN, ...ASSETS]);
    const other = await user([A], ASSETS);
    const u = await (await g.api.get(`/api/usuario/${other.id}`)).json();
    const put = await g.api.put(`/api/usuario/${other.id}`, { ...u, empresas: [A, B] });
    expect(put.status).toBe(403);
    expect((await put.json()).msg).toBe('Você só pode incluir ou retirar empresas que você administra');
    const post = await g.api.post('/api/usuario', { nome: 'Novo', login: `novo.${n}`, senha: 'senha-forte-123', empresas: [A, B] });
    expect(post.status).toBe(403);
    expect((await post.json()).msg).toBe('Você só pode incluir ou retirar empresas que você administra');
    expect((await row('usuario', other.id)).empresas).toEqual([A]);
    // Control: a user administering A and B does it.
    const both = await user([A, B], [...USER_ADMIN, ...ASSETS]);
    const ok = await both.api.put(`/api/usuario/${other.id}`, { ...u, empresas: [A, B] });
    expect(ok.status, JSON.stringify(await json(ok.clone()))).toBe(200);
    expect((await row('usuario', other.id)).empresas).toEqual([A, B]);
    // Now `other` belongs to B too: the A-only administrator no longer reaches them.
    expect((await g.api.get(`/api/usuario/${other.id}`)).status).toBe(404);
  });

  it('a user created without companies gets the active company (never a user nobody administers)', async () => {
    const g = await user([A], USER_ADMIN);
    const res = await g.api.post('/api/usuario', { nome: 'Sem empresas', login: `sem.empresas.${n}`, senha: 'senha-forte-123' });
    expect(res.status).toBe(201);
    const u = await res.json();
    expect(u.empresas).toEqual([A]);
    expect(u.empresaAtiva).toBe(A);
    const emptied = await g.api.put(`/api/usuario/${u.id}`, { ...u, empresas: [] });
    expect(emptied.status).toBe(400);
    expect((await emptied.json()).msg).toBe('O campo Empresas deve ter ao menos uma empresa');
    expect((await row('usuario', u.id)).empresas).toEqual([A]);
  });
});

describe('users, roles, sessions and login history of other companies', () => {
  it('a company-A user manager neither sees nor sets the password of a company-B user (and cannot sign in as them)', async () => {
    const g = await user([A], USER_ADMIN);
    const b = await user([B], ASSETS);
    const list = await ids(await g.api.get('/api/usuario?range=[0,999]'));
    expect(list).toContain(g.id);
    expect(list).not.toContain(b.id);
    expect(list).not.toContain(admin.user.id); // admin belongs to A and B
    expect((await g.api.get(`/api/usuario/${b.id}`)).status).toBe(404);
    expect((await g.api.put(`/api/usuario/${b.id}`, { senha: 'tomada-de-conta-1' })).status).toBe(404);
    expect((await g.api.post(`/api/usuario/${b.id}/desativa`)).status).toBe(404);
    expect(await canLogin(b.login, 'tomada-de-conta-1')).toBe(false);
    expect(await canLogin(b.login, 'senha-teste-123')).toBe(true);
  });

  it('the read-only user lists only users, sessions and login history of its company', async () => {
    const b = await user([B], ASSETS);
    const leitor = await ts.login(LEITOR.login, LEITOR.senha);
    expect(await ids(await leitor.get('/api/usuario?range=[0,999]'))).not.toContain(b.id);
    const sessoes = (await (await leitor.get('/api/sessao?range=[0,999]')).json()) as { usuario: number }[];
    expect(sessoes.length).toBeGreaterThan(0);
    expect(sessoes.map((s) => s.usuario)).not.toContain(b.id);
    expect(sessoes.map((s) => s.usuario)).not.toContain(admin.user.id);
    const hist = (await (await leitor.get('/api/historico_de_login?range=[0,999]')).json()) as { usuario: number | null }[];
    expect(hist.length).toBeGreaterThan(0);
    expect(hist.map((h) => h.usuario)).not.toContain(b.id);
    expect(hist.every((h) => h.usuario != null)).toBe(true);
  });

  it('roles of company B are invisible and untouchable from company A', async () => {
    const g = await user([A], ROLE_ADMIN);
    const cargoB = Number((await ts.insert('cargo', { empresaId: B, descricao: 'Cargo de B', permissoes: ['tlm.fro.ativo.lista'] })).id);
    expect(await ids(await g.api.get('/api/cargo?range=[0,999]'))).not.toContain(cargoB);
    expect((await g.api.get(`/api/cargo/${cargoB}`)).status).toBe(404);
    expect((await g.api.put(`/api/cargo/${cargoB}`, { descricao: 'x', permissoes: [] })).status).toBe(404);
    expect((await g.api.del(`/api/cargo/${cargoB}`)).status).toBe(404);
    expect((await row('cargo', cargoB)).permissoes).toEqual(['tlm.fro.ativo.lista']);
  });

  it('a role of company B held by a user of A and B does not apply in A, and survives an edit made in A', async () => {
    const cargoB = Number((await ts.insert('cargo', { empresaId: B, descricao: 'Frota B', permissoes: ['tlm.fro.motorista.lista'] })).id);
    const cargoA = Number((await ts.insert('cargo', { empresaId: A, descricao: 'Frota A', permissoes: ['tlm.fro.ativo.lista'] })).id);
    const u = await user([A, B], []);
    await ts.em().getConnection().execute('update usuario set cargos = ? where id = ?', [`{${cargoA},${cargoB}}`, u.id]);
    const inA = await ts.login(u.login, 'senha-teste-123');
    expect(inA.empresaAtiva).toBe(A);
    expect(inA.user.permissoes).toEqual(['tlm.fro.ativo.lista']);
    const sw = await (await ts.fetch(`/api/auth/empresa/${B}`, { method: 'POST', headers: inA.headers() })).json();
    expect(sw.payload.user.permissoes).toEqual(['tlm.fro.motorista.lista']);
    // An administrator of A and B working in A edits the user: the form only shows A's roles; B's stays.
    const g = await user([A, B], [...USER_ADMIN, 'tlm.fro.ativo.lista', 'tlm.fro.motorista.lista']);
    const form = await (await g.api.get(`/api/usuario/${u.id}`)).json();
    const res = await g.api.put(`/api/usuario/${u.id}`, { ...form, nome: 'Renomeado', cargos: [] });
    expect(res.status, JSON.stringify(await json(res.clone()))).toBe(200);
    expect((await row('usuario', u.id)).cargos).toEqual([cargoB]);
  });

  it('sessions of company B users are neither listed nor ended from company A', async () => {
    const g = await user([A], SESSION_ADMIN);
    const b = await user([B], ASSETS);
    const sid = b.api.user.sessaoId as number;
    const list = (await (await g.api.get('/api/sessao?range=[0,999]')).json()) as { id: number }[];
    expect(list.map((s) => s.id)).not.toContain(sid);
    expect(list.map((s) => s.id)).toContain(g.api.user.sessaoId);
    const lista = (await (await g.api.get('/api/adm/sessao/lista')).json()).payload as { id: number }[];
    expect(lista.map((s) => s.id)).not.toContain(sid);
    expect((await g.api.post(`/api/sessao/${sid}/elimina`)).status).toBe(404);
    expect((await g.api.post(`/api/adm/sessao/elimina/${sid}`)).status).toBe(404);
    expect((await b.api.get('/api/ativo')).status).toBe(200);
    const hist = (await (await g.api.get('/api/historico_de_login?range=[0,999]')).json()) as { usuario: number }[];
    expect(hist.map((h) => h.usuario)).toContain(g.id);
    expect(hist.map((h) => h.usuario)).not.toContain(b.id);
  });
});

describe('company actions and ambiente administration belong to the platform key', () => {
  it('a company administrator holding every company key cannot suspend, deactivate, create or delete companies, nor touch ambientes', async () => {
    const keys = ts.model.permissions.map((p) => p.key).filter((k) => k !== 'adm.sis.plataforma');
    const g = await user([A], keys);
    // Keys gated by the platform key do not take effect without it.
    expect(g.api.user.permissoes).not.toContain('adm.sis.empresa.suspende');
    expect(g.api.user.permissoes).toContain('adm.sis.empresa.editar');
    for (const empresa of [A, B]) {
      for (const action of ['suspende', 'desativa']) expect((await g.api.post(`/api/empresa/${empresa}/${action}`)).status).toBe(403);
    }
    expect((await g.api.post('/api/empresa', { fantasia: 'Nova' })).status).toBe(403);
    expect((await g.api.del(`/api/empresa/${A}`)).status).toBe(403);
    expect((await g.api.get('/api/ambiente')).status).toBe(403);
    expect((await g.api.put(`/api/ambiente/${amb}`, { descricao: 'Tomado', ativo: true })).status).toBe(403);
    expect((await g.api.post('/api/ambiente', { descricao: 'Novo', ativo: true })).status).toBe(403);
    expect((await g.api.del(`/api/ambiente/${amb}`)).status).toBe(403);
    expect((await row('empresa', A)).status).toBe('ativa');
    expect((await row('empresa', B)).status).toBe('ativa');
    // The own company's data stays editable.
    const a = await (await g.api.get(`/api/empresa/${A}`)).json();
    expect((await g.api.put(`/api/empresa/${A}`, { ...a, telefone: '(11) 4000-0000' })).status).toBe(200);
    // They cannot grant the platform key (they do not hold it).
    const other = await user([A], ASSETS);
    const u = await (await g.api.get(`/api/usuario/${other.id}`)).json();
    const res = await g.api.put(`/api/usuario/${other.id}`, { ...u, permissoesExtras: [...u.permissoesExtras, 'adm.sis.plataforma'] });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('Você não pode conceder permissões que não possui: adm.sis.plataforma');
  });

  it('the platform administrator suspends and reactivates company B', async () => {
    const p = await user([A], ['adm.sis.plataforma', 'adm.sis.empresa.lista', 'adm.sis.empresa.visualizar', 'adm.sis.empresa.suspende', 'adm.sis.empresa.cancela_suspensao']);
    expect((await p.api.post(`/api/empresa/${B}/suspende`)).status).toBe(200);
    expect((await row('empresa', B)).status).toBe('suspensa');
    expect((await p.api.post(`/api/empresa/${B}/cancela_suspensao`)).status).toBe(200);
    expect((await row('empresa', B)).status).toBe('ativa');
  });
});

describe('takeover of a more privileged user', () => {
  it('a user with few keys cannot set the password of a same-company user holding more keys', async () => {
    const small = await user([A], [...USER_ADMIN, ...ROLE_ADMIN, 'tlm.fro.ativo.lista']);
    expect(small.api.user.permissoes.length).toBe(11);
    const keys = ts.model.permissions.map((p) => p.key).filter((k) => !k.startsWith('adm.sis.plataforma'));
    const big = await user([A], keys);
    expect(big.api.user.permissoes.length).toBeGreaterThan(90);
    const form = await (await small.api.get(`/api/usuario/${big.id}`)).json();
    const res = await small.api.put(`/api/usuario/${big.id}`, { ...form, senha: 'tomada-de-conta-1' });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toMatch(/^Você não pode alterar um usuário que possui permissões que você não possui: /);
    expect((await small.api.post(`/api/usuario/${big.id}/desativa`)).status).toBe(403);
    expect(await canLogin(big.login, 'tomada-de-conta-1')).toBe(false);
    expect((await row('usuario', big.id)).ativo).toBe(true);
  });

  it('nobody strips from a role keys they do not hold, nor deletes such a role', async () => {
    const small = await user([A], ROLE_ADMIN);
    const cargo = Number((await ts.insert('cargo', { empresaId: A, descricao: 'Gerência', permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.excluir', 'adm.sis.cargo.lista'] })).id);
    const holder = await user([A], []);
    await ts.em().getConnection().execute('update usuario set cargos = ? where id = ?', [`{${cargo}}`, holder.id]);
    const c = await (await small.api.get(`/api/cargo/${cargo}`)).json();
    const res = await small.api.put(`/api/cargo/${cargo}`, { ...c, permissoes: ['adm.sis.cargo.lista'] });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('Você não pode remover permissões que não possui: tlm.fro.ativo.excluir, tlm.fro.ativo.lista');
    const del = await small.api.del(`/api/cargo/${cargo}`);
    expect(del.status).toBe(403);
    expect((await del.json()).msg).toBe('Você não pode excluir cargo com permissões que não possui: tlm.fro.ativo.excluir, tlm.fro.ativo.lista');
    expect((await row('cargo', cargo)).permissoes).toEqual(['tlm.fro.ativo.lista', 'tlm.fro.ativo.excluir', 'adm.sis.cargo.lista']);
    // Keys they hold may go.
    expect((await small.api.put(`/api/cargo/${cargo}`, { ...c, permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.excluir'] })).status).toBe(200);
  });
});

// ---- password changes end every session, sockets included
function open(token: string): Socket {
  return connectIo(base, { path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
}
const connected = (s: Socket) => new Promise<void>((resolve, reject) => { s.once('connect', () => resolve()); s.once('connect_error', reject); });
const ended = (s: Socket) => new Promise<{ motivo: string; msg: string }>((resolve, reject) => {
  const t = setTimeout(() => reject(new Error('sem sessao_finalizada')), 30_000); // ends as soon as it arrives
  s.once('sessao_finalizada', (p) => { clearTimeout(t); resolve(p); });
});
const disconnected = (s: Socket) => new Promise<void>((resolve) => { if (!s.connected) resolve(); else s.once('disconnect', () => resolve()); });

describe('password change or reset ends every session of the user', () => {
  it('administrator reset (PUT /api/usuario/{id} with senha): both sessions answer 401 and both sockets get sessao_finalizada', async () => {
    const u = await user([A], ASSETS);
    const second = await ts.login(u.login, 'senha-teste-123');
    const sockets = [open(u.api.token), open(second.token)];
    await Promise.all(sockets.map(connected));
    const pushes = sockets.map(ended);
    const form = await (await admin.get(`/api/usuario/${u.id}`)).json();
    expect((await admin.put(`/api/usuario/${u.id}`, { ...form, senha: 'redefinida-123' })).status).toBe(200);
    for (const p of await Promise.all(pushes)) expect(p).toMatchObject({ motivo: 'senha', msg: 'Sua senha foi alterada. Entre novamente com a nova senha.' });
    await Promise.all(sockets.map(disconnected));
    expect(sockets.every((s) => !s.connected)).toBe(true);
    expect((await u.api.get('/api/ativo')).status).toBe(401);
    expect((await second.get('/api/ativo')).status).toBe(401);
    expect(await canLogin(u.login, 'redefinida-123')).toBe(true);
    // An edit without senha ends nothing.
    const again = await ts.login(u.login, 'redefinida-123');
    expect((await admin.put(`/api/usuario/${u.id}`, { ...form, nome: 'Só o nome' })).status).toBe(200);
    expect((await again.get('/api/ativo')).status).toBe(200);
  });

  it('/auth/changepwd ends every session of the user, the current one too, and their sockets', async () => {
    const u = await user([A], ASSETS);
    const other = await ts.login(u.login, 'senha-teste-123');
    const s = open(other.token);
    await connected(s);
    const push = ended(s);
    const res = await u.api.post('/api/auth/changepwd', { senhaAtual: 'senha-teste-123', novaSenha: 'trocada-12345' });
    expect(res.status).toBe(200);
    expect((await push).motivo).toBe('senha');
    await disconnected(s);
    expect((await u.api.get('/api/ativo')).status).toBe(401);
    expect((await other.get('/api/ativo')).status).toBe(401);
    const active = await ts.em().getConnection().execute('select count(*)::int as n from sessao where usuario = ? and ativa', [u.id]);
    expect(active[0].n).toBe(0);
  });
});

describe('look-alike logins', () => {
  it('a login in another letter case is refused (API 409, database constraint) and sign-in finds the one account', async () => {
    const u = await user([A], ASSETS);
    const res = await admin.post('/api/usuario', { nome: 'Sombra', login: u.login.toUpperCase(), senha: 'senha-sombra-123', empresas: [A] });
    expect(res.status).toBe(409);
    expect((await res.json()).msg).toBe('Já existe um registro com o valor informado em Login');
    await expect(ts.createUser({ login: u.login.replace('b.', 'B.'), senha: 'senha-sombra-123', ambienteId: amb, empresas: [A] })).rejects.toThrow(/usuario_login_lower_unique/);
    const signed = await ts.login(u.login.toUpperCase(), 'senha-teste-123');
    expect(signed.user.id).toBe(u.id);
  });
});

describe('password-reset link', () => {
  it('without PUBLIC_URL the link is not sent (503, pt-BR), whatever the Host header says', async () => {
    const res = await ts.fetch('/api/auth/recover', { method: 'POST', headers: { 'content-type': 'application/json', host: 'atacante.example' }, body: JSON.stringify({ login: ADMIN.login }) });
    expect(res.status).toBe(503);
    expect((await res.json()).msg).toBe('Recuperação de senha indisponível: o endereço público do sistema (PUBLIC_URL) não está configurado. Procure o administrador do sistema.');
    const tokens = await ts.em().getConnection().execute('select count(*)::int as n from recuperacao_senha');
    expect(tokens[0].n).toBe(0);
  });
});

describe('rate limit', () => {
  it('a login refused by the rate limit is recorded in historico_de_login', async () => {
    const u = await user([A], ASSETS);
    const attempt = (senha: string) => ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: u.login, senha }) });
    expect((await attempt('errada-1')).status).toBe(401);
    expect((await attempt('errada-2')).status).toBe(401);
    const limited = await attempt('senha-teste-123');
    expect(limited.status).toBe(429);
    const rows = (await ts.em().getConnection().execute('select sucesso, usuario from historico_de_login where nome = ? and not sucesso order by id', [u.login])) as { usuario: number; sucesso: boolean }[];
    expect(rows).toEqual([1, 2, 3].map(() => ({ usuario: u.id, sucesso: false })));
  });
});

describe('standard clients (section 5)', () => {
  it("react-admin's own ra-data-simple-rest, unmodified, creates, updates and deletes with the bearer token alone", async () => {
    const httpClient = (url: string, options: fetchUtils.Options = {}) =>
      fetchUtils.fetchJson(url, { ...options, user: { authenticated: true, token: `Bearer ${admin.token}` } });
    const dp = simpleRestProvider(`${base}/api`, httpClient);
    const created = await dp.create('ativo', { data: { descricao: 'Via ra-data-simple-rest', placa: 'RAS1D23' } });
    expect(created.data.id).toBeGreaterThan(0);
    expect((await row('ativo', Number(created.data.id))).empresa_id).toBe(A);
    const upd = await dp.update('ativo', { id: created.data.id, data: { ...created.data, descricao: 'Alterado' }, previousData: created.data });
    expect(upd.data.descricao).toBe('Alterado');
    const list = await dp.getList('ativo', { pagination: { page: 1, perPage: 5 }, sort: { field: 'descricao', order: 'ASC' }, filter: { q: 'Alterado' } });
    expect(list.data.map((r) => r.id)).toEqual([created.data.id]);
    await dp.delete('ativo', { id: created.data.id, previousData: upd.data });
    expect(await row('ativo', Number(created.data.id))).toBeUndefined();
  });

  it('a companyId header naming another company is still refused with the clear message', async () => {
    const res = await admin.post('/api/ativo', { descricao: 'x', placa: 'ABC1234' }, { companyId: String(B) });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('A empresa da requisição (companyId) não corresponde à empresa ativa da sessão');
  });
});

describe('tracker serial', () => {
  it('company A cannot register the serial of company B\'s tracker (unique on the platform)', async () => {
    await ts.insert('equipamento', { empresaId: B, serial: '865585040012345', tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
    const res = await admin.post('/api/equipamento', { serial: '865585040012345', tecnologia: 'queclink', modelo: 'gv58cg' });
    expect(res.status).toBe(409);
    const count = await ts.em().getConnection().execute('select count(*)::int as n from equipamento where serial = ?', ['865585040012345']);
    expect(count[0].n).toBe(1);
    await expect(ts.insert('equipamento', { empresaId: A, serial: '865585040012345', tecnologia: 'queclink', modelo: 'gv58cg', ativado: true })).rejects.toThrow(/equipamento_serial_unique/);
  });
});
