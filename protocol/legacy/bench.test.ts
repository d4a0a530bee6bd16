// The benchmark's frames are real-shaped and all decode; the rates come back per repetition.
import { describe, expect, it } from 'vitest';
import { isDecodeError } from '../types.ts';
import { decode } from './index.ts';
import { median } from '../../bench/stats.ts';
import { legacyBenchFrames, legacyDecodeBench, legacyFrameBench } from './bench.ts';

describe('legacy (SV) benchmark helpers', () => {
  it('builds varied status frames that the framer splits and the decoder accepts', () => {
    const frames = legacyBenchFrames(400, 50);
    expect(frames).toHaveLength(400);
    const results = frames.map((f) => decode(f));
    expect(results.filter(isDecodeError)).toEqual([]);
    expect(new Set(results.map((r) => (isDecodeError(r) ? '' : r.deviceId))).size).toBe(50);
    expect(new Set(frames.map((f) => f.length))).toEqual(new Set([42, 50]));
  });

  it('reports one wall and one CPU rate per repetition', () => {
    const r = legacyDecodeBench(2, legacyBenchFrames(2000));
    expect(r.wall).toHaveLength(2);
    expect(r.cpu).toHaveLength(2);
    expect(r.wall.every((x) => Number.isFinite(x) && x > 0)).toBe(true);
    expect(legacyFrameBench(2000)).toBeGreaterThan(0);
  });

  it('one median for every benchmark: the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });
});
