import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitZoom, metresPerPixel, nearestInTime, segmentDistance, simplify, toleranceFor } from './simplify.ts';

const M = 1 / 111_320; // about a metre of latitude in degrees

describe('track simplification', () => {
  it('a straight line keeps its two ends; a corner stays', () => {
    const line = Array.from({ length: 50 }, (_, i) => ({ lat: -23 + i * 10 * M, lon: -46 }));
    expect(simplify(line, 5)).toEqual([0, 49]);
    const corner = [...line, ...Array.from({ length: 50 }, (_, i) => ({ lat: -23 + 490 * M, lon: -46 + (i + 1) * 10 * M }))];
    expect(simplify(corner, 5)).toEqual([0, 49, 99]);
  });

  it('forced fixes (events) stay whatever the tolerance', () => {
    const line = Array.from({ length: 50 }, (_, i) => ({ lat: -23 + i * 10 * M, lon: -46 }));
    expect(simplify(line, 1e6, new Set([7, 30]))).toEqual([0, 7, 30, 49]);
  });

  it('a lower zoom (a larger tolerance) never keeps more fixes (nor others); zoom 0 keeps the ends of a wiggly track', () => {
    const wiggly = Array.from({ length: 400 }, (_, i) => ({ lat: -23 + i * 20 * M, lon: -46 + Math.sin(i / 3) * 40 * M }));
    const counts = [0, 8, 12, 14, 16, 18, 22].map((z) => simplify(wiggly, toleranceFor(z, -23)).length);
    for (let k = 1; k < counts.length; k++) expect(counts[k]).toBeGreaterThanOrEqual(counts[k - 1]!);
    expect(counts[0]).toBe(2);
    expect(counts[counts.length - 1]).toBeGreaterThan(390); // a pixel is centimetres: nearly every fix
    // nested: what a lower zoom keeps, a higher one keeps too
    const low = simplify(wiggly, toleranceFor(12, -23)), high = new Set(simplify(wiggly, toleranceFor(16, -23)));
    expect(low.every((i) => high.has(i))).toBe(true);
  });

  it('every removed fix lies within the tolerance of the kept segment around it (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ dlat: fc.integer({ min: -500, max: 500 }), dlon: fc.integer({ min: -500, max: 500 }) }), { minLength: 3, maxLength: 200 }),
      fc.integer({ min: 1, max: 300 }),
      (steps, tol) => {
        let lat = -23, lon = -46;
        const pts = steps.map((s) => ({ lat: (lat += s.dlat * M), lon: (lon += s.dlon * M) }));
        const kept = simplify(pts, tol);
        expect(kept[0]).toBe(0);
        expect(kept[kept.length - 1]).toBe(pts.length - 1);
        for (let k = 1; k < kept.length; k++) {
          for (let i = kept[k - 1]! + 1; i < kept[k]!; i++) expect(segmentDistance(pts[i]!, pts[kept[k - 1]!]!, pts[kept[k]!]!)).toBeLessThanOrEqual(tol + 1e-6);
        }
      },
    ), { numRuns: 200 });
  });

  it('a channel (the speed) keeps the fixes where it departs from the interpolation by more than its tolerance', () => {
    const line = Array.from({ length: 20 }, (_, i) => ({ lat: -23 + i * 10 * M, lon: -46 }));
    const times = line.map((_, i) => i * 1000);
    const speeds = line.map((_, i) => (i < 10 ? 60 : 0)); // drives then stands: a straight line, a speed step
    expect(simplify(line, 1e6)).toEqual([0, 19]);
    const kept = simplify(line, 1e6, new Set(), [{ times, values: speeds, tolerance: 10 }]);
    expect(kept).toContain(9);
    expect(kept).toContain(10);
    // a steady speed adds nothing; unknown values are ignored
    expect(simplify(line, 1e6, new Set(), [{ times, values: line.map(() => 60), tolerance: 10 }])).toEqual([0, 19]);
    expect(simplify(line, 1e6, new Set(), [{ times, values: line.map(() => null), tolerance: 10 }])).toEqual([0, 19]);
  });

  it('a pixel at zoom 0 is about 156 km at the equator and halves each level', () => {
    expect(metresPerPixel(0, 0)).toBeCloseTo(156_543, 0);
    expect(metresPerPixel(10, 0)).toBeCloseTo(152.87, 1);
    expect(metresPerPixel(10, 60)).toBeCloseTo(76.44, 1);
  });

  it('finds the fix nearest each event time (ties: the earlier)', () => {
    expect([...nearestInTime([0, 10, 20, 30], [4, 5, 6, 100, -3])].sort((a, b) => a - b)).toEqual([0, 1, 3]);
    expect(nearestInTime([], [1])).toEqual(new Set());
  });
});

describe('the zoom Leaflet fits a track at (fitBounds of the box grown 15 %, maxZoom 16)', () => {
  // one degree of longitude at the equator is 256 × 2^z / 360 px at zoom z
  const eq = { minLat: -0.5, maxLat: 0.5, minLon: -0.5, maxLon: 0.5 };
  it('the largest whole zoom whose pixels hold the box', () => {
    expect(fitZoom(eq, 256, 256, { pad: 0 })).toBe(8); // log2(360) = 8.49
    expect(fitZoom(eq, 256, 256)).toBe(8); // 1.3° wide: log2(360 / 1.3) = 8.11
    expect(fitZoom(eq, 512, 512)).toBe(9);
    expect(fitZoom(eq, 512, 100)).toBe(6); // the shorter side decides: log2(100 × 360 / 256 / 1.3) = 6.76
    expect(fitZoom({ minLat: -24, maxLat: -23, minLon: -47, maxLon: -46 }, 1000, 600)).toBe(9); // 1.3° tall at 23.5° S: log2(600 × 360 / 256 / 1.3 × cos 23.5°) = 9.22
  });
  it('within 1 % of the next zoom counts as it (Leaflet rounds to hundredths first), and the bounds hold', () => {
    // the box is 1/360 of the world wide: the zoom is log2(w × 360 / 256)
    expect(fitZoom(eq, 2 ** 8.996 * 256 / 360, 10_000, { pad: 0 })).toBe(9);
    expect(fitZoom(eq, 2 ** 8.994 * 256 / 360, 10_000, { pad: 0 })).toBe(8);
    expect(fitZoom({ minLat: 10, maxLat: 10, minLon: 20, maxLon: 20 }, 800, 600)).toBe(16); // one place: the max zoom
    expect(fitZoom({ minLat: -80, maxLat: 80, minLon: -180, maxLon: 180 }, 300, 300)).toBe(0);
  });
});
