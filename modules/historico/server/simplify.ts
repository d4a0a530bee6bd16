// Track simplification per zoom level (pure): Douglas–Peucker on a local metric projection, with a tolerance of about
// one screen pixel at the requested zoom. Never a truncation: the first and last fixes and every fix the caller marks
// (events, ignition changes, the top speed) are always kept, and each removed fix lies within the tolerance of the
// kept segment around it.

export interface LatLon { lat: number; lon: number }

/** A value along the track kept within its tolerance too (e.g. the speed, so the colours and the chart stay true):
 *  a removed fix's value differs by at most `tolerance` from the time-interpolation between the kept fixes around it. */
export interface Channel { times: ArrayLike<number>; values: ArrayLike<number | null>; tolerance: number }

/** Metres per screen pixel of a Web Mercator map at `zoom` and latitude `lat` (256-pixel tiles). */
export const metresPerPixel = (zoom: number, lat: number) => (156_543.033_92 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;

/** The tolerance for a zoom level: `px` pixels (1 by default) at the track's latitude. */
export const toleranceFor = (zoom: number, lat: number, px = 1) => metresPerPixel(zoom, lat) * px;

const M_PER_DEG_LAT = 110_540;
const M_PER_DEG_LON = 111_320;

/** Distance in metres from p to the segment a–b (equirectangular around a: exact enough below a few hundred km). */
export function segmentDistance(p: LatLon, a: LatLon, b: LatLon): number {
  const k = Math.cos((a.lat * Math.PI) / 180) * M_PER_DEG_LON;
  const px = (p.lon - a.lon) * k, py = (p.lat - a.lat) * M_PER_DEG_LAT;
  const bx = (b.lon - a.lon) * k, by = (b.lat - a.lat) * M_PER_DEG_LAT;
  const len2 = bx * bx + by * by;
  const s = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * bx + py * by) / len2));
  return Math.hypot(px - s * bx, py - s * by);
}

/** Indices (ascending) of the fixes kept by Douglas–Peucker with `tolerance` metres; `keep` marks fixes that stay
 *  whatever the tolerance. Iterative (no recursion depth limit on long tracks). */
export function simplify(points: readonly LatLon[], tolerance: number, keep: ReadonlySet<number> = new Set(), channels: Channel[] = []): number[] {
  const n = points.length;
  if (n <= 2 || !(tolerance > 0)) return points.map((_, i) => i);
  // the error of fix i against the segment a–b, in tolerances (> 1: too far)
  const error = (i: number, a: number, b: number) => {
    let e = segmentDistance(points[i]!, points[a]!, points[b]!) / tolerance;
    for (const c of channels) {
      const v = c.values[i], va = c.values[a], vb = c.values[b];
      if (v == null || va == null || vb == null) continue;
      const ta = c.times[a]!, tb = c.times[b]!;
      const f = tb > ta ? (c.times[i]! - ta) / (tb - ta) : 0;
      e = Math.max(e, Math.abs(v - (va + (vb - va) * f)) / c.tolerance);
    }
    return e;
  };
  const kept = new Uint8Array(n);
  kept[0] = 1; kept[n - 1] = 1;
  for (const i of keep) if (i >= 0 && i < n) kept[i] = 1;
  // the forced fixes split the track; each stretch between two of them is simplified on its own
  const anchors: number[] = [];
  for (let i = 0; i < n; i++) if (kept[i]) anchors.push(i);
  const stack: [number, number][] = [];
  for (let k = 1; k < anchors.length; k++) if (anchors[k]! - anchors[k - 1]! > 1) stack.push([anchors[k - 1]!, anchors[k]!]);
  while (stack.length) {
    const [a, b] = stack.pop()!;
    let far = -1, dmax = 1;
    for (let i = a + 1; i < b; i++) {
      const d = error(i, a, b);
      if (d > dmax) { dmax = d; far = i; }
    }
    if (far < 0) continue;
    kept[far] = 1;
    if (far - a > 1) stack.push([a, far]);
    if (b - far > 1) stack.push([far, b]);
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (kept[i]) out.push(i);
  return out;
}

/** Indices of the fixes nearest in time to each instant (ascending times; ties: the earlier fix). */
export function nearestInTime(times: readonly number[], instants: Iterable<number>): Set<number> {
  const out = new Set<number>();
  if (!times.length) return out;
  for (const t of instants) {
    let lo = 0, hi = times.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (times[mid]! < t) lo = mid + 1; else hi = mid; }
    // lo: the first fix at or after t; the one before may be nearer
    out.add(lo > 0 && t - times[lo - 1]! <= times[lo]! - t ? lo - 1 : lo);
  }
  return out;
}

/** Web Mercator x, y of a position in [0, 1] (x east from 180°W, y south from the top of the world). */
const mercator = (lat: number, lon: number): [number, number] => {
  const s = Math.sin((Math.max(-85.051_128_78, Math.min(85.051_128_78, lat)) * Math.PI) / 180);
  return [(lon + 180) / 360, 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)];
};

export interface Box { minLat: number; maxLat: number; minLon: number; maxLon: number }

/**
 * The zoom a Leaflet map of `width` × `height` pixels takes to fit `box` grown by `pad` of its size on each side
 * (the screen's `fitBounds(bounds.pad(pad), { maxZoom })`, zoomSnap 1): Leaflet's getBoundsZoom — the largest whole
 * zoom that fits, where a value within 1 % of the next whole zoom counts as it.
 */
export function fitZoom(box: Box, width: number, height: number, o: { pad?: number; maxZoom?: number } = {}): number {
  const pad = o.pad ?? 0.15, maxZoom = o.maxZoom ?? 16;
  const dLat = (box.maxLat - box.minLat) * pad, dLon = (box.maxLon - box.minLon) * pad;
  const [x0, y0] = mercator(box.maxLat + dLat, box.minLon - dLon), [x1, y1] = mercator(box.minLat - dLat, box.maxLon + dLon);
  const scale = Math.min(width / (256 * (x1 - x0)), height / (256 * (y1 - y0)));
  if (!(scale > 0) || !Number.isFinite(scale)) return maxZoom;
  const z = Math.floor(Math.round(Math.log2(scale) * 100) / 100);
  return Math.max(0, Math.min(maxZoom, z));
}
