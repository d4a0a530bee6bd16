// Computed columns (metadata list column with virtual + sql): the asset list's motorista (driver identified in the
// device's latest state) and equipamentosList (serials linked now), filled in list, show and export, per company,
// inlined by the read engine in the same statement.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTelemetria } from '../ingest/migrate.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let ativo: number, outro: number, empresas: number[];

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  await migrateTelemetria(pool);
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  empresas = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  ativo = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão calculado', placa: 'CAL1A23' }))).id;
  outro = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão sem vínculo', placa: 'CAL2B34' }))).id;
  const link = (serial: string, dataInicio: string, dataFim?: string) => admin.post('/api/equipamento_ativo', { serial, ativoId: ativo, dataInicio, ...(dataFim ? { dataFim } : {}) });
  // A link takes only a device of the company (equipamento).
  // two devices in force on one asset: of two technologies (one open link per technology)
  for (const [serial, tecnologia, modelo] of [['865000000000001', 'queclink', 'gv50cg'], ['865000000000002', 'osmand', 'osmand'], ['865000000000009', 'queclink', 'gv50cg']]) {
    expect((await admin.post('/api/equipamento', { serial, tecnologia, modelo, ativado: true })).status).toBe(201);
  }
  expect((await link('865000000000002', '2024-01-01T00:00:00Z')).status).toBe(201);
  expect((await link('865000000000001', '2024-02-01T00:00:00Z')).status).toBe(201);
  expect((await link('865000000000009', '2023-01-01T00:00:00Z', '2023-06-01T00:00:00Z')).status).toBe(201); // ended
  const motorista = (await json(await admin.post('/api/motorista', { nome: 'Joana Calculada', documento: '123.456.789-09' }))).id;
  await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, motorista_id, ultima_comunicacao) VALUES ($1, $2, $3, $4, now())`,
    ['865000000000001', empresas[0], ativo, motorista]);
  // Another company's newer state naming the same asset id, with its own driver, must not leak into it.
  const alheio = (await pool.query(`INSERT INTO motorista (nome, documento, situacao, empresa_id, created_at, updated_at)
    VALUES ('Motorista Alheio', '987.654.321-00', 'ativo', $1, now(), now()) RETURNING id`, [empresas[1]])).rows[0].id;
  await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, motorista_id, ultima_comunicacao) VALUES ($1, $2, $3, $4, now() + interval '1 minute')`,
    ['866000000000001', empresas[1], ativo, alheio]);
  await pool.query(`INSERT INTO equipamento_ativo (serial, ativo_id, empresa_id, data_inicio, created_at, updated_at) VALUES ('866000000000001', $1, $2, now() - interval '1 day', now(), now())`, [ativo, empresas[1]]);
});
afterAll(async () => { await pool?.end(); await ts?.close(); });

describe('computed columns of ativo', () => {
  it('list and show carry the current driver and the linked serials', async () => {
    const res = await admin.get(`/api/ativo?${new URLSearchParams({ filter: JSON.stringify({ id: [ativo, outro] }), range: '[0,9]' })}`);
    const rows = await res.json();
    expect(rows.find((r: any) => r.id === ativo)).toMatchObject({ motorista: 'Joana Calculada', equipamentosList: '865000000000001, 865000000000002' });
    expect(rows.find((r: any) => r.id === outro)).toMatchObject({ motorista: null, equipamentosList: null });
    const one = await json(await admin.get(`/api/ativo/${ativo}`));
    expect([one.motorista, one.equipamentosList]).toEqual(['Joana Calculada', '865000000000001, 865000000000002']);
  });

  it('export fills them too', async () => {
    const res = await admin.get(`/api/ativo/export?${new URLSearchParams({ format: 'csv', filter: JSON.stringify({ id: [ativo] }), columns: '["placa","motorista","equipamentosList"]' })}`);
    expect(res.status).toBe(200);
    expect((await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual(['Placa;Motorista;Equipamentos', 'CAL1A23;Joana Calculada;865000000000001, 865000000000002']);
  });
});
