// Trip vs itinerary (pure; the server and the unit tests use it): deviations from the line's corridor, arrival and
// lateness at each stop point, and which line a track ran (line recognition). Positions are [lon, lat]; times ms.
import { flatten, haversine, lineDistance, planeAround, type Plane, type Pos } from '../../shared/geo.ts';

export const FUSO = 'America/Sao_Paulo';

export interface Fix { t: number; lon: number; lat: number }
export interface Linha { coordinates: Pos[]; largura: number }
export interface Ponto { ordem: number; descricao: string; horario: string; raio: number; posicao: Pos }

export interface Desvio {
  inicio: number; fim: number; duracao: number;   // seconds
  distanciaMaxima: number;                          // metres beyond the line (not the corridor's edge)
  posicaoMaxima: Pos;                               // the fix farthest from the line
  trecho: Pos[];                                    // the fixes outside the corridor
}
export interface Chegada {
  ordem: number; descricao: string; posicao: Pos;
  previsto: number; chegada: number | null;         // ms
  atraso: number | null;                            // seconds (negative: early)
  distanciaMinima: number | null;                   // metres: the closest the track came to the stop
}
export interface Comparacao { desvios: Desvio[]; pontos: Chegada[]; dentro: number; distanciaMaxima: number; tempoFora: number }

/** Offset (ms) of the zone at an instant: local wall time = utc + offset. */
function offset(ms: number, zone: string): number {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    .formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
}

/** The instant of the wall time `hhmm` ('HH:MM[:SS]') on the local day of `ref` in the zone. */
export function instanteNoDia(ref: number, hhmm: string, zone = FUSO): number {
  const off = offset(ref, zone);
  const local = new Date(ref + off);
  const [h, m, s] = hhmm.split(':').map(Number);
  const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), h ?? 0, m ?? 0, s ?? 0);
  return wall - offset(wall - off, zone);
}

interface Prepared { plane: Plane; line: Float64Array; hw: number }
function prepareLine(l: Linha): Prepared {
  const plane = planeAround(l.coordinates);
  return { plane, line: flatten(plane, l.coordinates), hw: l.largura / 2 };
}
const dist = (p: Prepared, lon: number, lat: number) => lineDistance(p.line, (lon - p.plane.lon0) * p.plane.kx, (lat - p.plane.lat0) * p.plane.ky);

/** Compares the fixes (time order) with the line's corridor and the stop points (in their order). */
export function compara(fixes: Fix[], linha: Linha, pontos: Ponto[], zone = FUSO): Comparacao {
  const desvios: Desvio[] = [];
  let cur: Desvio | null = null;
  let inside = 0;
  const pl = linha.coordinates.length >= 2 ? prepareLine(linha) : null;
  for (const f of fixes) {
    const d = pl ? dist(pl, f.lon, f.lat) : 0;
    const out = pl !== null && d > pl.hw;
    if (!out) {
      inside++;
      if (cur) { cur.fim = f.t; cur.duracao = Math.round((f.t - cur.inicio) / 1000); desvios.push(cur); cur = null; }
      continue;
    }
    if (!cur) cur = { inicio: f.t, fim: f.t, duracao: 0, distanciaMaxima: 0, posicaoMaxima: [f.lon, f.lat], trecho: [] };
    cur.trecho.push([f.lon, f.lat]);
    cur.fim = f.t;
    if (d > cur.distanciaMaxima) { cur.distanciaMaxima = d; cur.posicaoMaxima = [f.lon, f.lat]; }
  }
  // still outside at the end: the deviation lasts until the last fix
  if (cur) { cur.duracao = Math.round((cur.fim - cur.inicio) / 1000); desvios.push(cur); }
  for (const d of desvios) d.distanciaMaxima = Math.round(d.distanciaMaxima);

  const ref = fixes[0]?.t ?? Date.now();
  const ordered = [...pontos].sort((a, b) => a.ordem - b.ordem);
  let from = 0;
  const chegadas: Chegada[] = ordered.map((p) => {
    const previsto = instanteNoDia(ref, p.horario, zone);
    let chegada: number | null = null, min = Infinity;
    for (let i = from; i < fixes.length; i++) {
      const f = fixes[i]!;
      const d = haversine(p.posicao, [f.lon, f.lat]);
      if (d < min) min = d;
      if (d <= p.raio) { chegada = f.t; from = i; break; }
    }
    return {
      ordem: p.ordem, descricao: p.descricao, posicao: p.posicao, previsto, chegada,
      atraso: chegada === null ? null : Math.round((chegada - previsto) / 1000),
      distanciaMinima: Number.isFinite(min) ? Math.round(min) : null,
    };
  });
  return {
    desvios, pontos: chegadas,
    dentro: fixes.length ? Math.round((inside / fixes.length) * 1000) / 10 : 0,
    distanciaMaxima: desvios.reduce((m, d) => Math.max(m, d.distanciaMaxima), 0),
    tempoFora: desvios.reduce((s, d) => s + d.duracao, 0),
  };
}

export interface Reconhecimento { linha: number; aderencia: number; trilhaNoCorredor: number; linhaPercorrida: number }

/** How well a track ran each line: the harmonic mean of the share of the track's length inside the corridor and the
 *  share of the line's length the track came within the corridor of (both 0..1: a detour lowers the first, a track
 *  over only a part of a longer line the second). Best first. */
export function reconhece(fixes: Fix[], linhas: { id: number; linha: Linha }[]): Reconhecimento[] {
  const out: Reconhecimento[] = [];
  for (const { id, linha } of linhas) {
    if (linha.coordinates.length < 2 || fixes.length < 2) { out.push({ linha: id, aderencia: 0, trilhaNoCorredor: 0, linhaPercorrida: 0 }); continue; }
    const p = prepareLine(linha);
    const xy = (lon: number, lat: number): [number, number] => [(lon - p.plane.lon0) * p.plane.kx, (lat - p.plane.lat0) * p.plane.ky];
    // track: length-weighted share of segments whose midpoint is in the corridor
    let total = 0, dentro = 0;
    const track = new Float64Array(fixes.length * 2);
    fixes.forEach((f, i) => { const [x, y] = xy(f.lon, f.lat); track[2 * i] = x; track[2 * i + 1] = y; });
    for (let i = 0; i + 1 < fixes.length; i++) {
      const len = Math.hypot(track[2 * i + 2]! - track[2 * i]!, track[2 * i + 3]! - track[2 * i + 1]!);
      total += len;
      if (lineDistance(p.line, (track[2 * i]! + track[2 * i + 2]!) / 2, (track[2 * i + 1]! + track[2 * i + 3]!) / 2) <= p.hw) dentro += len;
    }
    // line: samples every ~25 m within the corridor's half width of the track
    let lt = 0, lc = 0;
    for (let i = 0; i + 3 < p.line.length; i += 2) {
      const ax = p.line[i]!, ay = p.line[i + 1]!, bx = p.line[i + 2]!, by = p.line[i + 3]!;
      const len = Math.hypot(bx - ax, by - ay), n = Math.max(1, Math.ceil(len / 25));
      for (let k = 0; k < n; k++) {
        const s = (k + 0.5) / n;
        lt += len / n;
        if (lineDistance(track, ax + s * (bx - ax), ay + s * (by - ay)) <= p.hw) lc += len / n;
      }
    }
    const a = total > 0 ? dentro / total : 0, b = lt > 0 ? lc / lt : 0;
    const r3 = (v: number) => Math.round(v * 1000) / 1000;
    out.push({ linha: id, aderencia: r3(a + b > 0 ? (2 * a * b) / (a + b) : 0), trilhaNoCorredor: r3(a), linhaPercorrida: r3(b) });
  }
  return out.sort((x, y) => y.aderencia - x.aderencia || x.linha - y.linha);
}

/** Adherence a line needs to be named the line a trip ran. */
export const ADERENCIA_MINIMA = 0.5;
