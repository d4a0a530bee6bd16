// Reports over real HTTP: the viagem family (detalhado, resumido by asset, driver and garage) over trips and stops
// inserted in telemetria.viagem/parada of this test's database (as the ingest of modules/viagens writes them), with
// concrete values; company scope (a user of the other company never sees these trips, in pages or exports); the
// family's key (403, hidden in the index); parameters, columns and sort checked (pt-BR 400); exports XLSX/CSV/PDF
// read back; favourites kept per user.
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from './pdf.kit.ts';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
let a1: { id: number; descricao: string; placa: string }, a2: { id: number; descricao: string; placa: string }, b1: { id: number; descricao: string };
let m1: { id: number; nome: string };
let g1: { id: number; nome: string };
let userA: Api, userB: Api, semChave: Api;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const PERIODO = { inicio: '2026-03-10T00:00:00-03:00', fim: '2026-03-11T23:59:59.999-03:00' };
const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const page = (api: Api, tipo: string, params: unknown, extra = '') => api.get(`/api/relatorios/viagem/${tipo}?params=${enc(params)}&fuso=America/Sao_Paulo${extra}`);
const rowsOf = async (api: Api, tipo: string, params: unknown, extra = '') => {
  const r = await page(api, tipo, params, extra);
  expect(r.status, JSON.stringify(await r.clone().json())).toBe(200);
  return { rows: (await r.json()) as Record<string, any>[], range: r.headers.get('content-range') };
};

/** A stored trip; `w`: kg on axles 1 and 2 and the total. */
async function trip(serial: string, empresa: number, ativo: number, motorista: number | null, inicio: string, segundos: number, metros: number, vmax: number, vmed: number, ocioso: number, hod?: [number, number], w?: [number, number, number]) {
  const fim = new Date(Date.parse(inicio) + segundos * 1000).toISOString();
  await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, motorista_id, lat_inicio, lon_inicio, lat_fim, lon_fim,
    distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso, hodometro_inicio, hodometro_fim, peso_eixo1, peso_eixo2, carga)
    VALUES ($1, $2, $3, $4, $5, $6, -23.55, -46.63, -23.6, -46.7, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
  [serial, inicio, fim, empresa, ativo, motorista, metros, segundos, vmax, vmed, ocioso, hod?.[0] ?? null, hod?.[1] ?? null, w?.[0] ?? null, w?.[1] ?? null, w?.[2] ?? null]);
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [a1, a2] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [b1] = await q('SELECT id, descricao FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  [m1] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]);
  [g1] = await q(`INSERT INTO garagem (empresa_id, nome, created_at, updated_at) VALUES ($1, 'Garagem Relatórios', now(), now()) RETURNING id, nome`, [A]);
  await q('UPDATE ativo SET id_garagem = $1 WHERE id = ANY($2)', [g1.id, [a1.id, a2.id]]);
  // company A: two trips of a1 (one with m1) and the stop between them, one trip of a2 with m1 the next day
  await trip('rel-a1', A, a1.id, m1.id, '2026-03-10T08:00:00-03:00', 3600, 50_000, 90, 50, 600, [1000, 1050], [6000, 9000, 15000]);
  await trip('rel-a1', A, a1.id, null, '2026-03-10T14:00:00-03:00', 1800, 20_000, 70, 40, 0, [1050, 1070], [5000, 4000, 9000]);
  await trip('rel-a2', A, a2.id, m1.id, '2026-03-11T10:00:00-03:00', 3600, 30_000, 60, 30, 300);
  await q(`INSERT INTO telemetria.parada (serial, inicio, fim, empresa_id, ativo_id, lat, lon, duracao, ignicao, tempo_ligado)
    VALUES ('rel-a1', '2026-03-10T09:00:00-03:00', '2026-03-10T14:00:00-03:00', $1, $2, -23.6, -46.7, 18000, false, 900)`, [A, a1.id]);
  // company B: one trip in the same period
  await trip('rel-b1', B, b1.id, null, '2026-03-10T09:00:00-03:00', 3600, 99_000, 99, 99, 0);
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['rel.rel.relatorios', 'rel.rel.relatorios.viagem', 'rel.rel.relatorios.favorites.lista', 'rel.rel.relatorios.favorites.adicionar', 'rel.rel.relatorios.favorites.excluir'];
  await ts.createUser({ login: 'rel_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'rel_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'rel_sem', ambienteId: ambiente, empresas: [A], permissoes: ['rel.rel.relatorios', 'rel.rel.relatorios.favorites.lista', 'rel.rel.relatorios.favorites.adicionar'] });
  userA = await ts.login('rel_a', 'senha-teste-123');
  userB = await ts.login('rel_b', 'senha-teste-123');
  semChave = await ts.login('rel_sem', 'senha-teste-123');
});

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('index and keys', () => {
  it('lists the families the caller’s keys allow, with kinds, parameters (schema) and columns', async () => {
    const j = await json(await userA.get('/api/relatorios'));
    expect(j.payload.map((f: any) => f.key)).toEqual(['viagem']);
    const viagem = j.payload[0];
    expect(viagem.tipos.map((t: any) => t.key)).toEqual(['detalhado', 'resumido_ativo', 'resumido_motorista', 'resumido_garagem', 'diario_ativo', 'diario_motorista', 'diario_data', 'mensal_ativo', 'mensal_motorista', 'utilizacao_ativo', 'utilizacao_garagem', 'utilizacao_grupo']);
    const det = viagem.tipos[0];
    expect(det.params.map((p: any) => p.name)).toEqual(['periodo', 'ativos', 'motoristas', 'garagens', 'grupos']);
    expect(det.params[0].shortcuts).toContain('Últimos 7 dias');
    expect(det.schema.required).toEqual(['periodo']);
    expect(det.columns.find((c: any) => c.name === 'distancia')).toMatchObject({ label: 'Distância', unit: 'km', decimals: 2, default: true });
    expect(det.sql).toBeUndefined();
  });

  it('a user without the family’s key: the index hides it, its pages and exports are 403', async () => {
    expect((await json(await semChave.get('/api/relatorios'))).payload).toEqual([]);
    const r = await page(semChave, 'detalhado', { periodo: PERIODO });
    expect(r.status).toBe(403);
    expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    expect((await semChave.get(`/api/relatorios/viagem/detalhado/exporta?formato=csv&params=${enc({ periodo: PERIODO })}`)).status).toBe(403);
    // and it cannot keep a favourite of it either
    const f = await semChave.post('/api/relatorio_favorito', { nome: 'x', familia: 'viagem', tipo: 'detalhado', parametros: { periodo: PERIODO }, colunas: ['ativo'] });
    expect(f.status).toBe(403);
  });

  it('unknown report 404; bad parameters, columns and sort 400 in pt-BR', async () => {
    expect((await userA.get(`/api/relatorios/nada/detalhado?params=${enc({ periodo: PERIODO })}`)).status).toBe(404);
    expect((await json(await userA.get(`/api/relatorios/viagem/nada?params=${enc({ periodo: PERIODO })}`))).msg).toBe('Relatório não encontrado');
    const msg = async (params: unknown, extra = '') => { const r = await page(userA, 'detalhado', params, extra); expect(r.status).toBe(400); return (await json(r)).msg; };
    expect(await msg({})).toBe('O campo Período é obrigatório');
    expect(await msg({ periodo: { inicio: PERIODO.fim, fim: PERIODO.inicio } })).toBe('Período inválido: o fim deve ser depois do início');
    expect(await msg({ periodo: { inicio: '2025-01-01T00:00:00Z', fim: '2026-01-01T00:00:00Z' } })).toBe('O período máximo deste relatório é de 186 dias');
    expect(await msg({ periodo: PERIODO, ativos: ['x'] })).toMatch(/Ativos/);
    expect(await msg({ periodo: PERIODO }, `&colunas=${enc(['ativo', 'senha'])}`)).toBe('Coluna não permitida neste relatório: senha');
    expect(await msg({ periodo: PERIODO }, `&sort=${enc(['nada', 'ASC'])}`)).toBe('Campo de ordenação desconhecido: nada');
  });
});

describe('viagem detalhado', () => {
  it('one row per trip of the period, in local time, paged and sorted in SQL', async () => {
    const { rows, range } = await rowsOf(userA, 'detalhado', { periodo: PERIODO });
    expect(range).toBe('relatorios.viagem.detalhado 0-2/3');
    expect(rows.map((r) => [r.dataInicial, r.horaInicial, r.horaFinal, r.ativo, r.motorista, r.duracao, r.distancia, r.velocidadeMaxima])).toEqual([
      ['2026-03-10', '08:00:00', '09:00:00', a1.descricao, m1.nome, 3600, 50, 90],
      ['2026-03-10', '14:00:00', '14:30:00', a1.descricao, null, 1800, 20, 70],
      ['2026-03-11', '10:00:00', '11:00:00', a2.descricao, m1.nome, 3600, 30, 60],
    ]);
    // only the chosen columns (and the row id) come
    const few = await rowsOf(userA, 'detalhado', { periodo: PERIODO }, `&colunas=${enc(['placa', 'distancia'])}&sort=${enc(['distancia', 'DESC'])}&range=${enc([0, 1])}`);
    expect(few.range).toBe('relatorios.viagem.detalhado 0-1/3');
    expect(few.rows.map(({ id, ...r }) => r)).toEqual([{ placa: a1.placa, distancia: 50 }, { placa: a2.placa, distancia: 30 }]);
  });

  it('filters: assets, drivers, garages, period', async () => {
    expect((await rowsOf(userA, 'detalhado', { periodo: PERIODO, ativos: [a2.id] })).rows.map((r) => r.distancia)).toEqual([30]);
    expect((await rowsOf(userA, 'detalhado', { periodo: PERIODO, motoristas: [m1.id] })).rows.map((r) => r.distancia)).toEqual([50, 30]);
    expect((await rowsOf(userA, 'detalhado', { periodo: PERIODO, garagens: [g1.id] })).rows).toHaveLength(3);
    const day = { inicio: '2026-03-11T00:00:00-03:00', fim: '2026-03-11T23:59:59-03:00' };
    expect((await rowsOf(userA, 'detalhado', { periodo: day })).rows.map((r) => r.ativo)).toEqual([a2.descricao]);
  });

  it('a user of the other company sees only its own trips, even naming this company’s assets', async () => {
    expect((await rowsOf(userB, 'detalhado', { periodo: PERIODO })).rows.map((r) => [r.ativo, r.distancia])).toEqual([[b1.descricao, 99]]);
    expect((await rowsOf(userB, 'detalhado', { periodo: PERIODO, ativos: [a1.id, a2.id] })).rows).toEqual([]);
    expect((await rowsOf(userB, 'resumido_ativo', { periodo: PERIODO })).rows.map((r) => r.ativo)).toEqual([b1.descricao]);
    expect((await rowsOf(userB, 'resumido_garagem', { periodo: PERIODO, garagens: [g1.id] })).rows).toEqual([]);
    expect((await rowsOf(userB, 'resumido_motorista', { periodo: PERIODO, motoristas: [m1.id] })).rows).toEqual([]);
  });
});

describe('viagem resumido', () => {
  it('by asset: trips, distance, times in hours and percent, speeds', async () => {
    const cols = ['ativo', 'qtdViagens', 'diasComViagem', 'distancia', 'tempoEmViagemHoras', 'tempoConducaoHoras', 'tempoConducaoPorcentagem',
      'tempoParadoHoras', 'tempoParadoPorcentagem', 'tempoMarchaLentaHoras', 'velocidadeMedia', 'velocidadeMaxima', 'hodometroInicial', 'hodometroFinal', 'dataInicial', 'dataFinal'];
    const { rows } = await rowsOf(userA, 'resumido_ativo', { periodo: PERIODO }, `&colunas=${enc(cols)}&sort=${enc(['distancia', 'DESC'])}`);
    expect(rows.map(({ id, ...r }) => r)).toEqual([
      { ativo: a1.descricao, qtdViagens: 2, diasComViagem: 1, distancia: 70, tempoEmViagemHoras: 1.5, tempoConducaoHoras: 1.33, tempoConducaoPorcentagem: 20.5,
        tempoParadoHoras: 5, tempoParadoPorcentagem: 76.9, tempoMarchaLentaHoras: 0.42, velocidadeMedia: 46.7, velocidadeMaxima: 90,
        hodometroInicial: 1000, hodometroFinal: 1070, dataInicial: '2026-03-10', dataFinal: '2026-03-10' },
      { ativo: a2.descricao, qtdViagens: 1, diasComViagem: 1, distancia: 30, tempoEmViagemHoras: 1, tempoConducaoHoras: 0.92, tempoConducaoPorcentagem: 91.7,
        tempoParadoHoras: 0, tempoParadoPorcentagem: 0, tempoMarchaLentaHoras: 0.08, velocidadeMedia: 30, velocidadeMaxima: 60,
        hodometroInicial: null, hodometroFinal: null, dataInicial: '2026-03-11', dataFinal: '2026-03-11' },
    ]);
    // a driver filter counts only their trips
    expect((await rowsOf(userA, 'resumido_ativo', { periodo: PERIODO, motoristas: [m1.id] })).rows.map((r) => [r.ativo, r.qtdViagens, r.distancia])).toEqual([[a1.descricao, 1, 50], [a2.descricao, 1, 30]].sort((x, y) => String(x[0]).localeCompare(String(y[0]))));
  });

  it('the weights the trips carried (kg): each trip’s, and by asset their mean weighted by distance', async () => {
    const w = ['ativo', 'peso1oEixo', 'peso2oEixo', 'carga'];
    expect((await rowsOf(userA, 'detalhado', { periodo: PERIODO }, `&colunas=${enc(w)}`)).rows.map(({ id, ...r }) => r)).toEqual([
      { ativo: a1.descricao, peso1oEixo: 6000, peso2oEixo: 9000, carga: 15000 },
      { ativo: a1.descricao, peso1oEixo: 5000, peso2oEixo: 4000, carga: 9000 },
      { ativo: a2.descricao, peso1oEixo: null, peso2oEixo: null, carga: null },
    ]);
    // (6000 × 50 + 5000 × 20) / 70 = 5714.3; (9000 × 50 + 4000 × 20) / 70 = 7571.4; (15000 × 50 + 9000 × 20) / 70 = 13285.7
    expect((await rowsOf(userA, 'resumido_ativo', { periodo: PERIODO }, `&colunas=${enc(w)}&sort=${enc(['carga', 'ASC'])}`)).rows.map(({ id, ...r }) => r)).toEqual([
      { ativo: a1.descricao, peso1oEixo: 5714, peso2oEixo: 7571, carga: 13286 },
      { ativo: a2.descricao, peso1oEixo: null, peso2oEixo: null, carga: null },
    ]);
  });

  it('by driver and by garage', async () => {
    const mot = await rowsOf(userA, 'resumido_motorista', { periodo: PERIODO });
    expect(mot.rows.map((r) => [r.motorista, r.qtdViagens, r.distancia, r.tempoEmViagemHoras, r.velocidadeMaxima])).toEqual([[m1.nome, 2, 80, 2, 90]]);
    const frota = Number((await q('SELECT count(*) FROM ativo WHERE id_garagem = $1', [g1.id]))[0].count);
    expect(frota).toBe(2);
    const gar = await rowsOf(userA, 'resumido_garagem', { periodo: PERIODO, garagens: [g1.id] });
    expect(gar.rows.map(({ id, ...r }) => r)).toEqual([{ garagemAtivo: g1.nome, qtdAtivosFrota: 2, qtdAtivosComViagem: 2, utilizacaoAtivo: 100, qtdViagens: 3, distancia: 100, tempoEmViagemHoras: 2.5, velocidadeMaxima: 90 }]);
  });
});

// ---------- exports ----------

const download = async (api: Api, tipo: string, formato: string, params: unknown, extra = '') => {
  const r = await api.get(`/api/relatorios/viagem/${tipo}/exporta?formato=${formato}&params=${enc(params)}&fuso=America/Sao_Paulo${extra}`);
  expect(r.status, r.status === 200 ? '' : JSON.stringify(await r.clone().json())).toBe(200);
  return { r, buf: Buffer.from(await r.arrayBuffer()) };
};

/** The text a PDF shows: its content streams inflated, the hex strings of each TJ/Tj joined (standard fonts: WinAnsi). */
describe('exports', () => {
  it('CSV: BOM, semicolons, headers with units, decimal comma, dates dd/mm/yyyy', async () => {
    const { r, buf } = await download(userA, 'detalhado', 'csv', { periodo: PERIODO });
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="relatorio_viagem_detalhado.csv"');
    const text = buf.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('Data inicial;Hora inicial;Data final;Hora final;Ativo;Placa;Motorista;Duração;Distância (km);Velocidade média (km/h);Velocidade máxima (km/h)');
    expect(lines[1]).toBe(`10/03/2026;08:00:00;10/03/2026;09:00:00;${a1.descricao};${a1.placa};${m1.nome};01:00:00;50,00;50,0;90,0`);
    expect(lines).toHaveLength(4);
    // the other company's export holds its trip only
    const other = (await download(userB, 'detalhado', 'csv', { periodo: PERIODO })).buf.toString('utf8');
    expect(other).toContain(b1.descricao);
    expect(other).not.toContain(a1.descricao);
    expect(other.trim().split('\r\n')).toHaveLength(2);
  });

  it('XLSX: title, company and parameters above the table; numbers as numbers', async () => {
    const { r, buf } = await download(userA, 'resumido_ativo', 'xlsx', { periodo: PERIODO, ativos: [a1.id] }, `&colunas=${enc(['ativo', 'qtdViagens', 'distancia', 'tempoParadoHoras'])}`);
    expect(r.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as never);
    const ws = wb.worksheets[0];
    const empresa = (await q('SELECT fantasia FROM empresa WHERE id = $1', [A]))[0].fantasia;
    expect(ws.getCell('A1').value).toBe('Relatório de Viagem — Resumido por ativo');
    expect(String(ws.getCell('A2').value)).toMatch(new RegExp(`^${empresa} · Gerado em \\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}:\\d{2}$`));
    expect(ws.getCell('A3').value).toBe('Período: 10/03/2026 00:00:00 até 11/03/2026 23:59:59');
    expect(ws.getCell('A4').value).toBe(`Ativos: ${a1.descricao}`);
    const head = ws.getRow(9);
    expect(head.values).toEqual([undefined, 'Ativo', 'Viagens', 'Distância (km)', 'Tempo parado (h)']);
    expect(ws.getRow(10).values).toEqual([undefined, a1.descricao, 2, 70, 5]);
    expect(ws.rowCount).toBe(10);
  });

  it('PDF: landscape, with the title, the parameters, the company and the rows', async () => {
    const { r, buf } = await download(userA, 'detalhado', 'pdf', { periodo: PERIODO, motoristas: [m1.id] });
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(buf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(buf.toString('latin1')).toMatch(/\/MediaBox \[0 0 841\.89 595\.28\]/); // A4 landscape
    const text = pdfText(buf);
    expect(text).toContain('Relatório de Viagem');
    expect(text).toContain('Detalhado');
    const empresa = (await q('SELECT fantasia FROM empresa WHERE id = $1', [A]))[0].fantasia;
    expect(text).toContain(empresa);
    expect(text).toContain(`Motoristas: ${m1.nome}`);
    expect(text).toContain('Período: 10/03/2026 00:00:00 até 11/03/2026 23:59:59');
    expect(text).toContain('Página 1 de 1');
    expect(text).toContain('50,00');
    expect(text).toContain('30,00');
    expect(text).not.toContain('20,00'); // the trip without the driver
  });

  it('a report of more rows than a page (1,000) or a cursor batch exports whole, in order, in its company only', async () => {
    // 2,600 trips of a1 in April (one every 10 min), 5 of b1: the file holds exactly a1's, sorted by start
    const ABRIL = { inicio: '2026-04-01T00:00:00-03:00', fim: '2026-04-30T23:59:59.999-03:00' };
    await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
      SELECT 'rel-a1-abr', t, t + interval '5 min', $1, $2, -23.55, -46.63, -23.6, -46.7, 1000 + g, 300, 60, 30, 0
        FROM generate_series(0, 2599) g, LATERAL (SELECT timestamptz '2026-04-02T00:00:00-03:00' + g * interval '10 min' AS t) x`, [A, a1.id]);
    await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
      SELECT 'rel-b1-abr', t, t + interval '5 min', $1, $2, -23.55, -46.63, -23.6, -46.7, 7777, 300, 60, 30, 0
        FROM generate_series(0, 4) g, LATERAL (SELECT timestamptz '2026-04-03T00:00:00-03:00' + g * interval '1 hour' AS t) x`, [B, b1.id]);
    try {
      const { buf } = await download(userA, 'detalhado', 'csv', { periodo: ABRIL }, `&colunas=${enc(['dataInicial', 'horaInicial', 'ativo', 'distancia'])}`);
      const lines = buf.toString('utf8').slice(1).trim().split('\r\n');
      expect(lines[0]).toBe('Data inicial;Hora inicial;Ativo;Distância (km)');
      expect(lines).toHaveLength(2601);
      expect(lines[1]).toBe(`02/04/2026;00:00:00;${a1.descricao};1,00`);
      expect(lines[1000]).toBe(`08/04/2026;22:30:00;${a1.descricao};2,00`); // row 1,000: the first page's last
      expect(lines[1001]).toBe(`08/04/2026;22:40:00;${a1.descricao};2,00`);
      expect(lines[2600]).toBe(`20/04/2026;01:10:00;${a1.descricao};3,60`);
      expect(lines.some((l) => l.includes(b1.descricao))).toBe(false);
      // the XLSX of the same rows: 2,600 rows under the header
      const x = await download(userA, 'detalhado', 'xlsx', { periodo: ABRIL }, `&colunas=${enc(['dataInicial', 'distancia'])}`);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(x.buf as never);
      const ws = wb.worksheets[0];
      const head = [...Array(ws.rowCount).keys()].map((i) => i + 1).find((i) => ws.getRow(i).getCell(1).value === 'Data inicial')!;
      expect(ws.rowCount - head).toBe(2600);
      expect(Number(ws.getRow(ws.rowCount).getCell(2).value)).toBeCloseTo(3.6, 2); // the last trip: 3,599 km
    } finally {
      await q(`DELETE FROM telemetria.viagem WHERE serial IN ('rel-a1-abr', 'rel-b1-abr')`);
    }
  });

  it('refuses more rows than the PDF takes, before any byte', async () => {
    process.env.RELATORIO_PDF_MAX = '2';
    try {
      const r = await userA.get(`/api/relatorios/viagem/detalhado/exporta?formato=pdf&params=${enc({ periodo: PERIODO })}`);
      expect(r.status).toBe(400);
      expect((await json(r)).msg).toBe('O relatório tem 3 linhas, acima do limite de 2 do PDF: exporte em XLSX ou CSV');
    } finally {
      delete process.env.RELATORIO_PDF_MAX;
    }
  });
});

describe('favourites', () => {
  it('keep a user’s family, kind, parameters and columns; checked against the report; per user', async () => {
    const fav = { nome: 'Viagens de março', familia: 'viagem', tipo: 'detalhado', parametros: { periodo: PERIODO, ativos: [a1.id] }, colunas: ['ativo', 'distancia'] };
    const r = await userA.post('/api/relatorio_favorito', fav);
    expect(r.status, JSON.stringify(await r.clone().json())).toBe(201);
    const list = await json(await userA.get('/api/relatorio_favorito'));
    expect(list.map((f: any) => [f.nome, f.familia, f.tipo, f.parametros, f.colunas])).toEqual([[fav.nome, 'viagem', 'detalhado', fav.parametros, fav.colunas]]);
    expect(await json(await userB.get('/api/relatorio_favorito'))).toEqual([]);
    const bad = async (o: object) => { const x = await userA.post('/api/relatorio_favorito', { ...fav, ...o }); expect(x.status).toBe(400); return (await json(x)).msg; };
    expect(await bad({ colunas: ['ativo', 'senha'] })).toBe('Coluna não permitida neste relatório: senha');
    expect(await bad({ tipo: 'mensal' })).toBe('Tipo desconhecido no relatório Viagem: mensal');
    expect(await bad({ familia: 'nada' })).toBe('Relatório desconhecido: nada');
    expect(await bad({ parametros: {} })).toBe('O campo Período é obrigatório');
  });
});
