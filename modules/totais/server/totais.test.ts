// Daily totals at ingest, over the real gateway (Queclink @Track over TCP: positions with odometer, hour meter,
// ignition and a harsh-braking event) and the real API: a drive on two local days gives each day's totals; a buffered
// report for yesterday corrects yesterday's row only; another company's totals never show; 403 without the key;
// totals from batches in order and shuffled are equal (fast-check, over the processor and the database).
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startGateway, type Gateway } from '../../../server/ingest/index.ts';
import { registerDevice } from '../../../server/ingest/testing/db.ts';
import { FakeDevice } from '../../../server/ingest/testing/device.ts';
import { qTime } from '../../../server/ingest/simulator.ts';
import { dataLocal } from '../../../server/core/fuso-horario.ts';
import type { IngestFix } from '../../../server/core/ingest.ts';
import { TotaisProcessor } from './processor.ts';

// The late-report test checks that the other day's row is not written again: no re-pass during this file.
process.env.TOTAIS_REPASSE_MS = '0';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number, ativoA: number, ativoB: number, motoristaA: number;
let userA: Api, userB: Api, semChave: Api;
const IMEI_A = '865000000000101', IMEI_B = '865000000000202';
const DAY = 86_400_000;
const D1 = dataLocal(Date.now() - 2 * DAY), D2 = dataLocal(Date.now() - DAY);
/** Local time hh:mm of day d (America/Sao_Paulo: UTC-3, no daylight saving). */
const at = (d: string, hh: number, mm: number) => Date.parse(`${d}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00-03:00`);

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];

let count = 0;
const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const hm = (s: number) => `${String(Math.floor(s / 3600)).padStart(5, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
interface R { t: number; lat: number; kmh: number; ign: boolean; km: number; engine: number; event?: 'harshBraking'; buff?: boolean }
/** One @Track report (GTFRI, or GTHBM for the event) of a gv58cg. */
function frame(imei: string, r: R): { text: string; count: string } {
  const c = hex4(++count & 0xffff), d = new Date(r.t);
  const block = [1, r.kmh.toFixed(1), 0, '740.0', (-46.65).toFixed(6), r.lat.toFixed(6), qTime(d), '0724', '0005', '1A2B', '00C3F1D2', '01', '8'].join(',');
  const status = r.ign ? (r.kmh > 0 ? '220100' : '210100') : '110000';
  const body = r.event ? `12800,20,1,${block},${r.km.toFixed(1)}` : `${r.ign ? 13800 : 12600},10,1,${block},${r.km.toFixed(1)},${hm(r.engine)},,,,95,${status},,,`;
  return { text: `+${r.buff ? 'BUFF' : 'RESP'}:${r.event ? 'GTHBM' : 'GTFRI'},8020030100,${imei},,${body},${qTime(d)},${c}$`, count: c };
}
async function send(imei: string, rs: R[]): Promise<void> {
  const dev = await FakeDevice.connect(gw.ports.queclinkTcp);
  try {
    for (const r of rs) {
      const f = frame(imei, r);
      await dev.send(f.text);
      await dev.waitFor(`+SACK:${f.count}$`);
    }
  } finally { dev.close(); }
  await gw.drain();
}

/** A morning on day d: ignition on at 08:00, `km` km north at 60 km/h (1 km a minute), then parked 10 minutes. */
function morning(d: string, km: number, engine0: number, odo0: number, lat0 = -23.6, from: [number, number] = [8, 0]): R[] {
  const out: R[] = [];
  const t0 = at(d, from[0], from[1]);
  for (let i = 0; i <= km; i++) out.push({ t: t0 + i * 60_000, lat: lat0 + i * (1000 / 111_320), kmh: i === 0 ? 0 : 60, ign: true, km: odo0 + i, engine: engine0 + i * 60 });
  const end = out[out.length - 1]!;
  for (let i = 1; i <= 10; i++) out.push({ t: end.t + i * 60_000, lat: end.lat, kmh: 0, ign: false, km: end.km, engine: end.engine + 60 });
  return out;
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 4 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { queclinkTcp: 0 }, writer: { lingerMs: 5 }, migrate: false, limits: { maxPerAddress: 0 } });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ativoA = 91_001; ativoB = 91_002;
  await registerDevice(pool, IMEI_A, A, ativoA, 'gv58cg', 'queclink');
  await registerDevice(pool, IMEI_B, B, ativoB, 'gv58cg', 'queclink');
  motoristaA = (await q('SELECT id FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  await q(`INSERT INTO motorista_temporario (empresa_id, ativo_id, motorista_id, data_inicio, data_fim, created_at, updated_at)
    VALUES ($1, $2, $3, now() - interval '10 days', now() + interval '1 day', now(), now())`, [A, ativoA, motoristaA]);
  await q(`DELETE FROM pontuacao_de_eventos WHERE evento = 'harshBraking' AND empresa_id = $1`, [A]);
  await q(`INSERT INTO pontuacao_de_eventos (empresa_id, evento, pontos, ativo, created_at, updated_at) VALUES ($1, 'harshBraking', 10, true, now(), now())`, [A]);
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['tlm.fro.ativo.viagens', 'tlm.fro.motorista.ranking'];
  await ts.createUser({ login: 'totais_a', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'totais_b', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'totais_sem', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  userA = await ts.login('totais_a', 'senha-teste-123');
  userB = await ts.login('totais_b', 'senha-teste-123');
  semChave = await ts.login('totais_sem', 'senha-teste-123');
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

const rowsOf = (ativo: number) => q(`SELECT data, motorista_id, serial, posicoes, distancia, tempo_conducao, tempo_parado, tempo_marcha_lenta, tempo_estacionado,
  viagens, velocidade_maxima, hodometro_inicial, hodometro_final, horimetro, eventos, qtd_eventos, pontuacao, cerca_entradas, calculado_em
  FROM telemetria.total_diario WHERE ativo_id = $1 ORDER BY data, motorista_id`, [ativo]);
const list = (api: Api, path: string, filter: object) =>
  api.get(`/api/totais/${path}?filter=${encodeURIComponent(JSON.stringify(filter))}&sort=${encodeURIComponent('["periodo","ASC"]')}&range=[0,49]`);

describe('daily totals at ingest', () => {
  it('a drive on two days gives each local day its totals', async () => {
    // day 1: 30 km with a harsh braking at 08:15; day 2: 20 km (odometer and hour meter go on)
    const day1 = morning(D1, 30, 360_000, 1000);
    day1.splice(16, 0, { ...day1[15]!, t: day1[15]!.t + 30_000, event: 'harshBraking' });
    await send(IMEI_A, day1);
    await send(IMEI_A, morning(D2, 20, 360_000 + 31 * 60, 1030));
    await send(IMEI_B, morning(D2, 8, 0, 500, -22.9));
    const rows = await rowsOf(ativoA);
    expect(rows.map((r) => [r.data, r.motorista_id, r.serial])).toEqual([[D1, motoristaA, IMEI_A], [D2, motoristaA, IMEI_A]]);
    const [r1, r2] = rows;
    // day 1: 08:00 idle a minute, 30 minutes at 60 km/h (the last step into the stop included), 10 minutes parked
    expect(r1).toMatchObject({
      posicoes: 42, distancia: 30_000, tempo_conducao: 1800, tempo_marcha_lenta: 60, tempo_estacionado: 540, tempo_parado: 600,
      viagens: 1, velocidade_maxima: 60, hodometro_inicial: 1000, hodometro_final: 1030, horimetro: 1860,
      eventos: { harshBraking: 1 }, qtd_eventos: 1, pontuacao: 10, cerca_entradas: null,
    });
    expect(r2).toMatchObject({
      posicoes: 31, distancia: 20_000, tempo_conducao: 1200, tempo_marcha_lenta: 60, tempo_estacionado: 540, tempo_parado: 600,
      viagens: 1, velocidade_maxima: 60, hodometro_inicial: 1030, hodometro_final: 1050, horimetro: 1260, eventos: {}, qtd_eventos: 0, pontuacao: 0,
    });
    // the asset's days over HTTP: km, seconds, average speed over driving time
    const r = await list(userA, 'ativo/dia', { data_gte: D1, data_lte: D2 });
    expect(r.status).toBe(200);
    const api = await json(r);
    expect(api.map((x: any) => [x.periodo, x.ativoId, x.distancia, x.qtdViagens, x.tempoConducao, x.velocidadeMedia, x.qtdEventos, x.pontuacao]))
      .toEqual([[D1, ativoA, 30, 1, 1800, 60, 1, 10], [D2, ativoA, 20, 1, 1200, 60, 0, 0]]);
    expect(api[0]).toMatchObject({ eventos: { harshBraking: 1 }, totalDias: 1, diasComViagem: 1, horimetro: 1860, hodometroInicial: 1000, hodometroFinal: 1030 });
    // month (or months) and year: the same sums
    const mes = await json(await list(userA, 'ativo/mes', { data_gte: D1, data_lte: D2 }));
    expect(mes.reduce((s: number, x: any) => s + x.distancia, 0)).toBe(50);
    expect(mes.reduce((s: number, x: any) => s + x.totalDias, 0)).toBe(2);
    const ano = await json(await list(userA, 'ativo/ano', { data_gte: D1, data_lte: D2, ativoId: [ativoA] }));
    expect(ano.reduce((s: number, x: any) => s + x.qtdViagens, 0)).toBe(2);
    // the driver's days
    const mot = await json(await list(userA, 'motorista/dia', { data_gte: D1, data_lte: D2, motoristaId: motoristaA }));
    expect(mot.map((x: any) => [x.periodo, x.motoristaId, x.distancia, x.qtdEventos])).toEqual([[D1, motoristaA, 30, 1], [D2, motoristaA, 20, 0]]);
  });

  it('a buffered report for yesterday corrects yesterday’s row only', async () => {
    const before = await rowsOf(ativoA);
    // from its memory: a 5 km drive at noon of day 2, then parked
    const late = morning(D2, 5, 360_000 + 52 * 60, 1050, -23.5, [12, 0]).map((r) => ({ ...r, buff: true }));
    await send(IMEI_A, late);
    const after = await rowsOf(ativoA);
    expect(after[0]).toEqual(before[0]); // day 1 untouched (not even written again)
    expect(after[1]).toMatchObject({ posicoes: 31 + 16, distancia: 25_000, tempo_conducao: 1500, viagens: 2, hodometro_final: 1055 });
    expect(after[1].calculado_em.getTime()).toBeGreaterThan(before[1].calculado_em.getTime());
    // the step between the two drives (08:30 → 12:00) is longer than the detector's gap: no time, no distance
    expect(after[1].tempo_estacionado).toBe(540 + 540);
  });

  it('another company’s totals never show; without the key: 403', async () => {
    const a = await json(await list(userA, 'ativo/dia', {}));
    expect(a.map((x: any) => x.ativoId)).toEqual([ativoA, ativoA]);
    const b = await json(await list(userB, 'ativo/dia', {}));
    expect(b.map((x: any) => [x.ativoId, x.distancia])).toEqual([[ativoB, 8]]);
    // asking for A's asset by id from company B: nothing
    expect(await json(await list(userB, 'ativo/mes', { ativoId: [ativoA] }))).toEqual([]);
    expect(await json(await list(userB, 'motorista/dia', { motoristaId: motoristaA }))).toEqual([]);
    const r = await list(semChave, 'ativo/dia', {});
    expect(r.status).toBe(403);
    expect((await json(r)).msg).toMatch(/permiss/i);
    expect((await list(semChave, 'motorista/mes', {})).status).toBe(403);
    expect((await userA.get('/api/totais/ativo/semana')).status).toBe(404);
  });
});

describe('order does not matter', () => {
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  /** Stores the fixes of `serial` (asset `ativo`, company A) in batches, handing each batch to the processor. */
  async function feed(p: TotaisProcessor, serial: string, ativo: number, batches: R[][]): Promise<void> {
    for (const b of batches) {
      await pool.query(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, speed, valid, ignition, attributes)
        SELECT $1, to_timestamp(x.t / 1000.0), 'posicao', $2, $3, x.lat, -46.65, x.kmh, true, x.ign, jsonb_build_object('odometer', x.km)
          FROM json_to_recordset($4::json) AS x(t float8, lat float8, kmh real, ign boolean, km float8) ON CONFLICT DO NOTHING`, [serial, A, ativo, JSON.stringify(b)]);
      p.positions(b.map((r): IngestFix => ({ serial, empresaId: A, ativoId: ativo, motoristaId: null, t: r.t, lat: r.lat, lon: -46.65, speed: r.kmh, ignition: r.ign, valid: true, odometer: r.km, buffered: false })));
      await p.drain();
    }
  }
  const fixArb = fc.array(fc.record({ gapS: fc.integer({ min: 10, max: 5400 }), kmh: fc.constantFrom(0, 2, 30, 80), ign: fc.boolean() }), { minLength: 2, maxLength: 30 });

  it('a jump of the GPS (50 km in a minute) is not distance: the odometer’s kilometre counts, in the day and in the trip', async () => {
    const D0 = dataLocal(Date.now() - 3 * DAY);
    const drive = morning(D0, 16, 0, 2000);
    // from fix 11 on the positions are 50 km further north (the odometer goes on a kilometre a minute)
    for (const r of drive) if (r.t >= at(D0, 8, 11)) r.lat += 50_000 / 111_320;
    await send(IMEI_A, drive);
    const [day] = (await rowsOf(ativoA)).filter((r) => r.data === D0);
    expect(day).toMatchObject({ distancia: 16_000, tempo_conducao: 960 });
    const trips = await q(`SELECT round(distancia) AS d FROM telemetria.viagem WHERE serial = $1 AND inicio >= $2 AND inicio < $3`, [IMEI_A, new Date(at(D0, 0, 0)), new Date(at(D0, 23, 59))]);
    expect(trips.map((t) => Number(t.d))).toEqual([16_000]);
  });

  it('totals from batches in order and shuffled are equal (and equal a fresh aggregation)', async () => {
    const p = new TotaisProcessor(pool, silent, { intervalMs: 0, settleMs: 0 });
    let run = 0;
    await fc.assert(fc.asyncProperty(fixArb, fc.integer({ min: 1, max: 6 }), fc.integer(), async (steps, size, seed) => {
      run++;
      // fixes from 22:00 of day 1 on: the drive crosses midnight (and gaps longer than an hour)
      const fixes: R[] = [];
      let t = at(D1, 22, 0), lat = -23.6, km = 100;
      for (const s of steps) {
        t += s.gapS * 1000;
        const m = s.kmh * s.gapS / 3.6;
        lat += m / 111_320; km += m / 1000;
        fixes.push({ t, lat, kmh: s.kmh, ign: s.ign, km: Math.round(km * 1000) / 1000, engine: 0 });
      }
      const batches = (xs: R[]) => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));
      const shuffled = [...fixes];
      let r = seed;
      for (let i = shuffled.length - 1; i > 0; i--) { r = (r * 1103515245 + 12345) & 0x7fffffff; const j = r % (i + 1); [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]; }
      const inOrder = 92_000 + run * 3, mixed = inOrder + 1, fresh = inOrder + 2;
      await feed(p, `ord${run}`, inOrder, batches(fixes));
      await feed(p, `mix${run}`, mixed, batches(shuffled));
      await pool.query(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, speed, valid, ignition, attributes)
        SELECT 'frs' || $4::int, fix_time, tipo, empresa_id, $3, lat, lon, speed, valid, ignition, attributes FROM telemetria.posicao WHERE serial = $1 AND ativo_id = $2`, [`ord${run}`, inOrder, fresh, run]);
      const days = [...new Set(fixes.flatMap((f) => [f.t - 3600_000, f.t, f.t + 3600_000].map((x) => dataLocal(x))))];
      await p.aggregate(days.map((d) => `${fresh}|${d}`));
      const strip = async (ativo: number) => (await q(`SELECT data, posicoes, round(distancia::numeric, 3)::float8 AS distancia, tempo_conducao, tempo_parado, tempo_marcha_lenta, tempo_estacionado,
        velocidade_maxima, hodometro_inicial, hodometro_final, primeira_posicao, ultima_posicao FROM telemetria.total_diario WHERE ativo_id = $1 ORDER BY data`, [ativo]));
      const a = await strip(inOrder);
      expect(await strip(mixed)).toEqual(a);
      expect(await strip(fresh)).toEqual(a);
      expect(a.reduce((s, x) => s + x.posicoes, 0)).toBe(fixes.length);
    }), { numRuns: 12 });
    // the in-order batches were mostly added as increments; the fresh devices were aggregated whole
    expect(p.aggregated - p.full).toBeGreaterThan(0);
    await p.stop();
  });
});
