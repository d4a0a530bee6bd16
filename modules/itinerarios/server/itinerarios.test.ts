// Itinerary history and line recognition over the real gateway (OsmAnd HTTP) and the real API: a line drawn with its
// corridor, an itinerary with two stop points, a drive leaving the corridor for three minutes; the comparison lists
// that deviation (when, how long, how far) and the lateness at each stop; another company's itinerary or asset is
// 404, a user without the key 403; the line recognition names the line driven and never another company's line.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startGateway, type Gateway } from '../../../server/ingest/index.ts';
import { registerDevice } from '../../../server/ingest/testing/db.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number, ativoA: number, ativoB: number;
let userA: Api, userB: Api, semChave: Api;
let linhaA: number, outraA: number, itA: number, itB: number;
// yesterday 12:00 UTC (09:00 in São Paulo): always past, the stops' wall times on the same local day
const T0 = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 12 * 3600_000;
const LAT0 = -23.6, LON0 = -46.65;
const DLAT = 180 / (Math.PI * 6_371_008.8);
const DLON = DLAT / Math.cos(LAT0 * Math.PI / 180);
const pos = (x: number, y: number): [number, number] => [LON0 + x * DLON, LAT0 + y * DLAT];
const at = (i: number) => new Date(T0 + i * 60_000);
const hhmm = (d: Date) => new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const periodo = `inicio=${encodeURIComponent(at(-30).toISOString())}&fim=${encodeURIComponent(at(60).toISOString())}`;

/** North along x = 0, 1 km a minute; minutes 4..6 drift 300 m east. */
const drive: [number, number, number][] = Array.from({ length: 11 }, (_, i) => [i, i >= 4 && i <= 6 ? 300 : 0, i * 1000]);

async function send(serial: string, fixes: [number, number, number][]): Promise<void> {
  for (const [i, x, y] of fixes) {
    const [lon, lat] = pos(x, y);
    const r = await fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=${serial}&lat=${lat}&lon=${lon}&speed=${60 / 1.852}&ignition=true&timestamp=${Math.floor(at(i).getTime() / 1000)}`, { method: 'POST' });
    expect(r.status).toBe(200);
  }
  await gw.drain();
}
async function created(api: Api, path: string, body: Record<string, unknown>): Promise<number> {
  const r = await api.post(path, body);
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json()).id;
}
const linha = (from: [number, number], to: [number, number]) => ({ type: 'LineString', coordinates: [pos(...from), pos(...to)] });

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { osmandHttp: 0 }, writer: { lingerMs: 5 }, migrate: false });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ativoA = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  await registerDevice(pool, 'itinA', A, ativoA, 'osmand', 'osmand');
  await registerDevice(pool, 'itinB', B, ativoB, 'osmand', 'osmand');
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['tlm.cee.linhas.adicionar', 'tlm.cee.itinerarios.adicionar', 'tlm.cee.itinerarios.pontos.adicionar',
    'tlm.ras.historico_itinerario', 'cfg.map.reconhecimento_linhas'];
  await ts.createUser({ login: 'itin_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'itin_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'itin_sem', ambienteId: ambiente, empresas: [A], permissoes: ['tlm.cee.linhas.lista'] });
  userA = await ts.login('itin_a', 'senha-teste-123');
  userB = await ts.login('itin_b', 'senha-teste-123');
  semChave = await ts.login('itin_sem', 'senha-teste-123');

  linhaA = await created(userA, '/api/linha', { descricao: 'Linha Norte', codigo: 'n1', largura: 100, trajeto: linha([0, 0], [0, 10_000]) });
  outraA = await created(userA, '/api/linha', { descricao: 'Linha Leste', codigo: 'l2', largura: 100, trajeto: linha([5000, 0], [5000, 10_000]) });
  itA = await created(userA, '/api/itinerario', { descricao: 'Norte manhã', linha: linhaA, inicioIda: hhmm(at(0)) });
  await created(userA, '/api/itinerario_ponto', { itinerario: itA, ordem: 1, descricao: 'Praça', horario: hhmm(at(3)), raio: 100, posicao: { type: 'Point', coordinates: pos(0, 3000) } });
  await created(userA, '/api/itinerario_ponto', { itinerario: itA, ordem: 2, descricao: 'Terminal', horario: hhmm(at(8)), raio: 100, posicao: { type: 'Point', coordinates: pos(0, 10_000) } });
  // company B: the same road as a line of its own
  const linhaB = await created(userB, '/api/linha', { descricao: 'Linha de B', largura: 700, trajeto: linha([0, 0], [0, 10_000]) });
  itB = await created(userB, '/api/itinerario', { descricao: 'Itinerário de B', linha: linhaB });
  await send('itinA', drive);
  await send('itinB', drive);
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('the line is drawn with its corridor', () => {
  it('stores the route and the width; the new stop points are the itinerary’s, in order', async () => {
    expect(await q('SELECT largura, trajeto->>\'type\' AS t FROM linha WHERE id = $1', [linhaA])).toEqual([{ largura: 100, t: 'LineString' }]);
    expect((await q('SELECT descricao FROM itinerario_ponto WHERE itinerario = $1 ORDER BY ordem', [itA])).map((r) => r.descricao)).toEqual(['Praça', 'Terminal']);
  });
});

describe('GET /api/historico_itinerario/:id/comparacao', () => {
  it('lists the deviation (when, how long, how far) and the lateness at each stop point', async () => {
    const r = await userA.get(`/api/historico_itinerario/${itA}/comparacao?ativo=${ativoA}&${periodo}`);
    expect(r.status, await r.clone().text()).toBe(200);
    const p = (await r.json()).payload;
    expect(p.itinerario).toMatchObject({ id: itA, descricao: 'Norte manhã', linha: 'Linha Norte', largura: 100 });
    expect(p.viagens).toHaveLength(1);
    const v = p.viagens[0];
    expect(v.direcao).toBe('ida');
    expect(v.desvios.map((d: any) => [d.inicio, d.fim, d.duracao, d.distanciaMaxima, d.trecho.length])).toEqual([
      [at(4).toISOString(), at(7).toISOString(), 180, 300, 3],
    ]);
    expect(v.tempoFora).toBe(180);
    expect(v.dentroDoCorredor).toBe(72.7);
    expect(v.trilha).toHaveLength(11);
    expect(v.pontos.map((x: any) => [x.ordem, x.descricao, x.previsto, x.chegada, x.atraso])).toEqual([
      [1, 'Praça', at(3).toISOString(), at(3).toISOString(), 0],
      [2, 'Terminal', at(8).toISOString(), at(10).toISOString(), 120],
    ]);
  });

  it('another company’s itinerary or asset is 404; without the key 403; a bad period 400', async () => {
    let r = await userB.get(`/api/historico_itinerario/${itA}/comparacao?ativo=${ativoB}&${periodo}`);
    expect(r.status).toBe(404);
    expect((await r.json()).msg).toBe('Itinerário não encontrado');
    r = await userA.get(`/api/historico_itinerario/${itA}/comparacao?ativo=${ativoB}&${periodo}`);
    expect(r.status).toBe(404);
    expect((await r.json()).msg).toBe('Ativo não encontrado');
    r = await userA.get(`/api/historico_itinerario/${itB}/comparacao?ativo=${ativoA}&${periodo}`);
    expect(r.status).toBe(404);
    expect((await semChave.get(`/api/historico_itinerario/${itA}/comparacao?ativo=${ativoA}&${periodo}`)).status).toBe(403);
    r = await userA.get(`/api/historico_itinerario/${itA}/comparacao?ativo=${ativoA}&inicio=x&fim=y`);
    expect(r.status).toBe(400);
    expect((await r.json()).msg).toBe('Período inválido: informe o início e o fim, o fim depois do início');
    // B's own comparison: its wider corridor (700 m: 350 m each side) holds the 300 m drift
    const b = (await (await userB.get(`/api/historico_itinerario/${itB}/comparacao?ativo=${ativoB}&${periodo}`)).json()).payload;
    expect(b.viagens[0].desvios).toEqual([]);
  });

  it('the itineraries list of the history page is the company’s', async () => {
    const ra = await userA.get('/api/historico_itinerario/itinerarios?range=[0,49]');
    expect(ra.status, await ra.clone().text()).toBe(200);
    const a = await ra.json();
    // the demo's passenger line of company A is listed too; never B's
    expect(a.map((x: any) => [x.descricao, x.linhaDescricao, x.pontos])).toContainEqual(['Norte manhã', 'Linha Norte', 2]);
    expect(a.map((x: any) => x.descricao)).not.toContain('Itinerário de B');
    const b = await json(await userB.get('/api/historico_itinerario/itinerarios?range=[0,49]'));
    expect(b.map((x: any) => x.descricao)).toEqual(['Itinerário de B']);
  });
});

describe('GET /api/reconhecimento_linhas', () => {
  it('names the line the trip ran; another company’s lines are never candidates', async () => {
    const r = await userA.get(`/api/reconhecimento_linhas?ativo=${ativoA}&${periodo}`);
    expect(r.status).toBe(200);
    const p = (await r.json()).payload;
    expect(p.viagens).toHaveLength(1);
    const v = p.viagens[0];
    expect([v.linha, v.linhaDescricao]).toEqual([linhaA, 'N1 — Linha Norte']);
    expect(v.aderencia).toBe(0.614); // 3 of the 10 minutes off the corridor, ~35 % of the line passed more than 50 m away
    expect(v.candidatas.map((c: any) => c.linha)).toEqual([linhaA, outraA]);
    expect(v.candidatas[1].aderencia).toBe(0);
    expect((await userB.get(`/api/reconhecimento_linhas?ativo=${ativoA}&${periodo}`)).status).toBe(404);
    expect((await semChave.get(`/api/reconhecimento_linhas?ativo=${ativoA}&${periodo}`)).status).toBe(403);
  });
});
