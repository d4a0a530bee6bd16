// Privilege escalation guard: a non-wiki/dev user grants only keys they hold, assigns only roles whose
// keys they hold, and never edits their own grants. Nothing is written when refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let gestor: Api;
let gestorId: number;
let adminCargo: number;
let ambienteId: number;

const MINE = [
  'adm.sis.cargo.lista', 'adm.sis.cargo.visualizar', 'adm.sis.cargo.adicionar', 'adm.sis.cargo.editar',
  'adm.sis.permissoes.lista', 'adm.sis.permissoes.visualizar', 'adm.sis.permissoes.adicionar', 'adm.sis.permissoes.editar',
  'adm.sis.usuario.lista', 'adm.sis.usuario.visualizar', 'adm.sis.usuario.adicionar', 'adm.sis.usuario.editar',
  'tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar',
];
const NOT_MINE = 'tlm.fro.ativo.excluir';

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  ambienteId = admin.user.ambienteId;
  adminCargo = ts.seed!.ids!.cargo[0];
  gestorId = await ts.createUser({ login: 'gestor', senha: 'gestor-senha-1', ambienteId, empresas: [admin.empresaAtiva], permissoes: MINE });
  gestor = await ts.login('gestor', 'gestor-senha-1');
});
afterAll(async () => { await ts?.stop(); });

const count = async (table: string) => Number((await ts.em().getConnection().execute(`select count(*)::int as n from ${table}`))[0].n);
const expect403 = async (res: Promise<Response>, text: string) => {
  const r = await res;
  const body = await json(r);
  expect(r.status, JSON.stringify(body)).toBe(403);
  expect(body.msg).toContain(text);
  return body;
};

describe('cargo.permissoes and permissao.permissoes', () => {
  it('grants keys the caller holds; refuses others with the keys named, writing nothing', async () => {
    expect((await gestor.post('/api/cargo', { descricao: 'Consulta de ativos', permissoes: ['tlm.fro.ativo.lista'] })).status).toBe(201);
    const n = await count('cargo');
    const body = await expect403(gestor.post('/api/cargo', { descricao: 'Excluidor', permissoes: ['tlm.fro.ativo.lista', NOT_MINE] }),
      `Você não pode conceder permissões que não possui: ${NOT_MINE}`);
    expect(body.payload).toEqual({ permissoes: [NOT_MINE] });
    expect(await count('cargo')).toBe(n);

    expect((await gestor.post('/api/permissao', { descricao: 'Perfil leitura', permissoes: ['tlm.fro.ativo.visualizar'] })).status).toBe(201);
    await expect403(gestor.post('/api/permissao', { descricao: 'Perfil total', permissoes: [NOT_MINE] }), 'Você não pode conceder permissões que não possui');
  });

  it('on update, checks only the added keys (a role with more keys can be renamed, not widened)', async () => {
    const cargo = await (await admin.get(`/api/cargo/${adminCargo}`)).json();
    const renamed = await gestor.put(`/api/cargo/${adminCargo}`, { ...cargo, descricao: 'Administração geral' });
    expect(renamed.status).toBe(200);
    const own = await (await gestor.post('/api/cargo', { descricao: 'Frota leitura', permissoes: ['tlm.fro.ativo.lista'] })).json();
    await expect403(gestor.put(`/api/cargo/${own.id}`, { ...own, permissoes: [...own.permissoes, NOT_MINE] }), NOT_MINE);
    expect((await (await admin.get(`/api/cargo/${own.id}`)).json()).permissoes).toEqual(['tlm.fro.ativo.lista']);
    // Removing keys is not granting.
    expect((await gestor.put(`/api/cargo/${own.id}`, { ...own, permissoes: [] })).status).toBe(200);
  });
});

describe('usuario.permissoesExtras and usuario.cargos', () => {
  const novo = (login: string, extra: Record<string, unknown> = {}) => ({
    nome: login, login, email: `${login}@teste.local`, senha: 'senha-forte-123', empresas: [admin.empresaAtiva], empresaAtiva: admin.empresaAtiva, ...extra,
  });

  it('refuses extra keys and roles beyond the caller\'s own', async () => {
    const n = await count('usuario');
    await expect403(gestor.post('/api/usuario', novo('u.extra', { permissoesExtras: [NOT_MINE] })), `Você não pode conceder permissões que não possui: ${NOT_MINE}`);
    await expect403(gestor.post('/api/usuario', novo('u.cargo', { cargos: [adminCargo] })), 'Você não pode atribuir cargos com permissões que não possui');
    expect(await count('usuario')).toBe(n);
    const cargo = await (await gestor.post('/api/cargo', { descricao: 'Só lista', permissoes: ['tlm.fro.ativo.lista'] })).json();
    const ok = await gestor.post('/api/usuario', novo('u.ok', { cargos: [cargo.id], permissoesExtras: ['tlm.fro.ativo.visualizar'] }));
    expect(ok.status, JSON.stringify(await ok.clone().json())).toBe(201);
    const u = await ok.json();
    await expect403(gestor.put(`/api/usuario/${u.id}`, { ...u, cargos: [cargo.id, adminCargo] }), 'Você não pode atribuir cargos');
    expect((await gestor.put(`/api/usuario/${u.id}`, { ...u, nome: 'Outro nome' })).status).toBe(200);
  });

  it('nobody but wiki/dev edits their own cargos or permissoesExtras', async () => {
    const me = await (await gestor.get(`/api/usuario/${gestorId}`)).json();
    await expect403(gestor.put(`/api/usuario/${gestorId}`, { ...me, permissoesExtras: MINE.slice(0, 3) }), 'Você não pode alterar permissões extras do seu próprio usuário');
    const cargo = await (await gestor.post('/api/cargo', { descricao: 'Meu cargo', permissoes: ['tlm.fro.ativo.lista'] })).json();
    await expect403(gestor.put(`/api/usuario/${gestorId}`, { ...me, cargos: [cargo.id] }), 'Você não pode alterar cargos do seu próprio usuário');
    // Other fields of their own row remain editable (the whole record is sent back unchanged).
    expect((await gestor.put(`/api/usuario/${gestorId}`, { ...me, nome: 'Gestor da frota' })).status).toBe(200);
    // wiki/dev may: the admin (dev) edits their own grants.
    const a = await (await admin.get(`/api/usuario/${admin.user.id}`)).json();
    expect((await admin.put(`/api/usuario/${admin.user.id}`, { ...a, permissoesExtras: [NOT_MINE] })).status).toBe(200);
    // And grants anything to others.
    expect((await admin.put(`/api/usuario/${gestorId}`, { ...me, cargos: [adminCargo] })).status).toBe(200);
  });
});

describe('users with a special role', () => {
  it('are changed only by wiki/dev (no password reset or deactivation of the admin)', async () => {
    // By now the gestor holds the admin role (every key), still not a special role.
    expect((await json(await gestor.get('/api/usuario/permissoes'))).payload).toContain('adm.sis.usuario.desativa');
    // A wiki user of the gestor's only company (the seeded admin also belongs to company B: out of reach, 404).
    const wikiId = await ts.createUser({ login: 'wiki.a', senha: 'wiki-senha-123', ambienteId, empresas: [admin.empresaAtiva], roles: ['wiki'] });
    const a = await (await gestor.get(`/api/usuario/${wikiId}`)).json();
    await expect403(gestor.put(`/api/usuario/${wikiId}`, { ...a, senha: 'tomada-de-conta-1' }), 'Somente perfis especiais (wiki, dev) podem alterar um usuário com perfil especial');
    await expect403(gestor.post(`/api/usuario/${wikiId}/desativa`), 'Somente perfis especiais');
    expect((await ts.login('wiki.a', 'wiki-senha-123')).token).toBeTruthy();
    expect((await gestor.put(`/api/usuario/${admin.user.id}`, { senha: 'tomada-de-conta-1' })).status).toBe(404);
    expect((await gestor.post(`/api/usuario/${admin.user.id}/desativa`)).status).toBe(404);
    expect((await ts.login(ADMIN.login, ADMIN.senha)).token).toBeTruthy();
  });
});
