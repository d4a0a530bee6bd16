// Handler actions over HTTP: ativo.bloqueia_motor queues engineBlock in fila_processamento for the device linked to
// the asset now, in the caller's active company; refused without the key, for another company's asset, without a
// linked device, and with a body outside the payload schema.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, holder: Api, noKey: Api;
let A: number, B: number;
let ligado: number, semVinculo: number, alheio: number;

const fila = async () => (await pool.query('SELECT serial, event, status, empresa_id FROM fila_processamento ORDER BY id')).rows;

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  expect(admin.empresaAtiva).toBe(A);
  ligado = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão bloqueável', placa: 'BLQ1A23' }))).id;
  semVinculo = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão sem equipamento', placa: 'BLQ2B34' }))).id;
  const link = (ativoId: number, serial: string, dataInicio: string, dataFim?: string) =>
    admin.post('/api/equipamento_ativo', { serial, ativoId, dataInicio, ...(dataFim ? { dataFim } : {}) });
  // A link takes only a device of the company (equipamento).
  for (const serial of ['865100000000001', '865100000000009']) {
    expect((await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).status).toBe(201);
  }
  expect((await link(ligado, '865100000000001', '2024-01-01T00:00:00Z')).status).toBe(201);
  expect((await link(ligado, '865100000000009', '2023-01-01T00:00:00Z', '2023-06-01T00:00:00Z')).status).toBe(201); // ended
  // Company B's asset, linked to its own device.
  alheio = Number((await ts.insert('ativo', { empresaId: B, descricao: 'Ativo de B', placa: 'OUT1A23' })).id);
  await ts.insert('equipamento_ativo', { empresaId: B, serial: '866100000000001', ativoId: alheio, dataInicio: new Date('2024-01-01') });
  const ambienteId = admin.user.ambienteId;
  await ts.createUser({ login: 'bloqueador', ambienteId, empresas: [A, B], permissoes: ['tlm.fro.ativo.visualizar', 'tlm.fro.ativo.bloqueia_motor'] });
  await ts.createUser({ login: 'semchave', ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.editar'] });
  holder = await ts.login('bloqueador', 'senha-teste-123');
  noKey = await ts.login('semchave', 'senha-teste-123');
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('ativo.bloqueia_motor (handler action)', () => {
  it('is declared in the model with its key, bulk, and a confirm text', () => {
    const a = ts.model.entities.find((e) => e.key === 'ativo')!.actions.find((x) => x.name === 'bloqueia_motor')!;
    expect(a).toMatchObject({ handler: 'bloqueia_motor', permission: 'tlm.fro.ativo.bloqueia_motor', bulk: true });
    expect(a.confirm).toMatch(/bloquear o motor/);
  });

  it('queues engineBlock for the device linked now, in the active company, and answers the queued row', async () => {
    const res = await holder.post(`/api/ativo/${ligado}/bloqueia_motor`);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ serial: '865100000000001', event: 'engineBlock', status: 'pendente', processing: false, empresaId: A });
    expect(typeof body[0].id).toBe('number');
    expect(await fila()).toEqual([{ serial: '865100000000001', event: 'engineBlock', status: 'pendente', empresa_id: A }]);
    // The queue shows it to the company (its list route).
    const list = await json(await admin.get(`/api/fila_processamento?${new URLSearchParams({ filter: JSON.stringify({ serial: '865100000000001' }) })}`));
    expect(list.map((r: any) => [r.id, r.event, r.status])).toEqual([[body[0].id, 'engineBlock', 'pendente']]);
  });

  it('desbloqueia_motor (same key) queues engineUnblock', async () => {
    const res = await holder.post(`/api/ativo/${ligado}/desbloqueia_motor`);
    expect(res.status).toBe(201);
    expect((await res.json()).map((r: any) => [r.serial, r.event])).toEqual([['865100000000001', 'engineUnblock']]);
    expect((await fila()).map((r) => r.event)).toEqual(['engineBlock', 'engineUnblock']);
    expect((await noKey.post(`/api/ativo/${ligado}/desbloqueia_motor`)).status).toBe(403);
  });

  it('is refused without the key (403) and queues nothing', async () => {
    const before = (await fila()).length;
    const res = await noKey.post(`/api/ativo/${ligado}/bloqueia_motor`);
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('Você não tem permissão para fazer isso');
    expect((await fila()).length).toBe(before);
  });

  it("is 404 for another company's asset, even to a user of both companies while A is active", async () => {
    const before = (await fila()).length;
    const res = await holder.post(`/api/ativo/${alheio}/bloqueia_motor`);
    expect(res.status).toBe(404);
    expect((await res.json()).msg).toBe('Registro não encontrado');
    expect((await fila()).length).toBe(before);
  });

  it('is 422 in pt-BR when the asset has no linked device', async () => {
    const res = await holder.post(`/api/ativo/${semVinculo}/bloqueia_motor`);
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('O ativo não tem equipamento vinculado: não há para onde enviar o comando');
  });

  it('validates the body against the declared payload schema (400)', async () => {
    const before = (await fila()).length;
    const res = await holder.post(`/api/ativo/${ligado}/bloqueia_motor`, { saida: 3 });
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toBe('Campo desconhecido: saida');
    expect((await holder.post(`/api/ativo/${ligado}/bloqueia_motor`, '[1]')).status).toBe(400);
    expect((await fila()).length).toBe(before);
  });

  it('in bulk, each selected row answers its own status: queued, no device, another company', async () => {
    const before = (await fila()).length;
    const res = await holder.post('/api/ativo/bloqueia_motor', { ids: [ligado, semVinculo, alheio] });
    expect(res.status).toBe(200);
    const out = await res.json();
    expect(out.map((r: any) => [r.id, r.status, r.msg ?? r.payload.map((x: any) => x.serial)])).toEqual([
      [ligado, 201, ['865100000000001']],
      [semVinculo, 422, 'O ativo não tem equipamento vinculado: não há para onde enviar o comando'],
      [alheio, 404, 'Registro não encontrado'],
    ]);
    expect((await fila()).length).toBe(before + 1);
    expect((await holder.post('/api/ativo/bloqueia_motor', { ids: [] })).status).toBe(400);
    expect((await holder.post('/api/ativo/bloqueia_motor', { ids: ['1'] })).status).toBe(400);
    expect((await noKey.post('/api/ativo/bloqueia_motor', { ids: [ligado] })).status).toBe(403);
    expect((await fila()).length).toBe(before + 1);
  });
});
