// Fences over the real gateway (OsmAnd HTTP) and the real API: fences drawn through /api/cerca (geometry checked,
// pt-BR 400s), entries and exits computed at ingest (crossings between fixes, interpolated times), time inside
// stored, late and repeated fixes without duplicates, an edit effective for the next fix, another company's fences
// never triggering nor showing, the keys required; the geometry utilities; speeding inside fences with a limit (one
// event per excursion, recomputed without duplicates, an alarm when the event library gives it a risk).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startGateway, type Gateway } from '../../../server/ingest/index.ts';
import { registerDevice } from '../../../server/ingest/testing/db.ts';
import { FenceProcessor } from './processor.ts';
import { dataLocal, fusoHorario } from '../../../server/core/fuso-horario.ts';
import { socketsOf } from '../../../server/test/sockets.ts';
import { LIVE_WINDOW_MS, type LiveMessage } from '../../../server/realtime/index.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number, ativoA: number, ativoB: number;
let userA: Api, userB: Api, semChave: Api;
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 3 * 3600_000;
const LAT0 = -23.6, LON0 = -46.65;
/** Degrees per metre on the fences' sphere (geo.ts). */
const DLAT = 180 / (Math.PI * 6_371_008.8);
const DLON = DLAT / Math.cos(LAT0 * Math.PI / 180);
/** Metres east/north of (LON0, LAT0) as [lon, lat]. */
const pos = (x: number, y: number): [number, number] => [LON0 + x * DLON, LAT0 + y * DLAT];
const rect = (x0: number, y0: number, x1: number, y1: number) =>
  ({ type: 'Polygon', coordinates: [[pos(x0, y0), pos(x1, y0), pos(x1, y1), pos(x0, y1), pos(x0, y0)]] });
const at = (i: number) => new Date(T0 + i * 60_000);

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const events = (serial: string) => q<{ fix_time: Date; code: string; key: string; description: string; empresa_id: number; ativo_id: number }>(
  `SELECT fix_time, code, key, description, empresa_id, ativo_id FROM telemetria.evento WHERE serial = $1 AND code LIKE 'cerca:%' ORDER BY fix_time, code`, [serial]);
const stays = (serial: string) => q(`SELECT cerca_id, entrada, saida, duracao FROM telemetria.cerca_permanencia WHERE serial = $1 ORDER BY entrada, cerca_id`, [serial]);

/** Sends fix i at (x, y) metres, at v km/h (default 60). */
async function send(serial: string, fixes: [i: number, x: number, y: number, v?: number][]): Promise<void> {
  for (const [i, x, y, v = 60] of fixes) {
    const [lon, lat] = pos(x, y);
    const r = await fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=${serial}&lat=${lat}&lon=${lon}&speed=${v / 1.852}&ignition=true&timestamp=${Math.floor(at(i).getTime() / 1000)}`, { method: 'POST' });
    expect(r.status).toBe(200);
  }
  await gw.drain();
}
/** North along x = 0, 1 km per minute: fix i at y = i km. */
const road = (from: number, to: number, x = 0): [number, number, number][] => Array.from({ length: to - from + 1 }, (_, k) => [from + k, x, (from + k) * 1000]);

async function fence(api: Api, body: Record<string, unknown>): Promise<number> {
  const r = await api.post('/api/cerca', body);
  expect(r.status).toBe(201);
  return (await r.json()).id;
}

let patio: number, rotatoria: number, fora: number, doca: number, deB: number;

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { osmandHttp: 0 }, writer: { lingerMs: 5 }, migrate: false });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ativoA = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  for (const s of ['cercaA', 'cercaLate', 'cercaEdit', 'cercaVig', 'cercaVig2', 'cercaVel', 'cercaLive']) await registerDevice(pool, s, A, ativoA, 'osmand', 'osmand');
  await registerDevice(pool, 'cercaB', B, ativoB, 'osmand', 'osmand');
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['tlm.cee.cercas.lista', 'tlm.cee.cercas.visualizar', 'tlm.cee.cercas.adicionar', 'tlm.cee.cercas.editar', 'tlm.cee.cercas.excluir'];
  await ts.createUser({ login: 'cercas_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'cercas_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'cercas_sem', ambienteId: ambiente, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  userA = await ts.login('cercas_a', 'senha-teste-123');
  userB = await ts.login('cercas_b', 'senha-teste-123');
  semChave = await ts.login('cercas_sem', 'senha-teste-123');
  // company A: a yard across the road from 2.5 to 4.5 km; a roundabout of 200 m around 6.5 km (between two fixes);
  // a fence east of the road (only the late fixes go in); company B: one fence over the whole road
  patio = await fence(userA, { descricao: 'Pátio', tipo: 'poligono', geometria: rect(-500, 2500, 500, 4500) });
  rotatoria = await fence(userA, { descricao: 'Rotatória', tipo: 'circulo', geometria: { type: 'Point', coordinates: pos(0, 6500) }, raio: 200 });
  fora = await fence(userA, { descricao: 'Fora da estrada', tipo: 'poligono', geometria: rect(200, 2500, 800, 4500) });
  doca = await fence(userA, { descricao: 'Doca', tipo: 'rota', geometria: { type: 'LineString', coordinates: [pos(20_000, 0), pos(20_000, 1000)] }, raio: 100 });
  deB = await fence(userB, { descricao: 'Estrada de B', tipo: 'poligono', geometria: rect(-5000, -5000, 5000, 50_000) });
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('drawing fences: the server checks the geometry', () => {
  it('refuses an open ring, a circle without radius, coordinates off the globe and a kind/geometry mismatch (400, pt-BR)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ descricao: 'Aberta', tipo: 'poligono', geometria: { type: 'Polygon', coordinates: [[pos(0, 0), pos(100, 0), pos(100, 100), pos(0, 100)]] } }, 'Polígono inválido: o anel deve ser fechado (a última posição igual à primeira)'],
      [{ descricao: 'Sem raio', tipo: 'circulo', geometria: { type: 'Point', coordinates: pos(0, 0) } }, 'Informe o raio do círculo, em metros'],
      [{ descricao: 'Fora', tipo: 'circulo', geometria: { type: 'Point', coordinates: [-200, 10] }, raio: 50 }, 'Coordenadas inválidas: longitude entre -180 e 180 e latitude entre -90 e 90'],
      [{ descricao: 'Trocada', tipo: 'rota', geometria: rect(0, 0, 10, 10), raio: 50 }, 'Geometria inválida: uma rota é um GeoJSON LineString'],
    ];
    for (const [body, msg] of cases) {
      const r = await userA.post('/api/cerca', body);
      expect(r.status).toBe(400);
      expect((await r.json()).msg).toBe(msg);
    }
    // an edit that changes only the kind is checked against the stored geometry too
    const r = await userA.put(`/api/cerca/${patio}`, { tipo: 'circulo', raio: 10 });
    expect(r.status).toBe(400);
    expect((await r.json()).msg).toBe('Geometria inválida: um círculo é um GeoJSON Point');
  });

  it('each company sees only its fences', async () => {
    const a = await json(await userA.get('/api/cerca?range=[0,49]'));
    expect(a.map((x: any) => x.descricao).sort()).toEqual(['Doca', 'Fora da estrada', 'Pátio', 'Rotatória']);
    const b = await json(await userB.get('/api/cerca?range=[0,49]'));
    expect(b.map((x: any) => x.descricao)).toEqual(['Estrada de B']);
    expect((await userB.get(`/api/cerca/${patio}`)).status).toBe(404);
    expect((await semChave.get('/api/cerca')).status).toBe(403);
  });
});

describe('entries and exits at ingest', () => {
  it('a drive through the yard and past the roundabout: one entry and one exit each, at the borders’ times', async () => {
    await send('cercaA', road(0, 8));
    const ev = await events('cercaA');
    expect(ev.map((e) => [e.fix_time.toISOString(), e.code, e.key, e.description])).toEqual([
      [new Date(T0 + 150_000).toISOString(), `cerca:${patio}:entrada`, 'geofenceEnter', 'Entrada em cerca eletrônica: Pátio'],
      [new Date(T0 + 270_000).toISOString(), `cerca:${patio}:saida`, 'geofenceExit', 'Saída de cerca eletrônica: Pátio'],
      // no fix inside the roundabout: crossed between the fixes at 6 and 7 km
      [new Date(T0 + 378_000).toISOString(), `cerca:${rotatoria}:entrada`, 'geofenceEnter', 'Entrada em cerca eletrônica: Rotatória'],
      [new Date(T0 + 402_000).toISOString(), `cerca:${rotatoria}:saida`, 'geofenceExit', 'Saída de cerca eletrônica: Rotatória'],
    ]);
    expect(new Set(ev.map((e) => `${e.empresa_id}/${e.ativo_id}`))).toEqual(new Set([`${A}/${ativoA}`]));
    expect(await stays('cercaA')).toEqual([
      { cerca_id: patio, entrada: new Date(T0 + 150_000), saida: new Date(T0 + 270_000), duracao: 120 },
      { cerca_id: rotatoria, entrada: new Date(T0 + 378_000), saida: new Date(T0 + 402_000), duracao: 24 },
    ]);
    // the same fixes again: nothing new
    await send('cercaA', road(3, 5));
    expect(await events('cercaA')).toHaveLength(4);
    expect(await stays('cercaA')).toHaveLength(2);
  });

  it('a company’s fences never trigger for another company’s vehicle', async () => {
    // B's device drives the same road: only B's fence (it starts inside it: an entry at its first fix)
    await send('cercaB', road(0, 8));
    const ev = await events('cercaB');
    expect(ev.map((e) => [e.code, e.empresa_id, e.fix_time.toISOString()])).toEqual([[`cerca:${deB}:entrada`, B, at(0).toISOString()]]);
    // and A's vehicle never got B's fence, though it drove inside it
    expect((await events('cercaA')).some((e) => e.code.startsWith(`cerca:${deB}:`))).toBe(false);
  });

  it('late fixes: the detour they show is computed once, then resent without duplicates', async () => {
    // the fixes at 3 and 4 km come late: the straight line 2 → 5 stays west of the fence
    await send('cercaLate', road(0, 8).filter(([i]) => i !== 3 && i !== 4));
    expect((await events('cercaLate')).filter((e) => e.code.startsWith(`cerca:${fora}:`))).toEqual([]);
    const detour: [number, number, number][] = [[3, 600, 3000], [4, 600, 4000]];
    await send('cercaLate', detour);
    const only = async () => (await events('cercaLate')).filter((e) => e.code.startsWith(`cerca:${fora}:`)).map((e) => [e.code, e.fix_time.toISOString()]);
    expect(await only()).toEqual([[`cerca:${fora}:entrada`, new Date(T0 + 150_000).toISOString()], [`cerca:${fora}:saida`, new Date(T0 + 270_000).toISOString()]]);
    await send('cercaLate', detour);
    await send('cercaLate', [[2, 0, 2000]]);
    expect(await only()).toHaveLength(2);
    // the yard, re-computed along the detour: out of it at x = 500 m between 2 and 3, back in between 4 and 5; once
    expect((await events('cercaLate')).filter((e) => e.code.startsWith(`cerca:${patio}:`)).map((e) => [e.code, e.fix_time.getTime() - T0])).toEqual([
      [`cerca:${patio}:entrada`, 150_000], [`cerca:${patio}:saida`, 170_000], [`cerca:${patio}:entrada`, 250_000], [`cerca:${patio}:saida`, 270_000]]);
    expect((await stays('cercaLate')).filter((s: any) => s.cerca_id === fora)).toEqual([{ cerca_id: fora, entrada: new Date(T0 + 150_000), saida: new Date(T0 + 270_000), duracao: 120 }]);
  });

  it('an edit of a fence takes effect for the next fix', async () => {
    // parked 20 km east: outside the Doca corridor (it lies 20 km east, 0 to 1 km north... the car is at 2 km north)
    await send('cercaEdit', [[0, 20_000, 2000], [1, 20_000, 2000]]);
    expect(await events('cercaEdit')).toEqual([]);
    // the corridor extended north to 3 km: the next fix (same place) enters
    const r = await userA.put(`/api/cerca/${doca}`, { geometria: { type: 'LineString', coordinates: [pos(20_000, 0), pos(20_000, 3000)] } });
    expect(r.status).toBe(200);
    await send('cercaEdit', [[2, 20_000, 2000]]);
    expect((await events('cercaEdit')).map((e) => [e.code, e.fix_time.toISOString()])).toEqual([[`cerca:${doca}:entrada`, at(2).toISOString()]]);
    // deactivated: the stay ends at the next fix, without an exit event
    expect((await userA.put(`/api/cerca/${doca}`, { ativo: false })).status).toBe(200);
    await send('cercaEdit', [[3, 20_000, 2000]]);
    expect(await events('cercaEdit')).toHaveLength(1);
    expect(await stays('cercaEdit')).toEqual([{ cerca_id: doca, entrada: at(2), saida: at(3), duracao: 60 }]);
  });
});

describe('the fences map card is pushed live', () => {
  const sockets = socketsOf(() => ts.url);
  afterAll(() => sockets.closeAll());
  /** The user's socket joined to its company; the fence events pushed to it. */
  async function listen(api: Api) {
    const { got } = await sockets.join<LiveMessage>(api.token, api.empresaAtiva, 'evento_cerca');
    return { got, rows: () => got.flatMap((m) => m.rows) as any[] };
  }

  it("an entry and an exit reach the company's open maps with the fence and the plate — not another company's, not a user without the key", async () => {
    const a = await listen(userA);
    const b = await listen(userB);
    const sem = await listen(semChave);
    await send('cercaLive', road(0, 5));
    await expect.poll(() => a.rows().filter((r) => r.serial === 'cercaLive').map((r) => r.tipo).sort(), { timeout: 15_000 }).toEqual(['Entrada', 'Saída']);
    const placa = (await q('SELECT placa FROM ativo WHERE id = $1', [ativoA]))[0].placa;
    const entrada = a.rows().find((r) => r.serial === 'cercaLive' && r.tipo === 'Entrada');
    expect(entrada).toMatchObject({ cercaId: patio, cercaDescricao: 'Pátio', ativoId: ativoA, placa });
    expect(new Date(entrada.fixTime).toISOString()).toBe(new Date(T0 + 150_000).toISOString());
    expect(a.got.every((m) => m.empresaId === A && m.rows.length <= 20)).toBe(true);
    await new Promise((r) => setTimeout(r, LIVE_WINDOW_MS * 3));
    expect(b.rows().filter((r) => r.serial === 'cercaLive')).toEqual([]);
    expect(sem.got).toEqual([]);
  });

  it('the processor tells the bus the serials whose events it stored (the push does not wait for their next position)', async () => {
    const told: { empresaId: number; serial: string }[][] = [];
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const proc = new FenceProcessor(pool, quiet, undefined, (rows) => told.push(rows));
    // a fresh processor recomputes the device's events from its stored positions (the drive above)
    const [lon, lat] = pos(0, 1000);
    proc.positions([{ serial: 'cercaLive', empresaId: A, ativoId: ativoA, motoristaId: null, t: at(1).getTime(), lat, lon, speed: 60, ignition: true, valid: true, odometer: null, buffered: false }]);
    await proc.drain();
    await proc.stop();
    expect(told).toEqual([[{ empresaId: A, serial: 'cercaLive' }]]);
    expect((await events('cercaLive')).map((e) => e.key)).toEqual(['geofenceEnter', 'geofenceExit']);
  });
});

describe('vigência: events only while the fence is in force', () => {
  /** Local 'HH:MM' of fix i (the company's time zone). */
  const hm = (i: number) => new Intl.DateTimeFormat('en-GB', { timeZone: fusoHorario(), hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at(i));
  const codes = async (serial: string, ids: number[]) => (await events(serial)).filter((e) => ids.some((id) => e.code.startsWith(`cerca:${id}:`))).map((e) => [e.code, e.fix_time.getTime() - T0]);

  it('the form’s checks and the list’s summary', async () => {
    const bad = await userA.post('/api/cerca', { descricao: 'Só início', tipo: 'poligono', horaInicial: '08:00' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).msg).toBe('Informe a hora inicial e a hora final, ou nenhuma das duas');
    const id = await fence(userA, { descricao: 'Comercial', tipo: 'poligono', diasSemana: ['seg', 'ter', 'qua', 'qui', 'sex'], horaInicial: '08:00', horaFinal: '18:00' });
    expect((await json(await userA.get(`/api/cerca/${id}`))).vigencia).toBe('Seg–Sex 08:00–18:00');
    expect((await userA.put(`/api/cerca/${id}`, { naoValeEmFeriados: true })).status).toBe(200);
    expect((await json(await userA.get(`/api/cerca/${id}`))).vigencia).toBe('Seg–Sex 08:00–18:00, exceto feriados');
    expect((await json(await userA.get(`/api/cerca/${patio}`))).vigencia).toBe('Sempre');
  });

  it('parked inside from minute 0 to 30, a window from 10 to 20: entry at 10, exit at 20; holidays and an expired fence: nothing', async () => {
    const box = rect(49_500, -500, 50_500, 500);
    const janela = { horaInicial: hm(10), horaFinal: hm(20) };
    const sempre = await fence(userA, { descricao: 'Sempre', tipo: 'poligono', geometria: box });
    const comJanela = await fence(userA, { descricao: 'Janela', tipo: 'poligono', geometria: box, ...janela });
    const feriado = await fence(userA, { descricao: 'Janela sem feriados', tipo: 'poligono', geometria: box, ...janela, naoValeEmFeriados: true });
    const ontem = new Date(Date.parse(`${dataLocal(at(0).getTime())}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const vencida = await fence(userA, { descricao: 'Vencida', tipo: 'poligono', geometria: box, vigenteAte: ontem });
    // the day the window opens is a holiday every year (recorrente, dated in 2001); another company's holiday of the
    // same kind on another day changes nothing
    const abertura = dataLocal(at(10).getTime());
    await q(`INSERT INTO calendario (empresa_id, data, descricao, tipo, recorrente, created_at, updated_at) VALUES ($1, $2, 'Feriado de teste', 'feriado_nacional', true, now(), now())`, [A, `2001${abertura.slice(4)}`]);
    const ids = [sempre, comJanela, feriado, vencida];
    await send('cercaVig', Array.from({ length: 31 }, (_, i) => [i, 50_000, 0] as [number, number, number]));
    expect(await codes('cercaVig', ids)).toEqual([
      [`cerca:${sempre}:entrada`, 0], [`cerca:${comJanela}:entrada`, 600_000], [`cerca:${comJanela}:saida`, 1_200_000]]);
    expect((await stays('cercaVig')).filter((x: any) => x.cerca_id === comJanela)).toEqual([{ cerca_id: comJanela, entrada: at(10), saida: at(20), duracao: 600 }]);

    // the holiday removed: the same fence now counts for the next fixes (a new window, minutes 40 to 50)
    await q(`DELETE FROM calendario WHERE empresa_id = $1 AND descricao = 'Feriado de teste'`, [A]);
    expect((await userA.put(`/api/cerca/${feriado}`, { horaInicial: hm(40), horaFinal: hm(50) })).status).toBe(200);
    await send('cercaVig', Array.from({ length: 25 }, (_, k) => [31 + k, 50_000, 0] as [number, number, number]));
    expect(await codes('cercaVig', [feriado, vencida])).toEqual([[`cerca:${feriado}:entrada`, 2_400_000], [`cerca:${feriado}:saida`, 3_000_000]]);
  });

  it('a drive through the fence: nothing outside the window, interpolated crossings inside it', async () => {
    const box = rect(59_500, -500, 60_500, 500);
    const janela = await fence(userA, { descricao: 'Janela da via', tipo: 'poligono', geometria: box, horaInicial: hm(10), horaFinal: hm(20) });
    // east at minutes 1–5 (out of the window), back west at 11–15 (in it): 1 km per minute
    await send('cercaVig2', [1, 2, 3, 4, 5].map((i) => [i, 58_000 + (i - 1) * 1000, 0] as [number, number, number]));
    expect(await codes('cercaVig2', [janela])).toEqual([]);
    await send('cercaVig2', [11, 12, 13, 14, 15].map((i) => [i, 62_000 - (i - 11) * 1000, 0] as [number, number, number]));
    expect(await codes('cercaVig2', [janela])).toEqual([[`cerca:${janela}:entrada`, 750_000], [`cerca:${janela}:saida`, 810_000]]);
  });
});

describe('speeding inside fences with a limit (velocidadeMaxima)', () => {
  const speeding = async (serial: string) => (await q<{ fix_time: Date; code: string; description: string; speed: number; attributes: any }>(
    `SELECT fix_time, code, description, speed, attributes FROM telemetria.evento WHERE serial = $1 AND key = 'geofenceOverspeed'`, [serial]))
    .map((e) => [e.fix_time.getTime() - T0, e.code, e.description, e.speed, e.attributes.cercaId, e.attributes.limite] as const)
    .sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1]));
  const ev = (i: number, id: number, nome: string, v: number, lim: number) =>
    [i * 60_000, `cerca:${id}:velocidade:${at(i).getTime()}`, `Velocidade excedida na cerca ${nome} (${v} km/h, limite ${lim} km/h)`, v, id, lim] as const;
  const sortEv = (l: ReturnType<typeof ev>[]) => l.sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1]));
  let z60: number, janela: number, livre: number, zero: number, noturna: number;
  // north along x = 80 km: outside at 90, in the box (y −0.5 to 5.5 km) at 50, 80, 85, 40, 90
  const drive: [number, number, number, number][] = [[0, 80_000, -2000, 90], [1, 80_000, 0, 50], [2, 80_000, 1000, 80], [3, 80_000, 2000, 85], [4, 80_000, 3000, 40], [5, 80_000, 4000, 90]];

  it('50, 80, 85, 40, 90 km/h in a 60 km/h fence: two excursions, at the first fix over the limit of each', async () => {
    const hm = (i: number) => new Intl.DateTimeFormat('en-GB', { timeZone: fusoHorario(), hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at(i));
    const box = rect(79_500, -500, 80_500, 5500);
    z60 = await fence(userA, { descricao: 'Zona 60', tipo: 'poligono', geometria: box, velocidadeMaxima: 60 });
    // in force at minutes 0 to 2 only: the excursion begun at 2 ends with it at 3; the 90 at 5 is out of force
    janela = await fence(userA, { descricao: 'Janela 60', tipo: 'poligono', geometria: box, velocidadeMaxima: 60, horaInicial: hm(0), horaFinal: hm(3) });
    livre = await fence(userA, { descricao: 'Sem limite', tipo: 'poligono', geometria: box });
    zero = await fence(userA, { descricao: 'Limite zero', tipo: 'poligono', geometria: box, velocidadeMaxima: 0 });
    noturna = await fence(userA, { descricao: 'Noturna', tipo: 'poligono', geometria: box, velocidadeMaxima: 30, horaInicial: hm(30), horaFinal: hm(40) });
    await send('cercaVel', drive);
    const first = sortEv([ev(2, z60, 'Zona 60', 80, 60), ev(2, janela, 'Janela 60', 80, 60), ev(5, z60, 'Zona 60', 90, 60)]);
    expect(await speeding('cercaVel')).toEqual(first);
    // the fences without limit (none, 0) and the one out of force only saw the entries (the latter not even that)
    const codes = (await events('cercaVel')).map((e) => e.code);
    expect(codes.filter((c) => c.startsWith(`cerca:${livre}:`) || c.startsWith(`cerca:${zero}:`)).sort()).toEqual([`cerca:${livre}:entrada`, `cerca:${zero}:entrada`]);
    expect(codes.filter((c) => c.startsWith(`cerca:${noturna}:`))).toEqual([]);
    // out of the box at 95 (the excursion ends), back in at 95: a new one
    await send('cercaVel', [[6, 80_000, 7000, 95], [7, 80_000, 5000, 95]]);
    expect(await speeding('cercaVel')).toEqual(sortEv([...first, ev(7, z60, 'Zona 60', 95, 60)]));
  });

  it('late and repeated fixes: re-computed without duplicates, an excursion open before the late batch stays one', async () => {
    const all = await speeding('cercaVel');
    expect(all).toHaveLength(4);
    const before = (await q(`SELECT count(*)::int AS n FROM telemetria.evento WHERE serial = 'cercaVel'`))[0].n;
    // from fix 1 (under the limit), then from fix 2 (over it in both limited fences: no new excursion at 3), then all
    for (const batch of [drive.slice(2, 5), drive.slice(3, 6), drive]) {
      await send('cercaVel', batch);
      expect(await speeding('cercaVel')).toEqual(all);
    }
    expect((await q(`SELECT count(*)::int AS n FROM telemetria.evento WHERE serial = 'cercaVel'`))[0].n).toBe(before);
  });

  it('listed with the fence’s events; an alarm once the event library gives the key a risk', async () => {
    const rows = await json(await userA.get(`/api/cercas/eventos?filter=${encodeURIComponent(JSON.stringify({ cercaId: z60 }))}&sort=${encodeURIComponent('["fixTime","ASC"]')}&range=[0,49]`));
    expect(rows.map((e: any) => [e.tipo, e.fixTime, e.velocidade, e.limite])).toEqual([
      ['Entrada', new Date(T0 + 45_000).toISOString(), 50, null],
      ['Velocidade excedida', at(2).toISOString(), 80, 60],
      ['Velocidade excedida', at(5).toISOString(), 90, 60],
      ['Saída', new Date(T0 + 330_000).toISOString(), 95, null],
      ['Entrada', new Date(T0 + 405_000).toISOString(), 95, null],
      ['Velocidade excedida', at(7).toISOString(), 95, 60],
    ]);
    const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
    await ts.createUser({ login: 'cercas_alarme', ambienteId: ambiente, empresas: [A], permissoes: ['tlm.evt.console_de_alarmes'] });
    const op = await ts.login('cercas_alarme', 'senha-teste-123');
    const alarmes = async () => (await json(await op.get(`/api/alarmes?filter=${encodeURIComponent(JSON.stringify({ q: 'cercaVel' }))}&sort=${encodeURIComponent('["dataEvento","ASC"]')}&range=[0,49]`)))
      .map((a: any) => [a.id, a.evento, a.descricao, a.risco]).sort((x: string[], y: string[]) => (x[0]! < y[0]! ? -1 : 1));
    expect(await alarmes()).toEqual([]);
    await q(`UPDATE biblioteca_evento SET risk = 'médio' WHERE event = 'geofenceOverspeed'`);
    const id = (i: number, cerca: number) => `cercaVel|${at(i).getTime()}|cerca:${cerca}:velocidade:${at(i).getTime()}`;
    const esperado = sortEv([ev(2, z60, '', 0, 0), ev(2, janela, '', 0, 0), ev(5, z60, '', 0, 0), ev(7, z60, '', 0, 0)])
      .map((e) => [id(e[0] / 60_000, e[4]), 'geofenceOverspeed', 'Excesso de velocidade em cerca eletrônica', 'médio']).sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
    expect(await alarmes()).toEqual(esperado);
    await q(`UPDATE biblioteca_evento SET risk = NULL WHERE event = 'geofenceOverspeed'`);
  });
});

describe('over HTTP', () => {
  it('events and stays are listed for the company only, with the fence and the asset', async () => {
    const ev = await json(await userA.get(`/api/cercas/eventos?filter=${encodeURIComponent(JSON.stringify({ cercaId: patio }))}&sort=${encodeURIComponent('["fixTime","ASC"]')}&range=[0,49]`));
    expect(ev.filter((e: any) => e.serial === 'cercaA').map((e: any) => [e.tipo, e.cercaDescricao, e.fixTime])).toEqual([
      ['Entrada', 'Pátio', new Date(T0 + 150_000).toISOString()], ['Saída', 'Pátio', new Date(T0 + 270_000).toISOString()]]);
    const st = await json(await userA.get(`/api/cercas/permanencias?filter=${encodeURIComponent(JSON.stringify({ cercaId: rotatoria }))}&range=[0,49]`));
    expect(st.map((s: any) => [s.serial, s.cercaDescricao, s.duracao, s.ativoId]).sort()).toEqual([['cercaA', 'Rotatória', 24, ativoA], ['cercaLate', 'Rotatória', 24, ativoA]]);
    // B sees its own event only, never A's fences
    const evB = await json(await userB.get('/api/cercas/eventos?range=[0,49]'));
    expect(evB.map((e: any) => [e.serial, e.cercaDescricao])).toEqual([['cercaB', 'Estrada de B']]);
    const stB = await json(await userB.get('/api/cercas/permanencias?range=[0,49]'));
    expect(stB.map((s: any) => s.cercaDescricao)).toEqual(['Estrada de B']);
    expect((await semChave.get('/api/cercas/eventos')).status).toBe(403);
    expect((await semChave.get('/api/cercas/permanencias')).status).toBe(403);
  });

  it('/util/geo/line_to_polygon and /wkd/geo/pol_to_circle', async () => {
    const r = await userA.post('/api/util/geo/line_to_polygon', { linha: { type: 'LineString', coordinates: [pos(0, 0), pos(1000, 0)] }, largura: 100 });
    expect(r.status).toBe(200);
    const poly = (await r.json()).payload;
    expect(poly.type).toBe('Polygon');
    const ring = poly.coordinates[0];
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    const lats = ring.map((p: number[]) => (p[1]! - LAT0) / DLAT);
    expect(Math.max(...lats)).toBeCloseTo(50, 0);
    expect(Math.min(...lats)).toBeCloseTo(-50, 0);
    const c = await userA.post('/wkd/geo/pol_to_circle'.replace(/^/, '/api'), { poligono: rect(0, 0, 300, 400) });
    expect(c.status).toBe(200);
    const { centro, raio } = (await c.json()).payload;
    expect(raio).toBeCloseTo(250, 0);
    expect(centro.type).toBe('Point');
    expect((centro.coordinates[1] - LAT0) / DLAT).toBeCloseTo(200, 0);
    const bad = await userA.post('/api/util/geo/line_to_polygon', { linha: [pos(0, 0)], largura: 100 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).msg).toBe('Rota inválida: a linha precisa de ao menos 2 pontos');
    const noWidth = await userA.post('/api/util/geo/line_to_polygon', { linha: [pos(0, 0), pos(1, 1)] });
    expect((await noWidth.json()).msg).toBe('Informe a largura do corredor da rota, em metros');
    expect((await semChave.post('/api/wkd/geo/pol_to_circle', { poligono: rect(0, 0, 1, 1) })).status).toBe(403);
  });
});
