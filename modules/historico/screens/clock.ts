// The replay's clock and track lookups (pure): one playhead (ms) shared by every asset; speeds 1× to 1000×; from 10×
// on, the intervals in which every replayed asset is stopped take no playing time (skipped).

export const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] as const;
/** From this speed on, the stops are skipped. */
export const SKIP_FROM = 10;

export interface Interval { from: number; to: number }

/** A fix as the server answers it: [time ms, lat, lon, speed km/h, rpm, ignition 1/0/null, course]. */
export type Ponto = [number, number, number, number | null, number | null, 0 | 1 | null, number | null];

/** Sorted, merged copy of intervals (empty ones dropped). */
export function merge(list: Interval[]): Interval[] {
  const s = list.filter((i) => i.to > i.from).sort((a, b) => a.from - b.from);
  const out: Interval[] = [];
  for (const i of s) {
    const last = out[out.length - 1];
    if (last && i.from <= last.to) last.to = Math.max(last.to, i.to);
    else out.push({ ...i });
  }
  return out;
}

/** The intervals in which every asset is stopped: the intersection of the assets' stops (each list any order). */
export function commonStops(perAsset: Interval[][]): Interval[] {
  if (!perAsset.length) return [];
  let acc = merge(perAsset[0]!);
  for (const next of perAsset.slice(1).map(merge)) {
    const out: Interval[] = [];
    let i = 0, j = 0;
    while (i < acc.length && j < next.length) {
      const from = Math.max(acc[i]!.from, next[j]!.from), to = Math.min(acc[i]!.to, next[j]!.to);
      if (to > from) out.push({ from, to });
      if (acc[i]!.to < next[j]!.to) i++; else j++;
    }
    acc = out;
  }
  return acc;
}

/** The playhead after `realMs` of playing at `speed` from `t`, never past `end`; from SKIP_FROM on, `skips` (sorted,
 *  merged) take no time: a playhead inside one jumps to its end. */
export function advance(t: number, realMs: number, speed: number, skips: Interval[], end: number): number {
  let left = realMs * speed;
  let cur = t;
  if (speed >= SKIP_FROM) {
    for (const s of skips) {
      if (s.to <= cur) continue;
      if (s.from <= cur) { cur = s.to; continue; } // inside a stop: leave it at once
      if (s.from >= cur + left) break;
      left -= s.from - cur;
      cur = s.to;
    }
  }
  return Math.min(end, cur + left);
}

/** Index of the last element of sorted `times` at or before t (-1 when all are after). */
export function indexAt(times: ArrayLike<number>, t: number): number {
  let lo = 0, hi = times.length - 1, ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) { ans = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return ans;
}

/** Where the asset is at t: interpolated between its fixes (clamped to the first and last); null without fixes. */
export function positionAt(pontos: Ponto[], t: number): { lat: number; lon: number; speed: number | null; course: number | null; index: number } | null {
  if (!pontos.length) return null;
  const times = pontos.map((p) => p[0]);
  const i = indexAt(times, t);
  if (i < 0) { const p = pontos[0]!; return { lat: p[1], lon: p[2], speed: p[3], course: p[6], index: 0 }; }
  const a = pontos[i]!, b = pontos[i + 1];
  if (!b || b[0] === a[0]) return { lat: a[1], lon: a[2], speed: a[3], course: a[6], index: i };
  const f = (t - a[0]) / (b[0] - a[0]);
  return { lat: a[1] + (b[1] - a[1]) * f, lon: a[2] + (b[2] - a[2]) * f, speed: a[3], course: a[6], index: i };
}

/** The next (dir 1) or previous (dir -1) instant of sorted `times` strictly after / before t; t itself when none. */
export function step(times: number[], t: number, dir: 1 | -1): number {
  if (dir > 0) { const i = indexAt(times, t); return times[i + 1] ?? t; }
  const i = indexAt(times, t - 1);
  return i >= 0 ? times[i]! : t;
}

/** Colour of a speed (km/h) on the track: stopped grey, then green, yellow, orange, red. */
export function speedColor(kmh: number | null): string {
  if (kmh == null || kmh < 5) return '#9e9e9e';
  if (kmh < 40) return '#2e7d32';
  if (kmh < 80) return '#f9a825';
  if (kmh < 110) return '#ef6c00';
  return '#c62828';
}

export const SPEED_BANDS: { label: string; color: string }[] = [
  { label: 'Parado (< 5 km/h)', color: '#9e9e9e' },
  { label: '5 a 40 km/h', color: '#2e7d32' },
  { label: '40 a 80 km/h', color: '#f9a825' },
  { label: '80 a 110 km/h', color: '#ef6c00' },
  { label: 'Acima de 110 km/h', color: '#c62828' },
];

/** The track cut into runs of one colour (each run shares its first fix with the previous run's last). */
export function colouredRuns(pontos: Ponto[]): { color: string; latlngs: [number, number][] }[] {
  const out: { color: string; latlngs: [number, number][] }[] = [];
  for (let i = 1; i < pontos.length; i++) {
    const a = pontos[i - 1]!, b = pontos[i]!;
    const color = speedColor(b[3]);
    const last = out[out.length - 1];
    if (last && last.color === color) last.latlngs.push([b[1], b[2]]);
    else out.push({ color, latlngs: [[a[1], a[2]], [b[1], b[2]]] });
  }
  return out;
}

/** At most `max` points of a series for the chart: per bucket the fix of highest value (peaks stay visible). */
export function downsample<T>(list: T[], max: number, value: (x: T) => number): T[] {
  if (list.length <= max) return list;
  const size = list.length / max;
  const out: T[] = [];
  for (let k = 0; k < max; k++) {
    const from = Math.floor(k * size), to = Math.min(list.length, Math.floor((k + 1) * size));
    let best = from;
    for (let i = from + 1; i < to; i++) if (value(list[i]!) > value(list[best]!)) best = i;
    out.push(list[best]!);
  }
  return out;
}
