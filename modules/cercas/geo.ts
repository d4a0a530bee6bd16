// Fence geometry (pure; the server's ingest and validation and the screens share it). Coordinates are GeoJSON
// [lon, lat] degrees; each fence is measured in metres on a local equirectangular plane around its own centre
// (errors well under 0.5 % for fences up to a few hundred km across).
// Kinds: poligono (Polygon, holes allowed), circulo (Point + radius), rota (LineString corridor: `raio` is the
// corridor's full width, so a point is inside when it is within raio/2 of the line).

import { M_PER_DEG, RAD, flatten, inCorridor, inRings, planeAround, type Pos } from '../../shared/geo.ts';

export type Kind = 'poligono' | 'circulo' | 'rota';
export type { Pos };
export interface FenceInput { id: number; tipo: Kind; geometria: unknown; raio?: number | null }

/** A fence ready for tests: its plane, its shape in metres and its bounding box in degrees (radius included). */
export interface Prepared {
  id: number;
  tipo: Kind;
  lon0: number; lat0: number; kx: number; ky: number;
  /** poligono: rings as flat [x0, y0, x1, y1, ...] metres (closed: last = first). */
  rings: Float64Array[];
  /** rota: the line as flat metres. */
  line: Float64Array;
  /** circulo: radius; rota: half width (metres). */
  r: number;
  bbox: [number, number, number, number];
}

// ---------- validation (pt-BR messages; the server answers them as 400) ----------

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const validPos = (p: unknown): p is Pos => Array.isArray(p) && p.length >= 2 && isNum(p[0]) && isNum(p[1]) && p[0] >= -180 && p[0] <= 180 && p[1] >= -90 && p[1] <= 90;

/** GeoJSON type each kind takes. */
export const GEOMETRY_OF: Record<Kind, string> = { poligono: 'Polygon', circulo: 'Point', rota: 'LineString' };

/** The problem of a fence's geometry, or null when it is valid. */
export function geometryProblem(tipo: Kind, g: unknown, raio: number | null | undefined): string | null {
  if (g === null || g === undefined) return 'Desenhe a cerca no mapa: a geometria é obrigatória';
  const geo = g as { type?: unknown; coordinates?: unknown };
  const want = GEOMETRY_OF[tipo];
  if (geo.type !== want) return `Geometria inválida: ${tipo === 'poligono' ? 'um polígono' : tipo === 'circulo' ? 'um círculo' : 'uma rota'} é um GeoJSON ${want}`;
  const c = geo.coordinates;
  if (tipo === 'circulo') {
    if (!validPos(c)) return 'Coordenadas inválidas: longitude entre -180 e 180 e latitude entre -90 e 90';
  } else if (tipo === 'rota') {
    if (!Array.isArray(c) || c.length < 2) return 'Rota inválida: a linha precisa de ao menos 2 pontos';
    if (!c.every(validPos)) return 'Coordenadas inválidas: longitude entre -180 e 180 e latitude entre -90 e 90';
  } else {
    if (!Array.isArray(c) || c.length === 0) return 'Polígono inválido: informe ao menos um anel';
    for (const ring of c) {
      if (!Array.isArray(ring) || ring.length < 4) return 'Polígono inválido: cada anel precisa de ao menos 4 posições (3 vértices e o primeiro repetido)';
      if (!ring.every(validPos)) return 'Coordenadas inválidas: longitude entre -180 e 180 e latitude entre -90 e 90';
      const a = ring[0] as Pos, z = ring[ring.length - 1] as Pos;
      if (a[0] !== z[0] || a[1] !== z[1]) return 'Polígono inválido: o anel deve ser fechado (a última posição igual à primeira)';
      if (Math.abs(ringArea(ring as Pos[])) === 0) return 'Polígono inválido: os vértices não podem estar todos alinhados';
    }
  }
  if ((tipo === 'circulo' || tipo === 'rota') && !(isNum(raio) && raio > 0)) {
    return tipo === 'circulo' ? 'Informe o raio do círculo, em metros' : 'Informe a largura do corredor da rota, em metros';
  }
  return null;
}

function ringArea(ring: Pos[]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++) s += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return s / 2;
}

// ---------- preparation ----------

/** The fence in metres, or null when its geometry is unusable (never stored: the server validates). */
export function prepare(f: FenceInput): Prepared | null {
  if (geometryProblem(f.tipo, f.geometria, f.raio)) return null;
  const c = (f.geometria as { coordinates: unknown }).coordinates;
  const pts: Pos[] = f.tipo === 'circulo' ? [c as Pos] : f.tipo === 'rota' ? (c as Pos[]) : (c as Pos[][]).flat();
  const { lon0, lat0, kx, ky } = planeAround(pts);
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  for (const [lon, lat] of pts) {
    if (lon < minLon) minLon = lon; if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat; if (lat > maxLat) maxLat = lat;
  }
  const flat = (ps: Pos[]) => flatten({ lon0, lat0, kx, ky }, ps);
  const r = f.tipo === 'circulo' ? Number(f.raio) : f.tipo === 'rota' ? Number(f.raio) / 2 : 0;
  // the box grows by the radius (a little more: the plane's scale differs slightly away from lat0)
  const dLat = (r * 1.01) / ky, dLon = (r * 1.01) / (M_PER_DEG * Math.max(Math.cos((Math.abs(lat0) + Math.abs(maxLat - minLat) / 2 + dLat) * RAD), 1e-6));
  return {
    id: f.id, tipo: f.tipo, lon0, lat0, kx, ky,
    rings: f.tipo === 'poligono' ? (c as Pos[][]).map(flat) : [],
    line: f.tipo === 'rota' ? flat(c as Pos[]) : f.tipo === 'circulo' ? flat([c as Pos]) : new Float64Array(0),
    r,
    bbox: [minLon - dLon, minLat - dLat, maxLon + dLon, maxLat + dLat],
  };
}

// ---------- point tests ----------

/** Whether the position (lon, lat) is inside the fence (its border included for circles and corridors). */
export function contains(f: Prepared, lon: number, lat: number): boolean {
  const x = (lon - f.lon0) * f.kx, y = (lat - f.lat0) * f.ky;
  if (f.tipo === 'poligono') return inRings(f.rings, x, y);
  if (f.tipo === 'circulo') { const dx = x - f.line[0]!, dy = y - f.line[1]!; return dx * dx + dy * dy <= f.r * f.r; }
  return inCorridor(f.line, f.r, x, y);
}

// ---------- segment crossings ----------

/** Parameters s in [0, 1] where |P(s) - C| <= r, P(s) = A + s (B - A): an interval or null. */
function discInterval(ax: number, ay: number, dx: number, dy: number, cx: number, cy: number, r: number): [number, number] | null {
  const fx = ax - cx, fy = ay - cy;
  const a = dx * dx + dy * dy, b = 2 * (fx * dx + fy * dy), c = fx * fx + fy * fy - r * r;
  if (a === 0) return c <= 0 ? [0, 1] : null;
  const disc = b * b - 4 * a * c;
  if (disc < 0) return null;
  const q = Math.sqrt(disc);
  const s0 = Math.max(0, (-b - q) / (2 * a)), s1 = Math.min(1, (-b + q) / (2 * a));
  return s0 <= s1 ? [s0, s1] : null;
}

/** Parameters where P(s) is within hw of the segment C-D (a capsule: convex, so one interval). */
function capsuleInterval(ax: number, ay: number, dx: number, dy: number, cx: number, cy: number, ex: number, ey: number, hw: number): [number, number] | null {
  let lo = Infinity, hi = -Infinity;
  const add = (iv: [number, number] | null) => { if (iv) { if (iv[0] < lo) lo = iv[0]; if (iv[1] > hi) hi = iv[1]; } };
  add(discInterval(ax, ay, dx, dy, cx, cy, hw));
  add(discInterval(ax, ay, dx, dy, ex, ey, hw));
  const ux = ex - cx, uy = ey - cy, L = Math.hypot(ux, uy);
  if (L > 0) {
    // the rectangle: 0 <= (P - C)·u <= L and |(P - C)·n| <= hw (Liang–Barsky on the four half-planes)
    const tx = ux / L, ty = uy / L, nx = -ty, ny = tx;
    let s0 = 0, s1 = 1;
    const clip = (p0: number, dp: number, min: number, max: number) => {
      // min <= p0 + s dp <= max
      if (dp === 0) { if (p0 < min || p0 > max) s0 = 2; return; }
      let a = (min - p0) / dp, b = (max - p0) / dp;
      if (a > b) [a, b] = [b, a];
      if (a > s0) s0 = a; if (b < s1) s1 = b;
    };
    clip((ax - cx) * tx + (ay - cy) * ty, dx * tx + dy * ty, 0, L);
    clip((ax - cx) * nx + (ay - cy) * ny, dx * nx + dy * ny, -hw, hw);
    if (s0 <= s1) add([s0, s1]);
  }
  return lo <= hi ? [lo, hi] : null;
}

/** Sorted, merged parameter intervals of [0, 1] where the segment A→B is inside the fence. */
export function insideIntervals(f: Prepared, lonA: number, latA: number, lonB: number, latB: number): [number, number][] {
  const ax = (lonA - f.lon0) * f.kx, ay = (latA - f.lat0) * f.ky;
  const dx = (lonB - f.lon0) * f.kx - ax, dy = (latB - f.lat0) * f.ky - ay;
  if (f.tipo === 'circulo') { const iv = discInterval(ax, ay, dx, dy, f.line[0]!, f.line[1]!, f.r); return iv ? [iv] : []; }
  if (f.tipo === 'rota') {
    const ivs: [number, number][] = [];
    for (let i = 0; i + 3 < f.line.length; i += 2) {
      const iv = capsuleInterval(ax, ay, dx, dy, f.line[i]!, f.line[i + 1]!, f.line[i + 2]!, f.line[i + 3]!, f.r);
      if (iv) ivs.push(iv);
    }
    return merge(ivs);
  }
  // polygon: every crossing of an edge toggles; the state at s = 0 is the start point's
  const cuts: number[] = [];
  for (const ring of f.rings) {
    for (let i = 0; i + 3 < ring.length; i += 2) {
      const px = ring[i]!, py = ring[i + 1]!, ex = ring[i + 2]! - px, ey = ring[i + 3]! - py;
      const den = dx * ey - dy * ex;
      if (den === 0) continue;
      const s = ((px - ax) * ey - (py - ay) * ex) / den;
      const t = ((px - ax) * dy - (py - ay) * dx) / den;
      if (s > 0 && s < 1 && t >= 0 && t < 1) cuts.push(s);
    }
  }
  cuts.sort((a, b) => a - b);
  const out: [number, number][] = [];
  let inside = inRings(f.rings, ax, ay), from = 0;
  for (const s of cuts) {
    if (inside) out.push([from, s]); else from = s;
    inside = !inside;
  }
  if (inside) out.push([from, 1]);
  return merge(out);
}

function merge(ivs: [number, number][]): [number, number][] {
  ivs.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const iv of ivs) {
    const last = out[out.length - 1];
    if (last && iv[0] <= last[1] + 1e-12) last[1] = Math.max(last[1], iv[1]);
    else out.push([iv[0], iv[1]]);
  }
  return out;
}

export interface Transition { entrada: boolean; s: number }

/** The entries and exits along A→B given the state at A (`wasInside`): parameters in (0, 1]. A state that disagrees
 *  with the geometry at A (the fence was created or edited since) changes at B (s = 1): the change is seen there. */
export function transitions(f: Prepared, wasInside: boolean, lonA: number, latA: number, lonB: number, latB: number): Transition[] {
  const ivs = insideIntervals(f, lonA, latA, lonB, latB);
  const EPS = 1e-9;
  const out: Transition[] = [];
  let st = wasInside;
  const startsIn = ivs.length > 0 && ivs[0]![0] <= EPS;
  if (st !== startsIn) {
    // the whole segment says otherwise at A: settle at B with B's own state
    const endIn = contains(f, lonB, latB);
    return endIn !== st ? [{ entrada: endIn, s: 1 }] : [];
  }
  for (const [a, b] of ivs) {
    if (a > EPS && !st) { out.push({ entrada: true, s: a }); st = true; }
    if (b < 1 - EPS && st) { out.push({ entrada: false, s: b }); st = false; }
  }
  // the end state is B's own (rounding on a border)
  const endIn = contains(f, lonB, latB);
  if (endIn !== st) out.push({ entrada: endIn, s: 1 });
  return out;
}

// ---------- conversions (/util/geo/line_to_polygon, /wkd/geo/pol_to_circle) ----------

const toLonLat = (f: { lon0: number; lat0: number; kx: number; ky: number }, x: number, y: number): Pos =>
  [round7(f.lon0 + x / f.kx), round7(f.lat0 + y / f.ky)];
const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

/** The corridor of a line as a polygon: points within `largura`/2 metres of the line (round ends and joins,
 *  `steps` segments per half circle), as a GeoJSON Polygon. */
export function lineToPolygon(line: Pos[], largura: number, steps = 16): { type: 'Polygon'; coordinates: Pos[][] } {
  const f = prepare({ id: 0, tipo: 'rota', geometria: { type: 'LineString', coordinates: line }, raio: largura })!;
  const hw = largura / 2;
  // union of capsules approximated by the convex-free outline: walk the offset polyline on each side with round caps
  const n = f.line.length / 2;
  const P = (i: number): [number, number] => [f.line[2 * i]!, f.line[2 * i + 1]!];
  const left: [number, number][] = [], right: [number, number][] = [];
  const arc = (c: [number, number], a0: number, a1: number, into: [number, number][]) => {
    let d = a1 - a0;
    while (d <= -Math.PI) d += 2 * Math.PI;
    while (d > Math.PI) d -= 2 * Math.PI;
    const k = Math.max(1, Math.ceil((Math.abs(d) / Math.PI) * steps));
    for (let j = 0; j <= k; j++) { const a = a0 + (d * j) / k; into.push([c[0] + hw * Math.cos(a), c[1] + hw * Math.sin(a)]); }
  };
  const ang: number[] = [];
  for (let i = 0; i + 1 < n; i++) { const [x0, y0] = P(i), [x1, y1] = P(i + 1); ang.push(Math.atan2(y1 - y0, x1 - x0)); }
  if (!ang.length) ang.push(0);
  for (let i = 0; i < n; i++) {
    const c = P(i);
    const aIn = ang[Math.max(0, i - 1)]!, aOut = ang[Math.min(ang.length - 1, i)]!;
    if (i === 0) { left.push([c[0] + hw * Math.cos(aOut + Math.PI / 2), c[1] + hw * Math.sin(aOut + Math.PI / 2)]); right.push([c[0] + hw * Math.cos(aOut - Math.PI / 2), c[1] + hw * Math.sin(aOut - Math.PI / 2)]); continue; }
    if (i === n - 1) { left.push([c[0] + hw * Math.cos(aIn + Math.PI / 2), c[1] + hw * Math.sin(aIn + Math.PI / 2)]); right.push([c[0] + hw * Math.cos(aIn - Math.PI / 2), c[1] + hw * Math.sin(aIn - Math.PI / 2)]); continue; }
    arc(c, aIn + Math.PI / 2, aOut + Math.PI / 2, left);
    arc(c, aIn - Math.PI / 2, aOut - Math.PI / 2, right);
  }
  const ring: [number, number][] = [...left];
  const end = P(n - 1), start = P(0);
  arc(end, ang[ang.length - 1]! + Math.PI / 2, ang[ang.length - 1]! - Math.PI / 2, ring);
  ring.push(...right.reverse());
  arc(start, ang[0]! - Math.PI / 2, ang[0]! - (3 * Math.PI) / 2, ring);
  const coords = ring.map(([x, y]) => toLonLat(f, x, y));
  coords.push([...coords[0]!] as Pos);
  return { type: 'Polygon', coordinates: [coords] };
}

/** The smallest circle holding every vertex of a polygon (Welzl), as centre [lon, lat] and radius in metres. */
export function polygonToCircle(coordinates: Pos[][]): { centro: Pos; raio: number } {
  const f = prepare({ id: 0, tipo: 'poligono', geometria: { type: 'Polygon', coordinates }, raio: null })!;
  const pts: [number, number][] = [];
  for (const ring of f.rings) for (let i = 0; i < ring.length; i += 2) pts.push([ring[i]!, ring[i + 1]!]);
  let c: [number, number] = [0, 0], r = -1;
  const inC = (p: [number, number]) => Math.hypot(p[0] - c[0], p[1] - c[1]) <= r + 1e-7;
  const two = (a: [number, number], b: [number, number]): void => { c = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]; r = Math.hypot(a[0] - b[0], a[1] - b[1]) / 2; };
  const three = (a: [number, number], b: [number, number], d: [number, number]): void => {
    const bx = b[0] - a[0], by = b[1] - a[1], cx = d[0] - a[0], cy = d[1] - a[1];
    const den = 2 * (bx * cy - by * cx);
    if (den === 0) { // collinear: the widest pair
      const pairs: [[number, number], [number, number]][] = [[a, b], [a, d], [b, d]];
      pairs.sort((p, q) => Math.hypot(q[0][0] - q[1][0], q[0][1] - q[1][1]) - Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]));
      two(...pairs[0]!); return;
    }
    const ux = (cy * (bx * bx + by * by) - by * (cx * cx + cy * cy)) / den, uy = (bx * (cx * cx + cy * cy) - cx * (bx * bx + by * by)) / den;
    c = [a[0] + ux, a[1] + uy]; r = Math.hypot(ux, uy);
  };
  for (let i = 0; i < pts.length; i++) {
    if (r >= 0 && inC(pts[i]!)) continue;
    c = pts[i]!; r = 0;
    for (let j = 0; j < i; j++) {
      if (inC(pts[j]!)) continue;
      two(pts[i]!, pts[j]!);
      for (let k = 0; k < j; k++) if (!inC(pts[k]!)) three(pts[i]!, pts[j]!, pts[k]!);
    }
  }
  return { centro: toLonLat(f, c[0], c[1]), raio: Math.round(r * 10) / 10 };
}
