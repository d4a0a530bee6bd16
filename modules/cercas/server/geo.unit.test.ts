import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contains, geometryProblem, insideIntervals, lineToPolygon, polygonToCircle, prepare, transitions, type FenceInput, type Pos, type Prepared } from '../geo.ts';
import { FenceIndex } from './fence-index.ts';

const M = 1 / 111_320; // ~1 m of latitude in degrees
const LAT = -23.55, LON = -46.63;
const mLon = (m: number) => (m * M) / Math.cos(LAT * Math.PI / 180);
/** A square of `side` metres with its south-west corner at (LON + x m, LAT + y m). */
const square = (id: number, side: number, x = 0, y = 0): FenceInput => {
  const a: Pos = [LON + mLon(x), LAT + y * M], b: Pos = [LON + mLon(x + side), LAT + (y + side) * M];
  return { id, tipo: 'poligono', geometria: { type: 'Polygon', coordinates: [[a, [b[0], a[1]], b, [a[0], b[1]], a]] }, raio: null };
};
const circle = (id: number, r: number, x = 0, y = 0): FenceInput => ({ id, tipo: 'circulo', geometria: { type: 'Point', coordinates: [LON + mLon(x), LAT + y * M] }, raio: r });
const corridor = (id: number, width: number, pts: [number, number][]): FenceInput =>
  ({ id, tipo: 'rota', geometria: { type: 'LineString', coordinates: pts.map(([x, y]) => [LON + mLon(x), LAT + y * M]) }, raio: width });
const P = (f: FenceInput) => prepare(f)!;
const at = (f: Prepared, x: number, y: number) => contains(f, LON + mLon(x), LAT + y * M);
const along = (f: Prepared, wasIn: boolean, a: [number, number], b: [number, number]) =>
  transitions(f, wasIn, LON + mLon(a[0]), LAT + a[1] * M, LON + mLon(b[0]), LAT + b[1] * M);

describe('point in fence', () => {
  it('polygon: inside, outside, a hole', () => {
    const sq = P(square(1, 100));
    expect([at(sq, 50, 50), at(sq, 1, 99), at(sq, 150, 50), at(sq, -1, 50), at(sq, 50, 101)]).toEqual([true, true, false, false, false]);
    const outer = square(2, 100).geometria as { coordinates: Pos[][] };
    const hole = (square(3, 20, 40, 40).geometria as { coordinates: Pos[][] }).coordinates[0]!;
    const donut = P({ id: 2, tipo: 'poligono', geometria: { type: 'Polygon', coordinates: [outer.coordinates[0]!, hole] } });
    expect([at(donut, 10, 10), at(donut, 50, 50)]).toEqual([true, false]);
  });
  it('circle: within the radius in metres', () => {
    const c = P(circle(1, 200));
    expect([at(c, 0, 199), at(c, 141, 141), at(c, 0, 201), at(c, 150, 150)]).toEqual([true, true, false, false]);
  });
  it('corridor: within half the width of the line, round ends', () => {
    const r = P(corridor(1, 100, [[0, 0], [1000, 0], [1000, 1000]]));
    expect([at(r, 500, 49), at(r, 500, -49), at(r, 500, 51), at(r, 1049, 500), at(r, -49, 0), at(r, -40, 40), at(r, 1200, 1200)])
      .toEqual([true, true, false, true, true, false, false]);
  });
  it('property: a point of a circle matches the haversine distance', () => {
    fc.assert(fc.property(fc.double({ min: -3000, max: 3000, noNaN: true }), fc.double({ min: -3000, max: 3000, noNaN: true }), fc.integer({ min: 10, max: 5000 }), (x, y, r) => {
      const d = Math.hypot(x, y);
      fc.pre(Math.abs(d - r) > r * 0.005 + 0.5);
      expect(at(P(circle(1, r)), x, y)).toBe(d < r);
    }));
  });
});

describe('crossings between two fixes', () => {
  it('a segment straight through a square: entry and exit at the borders', () => {
    const t = along(P(square(1, 100)), false, [-100, 50], [300, 50]);
    expect(t.map((x) => x.entrada)).toEqual([true, false]);
    expect(t[0]!.s).toBeCloseTo(0.25, 3);
    expect(t[1]!.s).toBeCloseTo(0.5, 3);
  });
  it('through a circle and through a corridor; ending inside gives only the entry', () => {
    const c = along(P(circle(1, 100)), false, [-200, 0], [200, 0]);
    expect(c.map((x) => [x.entrada, Math.round(x.s * 1000) / 1000])).toEqual([[true, 0.25], [false, 0.75]]);
    const r = along(P(corridor(1, 100, [[0, -1000], [0, 1000]])), false, [-500, 0], [500, 0]);
    expect(r.map((x) => [x.entrada, Math.round(x.s * 1000) / 1000])).toEqual([[true, 0.45], [false, 0.55]]);
    expect(along(P(circle(1, 100)), false, [-200, 0], [0, 0]).map((x) => x.entrada)).toEqual([true]);
    expect(along(P(circle(1, 100)), true, [0, 0], [10, 0])).toEqual([]);
  });
  it('a state that disagrees at the start (fence created around the vehicle) changes at the next fix', () => {
    expect(along(P(square(1, 100)), false, [50, 50], [60, 60])).toEqual([{ entrada: true, s: 1 }]);
    expect(along(P(square(1, 100)), true, [500, 50], [600, 60])).toEqual([{ entrada: false, s: 1 }]);
  });
  it('property: crossings alternate and end in the end point’s state (polygon, circle, corridor)', () => {
    const fences = [P(square(1, 300, -150, -150)), P(circle(2, 180)), P(corridor(3, 80, [[-300, -300], [0, 100], [300, -200]]))];
    const pt = fc.tuple(fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true }));
    fc.assert(fc.property(pt, pt, fc.constantFrom(...fences), (a, b, f) => {
      const start = at(f, a[0], a[1]);
      const t = along(f, start, a, b);
      let st = start;
      for (const x of t) { expect(x.entrada).toBe(!st); st = x.entrada; expect(x.s).toBeGreaterThan(0); expect(x.s).toBeLessThanOrEqual(1); }
      expect(st).toBe(at(f, b[0], b[1]));
      for (let i = 1; i < t.length; i++) expect(t[i]!.s).toBeGreaterThanOrEqual(t[i - 1]!.s);
    }), { numRuns: 500 });
  });
  it('property: the midpoint of an inside interval is inside', () => {
    const f = P(corridor(3, 80, [[-300, -300], [0, 100], [300, -200]]));
    const pt = fc.tuple(fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true }));
    fc.assert(fc.property(pt, pt, (a, b) => {
      for (const [s0, s1] of insideIntervals(f, LON + mLon(a[0]), LAT + a[1] * M, LON + mLon(b[0]), LAT + b[1] * M)) {
        const s = (s0 + s1) / 2;
        expect(at(f, a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]))).toBe(true);
      }
    }), { numRuns: 300 });
  });
});

describe('fence index (flatbush)', () => {
  it('answers the fences whose box meets a segment, among 10,000', () => {
    const fences: FenceInput[] = [];
    for (let i = 0; i < 10_000; i++) fences.push(square(i + 1, 50, (i % 100) * 200, Math.floor(i / 100) * 200));
    const idx = new FenceIndex(fences);
    expect(idx.size).toBe(10_000);
    // the fence at column 3, row 2 (id 203 + 1)
    expect(idx.at(LON + mLon(3 * 200 + 25), LAT + (2 * 200 + 25) * M).map((f) => f.id)).toEqual([204]);
    expect(idx.at(LON + mLon(3 * 200 + 100), LAT + (2 * 200 + 25) * M)).toEqual([]);
    // a segment along row 0 from column 0 to 4: candidates are exactly the 5 fences of that row
    const c = idx.candidates(LON + mLon(10), LAT + 25 * M, LON + mLon(4 * 200 + 10), LAT + 25 * M).map((f) => f.id).sort((a, b) => a - b);
    expect(c).toEqual([1, 2, 3, 4, 5]);
  });
  it('property: the index finds every fence a brute-force scan finds', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: 5, max: 500 }), fc.constantFrom('q', 'c')), { minLength: 1, maxLength: 60 }),
      fc.integer({ min: -2500, max: 2500 }), fc.integer({ min: -2500, max: 2500 }), (specs, x, y) => {
        const fs = specs.map(([fx, fy, s, k], i) => (k === 'q' ? square(i + 1, s, fx, fy) : circle(i + 1, s, fx, fy)));
        const idx = new FenceIndex(fs);
        const brute = idx.fences.filter((f) => at(f, x, y)).map((f) => f.id);
        expect(idx.at(LON + mLon(x), LAT + y * M).map((f) => f.id).sort((a, b) => a - b)).toEqual(brute);
      }), { numRuns: 200 });
  });
  it('an empty company has no candidates', () => {
    expect(new FenceIndex([]).candidates(0, 0, 1, 1)).toEqual([]);
  });
});

describe('validation and conversions', () => {
  it('pt-BR problems: open ring, bad coordinates, missing radius, wrong type', () => {
    const open = { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [1, 1], [1, 0]]] };
    expect(geometryProblem('poligono', open, null)).toBe('Polígono inválido: o anel deve ser fechado (a última posição igual à primeira)');
    expect(geometryProblem('poligono', { type: 'Polygon', coordinates: [[[0, 0], [0, 1], [0, 0]]] }, null)).toContain('ao menos 4 posições');
    expect(geometryProblem('circulo', { type: 'Point', coordinates: [200, 0] }, 10)).toBe('Coordenadas inválidas: longitude entre -180 e 180 e latitude entre -90 e 90');
    expect(geometryProblem('circulo', { type: 'Point', coordinates: [-46, -23] }, null)).toBe('Informe o raio do círculo, em metros');
    expect(geometryProblem('rota', { type: 'LineString', coordinates: [[-46, -23], [-46.1, -23]] }, null)).toBe('Informe a largura do corredor da rota, em metros');
    expect(geometryProblem('rota', { type: 'Polygon', coordinates: [] }, 10)).toBe('Geometria inválida: uma rota é um GeoJSON LineString');
    expect(geometryProblem('poligono', (square(1, 10).geometria), null)).toBeNull();
  });
  it('line_to_polygon: the corridor polygon holds the line and not what is farther than half the width', () => {
    const line: Pos[] = [[LON, LAT], [LON + mLon(1000), LAT], [LON + mLon(1000), LAT + 1000 * M]];
    const poly = lineToPolygon(line, 100);
    expect(geometryProblem('poligono', poly, null)).toBeNull();
    const f = P({ id: 1, tipo: 'poligono', geometria: poly });
    expect([at(f, 500, 0), at(f, 500, 45), at(f, 500, -45), at(f, 1000, 500), at(f, 500, 60), at(f, 1060, 500)]).toEqual([true, true, true, true, false, false]);
  });
  it('pol_to_circle: the smallest circle around a square is centred with half the diagonal', () => {
    const { centro, raio } = polygonToCircle((square(1, 100).geometria as { coordinates: Pos[][] }).coordinates);
    expect(raio).toBeCloseTo(70.7, 0);
    expect(centro[0]).toBeCloseTo(LON + mLon(50), 6);
    expect(centro[1]).toBeCloseTo(LAT + 50 * M, 6);
  });
});
