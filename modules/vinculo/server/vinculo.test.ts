// Device links over real HTTP (issue 20): a link names a device registered in the caller's company; a device has at
// most one open link and a vehicle at most one open link per device kind (technology; metadata/_tecnologias.yaml
// vinculosPorAtivo allows more); refusals are pt-BR 409 and the database's partial unique index settles a race.
// Blocking a vehicle queues only to its linked, registered devices.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let A: number, B: number;
let caminhao: number, carreta: number, van: number, alheio: number;
const T1 = '865400000000001', T2 = '865400000000002', T3 = '865400000000003', T4 = '865400000000004';
const CAM1 = '865400000000011', CAM2 = '865400000000012', CAM3 = '865400000000013';
const FOREIGN = '866400000000001';
const AT = '2024-01-01T00:00:00Z';

const q = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows;
const open = (serial: string) => q('SELECT ativo_id FROM equipamento_ativo WHERE serial = $1 AND data_fim IS NULL', [serial]);
const link = (ativoId: number, serial: string, dataFim?: string) => admin.post('/api/equipamento_ativo', { serial, ativoId, dataInicio: dataFim ? '2023-01-01T00:00:00Z' : AT, ...(dataFim ? { dataFim } : {}) });

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id')).map((r) => r.id);
  expect(admin.empresaAtiva).toBe(A);
  caminhao = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão Vínculo', placa: 'VNC1A11' }))).id;
  carreta = (await json(await admin.post('/api/ativo', { descricao: 'Carreta Vínculo', placa: 'VNC2B22' }))).id;
  van = (await json(await admin.post('/api/ativo', { descricao: 'Van Vínculo', placa: 'VNC3C33' }))).id;
  alheio = Number((await ts.insert('ativo', { empresaId: B, descricao: 'Caminhão de B', placa: 'VNB1A11' })).id);
  for (const serial of [T1, T2, T3, T4]) expect((await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).status).toBe(201);
  for (const serial of [CAM1, CAM2, CAM3]) expect((await admin.post('/api/equipamento', { serial, tecnologia: 'vdo', modelo: 'vdo_telemetria', ativado: true })).status).toBe(201);
  await ts.insert('equipamento', { empresaId: B, serial: FOREIGN, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('a link picks a registered device of the company', () => {
  it('refuses a free-text serial ("123"): 400, nothing written', async () => {
    const res = await link(caminhao, '123');
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toBe("O valor '123' do campo Serial (IMEI) não está cadastrado em Equipamentos desta empresa");
    expect(await open('123')).toEqual([]);
  });

  it("refuses another company's device exactly like an unknown one (its existence is not told): nothing linked", async () => {
    const res = await link(caminhao, FOREIGN);
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toBe(`O valor '${FOREIGN}' do campo Serial (IMEI) não está cadastrado em Equipamentos desta empresa`);
    expect(await open(FOREIGN)).toEqual([]);
  });

  it("refuses another company's vehicle", async () => {
    const res = await link(alheio, T4);
    expect(res.status).toBe(400);
    expect(await open(T4)).toEqual([]);
  });
});

describe('one open link per device, one per device kind per vehicle', () => {
  it('links a device to a vehicle (201) and refuses a second open link of the same device: 409 naming the vehicle', async () => {
    expect((await link(caminhao, T1)).status).toBe(201);
    const res = await link(carreta, T1);
    expect(res.status).toBe(409);
    expect((await res.json()).msg).toBe(`O equipamento ${T1} já está vinculado ao ativo Caminhão Vínculo (VNC1A11): desvincule-o antes de vinculá-lo a outro ativo`);
    expect(await open(T1)).toEqual([{ ativo_id: caminhao }]);
  });

  it('refuses a second open link of the same kind on a vehicle: 409 naming the device it has', async () => {
    const res = await link(caminhao, T2);
    expect(res.status).toBe(409);
    expect((await res.json()).msg).toBe(`O ativo Caminhão Vínculo (VNC1A11) já tem um equipamento Queclink @Track vinculado (${T1}): desvincule-o antes de vincular outro`);
    expect(await open(T2)).toEqual([]);
  });

  it('takes a device of another kind on the same vehicle, up to the kind\'s declared limit (vdo: 2)', async () => {
    expect((await link(caminhao, CAM1)).status).toBe(201);
    expect((await link(caminhao, CAM2)).status).toBe(201);
    const res = await link(caminhao, CAM3);
    expect(res.status).toBe(409);
    expect((await res.json()).msg).toBe(`O ativo Caminhão Vínculo (VNC1A11) já tem 2 equipamentos Câmera (vídeo telemetria) vinculados (${CAM1}, ${CAM2}): desvincule um deles antes de vincular outro`);
  });

  it('keeps ended links as history: an ended link does not count, and reopening one is checked again', async () => {
    const ended = await json(await link(carreta, T1, '2023-12-31T00:00:00Z'));
    expect(ended.id).toBeGreaterThan(0);
    const reopen = await admin.put(`/api/equipamento_ativo/${ended.id}`, { serial: T1, ativoId: carreta, dataInicio: '2023-01-01T00:00:00Z', dataFim: null });
    expect(reopen.status).toBe(409);
    expect(await open(T1)).toEqual([{ ativo_id: caminhao }]);
  });

  it('remover_equipamento (Desvincular) ends the open link; the device can then be linked elsewhere', async () => {
    const id = (await q('SELECT id FROM equipamento WHERE serial = $1', [T1]))[0].id;
    expect((await admin.post(`/api/equipamento/${id}/remover_equipamento`)).status).toBe(200);
    expect(await open(T1)).toEqual([]);
    expect((await q('SELECT count(*)::int AS n FROM equipamento_ativo WHERE serial = $1 AND ativo_id = $2', [T1, caminhao]))[0].n).toBe(1);
    expect((await link(carreta, T1)).status).toBe(201);
    expect(await open(T1)).toEqual([{ ativo_id: carreta }]);
  });

  it('a concurrent double link of one device: exactly one wins, the other is 409', async () => {
    const answers = await Promise.all([link(van, T3), link(caminhao, T3)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await open(T3)).length).toBe(1);
  });

  it('a concurrent double link of one kind on one vehicle: exactly one wins', async () => {
    const v = (await json(await admin.post('/api/ativo', { descricao: 'Ônibus Vínculo', placa: 'VNC4D44' }))).id;
    const answers = await Promise.all([link(v, T2), link(v, T4)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await q('SELECT count(*)::int AS n FROM equipamento_ativo WHERE ativo_id = $1 AND data_fim IS NULL', [v]))[0].n).toBe(1);
  });

  it('the database refuses a second open link of a device written around the API (partial unique index)', async () => {
    const [{ serial }] = await q('SELECT serial FROM equipamento_ativo WHERE data_fim IS NULL AND serial = $1', [T3]);
    await expect(ts.insert('equipamento_ativo', { empresaId: A, serial, ativoId: carreta, dataInicio: new Date(AT) })).rejects.toThrow();
  });
});

describe('blocking a vehicle queues only to its linked, registered devices', () => {
  it('a stale link to an unregistered serial gets nothing; the registered device gets the command', async () => {
    const v = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão Antigo', placa: 'VNC5E55' }))).id;
    const id = (await q('SELECT id FROM equipamento WHERE serial = $1', [T1]))[0].id;
    expect((await admin.post(`/api/equipamento/${id}/remover_equipamento`)).status).toBe(200);
    expect((await link(v, T1)).status).toBe(201);
    // written before links were checked
    await ts.insert('equipamento_ativo', { empresaId: A, serial: '123', ativoId: v, dataInicio: new Date(AT) });
    const res = await admin.post(`/api/ativo/${v}/bloqueia_motor`);
    expect(res.status).toBe(201);
    expect((await res.json()).map((r: { serial: string }) => r.serial)).toEqual([T1]);
    expect(await q("SELECT serial FROM fila_processamento WHERE event = 'engineBlock' ORDER BY id")).toEqual([{ serial: T1 }]);
  });
});
