// The viagem family's kinds over the daily totals (diario, mensal, utilizacao × asset, driver, date, garage, generic
// group) over real HTTP: telemetria.total_diario rows as modules/totais writes them, known by construction (no trip or
// position is stored: these kinds read the totals only); the other company's rows never show; 403 without the key;
// the CSV export holds the same numbers.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { reportUsers } from './users.kit.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
type Ativo = { id: number; descricao: string };
let a1: Ativo, a2: Ativo, a3: Ativo, b1: Ativo;
let m1: { id: number; nome: string };
let g1: { id: number; nome: string };
let gr1: number;
let userA: Api, userB: Api, semChave: Api;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const PERIODO = { inicio: '2026-10-31T00:00:00-03:00', fim: '2026-11-11T23:59:59.999-03:00' }; // 12 days
const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const get = (api: Api, tipo: string, params: unknown, extra = '') =>
  api.get(`/api/relatorios/viagem/${tipo}?params=${enc(params)}&fuso=America/Sao_Paulo${extra}`);
const rows = async (api: Api, tipo: string, params: unknown, extra = '') => {
  const r = await get(api, tipo, params, extra);
  expect(r.status, JSON.stringify(await r.clone().json())).toBe(200);
  return ((await r.json()) as Record<string, any>[]).map(({ id, ...x }) => x);
};
const cols = (c: string[]) => `&colunas=${enc(c)}`;

/** One row of daily totals: metres, seconds (parado = lenta + estacionado), km/h, km. */
async function total(empresa: number, ativo: number, data: string, motorista: number, viagens: number, metros: number, conducao: number, lenta: number, estacionado: number, vmax: number, hod: [number, number] | null) {
  await q(`INSERT INTO telemetria.total_diario (ativo_id, data, motorista_id, empresa_id, serial, posicoes, distancia, tempo_conducao, tempo_parado,
      tempo_marcha_lenta, tempo_estacionado, viagens, velocidade_maxima, hodometro_inicial, hodometro_final, qtd_eventos, pontuacao)
    VALUES ($1, $2, $3, $4, $5, 10, $6, $7, $8, $9, $10, $11, $12, $13, $14, 0, 0)`,
  [ativo, data, motorista, empresa, `tot-${ativo}`, metros, conducao, lenta + estacionado, lenta, estacionado, viagens, vmax, hod?.[0] ?? null, hod?.[1] ?? null]);
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [a1, a2, a3] = await q('SELECT id, descricao FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 3', [A]);
  [b1] = await q('SELECT id, descricao FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  [m1] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]);
  [g1] = await q(`INSERT INTO garagem (empresa_id, nome, created_at, updated_at) VALUES ($1, 'Garagem Totais', now(), now()) RETURNING id, nome`, [A]);
  await q('UPDATE ativo SET id_garagem = $1 WHERE id = ANY($2)', [g1.id, [a1.id, a2.id, a3.id]]);
  gr1 = (await q(`INSERT INTO grupo_generico_ativo (empresa_id, descricao, ativos, created_at, updated_at) VALUES ($1, 'Grupo Totais', $2, now(), now()) RETURNING id`, [A, [a1.id, a3.id]]))[0].id;

  await total(A, a1.id, '2026-10-31', m1.id, 1, 20_000, 1800, 200, 400, 70, [990, 1010]);
  await total(A, a1.id, '2026-11-10', m1.id, 2, 50_000, 3600, 600, 1200, 90, [1010, 1060]);
  await total(A, a1.id, '2026-11-10', 0, 1, 10_000, 900, 0, 300, 60, [1060, 1070]);
  await total(A, a1.id, '2026-11-11', m1.id, 0, 0, 0, 0, 3600, 0, null); // a day with data and no trip
  await total(A, a2.id, '2026-11-11', m1.id, 1, 30_000, 1800, 0, 0, 80, null);
  await total(A, a2.id, '2026-11-12', m1.id, 5, 500_000, 9000, 0, 0, 99, null); // after the period
  await total(B, b1.id, '2026-11-10', 0, 1, 99_000, 3600, 0, 0, 99, null);

  ({ userA, userB, semChave } = await reportUsers(ts, { prefix: 'tot', empresas: [A, B], keys: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem'], semKeys: ['rel.rel.relatorios'] }));
});

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

const SOMAS = ['qtdViagens', 'distancia', 'tempoConducaoHoras', 'tempoConducaoPorcentagem', 'tempoParadoHoras', 'tempoMarchaLentaHoras', 'tempoEstacionadoHoras', 'velocidadeMedia', 'velocidadeMaxima'];

describe('diario', () => {
  it('by asset: each day of its totals, drivers summed', async () => {
    expect(await rows(userA, 'diario_ativo', { periodo: PERIODO, ativos: [a1.id] }, cols(['data', 'ativo', ...SOMAS, 'hodometroInicial', 'hodometroFinal']))).toEqual([
      { data: '2026-10-31', ativo: a1.descricao, qtdViagens: 1, distancia: 20, tempoConducaoHoras: 0.5, tempoConducaoPorcentagem: 75, tempoParadoHoras: 0.17, tempoMarchaLentaHoras: 0.06, tempoEstacionadoHoras: 0.11, velocidadeMedia: 40, velocidadeMaxima: 70, hodometroInicial: 990, hodometroFinal: 1010 },
      { data: '2026-11-10', ativo: a1.descricao, qtdViagens: 3, distancia: 60, tempoConducaoHoras: 1.25, tempoConducaoPorcentagem: 68.2, tempoParadoHoras: 0.58, tempoMarchaLentaHoras: 0.17, tempoEstacionadoHoras: 0.42, velocidadeMedia: 48, velocidadeMaxima: 90, hodometroInicial: 1010, hodometroFinal: 1070 },
      { data: '2026-11-11', ativo: a1.descricao, qtdViagens: 0, distancia: 0, tempoConducaoHoras: 0, tempoConducaoPorcentagem: 0, tempoParadoHoras: 1, tempoMarchaLentaHoras: 0, tempoEstacionadoHoras: 1, velocidadeMedia: null, velocidadeMaxima: 0, hodometroInicial: null, hodometroFinal: null },
    ]);
    expect(await rows(userA, 'diario_ativo', { periodo: PERIODO, motoristas: [m1.id], garagens: [g1.id] }, cols(['data', 'ativo', 'qtdViagens', 'distancia']) + `&sort=${enc(['distancia', 'DESC'])}`)).toEqual([
      { data: '2026-11-10', ativo: a1.descricao, qtdViagens: 2, distancia: 50 },
      { data: '2026-11-11', ativo: a2.descricao, qtdViagens: 1, distancia: 30 },
      { data: '2026-10-31', ativo: a1.descricao, qtdViagens: 1, distancia: 20 },
      { data: '2026-11-11', ativo: a1.descricao, qtdViagens: 0, distancia: 0 },
    ]);
  });

  it('by driver and by date (fleet utilisation of the chosen assets)', async () => {
    expect(await rows(userA, 'diario_motorista', { periodo: PERIODO }, cols(['data', 'motorista', 'qtdViagens', 'distancia', 'tempoParadoHoras']))).toEqual([
      { data: '2026-10-31', motorista: m1.nome, qtdViagens: 1, distancia: 20, tempoParadoHoras: 0.17 },
      { data: '2026-11-10', motorista: m1.nome, qtdViagens: 2, distancia: 50, tempoParadoHoras: 0.5 },
      { data: '2026-11-11', motorista: m1.nome, qtdViagens: 1, distancia: 30, tempoParadoHoras: 1 },
    ]);
    expect(await rows(userA, 'diario_data', { periodo: PERIODO, ativos: [a1.id, a2.id, a3.id] }, cols(['data', 'qtdAtivosFrota', 'qtdAtivosComViagem', 'utilizacaoAtivo', 'qtdViagens', 'distancia']))).toEqual([
      { data: '2026-10-31', qtdAtivosFrota: 3, qtdAtivosComViagem: 1, utilizacaoAtivo: 33.3, qtdViagens: 1, distancia: 20 },
      { data: '2026-11-10', qtdAtivosFrota: 3, qtdAtivosComViagem: 1, utilizacaoAtivo: 33.3, qtdViagens: 3, distancia: 60 },
      { data: '2026-11-11', qtdAtivosFrota: 3, qtdAtivosComViagem: 1, utilizacaoAtivo: 33.3, qtdViagens: 1, distancia: 30 },
    ]);
    expect((await rows(userA, 'diario_data', { periodo: PERIODO, grupos: [gr1] }, cols(['data', 'qtdAtivosFrota', 'qtdViagens'])))).toEqual([
      { data: '2026-10-31', qtdAtivosFrota: 2, qtdViagens: 1 },
      { data: '2026-11-10', qtdAtivosFrota: 2, qtdViagens: 3 },
      { data: '2026-11-11', qtdAtivosFrota: 2, qtdViagens: 0 },
    ]);
  });
});

describe('mensal', () => {
  it('by asset and by driver: one row per month', async () => {
    expect(await rows(userA, 'mensal_ativo', { periodo: PERIODO, ativos: [a1.id] }, cols(['data', 'qtdViagens', 'distancia', 'tempoParadoHoras', 'velocidadeMaxima', 'hodometroInicial', 'hodometroFinal']))).toEqual([
      { data: '10/2026', qtdViagens: 1, distancia: 20, tempoParadoHoras: 0.17, velocidadeMaxima: 70, hodometroInicial: 990, hodometroFinal: 1010 },
      { data: '11/2026', qtdViagens: 3, distancia: 60, tempoParadoHoras: 1.58, velocidadeMaxima: 90, hodometroInicial: 1010, hodometroFinal: 1070 },
    ]);
    expect(await rows(userA, 'mensal_motorista', { periodo: PERIODO }, cols(['data', 'motorista', 'qtdViagens', 'distancia', 'velocidadeMaxima']))).toEqual([
      { data: '10/2026', motorista: m1.nome, qtdViagens: 1, distancia: 20, velocidadeMaxima: 70 },
      { data: '11/2026', motorista: m1.nome, qtdViagens: 3, distancia: 80, velocidadeMaxima: 90 },
    ]);
  });
});

describe('utilizacao', () => {
  it('by asset (those without trips too), garage and generic group', async () => {
    const porAtivo = await rows(userA, 'utilizacao_ativo', { periodo: PERIODO, ativos: [a1.id, a2.id, a3.id] }, cols(['ativo', 'totalDias', 'diasComViagem', 'utilizacaoAtivo', 'qtdViagens', 'distancia', 'tempoConducaoHoras']));
    const esperado = new Map([
      [a1.descricao, { ativo: a1.descricao, totalDias: 12, diasComViagem: 2, utilizacaoAtivo: 16.7, qtdViagens: 4, distancia: 80, tempoConducaoHoras: 1.75 }],
      [a2.descricao, { ativo: a2.descricao, totalDias: 12, diasComViagem: 1, utilizacaoAtivo: 8.3, qtdViagens: 1, distancia: 30, tempoConducaoHoras: 0.5 }],
      [a3.descricao, { ativo: a3.descricao, totalDias: 12, diasComViagem: 0, utilizacaoAtivo: 0, qtdViagens: 0, distancia: 0, tempoConducaoHoras: 0 }],
    ]);
    expect(porAtivo).toEqual([...esperado.keys()].sort((x, y) => x.localeCompare(y)).map((k) => esperado.get(k)));
    const f = ['qtdAtivosFrota', 'qtdAtivosComViagem', 'utilizacaoAtivo', 'diasComViagem', 'qtdViagens', 'distancia'];
    expect(await rows(userA, 'utilizacao_garagem', { periodo: PERIODO, garagens: [g1.id] }, cols(['garagemAtivo', ...f]))).toEqual([
      { garagemAtivo: g1.nome, qtdAtivosFrota: 3, qtdAtivosComViagem: 2, utilizacaoAtivo: 66.7, diasComViagem: 3, qtdViagens: 5, distancia: 110 },
    ]);
    expect(await rows(userA, 'utilizacao_grupo', { periodo: PERIODO, grupos: [gr1] }, cols(['descricao', ...f]))).toEqual([
      { descricao: 'Grupo Totais', qtdAtivosFrota: 2, qtdAtivosComViagem: 1, utilizacaoAtivo: 50, diasComViagem: 2, qtdViagens: 4, distancia: 80 },
    ]);
  });
});

describe('scope, key, export', () => {
  it('the other company sees its own totals only', async () => {
    expect(await rows(userB, 'diario_ativo', { periodo: PERIODO }, cols(['ativo', 'distancia']))).toEqual([{ ativo: b1.descricao, distancia: 99 }]);
    expect(await rows(userB, 'diario_ativo', { periodo: PERIODO, ativos: [a1.id] })).toEqual([]);
    expect(await rows(userB, 'mensal_motorista', { periodo: PERIODO })).toEqual([]);
    expect(await rows(userB, 'diario_data', { periodo: PERIODO }, cols(['data', 'qtdViagens', 'distancia']))).toEqual([{ data: '2026-11-10', qtdViagens: 1, distancia: 99 }]);
    expect(await rows(userB, 'utilizacao_ativo', { periodo: PERIODO, ativos: [a1.id, a2.id] })).toEqual([]);
    expect(await rows(userB, 'utilizacao_garagem', { periodo: PERIODO, garagens: [g1.id] })).toEqual([]);
    expect(await rows(userB, 'utilizacao_grupo', { periodo: PERIODO, grupos: [gr1] })).toEqual([]);
  });

  it('without the family’s key: 403', async () => {
    for (const tipo of ['diario_ativo', 'diario_motorista', 'diario_data', 'mensal_ativo', 'mensal_motorista', 'utilizacao_ativo', 'utilizacao_garagem', 'utilizacao_grupo']) {
      const r = await get(semChave, tipo, { periodo: PERIODO });
      expect(r.status, tipo).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
  });

  it('the CSV of the monthly report holds the same numbers', async () => {
    const r = await userA.get(`/api/relatorios/viagem/mensal_ativo/exporta?formato=csv&params=${enc({ periodo: PERIODO, ativos: [a1.id] })}&fuso=America/Sao_Paulo${cols(['data', 'qtdViagens', 'distancia', 'tempoParadoHoras'])}`);
    expect(r.status).toBe(200);
    expect((await r.text()).replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual(['Mês;Viagens;Distância (km);Tempo parado (h)', '10/2026;1;20,00;0,17', '11/2026;3;60,00;1,58']);
  });
});
