// The replay's named calls (key tlm.ras.historico_rastreamento, company scope):
//   GET /api/historico/trajetos?ativos=1,2&inicio=ISO&fim=ISO[&zoom=0..22 | &ajuste=LARGURAxALTURA]  (envelope) the
//     tracks of 1..10 assets, simplified for the zoom (none without one), with the trips, stops, events and totals of
//     the period; `ajuste`: the map's size in pixels — the zoom is the one the map will fit the tracks at (answered in
//     `zoom`), so the first answer is already the one to draw (a 30-day track is not sent whole to be thinned after);
//   GET /api/historico/exporta?ativos=&inicio=&fim=&formato=csv|gpx|kml[&fuso=]  the full track as a file.
// Every source is a declared provider of this module (metadata/tlm/historico_*.yaml) read by the read engine, which
// adds the company condition; an asset the company scope does not see is 404.
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { getModel } from '../../../server/core/registry.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { readDeclared, readDeclaredColumns } from '../../../server/read/provider.ts';
import { fitZoom, nearestInTime, simplify, toleranceFor, type Box } from './simplify.ts';
import { trackCsv, trackGpx, trackKml, type TrackExport } from './export.ts';
import { requestEm } from '../../../server/db/context.ts';
import { pgTimestampMs } from '../../../server/read/values.ts';

const KEY = 'tlm.ras.historico_rastreamento' as const;
export const MAX_ATIVOS = 10;
export const MAX_DIAS = 186;
/** Positions one answer may hold (all assets): beyond it the caller is asked for a shorter period (never cut). */
export const MAX_POSICOES = Number(process.env.HISTORICO_MAX_POSICOES ?? 3_000_000);

type Row = Record<string, any>;

/** km/h and rpm a simplified track may differ from the full one between two kept fixes. */
export const SPEED_TOLERANCE = 10;
export const RPM_TOLERANCE = 250;

interface Periodo { ativos: number[]; inicio: string; fim: string }

function periodo(c: Context<AppEnv>): Periodo {
  const raw = (c.req.query('ativos') ?? c.req.query('ativoId') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!raw.every((s) => /^\d{1,12}$/.test(s) && Number(s) > 0)) throw badRequest('Ativos inválidos');
  const ativos = [...new Set(raw.map(Number))];
  if (!ativos.length || ativos.length > MAX_ATIVOS) throw badRequest(`Escolha de 1 a ${MAX_ATIVOS} ativos`);
  const a = Date.parse(c.req.query('inicio') ?? ''), b = Date.parse(c.req.query('fim') ?? '');
  if (Number.isNaN(a) || Number.isNaN(b) || b <= a) throw badRequest('Período inválido: informe o início e o fim, o fim depois do início');
  if (b - a > MAX_DIAS * 86_400_000) throw badRequest(`O período máximo é de ${MAX_DIAS} dias`);
  return { ativos, inicio: new Date(a).toISOString(), fim: new Date(b).toISOString() };
}

/** All rows of one of this module's declared providers (read engine: company condition of the session). */
function declared(key: string) {
  const meta = getModel().providers.find((p) => p.key === key);
  if (!meta?.sql) throw new Error(`provider ${key} sem sql declarado`);
  return { meta, sql: meta.sql };
}

async function read(c: Context<AppEnv>, key: string, filter: Record<string, unknown>, limit = 1_000_000): Promise<Row[]> {
  const { meta, sql } = declared(key);
  const { rows } = await readDeclared(requestEm(c), meta, sql, { params: {}, filter, sort: meta.sort, offset: 0, limit }, c.get('session').empresaAtiva);
  return rows;
}

/** The assets, in the order asked; 404 when the company scope does not see one of them. */
async function ativosDe(c: Context<AppEnv>, ids: number[]): Promise<Row[]> {
  const rows = await read(c, 'historico_ativo', { ids }, MAX_ATIVOS);
  const by = new Map(rows.map((r) => [Number(r.id), r]));
  if (ids.some((id) => !by.has(id))) throw new HttpError(404, 'Ativo não encontrado');
  return ids.map((id) => by.get(id)!);
}

/** The columns of a position the replay and the exports use (the provider's others: its list screen). */
const COLUNAS_POSICAO = ['ativoId', 'fixTime', 'latitude', 'longitude', 'velocidade', 'direcao', 'ignicao', 'rpm'];

async function posicoes(c: Context<AppEnv>, p: Periodo): Promise<Row[]> {
  const { meta, sql } = declared('historico_posicao');
  // by asset, then time: the covering index's order (posicao_ativo_fix_time), read without the table or a sort
  const rows = await readDeclaredColumns(requestEm(c), meta, sql, { params: {}, filter: { ativoId: p.ativos, inicio: p.inicio, fim: p.fim }, sort: { field: 'ativoId', order: 'ASC' } },
    c.get('session').empresaAtiva, COLUNAS_POSICAO, MAX_POSICOES + 1, { pgTimes: true });
  if (rows.length > MAX_POSICOES) throw badRequest(`O período tem mais de ${MAX_POSICOES.toLocaleString('pt-BR')} posições: escolha um período menor ou menos ativos`);
  return rows;
}

/** A fix: [time ms, lat, lon, speed km/h, rpm, ignition 1/0/null, course]. */
export type Ponto = [number, number, number, number | null, number | null, 0 | 1 | null, number | null];

/** The asset's fixes in time order, one per instant (a message of several types stores the same fix more than once). */
function pontosDe(rows: Row[]): Ponto[] {
  const out: Ponto[] = [];
  for (const r of rows) {
    const t = pgTimestampMs(r.fixTime);
    const last = out[out.length - 1];
    if (last && last[0] === t) {
      if (last[4] == null && r.rpm != null) last[4] = Number(r.rpm);
      if (last[5] == null && r.ignicao != null) last[5] = r.ignicao ? 1 : 0;
      continue;
    }
    out.push([t, Number(r.latitude), Number(r.longitude), r.velocidade == null ? null : Math.round(Number(r.velocidade) * 10) / 10,
      r.rpm == null ? null : Number(r.rpm), r.ignicao == null ? null : r.ignicao ? 1 : 0, r.direcao == null ? null : Number(r.direcao)]);
  }
  return out;
}

/** Fixes that survive any zoom: events' fixes, ignition changes, the top speed (besides the first and last). */
function fixosDe(pontos: Ponto[], eventos: Row[]): Set<number> {
  const keep = nearestInTime(pontos.map((p) => p[0]), eventos.map((e) => Date.parse(e.fixTime)));
  let top = -1;
  for (let i = 0; i < pontos.length; i++) {
    const p = pontos[i]!;
    if (i > 0 && p[5] != null && pontos[i - 1]![5] != null && p[5] !== pontos[i - 1]![5]) { keep.add(i - 1); keep.add(i); }
    if (p[3] != null && (top < 0 || p[3] > pontos[top]![3]!)) top = i;
  }
  if (top >= 0) keep.add(top);
  return keep;
}

export interface Totais {
  viagens: number; paradas: number;
  /** km */
  distancia: number;
  /** seconds */
  emMovimento: number; parado: number; ocioso: number;
  /** km/h */
  velocidadeMaxima: number; velocidadeMedia: number;
}

/** The day's totals from the stored trips and stops (modules/viagens) and the top speed of the raw fixes. */
export function totaisDe(viagens: Row[], paradas: Row[], pontos: Ponto[]): Totais {
  let distancia = 0, emMovimento = 0, ocioso = 0, parado = 0, maxima = 0;
  for (const v of viagens) {
    distancia += Number(v.distancia); emMovimento += Number(v.duracao) - Number(v.tempoOcioso); ocioso += Number(v.tempoOcioso);
    maxima = Math.max(maxima, Number(v.velocidadeMaxima));
  }
  for (const p of paradas) { parado += Number(p.duracao); ocioso += Number(p.tempoLigado); }
  for (const p of pontos) if (p[3] != null && p[3] > maxima) maxima = p[3];
  return {
    viagens: viagens.length, paradas: paradas.length, distancia: Math.round(distancia * 100) / 100,
    emMovimento, parado, ocioso, velocidadeMaxima: Math.round(maxima * 10) / 10,
    velocidadeMedia: emMovimento > 0 ? Math.round((distancia / (emMovimento / 3600)) * 10) / 10 : 0,
  };
}

const byAtivo = (rows: Row[]) => {
  const m = new Map<number, Row[]>();
  for (const r of rows) { const k = Number(r.ativoId); let l = m.get(k); if (!l) m.set(k, l = []); l.push(r); }
  return m;
};

function zoomOf(c: Context<AppEnv>): number | null {
  const z = c.req.query('zoom');
  if (z === undefined || z === '') return null;
  if (!/^\d{1,2}$/.test(z) || Number(z) > 22) throw badRequest('Zoom inválido: use de 0 a 22');
  return Number(z);
}

/** `ajuste=LARGURAxALTURA`: the map's size in pixels, or null. */
function ajusteOf(c: Context<AppEnv>): [number, number] | null {
  const a = c.req.query('ajuste');
  if (a === undefined || a === '') return null;
  const m = /^(\d{2,5})x(\d{2,5})$/.exec(a);
  if (!m) throw badRequest('Ajuste inválido: use LARGURAxALTURA do mapa em pixels, por exemplo 1200x700');
  return [Number(m[1]), Number(m[2])];
}

/** The box of every fix of the tracks, or null without fixes. */
function boxOf(tracks: Iterable<readonly (readonly [number, number, number, ...unknown[]])[]>): Box | null {
  let b: Box | null = null;
  for (const t of tracks) for (const x of t) {
    if (!b) b = { minLat: x[1], maxLat: x[1], minLon: x[2], maxLon: x[2] };
    else { b.minLat = Math.min(b.minLat, x[1]); b.maxLat = Math.max(b.maxLat, x[1]); b.minLon = Math.min(b.minLon, x[2]); b.maxLon = Math.max(b.maxLon, x[2]); }
  }
  return b;
}

const FORMATOS = { csv: 'text/csv; charset=utf-8', gpx: 'application/gpx+xml; charset=utf-8', kml: 'application/vnd.google-earth.kml+xml; charset=utf-8' } as const;

function fusoOf(c: Context<AppEnv>): string {
  const tz = c.req.query('fuso') || process.env.FUSO_HORARIO || 'America/Sao_Paulo';
  try { new Intl.DateTimeFormat('pt-BR', { timeZone: tz }); } catch { throw badRequest('Fuso horário inválido'); }
  return tz;
}

export function historicoRoutes(api: Hono<AppEnv>): void {
  const spec = { permission: [KEY], scope: 'empresa' as const };

  route(api, 'get', '/historico/trajetos', spec, async (c) => {
    const p = periodo(c);
    let zoom = zoomOf(c);
    const ajuste = zoom === null ? ajusteOf(c) : null;
    const filter = { ativoId: p.ativos, inicio: p.inicio, fim: p.fim };
    // side by side, each on its own pooled connection (the company scope in each); an asset not seen is still 404
    const [ativos, pos, eventos, viagens, paradas] = await Promise.all([ativosDe(c, p.ativos), posicoes(c, p).then(byAtivo),
      read(c, 'historico_evento', filter).then(byAtivo), read(c, 'historico_viagem', filter).then(byAtivo), read(c, 'historico_parada', filter).then(byAtivo)]);
    const tracks = new Map(ativos.map((a) => [Number(a.id), pontosDe(pos.get(Number(a.id)) ?? [])]));
    const box = ajuste ? boxOf(tracks.values()) : null;
    if (ajuste && box) zoom = fitZoom(box, ajuste[0], ajuste[1]);
    return ok(c, {
      inicio: p.inicio, fim: p.fim, zoom,
      ativos: ativos.map((a) => {
        const id = Number(a.id);
        const todos = tracks.get(id)!;
        const ev = eventos.get(id) ?? [];
        const vs = viagens.get(id) ?? [], ps = paradas.get(id) ?? [];
        let pontos = todos;
        if (zoom !== null && todos.length > 2) {
          const lat = todos.reduce((s, x) => s + x[1], 0) / todos.length;
          const times = todos.map((x) => x[0]);
          // the speed (colours, chart) within 10 km/h and the rpm within 250 of the full track, whatever the zoom
          const idx = simplify(todos.map((x) => ({ lat: x[1], lon: x[2] })), toleranceFor(zoom, lat), fixosDe(todos, ev), [
            { times, values: todos.map((x) => x[3]), tolerance: SPEED_TOLERANCE }, { times, values: todos.map((x) => x[4]), tolerance: RPM_TOLERANCE },
          ]);
          pontos = idx.map((i) => todos[i]!);
        }
        return {
          id, descricao: a.descricao, placa: a.placa, totalPosicoes: todos.length, pontos,
          eventos: ev.map(({ ativoId: _, ...e }) => e), viagens: vs.map(({ ativoId: _, ...v }) => v), paradas: ps.map(({ ativoId: _, ...x }) => x),
          totais: totaisDe(vs, ps, todos),
        };
      }),
    });
  });

  route(api, 'get', '/historico/exporta', spec, async (c) => {
    const formato = c.req.query('formato') ?? 'csv';
    if (!(formato in FORMATOS)) throw badRequest('Formato inválido: use csv, gpx ou kml');
    const p = periodo(c);
    const fuso = fusoOf(c);
    const filter = { ativoId: p.ativos, inicio: p.inicio, fim: p.fim };
    const [ativos, pos, eventos] = await Promise.all([ativosDe(c, p.ativos), posicoes(c, p).then(byAtivo), read(c, 'historico_evento', filter).then(byAtivo)]);
    const tracks: TrackExport[] = ativos.map((a) => ({
      descricao: String(a.descricao ?? ''), placa: a.placa ?? null,
      pontos: pontosDe(pos.get(Number(a.id)) ?? []), eventos: (eventos.get(Number(a.id)) ?? []).map((e) => ({
        t: Date.parse(e.fixTime), descricao: String(e.descricao ?? ''), lat: e.latitude, lon: e.longitude,
      })),
    }));
    const body = formato === 'csv' ? trackCsv(tracks, fuso) : formato === 'gpx' ? trackGpx(tracks, p) : trackKml(tracks, p, fuso);
    return new Response(body, {
      headers: {
        'Content-Type': FORMATOS[formato as keyof typeof FORMATOS],
        'Content-Disposition': `attachment; filename="historico_rastreamento.${formato}"`,
        'Cache-Control': 'no-store',
      },
    });
  });
}
