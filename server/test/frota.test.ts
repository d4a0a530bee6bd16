// Fleet registers of issue 9 over real HTTP: drivers' badges, passengers, generic groups, maintenance
// (services, a maintenance's services nested under it, history, fuel entries) — computed counts, the
// nested list, the 'realiza' action, references to another company's rows refused, history recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { loadBundle } from '../app/bundle.ts';
import { createOrm, MIGRATIONS_DIR } from '../db/orm.ts';
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
