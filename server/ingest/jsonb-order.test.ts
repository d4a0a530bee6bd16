import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { defaultDatabaseUrl } from './testing/db.ts';
import { jsonbKeyOrder, jsonbOrderedJson } from './jsonb-order.ts';

describe('jsonbOrderedJson', () => {
  it('writes the keys shortest first, then in byte order, with the same values', () => {
    const a = { protocolVersion: '8020030100', reportId: 1, lat: -23.5, ignition: false, odometer: 1000, mcc: 724, skip: undefined };
    expect(jsonbOrderedJson(a)).toBe('{"lat":-23.5,"mcc":724,"ignition":false,"odometer":1000,"reportId":1,"protocolVersion":"8020030100"}');
  });

  it('keeps objects already in order, nested values and a second shape apart', () => {
    expect(jsonbOrderedJson({ a: 1, bb: { z: 1, y: [2] } })).toBe('{"a":1,"bb":{"z":1,"y":[2]}}');
    expect(jsonbOrderedJson({ bb: 2, a: 1 })).toBe('{"a":1,"bb":2}');
    expect(jsonbOrderedJson({ bb: 3, a: 4 })).toBe('{"a":4,"bb":3}');
  });

  it('serializes keys that are not identifiers as they are (device input is never compiled)', () => {
    expect(jsonbOrderedJson({ 'b-c': 1, a: 2 })).toBe('{"b-c":1,"a":2}');
    expect(jsonbOrderedJson({ zz: 1, '__proto__x': 2, a: 3 })).toBe('{"a":3,"zz":1,"__proto__x":2}');
    const proto = JSON.parse('{"zz":1,"__proto__":{"p":1}}');
    expect(jsonbOrderedJson(proto)).toBe('{"zz":1,"__proto__":{"p":1}}');
    expect(jsonbOrderedJson({ 'x"); process.exit(1); ("': 1, a: 0 })).toBe('{"x\\"); process.exit(1); (\\"":1,"a":0}');
  });

  it('tells key lists apart whatever their keys hold (a comma, an empty key)', () => {
    for (let round = 0; round < 2; round++) {
      expect(jsonbOrderedJson({ a: 1, b: 2 })).toBe('{"a":1,"b":2}');
      expect(jsonbOrderedJson({ 'a,b': 3 })).toBe('{"a,b":3}');
      expect(jsonbOrderedJson({})).toBe('{}');
      expect(jsonbOrderedJson({ '': null })).toBe('{"":null}');
    }
  });

  it('writes exactly what JSON.stringify writes for the ordered object (property)', () => {
    const key = fc.constantFrom('a', 'bb', 'lat', 'mcc', 'odometer', 'deviceStatus', 'protocolVersion', 'x1', 'Z');
    const value = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined),
      fc.constant(Number.NaN), fc.constant(-0), fc.array(fc.integer(), { maxLength: 3 }), fc.string({ unit: 'grapheme' }));
    fc.assert(fc.property(fc.dictionary(key, value, { maxKeys: 9 }), (o) => {
      const ordered = Object.fromEntries(Object.keys(o).sort(jsonbKeyOrder).map((k) => [k, o[k]]));
      expect(jsonbOrderedJson(o)).toBe(JSON.stringify(ordered));
    }), { numRuns: 3000 });
  });

  it('keeps every shape apart when more key lists alternate than it remembers', () => {
    const shapes = Array.from({ length: 11 }, (_, i) => Object.fromEntries([['zz', i], [`k${i}`, true], ['a', 'x']]));
    for (let round = 0; round < 3; round++) {
      for (const [i, o] of shapes.entries()) {
        expect(jsonbOrderedJson(o)).toBe(i < 10 ? `{"a":"x","k${i}":true,"zz":${i}}` : '{"a":"x","zz":10,"k10":true}');
      }
    }
    // same keys, another order: another list, the same jsonb order
    expect(jsonbOrderedJson({ k1: false, zz: 9, a: 'y' })).toBe('{"a":"y","k1":false,"zz":9}');
  });

  it('always means the same JSON value (property)', () => {
    const key = fc.oneof(fc.stringMatching(/^[a-z_][A-Za-z0-9_]{0,12}$/), fc.string({ maxLength: 6 }));
    fc.assert(fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 30 }), (o) => {
      const out = jsonbOrderedJson(o as Record<string, unknown>);
      expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(o)));
      const keys = Object.keys(JSON.parse(out));
      if (keys.every((k) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) && k !== '__proto__')) {
        expect(keys).toEqual([...keys].sort(jsonbKeyOrder));
      }
    }), { numRuns: 300 });
  });
});

describe('jsonb order (PostgreSQL)', () => {
  it('is the order PostgreSQL stores the keys in', async () => {
    const c = new pg.Client({ connectionString: inject('databaseUrl') ?? defaultDatabaseUrl() });
    await c.connect();
    try {
      const a = { protocolVersion: 1, reportId: 2, lat: 3, ignition: 4, odometer: 5, mcc: 6, b: 7, aa: 8, B: 9, _x: 10 };
      const { rows } = await c.query<{ t: string }>('SELECT $1::jsonb::text t', [JSON.stringify(a)]);
      expect(Object.keys(JSON.parse(rows[0]!.t))).toEqual(Object.keys(JSON.parse(jsonbOrderedJson(a))));
    } finally { await c.end(); }
  });
});
