// Cross-field comparisons (metadata compare → x-compare) over HTTP: a create or an update that breaks one is 400 with
// the declared pt-BR message on the field; an update compares with the stored value of the field it does not send;
// null on either side is no check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;

/** The field errors of a refused body. */
const refusal = async (res: Response) => {
  expect(res.status).toBe(400);
  const body = await res.json();
  for (const e of body.payload) expect(body.msg).toContain(e.message);
  return body.payload.map((e: { field: string; message: string }) => [e.field, e.message]);
};

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await ts?.stop(); });

describe('compare', () => {
  it('servico: maximo below minimo is refused on create and update, with the message on maximo', async () => {
    expect(await refusal(await admin.post('/api/servico', { descricao: 'Troca de óleo', minimo: 9000, maximo: 8000 })))
      .toEqual([['maximo', 'O máximo deve ser maior ou igual ao mínimo']]);
    const created = await admin.post('/api/servico', { descricao: 'Troca de óleo', quilometragem: 10000, minimo: 9000, maximo: 9000 });
    expect(created.status).toBe(201);
    const row = await created.json();
    // an update sending only minimo is compared with the stored maximo
    expect(await refusal(await admin.put(`/api/servico/${row.id}`, { minimo: 9500 }))).toEqual([['maximo', 'O máximo deve ser maior ou igual ao mínimo']]);
    expect(await refusal(await admin.put(`/api/servico/${row.id}`, { ...row, maximo: 100 }))).toEqual([['maximo', 'O máximo deve ser maior ou igual ao mínimo']]);
    const db = await ts.em().getConnection().execute(`SELECT minimo, maximo FROM servico WHERE id = ${row.id}`);
    expect(db.map((r: any) => [Number(r.minimo), Number(r.maximo)])).toEqual([[9000, 9000]]);
    // null on either side: no check
    const cleared = await admin.put(`/api/servico/${row.id}`, { minimo: 12000, maximo: null });
    expect(cleared.status).toBe(200);
    expect([(await cleared.json()).minimo, (await admin.get(`/api/servico/${row.id}`).then((r) => r.json())).maximo]).toEqual([12000, null]);
  });

  it('notificacao_sistema: fim must be after inicio, instants compared whatever their offset', async () => {
    const base = { titulo: 'Manutenção programada', mensagem: 'O sistema ficará indisponível.' };
    expect(await refusal(await admin.post('/api/notificacao_sistema', { ...base, inicio: '2026-05-01T10:00:00.000Z', fim: '2026-05-01T07:00:00-03:00' })))
      .toEqual([['fim', 'O fim deve ser posterior ao início']]);
    const ok = await admin.post('/api/notificacao_sistema', { ...base, inicio: '2026-05-01T10:00:00.000Z', fim: '2026-05-01T08:00:00-03:00' });
    expect(ok.status).toBe(201);
    const row = await ok.json();
    expect(await refusal(await admin.put(`/api/notificacao_sistema/${row.id}`, { inicio: '2026-05-02T00:00:00.000Z' })))
      .toEqual([['fim', 'O fim deve ser posterior ao início']]);
    expect((await admin.put(`/api/notificacao_sistema/${row.id}`, { fim: null })).status).toBe(200);
  });

  it('usuario: the active company must be among the companies (contains), on create and on an update of either field', async () => {
    const empresas = ((await (await admin.get('/api/auth/get_session')).json()).payload.user.empresas as { id: number }[]).map((e) => e.id);
    expect(empresas.length).toBeGreaterThanOrEqual(2);
    const [a, b] = empresas;
    const msg = 'A empresa ativa deve estar entre as empresas do usuário';
    const login = `contains_${Date.now()}`;
    expect(await refusal(await admin.post('/api/usuario', { nome: 'Contém', login, senha: 'senha-contains-1', empresas: [a], empresaAtiva: b }))).toEqual([['empresas', msg]]);
    const created = await admin.post('/api/usuario', { nome: 'Contém', login, senha: 'senha-contains-1', empresas: [a, b], empresaAtiva: b });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    // dropping the active company from the list, or choosing an active company outside it, is refused
    expect(await refusal(await admin.put(`/api/usuario/${id}`, { empresas: [a] }))).toEqual([['empresas', msg]]);
    expect(await refusal(await admin.put(`/api/usuario/${id}`, { empresas: [b], empresaAtiva: a }))).toEqual([['empresas', msg]]);
    const db = await ts.em().getConnection().execute(`SELECT empresa_ativa FROM usuario WHERE id = ${id}`);
    expect(db.map((r: any) => Number(r.empresa_ativa))).toEqual([b]);
    // moving the active company first, then dropping the old one, is accepted
    expect((await admin.put(`/api/usuario/${id}`, { empresaAtiva: a, empresas: [a] })).status).toBe(200);
    expect((await (await admin.get(`/api/usuario/${id}`)).json()).empresas).toEqual([a]);
  });
});

