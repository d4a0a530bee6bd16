// Trips and stops at ingest, over the real gateway (OsmAnd HTTP) and the real API: positions stored → trips and stops
// in telemetria.viagem/parada; late fixes re-compute the affected trips; the lists are company-scoped and need their key.
import net from 'node:net';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startGateway, type Gateway } from '../../../server/ingest/index.ts';
import { registerDevice } from '../../../server/ingest/testing/db.ts';
import { qTime, VERSIONS } from '../../../server/ingest/simulator.ts';
import { rpmSql } from '../../../shared/rpm.ts';
import { restartPoint } from './detector.ts';
import { SQL_ANCHOR } from './processor.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number, ativoA: number, ativoB: number;
let userA: Api, userB: Api, semChave: Api;
const KNOT = 1.852;
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 6 * 3600_000;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const trips = (serial: string) => q(`SELECT inicio, fim, distancia, duracao, velocidade_maxima, tempo_ocioso, empresa_id, ativo_id
  FROM telemetria.viagem WHERE serial = $1 ORDER BY inicio`, [serial]);
const stops = (serial: string) => q('SELECT inicio, fim, duracao, ignicao FROM telemetria.parada WHERE serial = $1 ORDER BY inicio', [serial]);

interface P { i: number; lat: number; lon: number; kmh: number; ign: boolean }
/** Fix i at T0 + i minutes. */
const at = (i: number) => new Date(T0 + i * 60_000);
/** A straight road north: 1 km per minute (60 km/h) from fix `from` to `to`, stopped before and after. */
function road(from: number, to: number, lat0 = -23.6): P[] {
  const out: P[] = [];
  for (let i = from; i <= to; i++) out.push({ i, lat: lat0 + (i - from) * (1000 / 111_320), lon: -46.65, kmh: i === from ? 0 : 60, ign: true });
  return out;
}

async function send(serial: string, ps: P[]): Promise<void> {
  for (const p of ps) {
    const r = await fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=${serial}&lat=${p.lat}&lon=${p.lon}&speed=${p.kmh / KNOT}&ignition=${p.ign}&timestamp=${Math.floor(at(p.i).getTime() / 1000)}`, { method: 'POST' });
    expect(r.status).toBe(200);
  }
  await gw.drain();
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { osmandHttp: 0, queclinkTcp: 0 }, writer: { lingerMs: 5 }, migrate: false });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ativoA = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  await registerDevice(pool, 'viagemA', A, ativoA, 'osmand', 'osmand');
  await registerDevice(pool, 'atrasoA', A, ativoA, 'osmand', 'osmand');
  await registerDevice(pool, 'viagemB', B, ativoB, 'osmand', 'osmand');
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.viagens', 'cfg.map.analise_viagens'];
  await ts.createUser({ login: 'viagens_a', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'viagens_b', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'viagens_sem', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [A], permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'] });
  userA = await ts.login('viagens_a', 'senha-teste-123');
  userB = await ts.login('viagens_b', 'senha-teste-123');
  semChave = await ts.login('viagens_sem', 'senha-teste-123');
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('trips and stops at ingest', () => {
  it('a 10 km drive then 20 minutes parked and another 5 km: two trips and the stop between, as positions arrive', async () => {
    const park = (from: number, to: number, lat: number): P[] => Array.from({ length: to - from + 1 }, (_, k) => ({ i: from + k, lat, lon: -46.65, kmh: 0, ign: false }));
    const first = road(0, 10);
    await send('viagemA', first);
    // the trip is still open: stored as em andamento (moving now), up to the last fix
    expect(await q('SELECT inicio, fim, em_andamento FROM telemetria.viagem WHERE serial = $1', ['viagemA'])).toEqual([{ inicio: at(0), fim: at(10), em_andamento: true }]);
    const end = first[first.length - 1]!.lat;
    await send('viagemA', park(11, 29, end));
    const [t1] = await trips('viagemA');
    expect(t1).toMatchObject({ inicio: at(0), fim: at(11), duracao: 660, empresa_id: A, ativo_id: ativoA });
    expect(t1.distancia).toBeGreaterThan(9_950);
    expect(t1.distancia).toBeLessThan(10_050);
    expect(t1.velocidade_maxima).toBeCloseTo(60, 0);
    await send('viagemA', [...road(30, 35, end), ...park(36, 37, end + 5000 / 111_320)]);
    const all = await trips('viagemA');
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ inicio: at(30), fim: at(36), duracao: 360 });
    expect(all[1].distancia).toBeGreaterThan(4_950);
    expect(all[1].distancia).toBeLessThan(5_050);
    expect(await stops('viagemA')).toEqual([{ inicio: at(11), fim: at(30), duracao: 19 * 60, ignicao: false }]);
    await send('viagemB', [...road(0, 8, -22.9), ...park(9, 10, -22.9 + 8000 / 111_320)]);
    expect((await trips('viagemB')).map((t) => [t.empresa_id, t.ativo_id])).toEqual([[B, ativoB]]);
  });

  it('late fixes re-open the trip they fall in and correct it (a 10-minute stop the device sent from its memory)', async () => {
    // fixes 10..19 missing: one 30 km trip with a 10-minute straight jump
    const all = road(0, 30);
    const hole = (p: P) => p.i >= 10 && p.i <= 19;
    await send('atrasoA', [...all.filter((p) => !hole(p)), { i: 31, lat: all[30]!.lat, lon: -46.65, kmh: 0, ign: false }]);
    let t = await trips('atrasoA');
    expect(t.map((x) => [x.inicio, x.fim])).toEqual([[at(0), at(31)]]);
    expect(await stops('atrasoA')).toEqual([]);
    // the memory: it had stopped with the ignition off at fix 9's place from 10 to 19, then drove on fast
    const parked = all[9]!;
    await send('atrasoA', all.filter(hole).map((p) => ({ ...p, lat: parked.lat, kmh: 0, ign: false })));
    t = await trips('atrasoA');
    expect(t.map((x) => [x.inicio, x.fim])).toEqual([[at(0), at(10)], [at(19), at(31)]]);
    expect(t[0].distancia).toBeGreaterThan(8_950);
    expect(t[0].distancia).toBeLessThan(9_050);
    expect(await stops('atrasoA')).toEqual([{ inicio: at(10), fim: at(19), duracao: 9 * 60, ignicao: false }]);
    // the same late fixes again (a resend): nothing changes, nothing is duplicated
    await send('atrasoA', all.filter(hole).slice(0, 3).map((p) => ({ ...p, lat: parked.lat, kmh: 0, ign: false })));
    expect((await trips('atrasoA')).map((x) => [x.inicio, x.fim])).toEqual([[at(0), at(10)], [at(19), at(31)]]);
    expect(await stops('atrasoA')).toHaveLength(1);
  });
});

describe('trip lists over HTTP', () => {
  it('the asset tab lists its trips newest first, distances in km; another company’s asset lists none of them', async () => {
    const r = await userA.get(`/api/viagens/ativo/${ativoA}?sort=${encodeURIComponent('["inicio","DESC"]')}&range=[0,49]`);
    expect(r.status).toBe(200);
    const rows = await json(r);
    // both devices of the asset: viagemA's two trips and atrasoA's two
    expect(rows.map((x: any) => x.serial)).toEqual(['viagemA', 'atrasoA', 'atrasoA', 'viagemA']); // same start: serial order
    expect(rows.map((x: any) => Date.parse(x.inicio))).toEqual([at(30), at(19), at(0), at(0)].map((d) => d.getTime()));
    const first = rows.find((x: any) => x.serial === 'viagemA' && Date.parse(x.inicio) === at(0).getTime());
    expect(first).toMatchObject({ duracao: 660, velocidadeMaxima: 60 });
    expect(first.distancia).toBeCloseTo(10, 1);
    // B's asset through A's session: no row (the company scope), and B's own list has only its trip
    // another company's asset is not found (404), as a row of that company is
    for (const [api, ativo] of [[userA, ativoB], [userB, ativoA]] as const) {
      const r = await api.get(`/api/viagens/ativo/${ativo}`);
      expect([r.status, (await json(r)).msg]).toEqual([404, 'Ativo não encontrado']);
    }
    expect((await json(await userB.get(`/api/viagens/ativo/${ativoB}`))).map((x: any) => x.serial)).toEqual(['viagemB']);
  });

  it('filters by period', async () => {
    const filter = encodeURIComponent(JSON.stringify({ inicio_gte: at(15).toISOString(), inicio_lte: at(40).toISOString() }));
    const rows = await json(await userA.get(`/api/viagens/ativo/${ativoA}?filter=${filter}`));
    expect(rows.map((x: any) => [x.serial, Date.parse(x.inicio)])).toEqual([['viagemA', at(30).getTime()], ['atrasoA', at(19).getTime()]]);
  });

  it('the analysis lists (trips, stops) are the company’s; one trip by id is 404 for another company', async () => {
    const filter = encodeURIComponent(JSON.stringify({ ativoId: ativoA }));
    const tripsA = await json(await userA.get(`/api/viagens?filter=${filter}&range=[0,49]`));
    expect(tripsA).toHaveLength(4);
    expect(new Set((await json(await userA.get('/api/viagens?range=[0,49]'))).map((x: any) => x.serial))).toEqual(new Set(['viagemA', 'atrasoA']));
    expect((await json(await userA.get(`/api/paradas?filter=${filter}`))).map((x: any) => x.duracao).sort((a: number, b: number) => a - b)).toEqual([540, 1140]);
    expect(await json(await userB.get('/api/paradas'))).toEqual([]);
    const idB = (await json(await userB.get('/api/viagens')))[0].id as string;
    expect(idB).toMatch(/^viagemB-\d+$/);
    const mine = await userB.get(`/api/viagens/viagem?id=${idB}`);
    expect(mine.status).toBe(200);
    expect((await json(mine)).payload).toMatchObject({ serial: 'viagemB', ativoId: ativoB });
    const other = await userA.get(`/api/viagens/viagem?id=${idB}`);
    expect(other.status).toBe(404);
    expect((await json(other)).msg).toBe('Viagem não encontrada');
  });

  it('a trip’s track is its positions from start to end, in time order; another company’s trip has none', async () => {
    const idB = (await json(await userB.get(`/api/viagens?sort=${encodeURIComponent('["inicio","ASC"]')}`)))[0].id as string;
    const track = await json(await userB.get(`/api/viagens/trajeto/${encodeURIComponent(idB)}?range=[0,999]`));
    // viagemB: fixes 0..8 driving and 9 stopped; the trip runs from fix 0 to the first stopped fix
    expect(track.map((p: any) => p.fixTime)).toEqual(Array.from({ length: 10 }, (_, i) => at(i).toISOString()));
    expect(track.map((p: any) => p.latitude)).toEqual([...track.map((p: any) => p.latitude)].sort((a, b) => a - b));
    expect(track.map((p: any) => [p.longitude, p.velocidade])).toEqual([[-46.65, 0], ...Array(8).fill([-46.65, 60]), [-46.65, 0]]);
    expect(await json(await userA.get(`/api/viagens/trajeto/${encodeURIComponent(idB)}`))).toEqual([]);
    expect(await json(await userB.get('/api/viagens/trajeto/nao-existe-1'))).toEqual([]);
    expect((await semChave.get(`/api/viagens/trajeto/${encodeURIComponent(idB)}`)).status).toBe(403);
  });

  it('the keys are required: a user without them is refused (403)', async () => {
    for (const path of [`/api/viagens/ativo/${ativoA}`, '/api/viagens', '/api/paradas']) {
      const r = await semChave.get(path);
      expect(r.status, path).toBe(403);
    }
  });
});

describe('weights a truck reports over CAN', () => {
  /** GTCAN of a GV350CEU at fix i (as server/ingest/simulator.ts sends it): axle 2 in the main mask, axle 1 in the
   *  expansion mask, then the location. */
  const gtcan = (imei: string, count: number, p: P, w1: number, w2: number) => `+RESP:GTCAN,${VERSIONS.gv350ceu},${imei},,10,1,E00081FF,,${p.ign ? 2 : 0},`
    + `H${1000 + p.i * 10},100.00,${p.kmh ? 1500 : 0},${p.kmh},88,L/H20.0,L250.0,${w2},00000002,${w1},`
    + `1,${p.kmh.toFixed(1)},0,740.0,${p.lon.toFixed(6)},${p.lat.toFixed(6)},${qTime(at(p.i))},0724,0005,1A2B,00C3F1D2,01,8,${qTime(at(p.i))},${count.toString(16).toUpperCase().padStart(4, '0')}$`;

  it('each trip keeps the mean of its axle weights and total, live and when a late fix re-computes it; listed in kg', async () => {
    const imei = '864001500077001';
    const [ativo2] = (await q('SELECT id FROM ativo WHERE empresa_id = $1 AND id <> $2 ORDER BY id LIMIT 1', [A, ativoA])).map((r) => r.id);
    await registerDevice(pool, imei, A, ativo2, 'gv350ceu', 'queclink');
    const sock = net.connect(gw.ports.queclinkTcp, '127.0.0.1');
    await once(sock, 'connect');
    let count = 0;
    const sendCan = async (ps: [P, number, number][]) => {
      for (const [p, w1, w2] of ps) sock.write(gtcan(imei, ++count, p, w1, w2));
      const deadline = Date.now() + 10_000;
      // every frame acknowledged (+SACK), then the trips are written
      while ((await q('SELECT count(*)::int AS n FROM telemetria.posicao WHERE serial = $1', [imei]))[0].n < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await gw.drain();
    };
    const park = (from: number, to: number, lat: number): P[] => Array.from({ length: to - from + 1 }, (_, k) => ({ i: from + k, lat, lon: -46.65, kmh: 0, ign: false }));
    // loaded: 10 km, fixes 0-11 (axle 1 sways 6000/6100, axle 2 9000); parked 12-29; empty: 5 km, fixes 30-36 (4300/3200)
    const first = road(0, 10, -23.4), end = first.at(-1)!.lat;
    await sendCan([...first, ...park(11, 29, end)].map((p) => [p, p.i <= 11 ? 6000 + (p.i % 2) * 100 : 5900, p.i <= 11 ? 9000 : 8800]));
    await sendCan([...road(30, 35, end), ...park(36, 37, end + 5000 / 111_320)].map((p) => [p, 4300, 3200]));
    const weights = () => q('SELECT inicio, fim, peso_eixo1, peso_eixo2, carga FROM telemetria.viagem WHERE serial = $1 ORDER BY inicio', [imei]);
    // trip 1 runs from fix 0 to the first stopped fix (11): 6 × 6000 + 6 × 6100, 12 × 9000; the total is their sum
    expect(await weights()).toEqual([
      { inicio: at(0), fim: at(11), peso_eixo1: 6050, peso_eixo2: 9000, carga: 15050 },
      { inicio: at(30), fim: at(36), peso_eixo1: 4300, peso_eixo2: 3200, carga: 7500 },
    ]);
    // a late fix inside trip 1 (from the device's memory): re-computed from the stored positions (SQL), its weights count
    await sendCan([[{ i: 5.5, lat: first[5]!.lat + 500 / 111_320, lon: -46.65, kmh: 60, ign: true }, 7250, 9000]]);
    expect((await weights())[0]).toEqual({ inicio: at(0), fim: at(11), peso_eixo1: 6142, peso_eixo2: 9000, carga: 15142 });
    // the engine speed of each frame (1500 rpm moving, 0 stopped: each leg's first fix and the parked ones) is stored
    // in its own column, as the SQL reads it from the attributes: 10 + 5 + the late fix moving, 1 + 19 + 1 + 2 stopped
    expect(await q(`SELECT rpm, count(*)::int AS n, count(*) FILTER (WHERE rpm IS DISTINCT FROM ${rpmSql('attributes')})::int AS differ
      FROM telemetria.posicao WHERE serial = $1 GROUP BY rpm ORDER BY rpm`, [imei])).toEqual([{ rpm: 0, n: 23, differ: 0 }, { rpm: 1500, n: 16, differ: 0 }]);
    sock.destroy();
    // over HTTP, in the trip analysis list; trips of a vehicle without weights (OsmAnd) have none
    const list = await json(await userA.get(`/api/viagens?filter=${encodeURIComponent(JSON.stringify({ ativoId: ativo2 }))}&sort=${encodeURIComponent('["inicio","ASC"]')}`));
    expect(list.map((x: any) => [x.peso1oEixo, x.peso2oEixo, x.carga])).toEqual([[6142, 9000, 15142], [4300, 3200, 7500]]);
    const osmand = await json(await userA.get(`/api/viagens?filter=${encodeURIComponent(JSON.stringify({ ativoId: ativoA }))}`));
    expect(osmand.length).toBeGreaterThan(0);
    expect(osmand.every((x: any) => x.peso1oEixo === null && x.peso2oEixo === null && x.carga === null)).toBe(true);
  });
});

describe('the restart point in SQL (SQL_ANCHOR) is detector.ts restartPoint', () => {
  it('the start of the segment before the last one ended by t; that one when alone; none: null', async () => {
    const serial = 'ancora-1';
    const t = (s: number) => new Date(Date.UTC(2026, 0, 5, 8, 0, s)).toISOString();
    const viagem = (a: number, b: number) => q(`INSERT INTO telemetria.viagem (serial, inicio, fim, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao,
      velocidade_maxima, velocidade_media, tempo_ocioso) VALUES ($1, $2, $3, 0, 0, 0, 0, 600, $4, 20, 10, 0)`, [serial, t(a), t(b), b - a]);
    const parada = (a: number, b: number) => q(`INSERT INTO telemetria.parada (serial, inicio, fim, lat, lon, duracao, tempo_ligado)
      VALUES ($1, $2, $3, 0, 0, $4, 0)`, [serial, t(a), t(b), b - a]);
    const anchor = async (s: number) => {
      const [r] = await q(SQL_ANCHOR, [serial, t(s)]);
      const segs = [...(await q('SELECT inicio, fim FROM telemetria.viagem WHERE serial = $1', [serial])), ...(await q('SELECT inicio, fim FROM telemetria.parada WHERE serial = $1', [serial]))]
        .map((x) => ({ start: { t: x.inicio.getTime() }, end: { t: x.fim.getTime() } }));
      const js = restartPoint(segs, Date.parse(t(s)));
      expect(r.anchor?.getTime() ?? null).toBe(js);
      return r.anchor === null ? null : (r.anchor.getTime() - Date.parse(t(0))) / 1000;
    };
    expect(await anchor(100)).toBeNull();
    await viagem(0, 122);
    expect(await anchor(150)).toBe(0);
    await parada(122, 172);
    await viagem(172, 900);
    expect(await anchor(177)).toBe(0); // not the stop: it may turn into a halt of the trip before it
    expect(await anchor(121)).toBeNull();
    expect(await anchor(950)).toBe(122);
    await q('DELETE FROM telemetria.viagem WHERE serial = $1', [serial]);
    await q('DELETE FROM telemetria.parada WHERE serial = $1', [serial]);
  });
});
