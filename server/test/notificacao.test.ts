// Notificações (metadata owner: usuario) over real HTTP: each user lists, reads and marks read only their own
// notifications, even another holder of the same keys in the same company.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from './harness.ts';

let ts: TestServer;
let ana: Api, bia: Api;
let anaId: number, biaId: number, A: number;
const KEYS = ['adm.sis.notificacao.lista', 'adm.sis.notificacao.visualizar', 'adm.sis.notificacao.editar', 'adm.sis.notificacao.excluir', 'adm.sis.notificacao.adicionar', 'adm.sis.notificacao.marca_lido'];

async function notify(usuario: number, texto: string): Promise<number> {
  const row = await ts.insert('notificacao', { empresaId: A, usuario, dataNotificacao: new Date(), notificacao: texto, tipo: 'alerta', lido: false, payload: { ativo: 1 } });
  return Number(row.id);
}

beforeAll(async () => {
  ts = await startTestServer();
  const [e] = (await ts.em().getConnection().execute('select id, ambiente_id from empresa order by id limit 1')) as { id: number; ambiente_id: number }[];
  A = e.id;
  anaId = await ts.createUser({ login: 'ana.notif', ambienteId: e.ambiente_id, empresas: [A], permissoes: KEYS });
  biaId = await ts.createUser({ login: 'bia.notif', ambienteId: e.ambiente_id, empresas: [A], permissoes: KEYS });
  ana = await ts.login('ana.notif', 'senha-teste-123');
  bia = await ts.login('bia.notif', 'senha-teste-123');
});
afterAll(async () => { await ts?.stop(); });

it("lists, reads and marks read only the user's own notifications", async () => {
  const daAna = await notify(anaId, 'Cerca violada');
  const daBia = await notify(biaId, 'Velocidade excedida');
  const list = (await json(await ana.get('/api/notificacao'))) as { id: number; notificacao: string; usuario: number }[];
  expect(list.map((r) => r.notificacao)).toEqual(['Cerca violada']);
  expect(list[0].usuario).toBe(anaId);
  expect((await ana.get(`/api/notificacao/${daBia}`)).status).toBe(404);
  expect((await ana.post(`/api/notificacao/${daBia}/marca_lido`)).status).toBe(404);
  expect((await ana.put(`/api/notificacao/${daBia}`, { lido: true })).status).toBe(404);
  expect((await ana.del(`/api/notificacao/${daBia}`)).status).toBe(404);
  const marked = await ana.post(`/api/notificacao/${daAna}/marca_lido`);
  expect(marked.status).toBe(200);
  expect((await json(marked)).lido).toBe(true);
  // marking again is refused (already read)
  expect((await ana.post(`/api/notificacao/${daAna}/marca_lido`)).status).toBe(409);
  const rows = await ts.em().getConnection().execute('select id, lido from notificacao order by id');
  expect(rows).toEqual([{ id: daAna, lido: true }, { id: daBia, lido: false }]);
  expect(((await json(await bia.get('/api/notificacao'))) as { id: number }[]).map((r) => r.id)).toEqual([daBia]);
});

it("a notification created through the API is the caller's, whatever the body says", async () => {
  const res = await ana.post('/api/notificacao', { dataNotificacao: new Date().toISOString(), notificacao: 'Lembrete', usuario: biaId });
  expect(res.status).toBe(201);
  const row = await json(res);
  expect(row.usuario).toBe(anaId);
  expect((await bia.get(`/api/notificacao/${row.id}`)).status).toBe(404);
});
