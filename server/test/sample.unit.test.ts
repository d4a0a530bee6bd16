// The conformance suite's sample values match every pattern the metadata declares, and differ from call to call.
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../generator/generate.ts';
import { fromPattern } from './sample.ts';

const model = buildModel(new URL('../../metadata', import.meta.url).pathname);
const patterns = [...new Set(model.entities.flatMap((e) => e.fields.map((f) => f.pattern).filter((p): p is string => !!p)))];

describe('fromPattern', () => {
  it.each(patterns)('%s', (p) => {
    const re = new RegExp(p);
    const values = Array.from({ length: 40 }, (_, n) => fromPattern(p, n));
    for (const v of values) expect(v).toMatch(re);
    expect(new Set(values).size).toBeGreaterThan(1);
    for (const open of [2, 5]) expect(fromPattern(p, 3, open)).toMatch(re);
  });

  it('grows unbounded repetitions with `open` and keeps bounded ones', () => {
    expect(fromPattern('^[a-z][a-z0-9_]*$', 0, 4)).toBe('aaaaa');
    expect(fromPattern('^\\d{3}-?\\d{2}$', 12)).toBe('210-00');
    expect(fromPattern('^(ab|cd)$', 1)).toBe('cd');
    expect(patterns.length).toBeGreaterThan(10);
  });
});
