// The consumo family over real HTTP. A small fleet known by construction: daily totals as modules/totais writes them
// (telemetria.total_diario), the fuel level of asset a1 minute by minute on 2026-11-10 (telemetria.posicao, fuelLevel
// in litres and odometer) with a refuel, a drain, a one-reading spike, a rise too small, a rise while moving and a
// refuel in two parts; fuel entries (entrada_combustivel) for the reconciliation. Another company's data never
// shows; without the family's key 403; the exports hold the same numbers.
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { reportUsers } from './users.kit.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
type Ativo = { id: number; descricao: string; placa: string };
let a1: Ativo, a2: Ativo, b1: Ativo;
let m1: { id: number; nome: string };
let userA: Api, userB: Api, semChave: Api;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const PERIODO = { inicio: '2026-11-10T00:00:00-03:00', fim: '2026-11-11T23:59:59.999-03:00' };
const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const get = (api: Api, tipo: string, params: unknown, extra = '') =>
  api.get(`/api/relatorios/consumo/${tipo}?params=${enc(params)}&fuso=America/Sao_Paulo${extra}`);
const rows = async (api: Api, tipo: string, params: unknown, extra = '') => {
  const r = await get(api, tipo, params, extra);
  expect(r.status, JSON.stringify(await r.clone().json())).toBe(200);
  return ((await r.json()) as Record<string, any>[]).map(({ id, ...x }) => x);
};
const cols = (c: string[]) => `&colunas=${enc(c)}`;
/** Local time 2026-11-10 hh:mm (UTC-3) as the API's ISO instant. */
const t = (hh: number, mm: number) => new Date(Date.parse('2026-11-10T00:00:00-03:00') + (hh * 60 + mm) * 60_000).toISOString();

async function total(empresa: number, ativo: number, data: string, motorista: number, metros: number, litros: number, horas: number, conducao: number, eventos: number) {
  await q(`INSERT INTO telemetria.total_diario (ativo_id, data, motorista_id, empresa_id, serial, posicoes, distancia, tempo_conducao, tempo_parado,
      tempo_marcha_lenta, tempo_estacionado, viagens, velocidade_maxima, horimetro, combustivel_utilizado, qtd_eventos, pontuacao)
    VALUES ($1, $2, $3, $4, $5, 10, $6, $7, 0, 0, 0, 1, 80, $8, $9, $10, 0)`, [ativo, data, motorista, empresa, `cons-${ativo}`, metros, conducao, horas, litros, eventos]);
}
async function entrada(empresa: number, ativo: number, data: string, litros: number, valor: number, hodometro: number, local: string) {
  await q(`INSERT INTO entrada_combustivel (empresa_id, ativo, data, litros, valor, hodometro, unidade_hodometro, local, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, 'km', $7, now(), now())`, [empresa, ativo, data, litros, valor, hodometro, local]);
}

/** a1's readings, one a minute 08:00–12:00: [minute, speed, level, odometer]. Moving at 60 km/h 08:00–08:30, 09:31–10:00,
 *  11:01–11:30 (burning 0.1 L/min, 1 km/min); stopped otherwise. 08:40 a spike (+25, one reading); 08:59–09:02 a refuel
 *  of 100 L; 10:29–10:31 a drain of 30 L; 10:45 a rise of 4 L; 11:09–11:11 a rise of 24 L while moving; 11:39–11:40 and
 *  11:44–11:45 a refuel of 2 × 30 L. */
function leituras(): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  let odo = 1000;
  for (let k = 0; k <= 240; k++) {
    const hm = 8 * 60 + k, h = Math.floor(hm / 60), m = hm % 60, at = (hh: number, mm: number) => hm >= hh * 60 + mm;
    const moving = (k <= 30) || (at(9, 31) && !at(10, 1)) || (at(11, 1) && !at(11, 31));
    if (moving && k > 0) odo += 1;
    let level: number;
    if (k <= 30) level = 100 - 0.1 * k;
    else if (!at(9, 31)) level = at(9, 2) ? 197 : at(9, 1) ? 177 : at(9, 0) ? 137 : (h === 8 && m === 40 ? 122 : 97);
    else if (!at(10, 1)) level = 197 - 0.1 * (hm - (9 * 60 + 30));
    else if (!at(11, 1)) level = at(10, 45) ? 168 : at(10, 31) ? 164 : at(10, 30) ? 174 : 194;
    else if (!at(11, 31)) level = 168 - 0.1 * (hm - 11 * 60) + (at(11, 11) ? 24 : at(11, 10) ? 12 : 0);
    else level = at(11, 45) ? 249 : at(11, 40) ? 219 : 189;
    out.push([hm, moving ? 60 : 0, Math.round(level * 10) / 10, odo]);
  }
  return out;
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [a1, a2] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [b1] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  [m1] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]);
  await q(`DELETE FROM entrada_combustivel WHERE ativo = ANY($1)`, [[a1.id, a2.id, b1.id]]);

  // daily totals (metres, litres, seconds)
  await total(A, a1.id, '2026-11-10', m1.id, 90_000, 30, 10_800, 5400, 2);
  await total(A, a1.id, '2026-11-10', 0, 10_000, 5, 1800, 600, 1);
  await total(A, a1.id, '2026-11-11', m1.id, 50_000, 12.5, 3600, 3000, 0);
  await total(A, a2.id, '2026-11-11', m1.id, 40_000, 8, 3600, 2400, 0);
  await total(A, a2.id, '2026-11-12', m1.id, 999_000, 99, 3600, 2400, 0); // after the period
  await total(B, b1.id, '2026-11-10', 0, 70_000, 7, 3600, 3600, 0);

  // a1's fuel level; b1 (company B) refuels 50 L at 10:00
  const values = leituras().map(([hm, speed, level, odo]) => `('cons-a1', '${t(Math.floor(hm / 60), hm % 60)}', 'pos', ${A}, ${a1.id}, -23.5, -46.6, ${speed}, true, '{"fuelLevel": ${level}, "odometer": ${odo}}')`);
  for (let k = 0; k <= 20; k++) values.push(`('cons-b1', '${t(9, 50 + k)}', 'pos', ${B}, ${b1.id}, -22.9, -43.2, 0, true, '{"fuelLevel": ${k < 10 ? 40 : 90}}')`);
  await q(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, speed, valid, attributes) VALUES ${values.join(', ')}`);

  // fuel entries: the one before (for the distance), the refuel's, the second refuel's (80 L for 60 detected), one
  // no refuel explains; and company B's
  await entrada(A, a1.id, '2026-11-01T10:00:00-03:00', 50, 300, 600, 'Posto Anterior');
  await entrada(A, a1.id, '2026-11-10T09:20:00-03:00', 100, 600, 1000, 'Posto Centro');
  await entrada(A, a1.id, '2026-11-10T11:50:00-03:00', 80, 480, 1300, 'Posto Rodovia');
  await entrada(A, a1.id, '2026-11-10T15:00:00-03:00', 20, 120, 1500, 'Posto Fantasma');
  await entrada(B, b1.id, '2026-11-10T10:15:00-03:00', 50, 300, 5000, 'Posto B');

  // a1's trips with the weights they carried (kg): 2026-11-10 loaded 30 km then lighter 10 km, one without weights;
  // 2026-11-11 a trip without weights; company B's trip with a1's id is not a1's
  const viagem = (empresa: number, ativo: number, inicio: string, km: number, w: [number, number, number] | null) => q(`INSERT INTO telemetria.viagem
      (serial, inicio, fim, empresa_id, ativo_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media,
       tempo_ocioso, peso_eixo1, peso_eixo2, carga)
    VALUES ($1, $2, $2::timestamptz + interval '1 hour', $3, $4, -23.5, -46.6, -23.4, -46.6, $5, 3600, 80, 60, 0, $6, $7, $8)`,
  [`cons-${empresa}`, inicio, empresa, ativo, km * 1000, w?.[0] ?? null, w?.[1] ?? null, w?.[2] ?? null]);
  await viagem(A, a1.id, t(8, 0), 30, [6000, 9000, 15000]);
  await viagem(A, a1.id, t(13, 0), 10, [5000, 4000, 9000]);
  await viagem(A, a1.id, t(16, 0), 20, null);
  await viagem(A, a1.id, '2026-11-11T10:00:00-03:00', 50, null);
  await viagem(B, a1.id, t(9, 0), 100, [1, 1, 2]);

  ({ userA, userB, semChave } = await reportUsers(ts, { prefix: 'cons', empresas: [A, B], keys: ['rel.rel.relatorios', 'rel.rel.relatorios.consumo'], semKeys: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem'] }));
});

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('keys', () => {
  it('the index lists consumo and its kinds; without its key 403 (pages and exports)', async () => {
    const fams = (await json(await userA.get('/api/relatorios'))).payload;
    expect(fams.map((f: any) => [f.key, f.tipos.map((x: any) => x.key)])).toEqual([['consumo', ['diario', 'resumido_ativo', 'resumido_motorista', 'abastecimento']]]);
    const ab = fams[0].tipos[3];
    expect(ab.schema.properties.janelaMediana).toMatchObject({ type: 'number', default: 5 });
    expect(ab.schema.properties.somenteParado).toMatchObject({ type: 'boolean', default: true });
    expect((await json(await semChave.get('/api/relatorios'))).payload.map((f: any) => f.key)).toEqual(['viagem']);
    for (const tipo of ['diario', 'resumido_ativo', 'resumido_motorista', 'abastecimento']) {
      const r = await get(semChave, tipo, { periodo: PERIODO });
      expect(r.status, tipo).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
    expect((await semChave.get(`/api/relatorios/consumo/abastecimento/exporta?formato=csv&params=${enc({ periodo: PERIODO })}`)).status).toBe(403);
  });
});

describe('consumption from the daily totals', () => {
  it('diario: each asset-day, km/L used and projected (entries: 500 km over 100 L = 5 km/L), L per engine hour', async () => {
    const c = ['data', 'ativo', 'distancia', 'combustivelUtilizado', 'mediaConsumoUtilizado', 'consumoProjetado', 'mediaConsumoProjetado', 'diferencaConsumo', 'duracao', 'duracaoHoraMotor', 'consumoCombustivelLtHora', 'eventos', 'serial'];
    const r = await rows(userA, 'diario', { periodo: PERIODO }, cols(c));
    const [first, second] = [a1, a2].sort((x, y) => x.descricao.localeCompare(y.descricao));
    const a2row = { data: '2026-11-11', ativo: a2.descricao, distancia: 40, combustivelUtilizado: 8, mediaConsumoUtilizado: 5, consumoProjetado: null, mediaConsumoProjetado: null, diferencaConsumo: null, duracao: 2400, duracaoHoraMotor: 3600, consumoCombustivelLtHora: 8, eventos: 0, serial: `cons-${a2.id}` };
    const a1d11 = { data: '2026-11-11', ativo: a1.descricao, distancia: 50, combustivelUtilizado: 12.5, mediaConsumoUtilizado: 4, consumoProjetado: 10, mediaConsumoProjetado: 5, diferencaConsumo: 2.5, duracao: 3000, duracaoHoraMotor: 3600, consumoCombustivelLtHora: 12.5, eventos: 0, serial: `cons-${a1.id}` };
    expect(r).toEqual([
      // 2026-11-10: the rows with and without driver summed
      { data: '2026-11-10', ativo: a1.descricao, distancia: 100, combustivelUtilizado: 35, mediaConsumoUtilizado: 2.86, consumoProjetado: 20, mediaConsumoProjetado: 5, diferencaConsumo: 15, duracao: 6000, duracaoHoraMotor: 12_600, consumoCombustivelLtHora: 10, eventos: 3, serial: `cons-${a1.id}` },
      ...(first.id === a1.id ? [a1d11, a2row] : [a2row, a1d11]),
    ]);
    void second;
    // a driver's share only
    expect((await rows(userA, 'diario', { periodo: PERIODO, motoristas: [m1.id], ativos: [a1.id] }, cols(['data', 'distancia', 'combustivelUtilizado']))))
      .toEqual([{ data: '2026-11-10', distancia: 90, combustivelUtilizado: 30 }, { data: '2026-11-11', distancia: 50, combustivelUtilizado: 12.5 }]);
  });

  it('resumido by asset and by driver', async () => {
    const c = ['ativo', 'dataInicio', 'dataFim', 'distancia', 'combustivelUtilizado', 'mediaConsumoUtilizado', 'consumoProjetado', 'mediaConsumoProjetado', 'diferencaConsumo', 'duracaoHoraMotor', 'consumoCombustivelLtHora', 'eventos'];
    expect(await rows(userA, 'resumido_ativo', { periodo: PERIODO, ativos: [a1.id] }, cols(c))).toEqual([
      { ativo: a1.descricao, dataInicio: '2026-11-10', dataFim: '2026-11-11', distancia: 150, combustivelUtilizado: 47.5, mediaConsumoUtilizado: 3.16, consumoProjetado: 30, mediaConsumoProjetado: 5, diferencaConsumo: 17.5, duracaoHoraMotor: 16_200, consumoCombustivelLtHora: 10.56, eventos: 3 },
    ]);
    expect(await rows(userA, 'resumido_motorista', { periodo: PERIODO }, cols(['motorista', 'distancia', 'combustivelUtilizado', 'mediaConsumoUtilizado', 'duracao', 'eventos']))).toEqual([
      { motorista: m1.nome, distancia: 180, combustivelUtilizado: 50.5, mediaConsumoUtilizado: 3.56, duracao: 10_800, eventos: 2 },
    ]);
    expect((await rows(userA, 'resumido_motorista', { periodo: PERIODO, ativos: [a2.id] }, cols(['distancia', 'combustivelUtilizado'])))).toEqual([{ distancia: 40, combustivelUtilizado: 8 }]);
  });
});

const ABC = ['primeiroAbastecimento', 'ultimoAbastecimento', 'tipoAbastecimento', 'variacaoCombustivel', 'variacaoDistancia', 'entradaCombustivel', 'entradaValor', 'entradaHodometro', 'entradaDistancia', 'entradaConsumo', 'local', 'diferencaPercentual', 'tipoDiferenca'];
const ESPERADO = [
  { primeiroAbastecimento: t(8, 59), ultimoAbastecimento: t(9, 2), tipoAbastecimento: 'Abastecimento detectado', variacaoCombustivel: 100, variacaoDistancia: null,
    entradaCombustivel: 100, entradaValor: 600, entradaHodometro: 1000, entradaDistancia: 400, entradaConsumo: 4, local: 'Posto Centro', diferencaPercentual: 0, tipoDiferenca: 'Dentro da tolerância' },
  { primeiroAbastecimento: t(10, 29), ultimoAbastecimento: t(10, 31), tipoAbastecimento: 'Perda detectada', variacaoCombustivel: -30, variacaoDistancia: null,
    entradaCombustivel: null, entradaValor: null, entradaHodometro: null, entradaDistancia: null, entradaConsumo: null, local: null, diferencaPercentual: null, tipoDiferenca: null },
  // the odometer: 1030 km at the first refuel, 1090 at the second
  { primeiroAbastecimento: t(11, 39), ultimoAbastecimento: t(11, 45), tipoAbastecimento: 'Abastecimento detectado', variacaoCombustivel: 60, variacaoDistancia: 60,
    entradaCombustivel: 80, entradaValor: 480, entradaHodometro: 1300, entradaDistancia: 300, entradaConsumo: 3.75, local: 'Posto Rodovia', diferencaPercentual: 25, tipoDiferenca: 'Entrada maior que o detectado' },
  { primeiroAbastecimento: t(15, 0), ultimoAbastecimento: t(15, 0), tipoAbastecimento: 'Entrada registrada', variacaoCombustivel: null, variacaoDistancia: null,
    entradaCombustivel: 20, entradaValor: 120, entradaHodometro: 1500, entradaDistancia: 200, entradaConsumo: 10, local: 'Posto Fantasma', diferencaPercentual: null, tipoDiferenca: 'Não detectado' },
];

describe('weights the trips carried', () => {
  it('diario and resumido by asset: the mean of the trips’ axle weights and total (kg), weighted by their distance', async () => {
    const c = ['data', 'ativo', 'peso1oEixo', 'peso2oEixo', 'carga'];
    // 2026-11-10: (6000 × 30 + 5000 × 10) / 40 = 5750; (9000 × 30 + 4000 × 10) / 40 = 7750; (15000 × 30 + 9000 × 10) / 40 = 13500
    expect(await rows(userA, 'diario', { periodo: PERIODO, ativos: [a1.id] }, cols(c))).toEqual([
      { data: '2026-11-10', ativo: a1.descricao, peso1oEixo: 5750, peso2oEixo: 7750, carga: 13500 },
      { data: '2026-11-11', ativo: a1.descricao, peso1oEixo: null, peso2oEixo: null, carga: null },
    ]);
    expect(await rows(userA, 'resumido_ativo', { periodo: PERIODO, ativos: [a1.id, a2.id] }, cols(['ativo', 'peso1oEixo', 'peso2oEixo', 'carga'])))
      .toEqual([{ ativo: a1.descricao, peso1oEixo: 5750, peso2oEixo: 7750, carga: 13500 }, { ativo: a2.descricao, peso1oEixo: null, peso2oEixo: null, carga: null }]
        .sort((x, y) => x.ativo.localeCompare(y.ativo)));
    // the CSV carries the unit in the header
    const r = await userA.get(`/api/relatorios/consumo/diario/exporta?formato=csv&params=${enc({ periodo: PERIODO, ativos: [a1.id] })}&fuso=America/Sao_Paulo${cols(c)}`);
    expect((await r.text()).replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual([
      'Data;Ativo;Peso 1º eixo (kg);Peso 2º eixo (kg);Carga (kg)', `10/11/2026;${a1.descricao};5750;7750;13500`, `11/11/2026;${a1.descricao};;;`]);
  });
});

describe('abastecimento: refuels and drains from the fuel level, reconciled with the fuel entries', () => {
  it('default parameters (median of 5, 10 L, joined within 10 min, fills only when stopped)', async () => {
    expect(await rows(userA, 'abastecimento', { periodo: PERIODO, ativos: [a1.id] }, cols(ABC))).toEqual(ESPERADO);
    expect((await rows(userA, 'abastecimento', { periodo: PERIODO }, cols(['ativo', 'posicao']))).map((x) => x.ativo)).toEqual([a1.descricao, a1.descricao, a1.descricao, a1.descricao]);
  });

  it('each parameter changes what is detected', async () => {
    const det = async (extra: object) => (await rows(userA, 'abastecimento', { periodo: PERIODO, ativos: [a1.id], ...extra }, cols(['primeiroAbastecimento', 'tipoAbastecimento', 'variacaoCombustivel'])))
      .filter((x) => x.tipoAbastecimento !== 'Entrada registrada').map((x) => [x.primeiroAbastecimento, x.variacaoCombustivel]);
    // no median: the one-reading spike is a fill and a drain of 25 L
    expect(await det({ janelaMediana: 1 })).toEqual([[t(8, 39), 25], [t(8, 40), -25], [t(8, 59), 100], [t(10, 29), -30], [t(11, 39), 60]]);
    // 3 L: the 4 L rise counts
    expect(await det({ volumeMinimo: 3 })).toEqual([[t(8, 59), 100], [t(10, 29), -30], [t(10, 44), 4], [t(11, 39), 60]]);
    // no joining: the second refuel is two
    expect(await det({ intervaloUniao: 0 })).toEqual([[t(8, 59), 100], [t(10, 29), -30], [t(11, 39), 30], [t(11, 44), 30]]);
    // fills while moving too: the rise at 11:09 (the median of 5 gives 167.3 → 179 → 190.7: the moving burn shaves the rise)
    expect(await det({ somenteParado: false })).toEqual([[t(8, 59), 100], [t(10, 29), -30], [t(11, 9), 23.4], [t(11, 39), 60]]);
    const bad = await get(userA, 'abastecimento', { periodo: PERIODO, janelaMediana: 0 });
    expect(bad.status).toBe(400);
  });

  it('the other company sees its own refuel only, even naming this company’s asset', async () => {
    expect(await rows(userB, 'abastecimento', { periodo: PERIODO }, cols(['ativo', 'tipoAbastecimento', 'variacaoCombustivel', 'entradaCombustivel', 'tipoDiferenca']))).toEqual([
      { ativo: b1.descricao, tipoAbastecimento: 'Abastecimento detectado', variacaoCombustivel: 50, entradaCombustivel: 50, tipoDiferenca: 'Dentro da tolerância' },
    ]);
    expect(await rows(userB, 'abastecimento', { periodo: PERIODO, ativos: [a1.id] })).toEqual([]);
    expect((await rows(userB, 'diario', { periodo: PERIODO }, cols(['ativo', 'distancia'])))).toEqual([{ ativo: b1.descricao, distancia: 70 }]);
    expect(await rows(userB, 'resumido_ativo', { periodo: PERIODO, ativos: [a1.id, a2.id] })).toEqual([]);
    expect(await rows(userB, 'resumido_motorista', { periodo: PERIODO })).toEqual([]);
  });

  it('exports hold the same numbers: XLSX read back, CSV', async () => {
    const x = await userA.get(`/api/relatorios/consumo/abastecimento/exporta?formato=xlsx&params=${enc({ periodo: PERIODO, ativos: [a1.id] })}&fuso=America/Sao_Paulo${cols(['tipoAbastecimento', 'variacaoCombustivel', 'entradaCombustivel', 'diferencaPercentual', 'tipoDiferenca'])}`);
    expect(x.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await x.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    expect(ws.getCell('A1').value).toBe('Relatório de Consumo — Abastecimento');
    const texts = new Map<string, number>();
    ws.eachRow((row, n) => texts.set(String(row.getCell(1).value), n));
    expect(texts.has('Filtro de mediana (leituras): 5')).toBe(true);
    expect(texts.has('Abastecimento só com o veículo parado: Sim')).toBe(true);
    const head = texts.get('Tipo')!;
    const line = (n: number) => [1, 2, 3, 4, 5].map((i) => ws.getRow(n).getCell(i).value ?? null);
    expect(line(head)).toEqual(['Tipo', 'Variação do nível (L)', 'Litros da entrada (L)', 'Diferença (%)', 'Situação']);
    expect([1, 2, 3, 4].map((i) => line(head + i))).toEqual(ESPERADO.map((e) => [e.tipoAbastecimento, e.variacaoCombustivel, e.entradaCombustivel, e.diferencaPercentual, e.tipoDiferenca]));
    expect(ws.rowCount).toBe(head + 4);

    const c = await userA.get(`/api/relatorios/consumo/diario/exporta?formato=csv&params=${enc({ periodo: PERIODO, ativos: [a1.id] })}&fuso=America/Sao_Paulo${cols(['data', 'distancia', 'combustivelUtilizado', 'mediaConsumoUtilizado', 'consumoCombustivelLtHora'])}`);
    expect(c.status).toBe(200);
    expect((await c.text()).replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual([
      'Data;Distância (km);Combustível utilizado (L);Média de consumo (km/L);Consumo por hora de motor (L/h)',
      '10/11/2026;100,00;35,00;2,86;10,00',
      '11/11/2026;50,00;12,50;4,00;12,50',
    ]);
  });
});
