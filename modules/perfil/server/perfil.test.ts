// /perfil (screen self: every signed-in user) over real HTTP: GET/PUT /api/usuario/perfil change only the caller's
// nome and e-mail, validated with the usuario rules and recorded in the history.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let eu: Api;
let euId: number, outroId: number;

beforeAll(async () => {
  ts = await startTestServer();
  const [e] = (await ts.em().getConnection().execute('select id, ambiente_id from empresa order by id limit 1')) as { id: number; ambiente_id: number }[];
  euId = await ts.createUser({ login: 'perfil.eu', ambienteId: e.ambiente_id, empresas: [e.id], permissoes: [] });
  outroId = await ts.createUser({ login: 'perfil.outro', ambienteId: e.ambiente_id, empresas: [e.id], permissoes: [] });
  eu = await ts.login('perfil.eu', 'senha-teste-123');
});
afterAll(async () => { await ts?.stop(); });

const nomes = async () => Object.fromEntries(((await ts.em().getConnection().execute('select id, nome, email from usuario where id in (?, ?)', [euId, outroId])) as { id: number; nome: string; email: string }[]).map((r) => [r.id, [r.nome, r.email]]));

it('opens for a user without any key and changes only their own nome and e-mail', async () => {
  const got = await eu.get('/api/usuario/perfil');
  expect(got.status).toBe(200);
  expect((await json(got)).payload).toEqual({ login: 'perfil.eu', nome: 'perfil.eu', email: 'perfil.eu@teste.local' });
  const put = await eu.put('/api/usuario/perfil', { nome: 'Eu Mesmo', email: 'eu@exemplo.com.br' });
  expect(put.status).toBe(200);
  expect((await json(put)).payload).toEqual({ login: 'perfil.eu', nome: 'Eu Mesmo', email: 'eu@exemplo.com.br' });
  expect(await nomes()).toEqual({ [euId]: ['Eu Mesmo', 'eu@exemplo.com.br'], [outroId]: ['perfil.outro', 'perfil.outro@teste.local'] });
  const [h] = await ts.em().getConnection().execute(`select operacao, alteracoes from historico_alteracao where entidade = 'usuario' and registro_id = ? order by id desc limit 1`, [euId]);
  expect(h.operacao).toBe('perfil');
  expect(h.alteracoes.nome).toEqual({ antes: 'perfil.eu', depois: 'Eu Mesmo' });
});

it('refuses invalid values and other fields (400, pt-BR), writing nothing', async () => {
  const before = await nomes();
  const semNome = await eu.put('/api/usuario/perfil', { nome: '  ', email: 'x@exemplo.com.br' });
  expect(semNome.status).toBe(400);
  expect((await json(semNome)).msg).toBe('O campo Nome é obrigatório');
  const email = await eu.put('/api/usuario/perfil', { nome: 'Outro', email: 'nao-e-email' });
  expect(email.status).toBe(400);
  expect((await json(email)).msg).toMatch(/E-mail/);
  expect((await eu.put('/api/usuario/perfil', { nome: 'Outro', login: 'admin' })).status).toBe(400);
  expect(await nomes()).toEqual(before);
  expect((await ts.fetch('/api/usuario/perfil')).status).toBe(401);
});
