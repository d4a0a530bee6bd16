// Track replay over the real gateway (OsmAnd HTTP) and the real API: the tracks of two assets on one call, simplified
// per zoom (endpoints, events and ignition changes kept), the trips and stops the ingest stored, the company scope,
// the key, and the exports (CSV pt-BR, GPX and KML parsed as XML).
import pg from 'pg';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startGateway, type Gateway } from '../../../server/ingest/index.ts';
import { registerDevice } from '../../../server/ingest/testing/db.ts';
import { fitZoom } from './simplify.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number, ativo1: number, ativo2: number, ativoB: number;
let userA: Api, userB: Api, semChave: Api;
const KNOT = 1.852;
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 6 * 3600_000;
const LAT0 = -23.6, LON0 = -46.65;
const M_LON = 111_320 * Math.cos((LAT0 * Math.PI) / 180);

interface P { t: number; lat: number; lon: number; kmh: number; ign: boolean }
const sec = (s: number) => T0 + s * 1000;

/** Asset 1: 10 min north at 60 km/h (a fix each 10 s, wobbling 3 m sideways), parked 14 min with the ignition off,
 *  5 min more, parked 8 min: 114 fixes, two trips and the stop between them. */
function dia1(): P[] {
  const out: P[] = [];
  const road = (from: number, n: number, lat: number) => {
    for (let i = 0; i <= n; i++) out.push({ t: sec(from + i * 10), lat: lat + (i * 166.67) / 110_540, lon: LON0 + (i % 2 ? 3 / M_LON : 0), kmh: i === 0 ? 0 : 60, ign: true });
    return out[out.length - 1]!.lat;
  };
  const park = (fromMin: number, toMin: number, lat: number) => {
    for (let m = fromMin; m <= toMin; m++) out.push({ t: sec(m * 60), lat, lon: LON0, kmh: 0, ign: false });
  };
  const end1 = road(0, 60, LAT0);
  park(11, 24, end1);
  const end2 = road(25 * 60, 30, end1);
  park(31, 38, end2);
  return out;
}
const fixes1 = dia1();
/** Asset 2: 20 fixes 30 s apart, east at 36 km/h. */
const fixes2: P[] = Array.from({ length: 20 }, (_, i) => ({ t: sec(i * 30), lat: -22.9, lon: -43.2 + (i * 300) / 102_000, kmh: 36, ign: true }));
const EVENTO = { t: sec(305), descricao: 'Pânico & <teste> "1"' };

async function send(serial: string, ps: P[]): Promise<void> {
  for (const p of ps) {
    const r = await fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=${serial}&lat=${p.lat}&lon=${p.lon}&speed=${p.kmh / KNOT}&ignition=${p.ign}&timestamp=${p.t / 1000}`, { method: 'POST' });
    expect(r.status).toBe(200);
  }
  await gw.drain();
}

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const periodo = `inicio=${new Date(T0 - 60_000).toISOString()}&fim=${new Date(T0 + 3600_000).toISOString()}`;
const trajetos = async (api: Api, ativos: number[], extra = '') => api.get(`/api/historico/trajetos?ativos=${ativos.join(',')}&${periodo}${extra}`);

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { osmandHttp: 0 }, writer: { lingerMs: 5 }, migrate: false });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [ativo1, ativo2] = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A])).map((r) => r.id);
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  await registerDevice(pool, 'hist1', A, ativo1, 'osmand', 'osmand');
  await registerDevice(pool, 'hist2', A, ativo2, 'osmand', 'osmand');
  await registerDevice(pool, 'histB', B, ativoB, 'osmand', 'osmand');
  await send('hist1', fixes1);
  await send('hist2', fixes2);
  await send('histB', fixes2.slice(0, 5).map((p) => ({ ...p, lat: p.lat + 1 })));
  await q(`INSERT INTO telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, lat, lon, speed)
    VALUES ('hist1', $1, '42', 'panico', $2, $3, $4, $5, $6, 60)`, [new Date(EVENTO.t), EVENTO.descricao, A, ativo1, fixes1[30]!.lat, fixes1[30]!.lon]);
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['tlm.ras.historico_rastreamento'];
  await ts.createUser({ login: 'hist_a', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'hist_b', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'hist_sem', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [A], permissoes: ['tlm.ras.rastreamento_ao_vivo', 'tlm.fro.ativo.lista'] });
  userA = await ts.login('hist_a', 'senha-teste-123');
  userB = await ts.login('hist_b', 'senha-teste-123');
  semChave = await ts.login('hist_sem', 'senha-teste-123');
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

type Ponto = [number, number, number, number | null, number | null, 0 | 1 | null, number | null];

describe('tracks', () => {
  it('without a zoom: every fix of both assets in time order, with the trips, the stop, the event and the totals', async () => {
    const r = await trajetos(userA, [ativo1, ativo2]);
    expect(r.status).toBe(200);
    const { payload } = await json(r);
    expect(payload.ativos.map((a: any) => a.id)).toEqual([ativo1, ativo2]);
    const [a1, a2] = payload.ativos;
    expect(a1.totalPosicoes).toBe(114);
    expect(a1.pontos.map((p: Ponto) => p[0])).toEqual(fixes1.map((p) => p.t));
    expect(a1.pontos[1].slice(1, 4)).toEqual([fixes1[1]!.lat, fixes1[1]!.lon, 60]);
    expect(a1.pontos[61][5]).toBe(0); // parked: ignition off
    expect(a2.pontos.map((p: Ponto) => p[0])).toEqual(fixes2.map((p) => p.t));
    expect(a1.eventos).toEqual([expect.objectContaining({ fixTime: new Date(EVENTO.t).toISOString(), descricao: EVENTO.descricao, codigo: '42' })]);
    const db = await q('SELECT inicio, duracao, tempo_ocioso, distancia FROM telemetria.viagem WHERE serial = $1 ORDER BY inicio', ['hist1']);
    const stop = await q('SELECT inicio, duracao FROM telemetria.parada WHERE serial = $1', ['hist1']);
    expect(a1.viagens.map((v: any) => v.inicio)).toEqual(db.map((v) => v.inicio.toISOString()));
    expect(a1.paradas.map((p: any) => [p.inicio, p.duracao])).toEqual(stop.map((p) => [p.inicio.toISOString(), p.duracao]));
    expect(stop).toHaveLength(1);
    const dist = db.reduce((s, v) => s + Math.round(v.distancia / 10) / 100, 0);
    expect(a1.totais).toMatchObject({ viagens: 2, paradas: 1, parado: stop[0].duracao, velocidadeMaxima: 60 });
    expect(a1.totais.distancia).toBeCloseTo(dist, 1);
    expect(a1.totais.distancia).toBeGreaterThan(14.8);
    expect(a1.totais.distancia).toBeLessThan(15.2);
    expect(a1.totais.emMovimento).toBe(db.reduce((s, v) => s + v.duracao - v.tempo_ocioso, 0));
    expect(a1.totais.velocidadeMedia).toBeCloseTo(a1.totais.distancia / (a1.totais.emMovimento / 3600), 1);
    // asset 2 is still driving at its last fix: its trip is stored open ("Em andamento", modules/viagens) and counts
    const db2 = await q('SELECT em_andamento, distancia FROM telemetria.viagem WHERE serial = $1', ['hist2']);
    expect(db2.map((v) => v.em_andamento)).toEqual([true]);
    expect(a2.viagens.map((v: any) => v.distancia)).toEqual([Math.round(db2[0].distancia / 10) / 100]);
    expect(a2.totais).toMatchObject({ viagens: 1, paradas: 0, velocidadeMaxima: 36 });
    expect(a2.totais.distancia).toBeCloseTo(5.7, 1);
  });

  it('the engine speed is the positions’ rpm column (stored at ingest), each fix its own', async () => {
    await q(`UPDATE telemetria.posicao p SET rpm = 800 + 10 * k.n FROM (SELECT serial, fix_time, tipo, row_number() OVER (ORDER BY fix_time) - 1 AS n
      FROM telemetria.posicao WHERE serial = 'hist2') k WHERE p.serial = k.serial AND p.fix_time = k.fix_time AND p.tipo = k.tipo`);
    try {
      const a2 = (await json(await trajetos(userA, [ativo2]))).payload.ativos[0];
      expect(a2.pontos.map((p: Ponto) => p[4])).toEqual(fixes2.map((_, i) => 800 + 10 * i));
    } finally {
      await q(`UPDATE telemetria.posicao SET rpm = NULL WHERE serial = 'hist2'`);
    }
  });

  it('a low zoom keeps far fewer fixes, never the ends, the event’s fix nor an ignition change; a high zoom keeps the wobble', async () => {
    const all = (await json(await trajetos(userA, [ativo1]))).payload.ativos[0].pontos as Ponto[];
    const low = (await json(await trajetos(userA, [ativo1], '&zoom=10'))).payload.ativos[0];
    const high = (await json(await trajetos(userA, [ativo1], '&zoom=22'))).payload.ativos[0];
    expect(low.totalPosicoes).toBe(114);
    expect(low.pontos.length).toBeLessThan(20);
    expect(low.pontos[0]).toEqual(all[0]);
    expect(low.pontos[low.pontos.length - 1]).toEqual(all[all.length - 1]);
    const times = low.pontos.map((p: Ponto) => p[0]);
    expect(times).toContain(fixes1[30]!.t); // the fix nearest the event (305 s: fix 30 at 300 s, the earlier of the two)
    // ignition changes: the last fix driving and the first parked one, both ways
    for (const i of [60, 61, 74, 75, 105, 106]) expect(times, `fix ${i}`).toContain(fixes1[i]!.t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // every kept fix is a stored one, unchanged
    for (const p of low.pontos) expect(all).toContainEqual(p);
    // zoom 22: a pixel is a few centimetres, every fix of the wobbling road stays (the parked ones, all at one place, go)
    const highTimes = new Set(high.pontos.map((p: Ponto) => p[0]));
    for (let i = 0; i <= 60; i++) expect(highTimes.has(fixes1[i]!.t), `fix ${i}`).toBe(true);
    expect(high.pontos.length).toBeLessThan(114);
  });

  it("with the map's size (ajuste): thinned for the zoom the map fits both tracks at, answered in zoom — as asking that zoom", async () => {
    const all = [...fixes1, ...fixes2];
    const box = { minLat: Math.min(...all.map((f) => f.lat)), maxLat: Math.max(...all.map((f) => f.lat)), minLon: Math.min(...all.map((f) => f.lon)), maxLon: Math.max(...all.map((f) => f.lon)) };
    for (const [w, h] of [[1200, 700], [300, 200]] as const) {
      const z = fitZoom(box, w, h);
      const fit = (await json(await trajetos(userA, [ativo1, ativo2], `&ajuste=${w}x${h}`))).payload;
      const asked = (await json(await trajetos(userA, [ativo1, ativo2], `&zoom=${z}`))).payload;
      expect(fit.zoom).toBe(z);
      expect(fit.ativos.map((a: { pontos: Ponto[] }) => a.pontos)).toEqual(asked.ativos.map((a: { pontos: Ponto[] }) => a.pontos));
    }
    // São Paulo and Rio on one map: ~3.4° of longitude, 4.4° with the margins; 1200 px wide: log2(1200 × 360 / 256 /
    // 4.4) = 8.6 → zoom 8; 300 px: 6.6 → zoom 6
    expect((await json(await trajetos(userA, [ativo1, ativo2], '&ajuste=1200x700'))).payload.zoom).toBe(8);
    expect((await json(await trajetos(userA, [ativo1, ativo2], '&ajuste=300x200'))).payload.zoom).toBe(6);
    const r = await userA.get(`/api/historico/trajetos?ativos=${ativo1}&${periodo}&ajuste=grande`);
    expect([r.status, (await json(r)).msg]).toEqual([400, 'Ajuste inválido: use LARGURAxALTURA do mapa em pixels, por exemplo 1200x700']);
  });

  it('another company’s asset is not found (404), alone or with one of the company’s; its own user sees its own', async () => {
    for (const ids of [[ativoB], [ativo1, ativoB]]) {
      const r = await trajetos(userA, ids);
      expect([r.status, (await json(r)).msg]).toEqual([404, 'Ativo não encontrado']);
      const e = await userA.get(`/api/historico/exporta?formato=csv&ativos=${ids.join(',')}&${periodo}`);
      expect(e.status).toBe(404);
    }
    const r = await trajetos(userB, [ativo1]);
    expect(r.status).toBe(404);
    const mine = (await json(await trajetos(userB, [ativoB]))).payload.ativos[0];
    expect(mine.pontos).toHaveLength(5);
    // the provider lists too: B sees none of A's fixes even asking for A's asset
    const f = encodeURIComponent(JSON.stringify({ ativoId: [ativo1, ativoB] }));
    const rows = await json(await userB.get(`/api/historico/posicoes?filter=${f}&range=[0,999]`));
    expect(new Set(rows.map((x: any) => x.serial))).toEqual(new Set(['histB']));
  });

  it('a user without the key is refused (403); bad requests are 400 in pt-BR', async () => {
    for (const path of [`/api/historico/trajetos?ativos=${ativo1}&${periodo}`, `/api/historico/exporta?ativos=${ativo1}&${periodo}`, '/api/historico/posicoes', '/api/historico/paradas']) {
      expect((await semChave.get(path)).status, path).toBe(403);
    }
    const cases: [string, string][] = [
      [`ativos=${Array.from({ length: 11 }, (_, i) => i + 1).join(',')}&${periodo}`, 'Escolha de 1 a 10 ativos'],
      [`ativos=${ativo1}&inicio=2026-01-02T00:00:00Z&fim=2026-01-01T00:00:00Z`, 'Período inválido: informe o início e o fim, o fim depois do início'],
      [`ativos=${ativo1}&${periodo}&zoom=30`, 'Zoom inválido: use de 0 a 22'],
    ];
    for (const [qs, msg] of cases) {
      const r = await userA.get(`/api/historico/trajetos?${qs}`);
      expect([r.status, (await json(r)).msg]).toEqual([400, msg]);
    }
  });
});

/** Parses XML (throws on a malformed document): element names in order and the texts of each name. */
function parseXml(text: string): { names: string[]; texts: Map<string, string[]>; attrs: Record<string, string>[] } {
  const p = new SaxesParser();
  const names: string[] = [], attrs: Record<string, string>[] = [];
  const texts = new Map<string, string[]>();
  const stack: { name: string; text: string }[] = [];
  p.on('error', (e) => { throw e; });
  p.on('opentag', (n) => { names.push(n.name); attrs.push(n.attributes as Record<string, string>); stack.push({ name: n.name, text: '' }); });
  p.on('text', (t) => { if (stack.length) stack[stack.length - 1]!.text += t; });
  p.on('closetag', () => { const e = stack.pop()!; let l = texts.get(e.name); if (!l) texts.set(e.name, l = []); l.push(e.text); });
  p.write(text).close();
  return { names, texts, attrs };
}

describe('exports', () => {
  const url = (f: string, extra = '') => `/api/historico/exporta?formato=${f}&ativos=${ativo1},${ativo2}&${periodo}${extra}`;
  const utc = (ms: number) => { const d = new Date(ms); const p = (n: number) => String(n).padStart(2, '0'); return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`; };

  it('CSV: pt-BR, semicolons, dd/MM/yyyy HH:mm:ss in the asked time zone, decimal commas, every fix', async () => {
    const r = await userA.get(url('csv', '&fuso=UTC'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="historico_rastreamento.csv"');
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // BOM: spreadsheets read UTF-8
    const text = new TextDecoder().decode(bytes);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Ativo;Placa;Data;Latitude;Longitude;Velocidade (km/h);Direção;Ignição;RPM');
    expect(lines).toHaveLength(1 + 114 + 20);
    const [ativo] = await q('SELECT descricao, placa FROM ativo WHERE id = $1', [ativo1]);
    const cells = lines[2]!.split(';');
    expect(cells.slice(0, 6)).toEqual([ativo.descricao, ativo.placa ?? '', utc(fixes1[1]!.t), fixes1[1]!.lat.toFixed(6).replace('.', ','), fixes1[1]!.lon.toFixed(6).replace('.', ','), '60']);
    expect(cells[7]).toBe('Ligada');
    expect(lines[62]!.split(';')[7]).toBe('Desligada');
    // São Paulo time: three hours behind UTC (no daylight saving since 2019)
    const sp = (await (await userA.get(url('csv', '&fuso=America/Sao_Paulo'))).text()).split('\r\n')[1]!.split(';')[2];
    expect(sp).toBe(utc(fixes1[0]!.t - 3 * 3600_000));
  });

  it('GPX: valid XML, the event as an escaped waypoint, one track per asset with every fix and its time', async () => {
    const r = await userA.get(url('gpx'));
    expect(r.headers.get('content-type')).toBe('application/gpx+xml; charset=utf-8');
    const text = await r.text();
    expect(text).toContain('<name>Pânico &amp; &lt;teste&gt; &quot;1&quot;</name>');
    const x = parseXml(text);
    expect(x.names[0]).toBe('gpx');
    expect(x.names.filter((n) => n === 'trk')).toHaveLength(2);
    expect(x.names.filter((n) => n === 'trkpt')).toHaveLength(114 + 20);
    expect(x.texts.get('name')).toContain(EVENTO.descricao);
    const wpt = x.attrs[x.names.indexOf('wpt')]!;
    expect([Number(wpt.lat), Number(wpt.lon)]).toEqual([fixes1[30]!.lat, fixes1[30]!.lon]);
    const first = x.attrs[x.names.indexOf('trkpt')]!;
    expect([Number(first.lat), Number(first.lon)]).toEqual([fixes1[0]!.lat, fixes1[0]!.lon]);
    expect(x.texts.get('time')).toContain(new Date(fixes1[0]!.t).toISOString());
    expect(x.names.indexOf('wpt')).toBeLessThan(x.names.indexOf('trk'));
  });

  it('KML: valid XML, a line per asset with lon,lat coordinates, the event as a placemark', async () => {
    const r = await userA.get(url('kml'));
    expect(r.headers.get('content-type')).toBe('application/vnd.google-earth.kml+xml; charset=utf-8');
    const x = parseXml(await r.text());
    expect(x.names[0]).toBe('kml');
    const lines = x.texts.get('coordinates')!.filter((c) => c.includes(' '));
    expect(lines.map((l) => l.split(' ').length)).toEqual([114, 20]);
    expect(lines[0]!.split(' ')[0]).toBe(`${fixes1[0]!.lon},${fixes1[0]!.lat},0`);
    expect(x.texts.get('name')).toContain(EVENTO.descricao);
    expect(x.texts.get('when')).toEqual([new Date(EVENTO.t).toISOString()]);
  });
});
