// Fleet registers of issue 9 over real HTTP: drivers' badges, passengers, generic groups, maintenance
// (services, a maintenance's services nested under it, history, fuel entries) — computed counts, the
// nested list, the 'realiza' action, references to another company's rows refused, history recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { loadBundle } from '../app/bundle.ts';
import { createOrm, MIGRATIONS_DIR } from '../db/orm.ts';
import { migrateTelemetria } from '../ingest/migrate.ts';
import { ADMIN, createDatabase, json, type Api, type TestServer, startTestServer } from './harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
let a1: number, a2: number, aB: number;

const q = (o: Record<string, unknown>) => `?${new URLSearchParams(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)])))}`;
const created = async (res: Response) => { expect(res.status).toBe(201); return res.json(); };

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
  expect(admin.empresaAtiva).toBe(A);
  a1 = (await created(await admin.post('/api/ativo', { descricao: 'Caminhão frota 1', placa: 'FRT1A11' }))).id;
  a2 = (await created(await admin.post('/api/ativo', { descricao: 'Caminhão frota 2', placa: 'FRT1A12' }))).id;
  aB = Number((await ts.insert('ativo', { empresaId: B, descricao: 'Ativo de B', placa: 'FRT9B99' })).id);
});
afterAll(async () => { await ts?.stop(); });

describe('motorista', () => {
  it('keeps a list of badges; a non-list is refused', async () => {
    const m = await created(await admin.post('/api/motorista', { nome: 'Motorista Crachá', documento: '321.654.987-00', badges: ['00A1B2', 'FF0011'], matricula: 'M-77' }));
    expect((await json(await admin.get(`/api/motorista/${m.id}`))).badges).toEqual(['00A1B2', 'FF0011']);
    const bad = await admin.post('/api/motorista', { nome: 'X', documento: '321.654.987-01', badges: 'não é lista' });
    expect(bad.status).toBe(400);
  });
});

describe('passageiro', () => {
  it('requires nome with the pt-BR message and stores its tags', async () => {
    const bad = await admin.post('/api/passageiro', { email: 'p@x.com' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('O campo Nome é obrigatório');
    const p = await created(await admin.post('/api/passageiro', { nome: 'Paula Passageira', email: 'paula@x.com', telefone: '(11) 90000-0000', tags: ['AB12'] }));
    const list = await json(await admin.get(`/api/passageiro${q({ filter: { q: 'paula' } })}`));
    expect(list.map((r: any) => [r.id, r.tags])).toEqual([[p.id, ['AB12']]]);
  });
});

describe('grupo_generico', () => {
  it('groups the company\'s ativos with their count; an ativo of another company is refused', async () => {
    const g = await created(await admin.post('/api/grupo_generico_ativo', { descricao: 'Grupo Norte', ativos: [a1, a2] }));
    const row = (await json(await admin.get(`/api/grupo_generico_ativo${q({ filter: { id: [g.id] } })}`)))[0];
    expect(row.qtdAtivos).toBe(2);
    const bad = await admin.post('/api/grupo_generico_ativo', { descricao: 'Grupo invasor', ativos: [a1, aB] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('O campo Ativos referencia um registro inexistente');
    expect((await admin.post('/api/grupo_generico_ativo', { descricao: 'grupo norte' })).status).toBe(201); // unique is exact
    expect((await admin.post('/api/grupo_generico_ativo', { descricao: 'Grupo Norte' })).status).toBe(409);
  });

  it('groups motoristas', async () => {
    const m = await created(await admin.post('/api/motorista', { nome: 'Motorista Grupo', documento: '321.654.987-55' }));
    const g = await created(await admin.post('/api/grupo_generico_motorista', { descricao: 'Turno A', motoristas: [m.id] }));
    expect((await json(await admin.get(`/api/grupo_generico_motorista/${g.id}`))).qtdMotoristas).toBe(1);
  });
});

describe('manutenções', () => {
  it('a maintenance counts its services (nested list) and assets; realiza marks it done once; history is kept', async () => {
    const oleo = await created(await admin.post('/api/servico', { descricao: 'Troca de óleo', quilometragem: 10000, minimo: 9000, maximo: 11000 }));
    const filtro = await created(await admin.post('/api/servico', { descricao: 'Filtro de ar', quilometragem: 20000 }));
    const m = await created(await admin.post('/api/manutencao', { descricao: 'Revisão 10 mil', data: '2026-11-01', ativos: [a1, a2] }));
    expect(m.tipo).toBe('preventiva');
    expect(m.realizado).toBe(false);
    // nested: the parent's id replaces the body's
    const other = await created(await admin.post('/api/manutencao', { descricao: 'Outra', tipo: 'corretiva' }));
    const s1 = await created(await admin.post(`/api/manutencao/${m.id}/manutencao_servicos`, { manutencao: other.id, servico: oleo.id, valorPrevisto: 350 }));
    expect(s1.manutencao).toBe(m.id);
    await created(await admin.post('/api/manutencao_servicos', { manutencao: m.id, servico: filtro.id }));
    const nested = await json(await admin.get(`/api/manutencao/${m.id}/manutencao_servicos`));
    expect(nested.map((r: any) => r.servico).sort()).toEqual([oleo.id, filtro.id].sort());
    expect(await json(await admin.get(`/api/manutencao/${other.id}/manutencao_servicos`))).toEqual([]);

    const row = await json(await admin.get(`/api/manutencao/${m.id}`));
    expect([row.qtdServicos, row.qtdAtivos]).toEqual([2, 2]);
    const list = await json(await admin.get(`/api/manutencao${q({ filter: { tipo: 'corretiva' } })}`));
    expect(list.map((r: any) => [r.id, r.qtdServicos, r.qtdAtivos])).toEqual([[other.id, 0, 0]]);

    const done = await admin.post(`/api/manutencao/${m.id}/realiza`);
    expect(done.status).toBe(200);
    expect((await done.json()).realizado).toBe(true);
    expect((await admin.post(`/api/manutencao/${m.id}/realiza`)).status).toBe(409);
    const hist = await json(await admin.get(`/api/manutencao/${m.id}/historico`));
    expect(hist.map((h: any) => h.operacao)).toEqual(['realiza', 'create']);

    // history of what was spent; the service in use cannot be deleted; deleting the maintenance takes its services
    const h = await created(await admin.post('/api/manutencao_historico', { maintenanceId: m.id, ativoId: a1, serviceId: oleo.id, valorGasto: 320.5 }));
    const hl = await json(await admin.get(`/api/manutencao_historico${q({ filter: { ativoId: a1 } })}`));
    expect(hl.map((r: any) => [r.id, r.valorGasto])).toEqual([[h.id, 320.5]]);
    expect(typeof hl[0].updatedAt).toBe('string');
    expect((await admin.post('/api/manutencao_historico', { maintenanceId: m.id, ativoId: aB, serviceId: oleo.id })).status).toBe(400);
    expect((await admin.del(`/api/servico/${oleo.id}`)).status).toBe(409);
    expect((await admin.del(`/api/manutencao/${other.id}`)).status).toBe(200);
  });

  it('fuel entries: litres required and positive, unit defaults to km, filtered by asset and period', async () => {
    const bad = await admin.post('/api/entrada_combustivel', { ativo: a1, data: '2026-11-02T10:00:00Z' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('O campo Litros é obrigatório');
    expect((await admin.post('/api/entrada_combustivel', { ativo: a1, data: '2026-11-02T10:00:00Z', litros: 0 })).status).toBe(400);
    const e = await created(await admin.post('/api/entrada_combustivel', { ativo: a1, data: '2026-11-02T10:00:00Z', litros: 180.5, valor: 1050.3, hodometro: 120345, local: 'Posto Central' }));
    expect(e.unidadeHodometro).toBe('km');
    await created(await admin.post('/api/entrada_combustivel', { ativo: a2, data: '2026-10-02T10:00:00Z', litros: 50 }));
    const rows = await json(await admin.get(`/api/entrada_combustivel${q({ filter: { ativo: a1 } })}`));
    expect(rows.map((r: any) => r.litros)).toEqual([180.5]);
    expect((await admin.post('/api/entrada_combustivel', { ativo: aB, data: '2026-11-02T10:00:00Z', litros: 10 })).status).toBe(400);
    expect((await admin.del(`/api/entrada_combustivel/${e.id}`)).status).toBe(200);
  });
});

describe('cercas, linhas, itinerários, prestadoras', () => {
  it('a line is activated and deactivated once each and counts its itineraries', async () => {
    const p = await created(await admin.post('/api/prestadora', { nome: 'Viação Boa Viagem', cnpj: '12.345.678/0001-90' }));
    expect((await admin.post('/api/prestadora', { nome: 'Outra', cnpj: '123' })).status).toBe(400);
    const l = await created(await admin.post('/api/linha', { descricao: 'Linha Centro', codigo: 'l-10', prestadora: p.id, trajeto: { type: 'LineString', coordinates: [[-46.6, -23.5], [-46.7, -23.6]] } }));
    expect([l.codigo, l.ativo]).toEqual(['L-10', true]);
    expect((await admin.post(`/api/linha/${l.id}/ativa`)).status).toBe(409);
    expect((await json(await admin.post(`/api/linha/${l.id}/desativa`))).ativo).toBe(false);
    expect((await json(await admin.post(`/api/linha/${l.id}/ativa`))).ativo).toBe(true);
    expect((await admin.post('/api/linha', { descricao: 'Sem forma', trajeto: { coordinates: [] } })).status).toBe(400);

    const bad = await admin.post('/api/itinerario', { descricao: 'Manhã', linha: l.id, diasSemana: ['seg', 'feriado'], inicioIda: '25:00' });
    expect(bad.status).toBe(400);
    const it1 = await created(await admin.post('/api/itinerario', { descricao: 'Manhã', linha: l.id, diasSemana: ['seg', 'ter'], inicioIda: '06:00', fimIda: '07:10', inicioVolta: '17:00', fimVolta: '18:15' }));
    expect(it1.diasSemana).toEqual(['seg', 'ter']);
    expect((await json(await admin.get(`/api/linha/${l.id}`))).qtdItinerarios).toBe(1);
    expect((await admin.post('/api/itinerario', { descricao: 'Sem linha' })).status).toBe(400);

    // its passengers, nested, with the passenger's registration number and tags
    const pas = await created(await admin.post('/api/passageiro', { nome: 'Carlos Embarque', matricula: 'P-900', tags: ['T1', 'T2'] }));
    await created(await admin.post(`/api/itinerario/${it1.id}/itinerario_passageiro`, { passageiro: pas.id, horario: '06:20', criadoAuto: true }));
    const rows = await json(await admin.get(`/api/itinerario/${it1.id}/itinerario_passageiro`));
    expect(rows.map((r: any) => [r.passageiro, r.matricula, r.tag, r.direcao, r.horario, r.criadoAuto])).toEqual([[pas.id, 'P-900', 'T1, T2', 'ida', '06:20', false]]);
  });

  it('fences: geometry is GeoJSON, colour #RRGGBB', async () => {
    const c = await created(await admin.post('/api/cerca', { descricao: 'Pátio', geometria: { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [0, 0]]] }, cor: '#1A2B3C' }));
    expect([c.tipo, c.ativo, c.geometria.type]).toEqual(['poligono', true, 'Polygon']);
    const bad = await admin.post('/api/cerca', { descricao: 'Ruim', cor: 'azul' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('Cor inválida: use o formato #RRGGBB');
  });
});

describe('registros (provider posicao)', () => {
  let pool: pg.Pool;
  const Q = (o: Record<string, unknown>) => new URLSearchParams(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)])));
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
    // before the gateway created its tables the list is empty, not an error
    const none = await admin.get('/api/rastreamento/registros');
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual([]);
    await migrateTelemetria(pool);
    const pos = (serial: string, empresa: number, ativo: number | null, at: Date, speed: number, ignition: boolean) => pool.query(
      `INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, speed, valid, ignition) VALUES ($1, $2, 'pos', $3, $4, -23.5, -46.6, $5, true, $6)`,
      [serial, at, empresa, ativo, speed, ignition]);
    await pos('861000000000011', A, a1, hoursAgo(1), 60, true);
    await pos('861000000000011', A, a1, hoursAgo(2), 0, false);
    await pos('861000000000012', A, a2, hoursAgo(3), 80, true);
    await pos('861000000000012', A, a2, hoursAgo(24 * 3), 50, true);
    await pos('862000000000099', B, aB, hoursAgo(1), 90, true);
  });
  afterAll(async () => { await pool?.end(); });

  it('lists the last 24 hours of the active company, newest first, with the asset', async () => {
    const res = await admin.get('/api/rastreamento/registros');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('rastreamento.registros 0-2/3');
    const rows = await res.json();
    expect(rows.map((r: any) => [r.serial, r.velocidade, r.placa])).toEqual([
      ['861000000000011', 60, 'FRT1A11'], ['861000000000011', 0, 'FRT1A11'], ['861000000000012', 80, 'FRT1A12']]);
    expect(new Set(rows.map((r: any) => r.id)).size).toBe(3);
  });

  it('filters by asset, search, ignition and period; sorts; refuses a period over 31 days', async () => {
    const serials = async (o: Record<string, unknown>) => (await json(await admin.get(`/api/rastreamento/registros?${Q(o)}`))).map((r: any) => `${r.serial.slice(-2)}:${r.velocidade}`);
    expect(await serials({ filter: { ativoId: [a2] } })).toEqual(['12:80']);
    expect(await serials({ filter: { q: 'frt1a12', fixTime_gte: hoursAgo(24 * 4).toISOString() } })).toEqual(['12:80', '12:50']);
    expect(await serials({ filter: { ignicao: false } })).toEqual(['11:0']);
    expect(await serials({ sort: ['velocidade', 'DESC'], range: [0, 1] })).toEqual(['12:80', '11:60']);
    expect(await serials({ filter: { ativoId: [aB] } })).toEqual([]);
    const long = await admin.get(`/api/rastreamento/registros?${Q({ filter: { fixTime_gte: hoursAgo(24 * 40).toISOString() } })}`);
    expect(long.status).toBe(400);
    expect((await json(long)).msg).toBe('O período deve ter no máximo 31 dias');
  });

  it('exports the filtered result as CSV', async () => {
    const res = await admin.get(`/api/rastreamento/registros/export?${new URLSearchParams({ format: 'csv', filter: JSON.stringify({ ativoId: [a1] }), columns: '["serial","velocidade","placa"]' })}`);
    expect(res.status).toBe(200);
    const lines = (await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines.length).toBe(3);
    expect(lines[1]).toContain('861000000000011');
  });
});

describe('grãos (/wkd/slm)', () => {
  it('property → warehouse → batch → load: status by id, altera/encerra, confirma, stock and net weight', async () => {
    const prop = await created(await admin.post('/api/propriedade', { nome: 'Fazenda Boa Safra', areaHectares: 1200 }));
    const soja = await created(await admin.post('/api/cultura', { descricao: 'Soja', umidadeIdeal: 13 }));
    const grao = await created(await admin.post('/api/produto', { descricao: 'Soja em grão', cultura: soja.id }));
    expect(grao.unidade).toBe('t');
    const s1 = await created(await admin.post('/api/armazem', { descricao: 'Silo 1', propriedade: prop.id, capacidade: 5000, cultura: soja.id }));
    const s2 = await created(await admin.post('/api/armazem', { descricao: 'Silo 2', propriedade: prop.id }));
    expect([s1.tipo, s1.status]).toEqual(['silo', 'vazio']);
    expect((await json(await admin.get(`/api/propriedade/${prop.id}`))).qtdArmazens).toBe(2);

    // status settable by id: the payload is checked, the change recorded under the action's name
    const st = await admin.post(`/api/armazem/${s1.id}/define_status`, { status: 'armazenando' });
    expect(st.status).toBe(200);
    expect((await st.json()).status).toBe('armazenando');
    expect((await admin.post(`/api/armazem/${s1.id}/define_status`, { status: 'cheio' })).status).toBe(400);
    expect((await admin.post(`/api/armazem/${s1.id}/define_status`, { status: 'vazio', capacidade: 1 })).status).toBe(400);
    const h = await json(await admin.get(`/api/armazem/${s1.id}/historico`));
    expect(h[0].operacao).toBe('define_status');
    expect(h[0].alteracoes.status).toEqual({ antes: 'vazio', depois: 'armazenando' });
    const sensor = await created(await admin.post('/api/sensor', { descricao: 'Cabo 1 - topo', serial: 'SNS-001', armazem: s1.id }));
    expect((await json(await admin.post(`/api/sensor/${sensor.id}/define_status`, { status: 'alarme' }))).status).toBe('alarme');

    // batch: altera moves it (only to a warehouse of the company), encerra closes it; then both are refused
    const lote = await created(await admin.post('/api/lote', { codigo: 'l-2026-01', armazem: s1.id, produto: grao.id, safra: '2025/2026', dataInicio: '2026-03-01', quantidade: 800 }));
    expect([lote.codigo, lote.situacao]).toEqual(['L-2026-01', 'aberto']);
    expect((await admin.post('/api/lote', { codigo: 'X', armazem: s1.id, produto: grao.id, dataInicio: '2026-03-01', safra: '25' })).status).toBe(400);
    expect((await json(await admin.get(`/api/armazem/${s1.id}`))).estoque).toBe(800);
    const outro = Number((await ts.insert('armazem', { empresaId: B, descricao: 'Silo de B', propriedade: Number((await ts.insert('propriedade', { empresaId: B, nome: 'Fazenda B' })).id), tipo: 'silo', status: 'vazio' })).id);
    expect((await admin.post(`/api/lote/${lote.id}/altera`, { armazem: outro })).status).toBe(400);
    expect((await admin.post(`/api/lote/${lote.id}/altera`, {})).status).toBe(400);
    const moved = await json(await admin.post(`/api/lote/${lote.id}/altera`, { armazem: s2.id, quantidade: 750 }));
    expect([moved.armazem, moved.quantidade, moved.codigo]).toEqual([s2.id, 750, 'L-2026-01']);
    expect((await json(await admin.post(`/api/lote/${lote.id}/encerra`))).situacao).toBe('encerrado');
    expect((await admin.post(`/api/lote/${lote.id}/altera`, { quantidade: 1 })).status).toBe(409);
    expect((await admin.post(`/api/lote/${lote.id}/encerra`)).status).toBe(409);
    expect((await json(await admin.get(`/api/armazem/${s2.id}`))).estoque).toBe(0);
    expect((await json(await admin.get(`/api/lote/${lote.id}/historico`))).map((x: any) => x.operacao)).toEqual(['encerra', 'altera', 'create']);

    // load: pending until confirmed (the form cannot confirm it), net weight computed
    const semAcao = await admin.post('/api/carga', { data: '2026-03-02T12:00:00Z', armazem: s1.id, produto: grao.id, pesoBruto: 42000, tara: 15000, situacao: 'confirmada' });
    expect([semAcao.status, (await json(semAcao)).msg]).toEqual([409, "O campo Situação só muda pela ação 'Confirmar'"]);
    const carga = await created(await admin.post('/api/carga', { data: '2026-03-02T12:00:00Z', armazem: s1.id, produto: grao.id, pesoBruto: 42000, tara: 15000, situacao: 'pendente' }));
    expect(carga.situacao).toBe('pendente');
    expect((await json(await admin.get(`/api/carga/${carga.id}`))).pesoLiquido).toBe(27000);
    expect((await json(await admin.post(`/api/carga/${carga.id}/confirma`))).situacao).toBe('confirmada');
    expect((await admin.post(`/api/carga/${carga.id}/confirma`)).status).toBe(409);
  });
});

describe('frota_registros migration', () => {
  it('moves each driver\'s tag into its badges list', async () => {
    const url = await createDatabase();
    const orm = await createOrm({ url, entities: (await loadBundle()).entities, migrationsPath: MIGRATIONS_DIR });
    const c = new pg.Client({ connectionString: url });
    try {
      await orm.migrator.up({ to: 'Migration20261123160000_sessao_versao' });
      await c.connect();
      const now = 'now(), now()';
      const amb = (await c.query(`insert into ambiente (descricao, ativo, created_at, updated_at) values ('Amb', true, ${now}) returning id`)).rows[0].id;
      const emp = (await c.query(`insert into empresa (ambiente_id, fantasia, status, created_at, updated_at) values ($1, 'E', 'ativa', ${now}) returning id`, [amb])).rows[0].id;
      for (const [doc, tag] of [['111.111.111-11', 'ABC123'], ['222.222.222-22', null], ['333.333.333-33', '']]) {
        await c.query(`insert into motorista (empresa_id, nome, documento, tag, situacao, created_at, updated_at) values ($1, $2, $2, $3, 'ativo', ${now})`, [emp, doc, tag]);
      }
      await orm.migrator.up();
      const rows = (await c.query('select documento, badges from motorista order by documento')).rows;
      expect(rows.map((r) => r.badges)).toEqual([['ABC123'], null, null]);
      expect((await c.query(`select 1 from information_schema.columns where table_name = 'motorista' and column_name = 'tag'`)).rowCount).toBe(0);
    } finally {
      await c.end().catch(() => undefined);
      await orm.close(true);
    }
  });
});
