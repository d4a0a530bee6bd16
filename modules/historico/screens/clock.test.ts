import { describe, expect, it } from 'vitest';
import { advance, colouredRuns, commonStops, downsample, positionAt, speedColor, step, type Ponto } from './clock';

const MIN = 60_000;

describe('playback clock', () => {
  it('advances data time by real time × speed, never past the end', () => {
    expect(advance(0, 1000, 1, [], 10 * MIN)).toBe(1000);
    expect(advance(0, 100, 60, [], 10 * MIN)).toBe(6000);
    expect(advance(0, 1000, 1000, [], 10 * MIN)).toBe(10 * MIN);
  });

  it('below 10× a stop plays at its speed; from 10× on it takes no time', () => {
    const stops = [{ from: 2 * MIN, to: 30 * MIN }];
    // 5×: 30 s of real time is 150 s of data, into the stop
    expect(advance(MIN, 30_000, 5, stops, 60 * MIN)).toBe(MIN + 150_000);
    // 10×: 12 s of real time = 120 s of data: 60 s to the stop, the stop skipped, 60 s after it
    expect(advance(MIN, 12_000, 10, stops, 60 * MIN)).toBe(31 * MIN);
    // a playhead inside a stop leaves it at once
    expect(advance(10 * MIN, 1000, 100, stops, 60 * MIN)).toBe(30 * MIN + 100_000);
    // several stops in one tick
    const many = [{ from: MIN, to: 2 * MIN }, { from: 3 * MIN, to: 10 * MIN }];
    expect(advance(0, 1000, 180, many, 60 * MIN)).toBe(10 * MIN + MIN);
    // a stop already behind the playhead changes nothing
    expect(advance(40 * MIN, 1000, 10, stops, 60 * MIN)).toBe(40 * MIN + 10_000);
  });

  it('skips only while every asset is stopped (the intersection of their stops)', () => {
    const a = [{ from: 0, to: 10 }, { from: 20, to: 40 }];
    const b = [{ from: 5, to: 25 }, { from: 30, to: 35 }];
    expect(commonStops([a, b])).toEqual([{ from: 5, to: 10 }, { from: 20, to: 25 }, { from: 30, to: 35 }]);
    expect(commonStops([a])).toEqual(a);
    expect(commonStops([a, []])).toEqual([]);
    expect(commonStops([])).toEqual([]);
  });
});

describe('track lookups', () => {
  const pts: Ponto[] = [[0, -23, -46, 0, null, 1, 0], [10_000, -23.001, -46, 60, 900, 1, 0], [20_000, -23.002, -46.001, 120, null, 1, 0]];

  it('interpolates the position between fixes and clamps outside', () => {
    const mid = positionAt(pts, 5000)!;
    expect([mid.lon, mid.index, mid.speed]).toEqual([-46, 0, 0]);
    expect(mid.lat).toBeCloseTo(-23.0005, 9);
    expect(positionAt(pts, -5)).toMatchObject({ lat: -23, index: 0 });
    expect(positionAt(pts, 99_999)).toMatchObject({ lat: -23.002, lon: -46.001, index: 2 });
    expect(positionAt([], 0)).toBeNull();
  });

  it('steps to the next and previous fix or event', () => {
    const times = [0, 10, 20, 30];
    expect(step(times, 10, 1)).toBe(20);
    expect(step(times, 15, 1)).toBe(20);
    expect(step(times, 15, -1)).toBe(10);
    expect(step(times, 10, -1)).toBe(0);
    expect(step(times, 30, 1)).toBe(30);
    expect(step(times, 0, -1)).toBe(0);
  });

  it('colours by speed and cuts the line where the colour changes', () => {
    expect([null, 0, 30, 60, 100, 130].map(speedColor)).toEqual(['#9e9e9e', '#9e9e9e', '#2e7d32', '#f9a825', '#ef6c00', '#c62828']);
    expect(colouredRuns(pts)).toEqual([
      { color: '#f9a825', latlngs: [[-23, -46], [-23.001, -46]] },
      { color: '#c62828', latlngs: [[-23.001, -46], [-23.002, -46.001]] },
    ]);
  });

  it('downsamples the chart keeping each bucket’s peak', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => (i === 537 ? 200 : i % 10));
    const d = downsample(xs, 100, (x) => x);
    expect(d).toHaveLength(100);
    expect(d).toContain(200);
    expect(downsample([1, 2], 10, (x) => x)).toEqual([1, 2]);
  });
});
