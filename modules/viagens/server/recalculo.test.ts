// Trip parameters per company/asset, the open trip, the spec's trip parameters on each stored trip, and Recalcular
// período (a background job) over the real gateway (OsmAnd HTTP), the real API and the real socket.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectIo, type Socket } from 'socket.io-client';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startGateway, type Gateway } from '../../../server/ingest/index.ts';
import { registerDevice } from '../../../server/ingest/testing/db.ts';
import { SOCKET_PATH } from '../../../server/realtime/index.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number, ativoA: number;
let userA: Api, userB: Api, semChave: Api;
let sock: Socket;
const pushes: any[] = [];
const KNOT = 1.852;
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 6 * 3600_000;
const at = (i: number) => new Date(T0 + i * 60_000);
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const trips = (serial: string) => q(`SELECT inicio, fim, em_andamento, atributos, motorista_id FROM telemetria.viagem WHERE serial = $1 ORDER BY inicio`, [serial]);
const stops = (serial: string) => q('SELECT inicio, fim FROM telemetria.parada WHERE serial = $1 ORDER BY inicio', [serial]);

interface P { i: number; lat: number; kmh: number; ign: boolean }
const road = (from: number, to: number, lat0: number): P[] =>
  Array.from({ length: to - from + 1 }, (_, k) => ({ i: from + k, lat: lat0 + k * (1000 / 111_320), kmh: k === 0 ? 0 : 60, ign: true }));
const still = (from: number, to: number, lat: number, ign: boolean): P[] => Array.from({ length: to - from + 1 }, (_, k) => ({ i: from + k, lat, kmh: 0, ign }));

async function send(serial: string, ps: P[]): Promise<void> {
  for (const p of ps) {
    const r = await fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=${serial}&lat=${p.lat}&lon=-46.65&speed=${p.kmh / KNOT}&ignition=${p.ign}&timestamp=${Math.floor(at(p.i).getTime() / 1000)}`, { method: 'POST' });
    expect(r.status).toBe(200);
  }
  await gw.drain();
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { osmandHttp: 0 }, writer: { lingerMs: 5 }, migrate: false });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ativoA = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  await registerDevice(pool, 'recalcA', A, ativoA, 'osmand', 'osmand');
  await registerDevice(pool, 'andamentoA', A, ativoA, 'osmand', 'osmand');
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['cfg.map.parametros_viagem.lista', 'cfg.map.parametros_viagem.visualizar', 'cfg.map.parametros_viagem.adicionar',
    'cfg.map.parametros_viagem.editar', 'cfg.map.parametros_viagem.recalcula', 'cfg.map.analise_viagens', 'adm.sis.tarefa.lista', 'adm.sis.tarefa.visualizar'];
  await ts.createUser({ login: 'recalc_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'recalc_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'recalc_sem', ambienteId: ambiente, empresas: [A], permissoes: keys.filter((k) => !k.endsWith('.recalcula')) });
  userA = await ts.login('recalc_a', 'senha-teste-123');
  userB = await ts.login('recalc_b', 'senha-teste-123');
  semChave = await ts.login('recalc_sem', 'senha-teste-123');
  sock = connectIo(ts.url.replace('localhost', '127.0.0.1'), { path: SOCKET_PATH, auth: { token: userA.token }, transports: ['websocket'] });
  sock.on('tarefa', (p) => pushes.push(p));
  await new Promise<void>((res, rej) => { sock.once('connect', () => res()); sock.once('connect_error', rej); });
});

afterAll(async () => {
  sock?.disconnect();
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

// 10 km, a 3-minute halt with the ignition on (fixes 11..13), 6 km more, then parked with the ignition off.
const LAT = -23.6;
const END1 = LAT + 10 * (1000 / 111_320);
const day = [...road(0, 10, LAT), ...still(11, 13, END1, true), ...road(14, 20, END1), ...still(21, 30, END1 + 6 * (1000 / 111_320), false)];

describe('trip parameters and recompute', () => {
  it('an open trip is stored as em andamento and listed as "Em andamento"; closed trips carry the spec’s trip parameters', async () => {
    await send('andamentoA', road(0, 8, -22.5));
    expect((await trips('andamentoA')).map((t) => [t.inicio, t.fim, t.em_andamento])).toEqual([[at(0), at(8), true]]);
    const filter = encodeURIComponent(JSON.stringify({ ativoId: ativoA }));
    const rows = await json(await userA.get(`/api/viagens?filter=${filter}`));
    expect(rows.filter((r: any) => r.serial === 'andamentoA').map((r: any) => r.situacao)).toEqual(['Em andamento']);
    // it goes on, then ends with the ignition off: the same row, closed
    await send('andamentoA', [...road(9, 12, -22.5 + 8 * (1000 / 111_320)).slice(1), ...still(13, 14, -22.5 + 12 * (1000 / 111_320), false)]);
    const [t] = await trips('andamentoA');
    expect([t.inicio, t.fim, t.em_andamento]).toEqual([at(0), at(13), false]);
    // the asset's driver (demo data) rode along
    expect(t.motorista_id).toBeGreaterThan(0);
    expect(t.atributos).toEqual({ trip_duration: 13, trip_distance: expect.closeTo(12, 1), trip_has_driver: true, trip_driver: t.motorista_id });
    expect((await json(await userA.get(`/api/viagens?filter=${filter}`))).find((r: any) => r.serial === 'andamentoA').situacao).toBe('Concluída');
  });

  it('with the defaults the 3-minute halt stays inside one trip', async () => {
    await send('recalcA', day);
    expect((await trips('recalcA')).map((t) => [t.inicio, t.fim])).toEqual([[at(0), at(21)]]);
    expect(await stops('recalcA')).toEqual([]);
  });

  it('the asset’s parameters + Recalcular período: a job whose progress is pushed; the halt becomes a stop', async () => {
    const r = await userA.post('/api/parametro_viagem', { descricao: 'Paradas curtas', ativo: ativoA, distanciaMinima: 500, duracaoMinima: 300, paradaMinima: 120, intervaloSemDados: 3600, usarIgnicao: true, velocidadeMovimento: 3 });
    expect(r.status).toBe(201);
    const param = await json(r);
    const body = { inicio: at(-60).toISOString(), fim: at(40).toISOString() };
    // another company's row: 404; without the action's key: 403
    expect((await userB.post(`/api/parametro_viagem/${param.id}/recalcula`, body)).status).toBe(404);
    expect((await semChave.post(`/api/parametro_viagem/${param.id}/recalcula`, body)).status).toBe(403);
    const bad = await userA.post(`/api/parametro_viagem/${param.id}/recalcula`, { inicio: body.fim, fim: body.inicio });
    expect([bad.status, (await json(bad)).msg]).toEqual([400, 'O fim do período deve ser depois do início']);
    const s = await userA.post(`/api/parametro_viagem/${param.id}/recalcula`, body);
    expect(s.status).toBe(201);
    const job = await json(s);
    expect(job).toMatchObject({ tipo: 'recalculo_viagens', estado: 'na_fila' });
    expect(job.descricao).toMatch(/^Recalcular viagens — /);
    await expect.poll(() => pushes.filter((p) => p.id === job.id).at(-1)?.estado, { timeout: 20_000 }).toBe('concluido');
    const mine = pushes.filter((p) => p.id === job.id);
    expect(mine.at(-1)).toMatchObject({ progresso: 100 });
    // the recomputed trips: the halt (11..13, 2 min reach the 120 s) ends the first trip; the stop lasts to fix 14
    expect((await trips('recalcA')).map((t) => [t.inicio, t.fim])).toEqual([[at(0), at(11)], [at(14), at(21)]]);
    expect(await stops('recalcA')).toEqual([{ inicio: at(11), fim: at(14) }]);
    // both devices of the asset had positions in the period
    expect(mine.at(-1).resultado).toBe('2 equipamento(s): 3 viagem(ns) e 1 parada(s) no período');
    // the other company's user: the job is not theirs
    expect((await userB.get(`/api/tarefa/${job.id}`)).status).toBe(404);
    // again: the same rows (idempotent)
    const again = await json(await userA.post(`/api/parametro_viagem/${param.id}/recalcula`, body));
    await expect.poll(async () => (await json(await userA.get(`/api/tarefa/${again.id}`))).estado, { timeout: 20_000 }).toBe('concluido');
    expect((await trips('recalcA')).map((t) => [t.inicio, t.fim])).toEqual([[at(0), at(11)], [at(14), at(21)]]);
    expect(await stops('recalcA')).toHaveLength(1);
  });
});
