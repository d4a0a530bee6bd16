// Ambientes over real HTTP (spec section 7: /adm/ambiente/corrente, lista, seleciona/{id}; /auth/ambiente/{id}/select):
// the session's ambiente is its active company's; a user enters the active ambientes of his companies, a platform
// holder every active one; entering switches to the user's first company there and the company boundary holds.
// Also /modulo/lista/{idAplicacao} and /menu/lista/{idAplicacao}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, C: number, E: number, amb: number, amb2: number, amb3: number, ambVazio: number;
const cIds: number[] = [];

const ATIVO = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.adicionar', 'tlm.fro.ativo.editar'];
const senha = 'senha-ambiente-1';
const sql = async (text: string, params: unknown[] = []) => (await ts.em().getConnection().execute(text, params)) as any[];
const ativosDe = async (empresa: number) => (await sql('select id from ativo where empresa_id = ? order by id', [empresa])).map((r) => Number(r.id));
/** The list the session sees (all of it), as ids. */
const listed = async (api: Api) => {
  const r = await api.get('/api/ativo?range=[0,9999]');
  expect(r.status).toBe(200);
  return ((await r.json()) as { id: number; empresaId: number }[]);
};
const user = async (login: string, empresas: number[], permissoes: string[], ambienteId = amb) => {
  await ts.createUser({ login, senha, ambienteId, empresas, permissoes });
  return ts.login(login, senha);
};
/** POST that switches ambiente; answers [status, body]. */
const enter = async (api: Api, path: string): Promise<[number, any]> => {
  const r = await ts.fetch(path, { method: 'POST', headers: api.headers({ 'content-type': 'application/json' }), body: '{}' });
  return [r.status, await json(r)];
};
const payload = async (api: Api, path: string) => (await json(await api.get(path))).payload;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  A = admin.user.empresas[0].id;
  expect(admin.user.empresas).toHaveLength(2);
  amb = admin.user.ambienteId;
  amb2 = Number((await ts.insert('ambiente', { descricao: 'Ambiente Dois', ativo: true })).id);
  amb3 = Number((await ts.insert('ambiente', { descricao: 'Ambiente Inativo', ativo: false })).id);
  ambVazio = Number((await ts.insert('ambiente', { descricao: 'Ambiente Vazio', ativo: true })).id);
  C = Number((await ts.insert('empresa', { ambienteId: amb2, fantasia: 'Empresa C', status: 'ativa' })).id);
  E = Number((await ts.insert('empresa', { ambienteId: amb3, fantasia: 'Empresa E', status: 'ativa' })).id);
  for (const [d, p] of [['Ativo C1', 'AMB1C11'], ['Ativo C2', 'AMB1C22']]) cIds.push(Number((await ts.insert('ativo', { empresaId: C, descricao: d, placa: p })).id));
  expect((await ativosDe(A)).length).toBeGreaterThan(0);
});
afterAll(async () => { await ts?.stop(); });

describe('a user of two ambientes', () => {
  let multi: Api;
  beforeAll(async () => { multi = await user('amb.multi', [A, C, E], ATIVO); });

  it('signs in to the ambiente of his active company; the app bar holds only that ambiente\'s companies', async () => {
    expect([multi.user.empresaAtiva, multi.user.ambienteId]).toEqual([A, amb]);
    expect(multi.user.empresas.map((e: { id: number }) => e.id)).toEqual([A]);
    expect(await payload(multi, '/api/adm/ambiente/corrente')).toEqual({ id: amb, descricao: 'Principal', atual: true });
    // Inactive ambiente (amb3, his company E) left out; sorted by description.
    expect(await payload(multi, '/api/adm/ambiente/lista')).toEqual([
      { id: amb2, descricao: 'Ambiente Dois', atual: false },
      { id: amb, descricao: 'Principal', atual: true },
    ]);
  });

  it('switches to the second ambiente, then sees only its rows and cannot write into the first', async () => {
    const [status, body] = await enter(multi, `/api/adm/ambiente/seleciona/${amb2}`);
    expect(status).toBe(200);
    expect(body.msg).toBe('Ambiente alterado');
    expect([body.payload.user.empresaAtiva, body.payload.user.ambienteId]).toEqual([C, amb2]);
    expect(body.payload.user.empresas.map((e: { id: number }) => e.id)).toEqual([C]);
    expect(body.payload.user.permissoes).toEqual([...ATIVO].sort());
    const inC = ts.as(multi.token, C);
    expect(await payload(inC, '/api/adm/ambiente/corrente')).toMatchObject({ id: amb2, descricao: 'Ambiente Dois' });
    expect((await payload(inC, '/api/auth/get_session')).user).toMatchObject({ empresaAtiva: C, ambienteId: amb2, empresas: [{ id: C, fantasia: 'Empresa C' }] });
    expect((await payload(inC, '/api/adm/ambiente/lista')).map((a: any) => [a.id, a.atual])).toEqual([[amb2, true], [amb, false]]);
    const rows = await listed(inC);
    expect(rows.map((r) => r.id).sort()).toEqual([...cIds].sort());
    expect(rows.every((r) => r.empresaId === C)).toBe(true);
    // The first ambiente: no row read or written.
    const aRow = (await ativosDe(A))[0];
    expect((await inC.get(`/api/ativo/${aRow}`)).status).toBe(404);
    const before = await ativosDe(A);
    const intoA = await ts.fetch('/api/ativo', { method: 'POST', headers: multi.headers({ 'content-type': 'application/json', companyId: String(A) }), body: JSON.stringify({ descricao: 'Intruso', placa: 'AMB9X99' }) });
    expect(intoA.status).toBe(403);
    expect((await intoA.json()).msg).toBe('A empresa da requisição (companyId) não corresponde à empresa ativa da sessão');
    expect((await inC.put(`/api/ativo/${aRow}`, { descricao: 'Alterado de fora', placa: 'AMB9X98' })).status).toBe(404);
    expect(await ativosDe(A)).toEqual(before);
    expect((await sql('select descricao from ativo where id = ?', [aRow]))[0].descricao).not.toBe('Alterado de fora');
    // A write of the session lands in the second ambiente's company.
    const created = await inC.post('/api/ativo', { descricao: 'Novo em C', placa: 'AMB2C33' });
    expect(created.status).toBe(201);
    const id = (await created.json()).id;
    expect((await sql('select empresa_id from ativo where id = ?', [id]))[0].empresa_id).toBe(C);
    cIds.push(id);
    // The session row follows the ambiente.
    expect((await sql('select empresa_ativa, ambiente_id from sessao where id = ?', [multi.user.sessaoId]))[0]).toEqual({ empresa_ativa: C, ambiente_id: amb2 });
  });

  it('goes back through /api/auth/ambiente/{ambiente}/select to his first company there', async () => {
    const inC = ts.as(multi.token, C);
    const [status, body] = await enter(inC, `/api/auth/ambiente/${amb}/select`);
    expect(status).toBe(200);
    expect([body.payload.user.empresaAtiva, body.payload.user.ambienteId]).toEqual([A, amb]);
    const rows = await listed(multi);
    expect(rows.map((r) => r.id).sort((x, y) => x - y)).toEqual(await ativosDe(A));
    expect(rows.some((r) => cIds.includes(r.id))).toBe(false);
  });

  it('cannot enter an inactive ambiente, even with a company there', async () => {
    const [status, body] = await enter(multi, `/api/adm/ambiente/seleciona/${amb3}`);
    expect([status, body.msg]).toEqual([403, 'Este ambiente está desativado e não pode ser acessado']);
    expect((await payload(multi, '/api/adm/ambiente/corrente')).id).toBe(amb);
    // Nor through the company switch.
    const sw = await enter(multi, `/api/auth/empresa/${E}`);
    expect(sw[0]).toBe(403);
    expect((await payload(multi, '/api/auth/get_session')).user.empresaAtiva).toBe(A);
  });
});

describe('refusals', () => {
  it('a user of one ambiente is refused another (403), a missing one is 404, the session stays', async () => {
    const single = await user('amb.single', [A], ATIVO);
    expect(await payload(single, '/api/adm/ambiente/lista')).toEqual([{ id: amb, descricao: 'Principal', atual: true }]);
    for (const path of [`/api/adm/ambiente/seleciona/${amb2}`, `/api/auth/ambiente/${amb2}/select`]) {
      const [status, body] = await enter(single, path);
      expect([status, body.msg]).toEqual([403, 'Você não tem acesso a este ambiente']);
    }
    for (const bad of ['999999', 'abc', '0']) {
      const [status, body] = await enter(single, `/api/adm/ambiente/seleciona/${bad}`);
      expect([status, body.msg]).toEqual([404, 'Ambiente não encontrado']);
    }
    expect((await payload(single, '/api/auth/get_session')).user).toMatchObject({ empresaAtiva: A, ambienteId: amb });
    expect((await listed(single)).every((r) => r.empresaId === A)).toBe(true);
  });

  it("another company's user (of the second ambiente) is refused the first and sees only his rows", async () => {
    const soC = await user('amb.soc', [C], ATIVO, amb2);
    expect([soC.user.empresaAtiva, soC.user.ambienteId]).toEqual([C, amb2]);
    expect(await payload(soC, '/api/adm/ambiente/lista')).toEqual([{ id: amb2, descricao: 'Ambiente Dois', atual: true }]);
    const [status] = await enter(soC, `/api/adm/ambiente/seleciona/${amb}`);
    expect(status).toBe(403);
    expect((await listed(soC)).map((r) => r.id).sort()).toEqual([...cIds].sort());
    // The company switch into the other ambiente is refused too.
    expect((await enter(soC, `/api/auth/empresa/${A}`))[0]).toBe(403);
  });

  it('answers 401 without a session', async () => {
    for (const [m, p] of [['GET', '/api/adm/ambiente/corrente'], ['GET', '/api/adm/ambiente/lista'], ['POST', `/api/adm/ambiente/seleciona/${amb}`], ['POST', `/api/auth/ambiente/${amb}/select`]]) {
      expect((await ts.fetch(p, { method: m })).status, p).toBe(401);
    }
  });
});

describe('the platform holder', () => {
  it('enters any active ambiente (its first active company when he has none there), never an inactive one', async () => {
    const plat = await user('amb.plataforma', [A], ['adm.sis.plataforma', 'tlm.fro.ativo.lista']);
    const lista = await payload(plat, '/api/adm/ambiente/lista');
    expect(lista.map((a: any) => a.descricao)).toEqual(['Ambiente Dois', 'Ambiente Vazio', 'Principal']);
    const [status, body] = await enter(plat, `/api/adm/ambiente/seleciona/${amb2}`);
    expect(status).toBe(200);
    expect([body.payload.user.empresaAtiva, body.payload.user.ambienteId]).toEqual([C, amb2]);
    expect(body.payload.user.empresas.map((e: { id: number }) => e.id)).toEqual([C]);
    const inC = ts.as(plat.token, C);
    // The session survives a fresh lookup (not only the cache) and reads the company it entered.
    expect((await payload(inC, '/api/auth/get_session')).user).toMatchObject({ empresaAtiva: C, ambienteId: amb2 });
    expect((await listed(inC)).map((r) => r.id).sort()).toEqual([...cIds].sort());
    // His own preferred company is not moved to a company that is not his.
    expect((await sql('select empresa_ativa from usuario where login = ?', ['amb.plataforma']))[0].empresa_ativa).toBe(A);
    expect(await enter(inC, `/api/adm/ambiente/seleciona/${amb3}`).then(([s, b]) => [s, b.msg])).toEqual([403, 'Este ambiente está desativado e não pode ser acessado']);
    expect(await enter(inC, `/api/adm/ambiente/seleciona/${ambVazio}`).then(([s, b]) => [s, b.msg])).toEqual([403, 'Não há empresa ativa neste ambiente para você acessar']);
    expect((await payload(inC, '/api/adm/ambiente/corrente')).id).toBe(amb2);
    const back = await enter(inC, `/api/auth/ambiente/${amb}/select`);
    expect([back[0], back[1].payload.user.empresaAtiva]).toEqual([200, A]);
  });

  it('without the key, the same keys otherwise, lists only his own ambiente', async () => {
    const plain = await user('amb.semchave', [A], ['tlm.fro.ativo.lista']);
    expect((await payload(plain, '/api/adm/ambiente/lista')).map((a: any) => a.id)).toEqual([amb]);
  });
});

describe('an ambiente deactivated', () => {
  it('ends the sessions in it and refuses sign-in there', async () => {
    const amb5 = Number((await ts.insert('ambiente', { descricao: 'Ambiente Cinco', ativo: true })).id);
    const F = Number((await ts.insert('empresa', { ambienteId: amb5, fantasia: 'Empresa F', status: 'ativa' })).id);
    const f = await user('amb.f', [F], ATIVO, amb5);
    expect((await f.get('/api/ativo')).status).toBe(200);
    const r = await admin.put(`/api/ambiente/${amb5}`, { descricao: 'Ambiente Cinco', ativo: false });
    expect(r.status).toBe(200);
    expect((await f.get('/api/ativo')).status).toBe(401);
    const again = await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'amb.f', senha }) });
    expect(again.status).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the ambiente, module and menu calls for every signed-in user', async () => {
    const leitor = await ts.login(LEITOR.login, LEITOR.senha);
    for (const api of [admin, leitor]) {
      const doc = await json(await api.get('/api/openapi.json'));
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
        '/api/adm/ambiente/corrente', '/api/adm/ambiente/lista', '/api/adm/ambiente/seleciona/{id}', '/api/auth/ambiente/{ambiente}/select',
        '/api/modulo/lista/{idAplicacao}', '/api/menu/lista/{idAplicacao}',
      ]));
      expect(doc.paths['/api/adm/ambiente/seleciona/{id}'].post['x-self']).toBe(true);
    }
  });
});

describe('modules and menus of an application', () => {
  it('lists the active modules in order and the menu items the caller may open', async () => {
    const app = Number((await ts.insert('aplicacao', { descricao: 'Aplicação teste', sigla: 'APT', ativo: true })).id);
    const off = Number((await ts.insert('aplicacao', { descricao: 'Aplicação desligada', sigla: 'APD', ativo: false })).id);
    const m2 = Number((await ts.insert('modulo', { descricao: 'Módulo B', sigla: 'MB', aplicacao: app, ordem: 2, ativo: true })).id);
    const m1 = Number((await ts.insert('modulo', { descricao: 'Módulo A', sigla: 'MA', aplicacao: app, ordem: 1, ativo: true })).id);
    await ts.insert('modulo', { descricao: 'Módulo inativo', sigla: 'MI', aplicacao: app, ordem: 0, ativo: false });
    const pAtivo = Number((await ts.insert('programa', { descricao: 'Ativos', rota: '/tlm/fro/ativo_teste', modulo: m1, permissoes: ['tlm.fro.ativo.lista'], ordem: 0 })).id);
    const pUsu = Number((await ts.insert('programa', { descricao: 'Usuários', rota: '/adm/sis/usuario_teste', modulo: m2, permissoes: ['adm.sis.usuario.lista'], ordem: 0 })).id);
    const frota = Number((await ts.insert('menu', { descricao: 'Frota', aplicacao: app, ordem: 1 })).id);
    const adm = Number((await ts.insert('menu', { descricao: 'Administração', aplicacao: app, ordem: 2 })).id);
    const iAtivo = Number((await ts.insert('menu', { descricao: 'Ativos', aplicacao: app, menuSuperior: frota, programa: pAtivo, icone: 'LocalShipping', ordem: 1 })).id);
    await ts.insert('menu', { descricao: 'Usuários', aplicacao: app, menuSuperior: adm, programa: pUsu, ordem: 1 });
    const leitor = await user('amb.menu', [A], ['tlm.fro.ativo.lista']);
    expect((await payload(leitor, `/api/modulo/lista/${app}`)).map((m: any) => [m.id, m.descricao])).toEqual([[m1, 'Módulo A'], [m2, 'Módulo B']]);
    // This user may open Ativos, not Usuários: the Administração section is dropped with its only item.
    expect(await payload(leitor, `/api/menu/lista/${app}`)).toEqual([
      { id: frota, descricao: 'Frota', icone: null, ordem: 1, rota: null, children: [{ id: iAtivo, descricao: 'Ativos', icone: 'LocalShipping', ordem: 1, rota: '/tlm/fro/ativo_teste', children: [] }] },
    ]);
    expect((await payload(admin, `/api/menu/lista/${app}`)).map((m: any) => m.descricao)).toEqual(['Frota', 'Administração']);
    for (const p of [`/api/modulo/lista/${off}`, '/api/modulo/lista/999999', `/api/menu/lista/${off}`, '/api/menu/lista/x']) {
      const r = await leitor.get(p);
      expect([r.status, (await r.json()).msg], p).toEqual([404, 'Aplicação não encontrada']);
    }
    expect((await ts.fetch(`/api/modulo/lista/${app}`)).status).toBe(401);
  });
});
