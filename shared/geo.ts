// Pure plane geometry shared by the modules (fences, itineraries): positions are GeoJSON [lon, lat] degrees, measured
// in metres on a local equirectangular plane around a shape's own centre (errors well under 0.5 % for shapes up to a
// few hundred km across).

export type Pos = [number, number];

export const EARTH_R = 6_371_008.8;
export const RAD = Math.PI / 180;
export const M_PER_DEG = EARTH_R * RAD;

/** A local plane: x = (lon - lon0) * kx, y = (lat - lat0) * ky, in metres. */
export interface Plane { lon0: number; lat0: number; kx: number; ky: number }

/** The plane centred on the bounding box of the positions. */
export function planeAround(pts: Iterable<Pos>): Plane {
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  for (const [lon, lat] of pts) {
    if (lon < minLon) minLon = lon; if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat; if (lat > maxLat) maxLat = lat;
  }
  const lon0 = (minLon + maxLon) / 2, lat0 = (minLat + maxLat) / 2;
  return { lon0, lat0, ky: M_PER_DEG, kx: M_PER_DEG * Math.max(Math.cos(lat0 * RAD), 1e-6) };
}

/** The positions as flat [x0, y0, x1, y1, ...] metres on the plane. */
export function flatten(p: Plane, ps: Pos[]): Float64Array {
  const a = new Float64Array(ps.length * 2);
  ps.forEach(([lon, lat], i) => { a[2 * i] = (lon - p.lon0) * p.kx; a[2 * i + 1] = (lat - p.lat0) * p.ky; });
  return a;
}

/** Squared distance from (x, y) to the segment (ax, ay)-(bx, by). */
export function segDist2(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - x, ey = ay + t * dy - y;
  return ex * ex + ey * ey;
}

/** Distance (metres) from (x, y) to a flat polyline (a lone point counts as a line of one point). */
export function lineDistance(line: Float64Array, x: number, y: number): number {
  if (line.length === 2) return Math.hypot(x - line[0]!, y - line[1]!);
  let best = Infinity;
  for (let i = 0; i + 3 < line.length; i += 2) {
    const d = segDist2(x, y, line[i]!, line[i + 1]!, line[i + 2]!, line[i + 3]!);
    if (d < best) best = d;
  }
  return Math.sqrt(best);
}

/** Whether (x, y) is within `hw` metres of the flat polyline (a corridor of full width 2·hw). */
export function inCorridor(line: Float64Array, hw: number, x: number, y: number): boolean {
  const h2 = hw * hw;
  for (let i = 0; i + 3 < line.length; i += 2) if (segDist2(x, y, line[i]!, line[i + 1]!, line[i + 2]!, line[i + 3]!) <= h2) return true;
  return false;
}

/** Even-odd point in polygon over flat closed rings (holes are rings too). */
export function inRings(rings: Float64Array[], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const xi = ring[i]!, yi = ring[i + 1]!, xj = ring[j]!, yj = ring[j + 1]!;
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Great-circle distance in metres (haversine). */
export function haversine(a: Pos, b: Pos): number {
  const dLat = (b[1] - a[1]) * RAD, dLon = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_R * Math.asin(Math.min(1, Math.sqrt(h)));
}
