// fast-check: hostile input never throws out of the decoder/framer; split or merged streams reassemble.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isDecodeError, toJson } from '../types.ts';
import { decode, decodeHex, frame, isoSeconds } from './index.ts';
import { COUNTERS_BODY, REAL, STATUS_BODY, STATUS_EXT_BODY, sv } from './fixtures.ts';
import { MAX_FRAME } from './layout.ts';

const EXT = `${STATUS_BODY} ${COUNTERS_BODY} ${STATUS_EXT_BODY}`;
const VALID = [
  REAL.extended, REAL.ignition, REAL.noFix, REAL.standard.slice(0, 84),
  sv(0x00), sv(0x06, '030007'), sv(0x15),
  sv(0x82, `${EXT} a6 05 ffffffff 0102 000f4240`),
  sv(0x83, `${EXT} 0401 01 0203 f6 05 00 0b 50`),
  sv(0x84, `${EXT} 0708 01 50 00bc614e 06a4 5a 00003039 00000123456789ab`),
].map((h) => Buffer.from(h, 'hex'));
const TYPES = [0x00, 0x02, 0x06, 0x15, 0x82, 0x83, 0x84];

const schema = JSON.parse(readFileSync(new URL('../normalized.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ strict: false }).compile(schema);

/** Decoding returns either a clean error or a schema-valid result; never throws, never INTERNAL. */
function safe(buf: Buffer): void {
  const r = decode(buf);
  if (isDecodeError(r)) {
    expect(r.errorCode).not.toBe('INTERNAL');
    expect(typeof r.error).toBe('string');
  } else {
    expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
  }
}

/** An SV envelope with the right length around a body. */
function wrap(type: number, body: Uint8Array): Buffer {
  return Buffer.from(sv(type, Buffer.from(body).toString('hex')), 'hex');
}

describe('legacy (SV) property-based', () => {
  it('random bytes never throw (decoder and framer)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 1200 }), (a) => {
      const b = Buffer.from(a);
      safe(b);
      const r = frame(b);
      expect(r.rest.length).toBeLessThan(MAX_FRAME);
      for (const f of r.frames) safe(f);
    }), { numRuns: 2000 });
  });

  it('random bodies in a valid envelope of every type decode to a schema-valid result or a clean error', () => {
    const arb = fc.tuple(fc.constantFrom(...TYPES), fc.uint8Array({ maxLength: 120 })).map(([t, body]) => wrap(t, body));
    fc.assert(fc.property(arb, (f) => {
      safe(f);
      expect(frame(f).frames.length).toBeLessThanOrEqual(1);
    }), { numRuns: 4000 });
  });

  it('status frames with random in-range fields decode back to the same values', () => {
    const u32 = fc.integer({ min: 0, max: 0xffffffff });
    const u16 = fc.integer({ min: 0, max: 0xffff });
    const coords = fc.oneof(
      // standard: 1/3600 degree in 24 bits
      fc.tuple(fc.constant(false), fc.integer({ min: -90 * 3600, max: 90 * 3600 }), fc.integer({ min: -180 * 3600, max: 180 * 3600 })),
      // extended: 1/360000 degree in 28 bits; a southern latitude keeps the reading unambiguous
      fc.tuple(fc.constant(true), fc.integer({ min: -90 * 360000, max: -1 }), fc.integer({ min: -180 * 360000, max: 180 * 360000 })),
    );
    const arb = fc.record({
      fix: u32, dev: u32, coords, course: fc.integer({ min: 0, max: 360 }), speed: u16, quality: fc.integer({ min: 0, max: 255 }),
      event: u16, inputs: u16, outputs: u16, battery: fc.integer({ min: 0, max: 255 }), temp: fc.integer({ min: -128, max: 127 }),
      counters: fc.constantFrom(0, 1, 2), odo: u32, hours: u32,
    });
    fc.assert(fc.property(arb, (v) => {
      const [ext, lat, lon] = v.coords;
      const bits = ext ? 28 : 24;
      const b = Buffer.alloc(39);
      b.writeUInt32BE(v.fix, 0);
      b.writeUInt32BE((lat + 2 ** bits) % 2 ** bits, 4);
      b.writeUInt32BE((lon + 2 ** bits) % 2 ** bits, 8);
      b.writeUInt16BE(v.course, 12); b.writeUInt16BE(v.speed, 14); b[16] = v.quality;
      b.writeUInt32BE(v.dev, 17); b.writeUInt16BE(v.event, 21); b.writeUInt16BE(v.inputs, 23); b.writeUInt16BE(v.outputs, 25);
      b[27] = v.battery; b.writeInt8(v.temp, 28);
      b.writeUInt32BE(v.odo, 31); b.writeUInt32BE(v.hours, 35);
      const f = wrap(0x02, b.subarray(0, 31 + 4 * v.counters));
      safe(f);
      const r = decode(f);
      if (isDecodeError(r)) throw new Error(r.error);
      const div = ext ? 360000 : 3600;
      expect(r.positions[0]).toEqual({
        fixTime: new Date(v.fix * 1000).toISOString(), latitude: Math.round((lat / div) * 1e6) / 1e6, longitude: Math.round((lon / div) * 1e6) / 1e6,
        speedKmh: v.speed, course: v.course, valid: v.quality !== 0,
      });
      expect(r.sentTime).toBe(new Date(v.dev * 1000).toISOString());
      expect(r.events.map((e) => e.code)).toEqual(v.event ? [String(v.event)] : []);
      expect(r.attributes).toMatchObject({
        ignition: (v.inputs & 1) === 1, status_inputs: v.inputs, status_outputs: v.outputs, main_battery: v.battery, temperature: v.temp,
        coordinates_extended: ext,
      });
      expect(r.attributes.odo_gps).toBe(v.counters >= 1 ? Math.round(v.odo) / 1000 : undefined);
      expect(r.attributes.hour_meter).toBe(v.counters === 2 ? v.hours : undefined);
    }), { numRuns: 3000 });
  });

  it('truncations of valid frames return TRUNCATED (or EMPTY)', () => {
    fc.assert(fc.property(fc.constantFrom(...VALID), fc.nat(), (f, n) => {
      const cut = f.subarray(0, n % f.length);
      const r = decode(cut);
      expect(isDecodeError(r)).toBe(true);
      expect(r).toMatchObject({ errorCode: cut.length === 0 ? 'EMPTY' : 'TRUNCATED' });
    }), { numRuns: 1000 });
  });

  it('byte mutations never throw', () => {
    const arb = fc.tuple(fc.constantFrom(...VALID), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }));
    fc.assert(fc.property(arb, ([f, muts]) => {
      const m = Buffer.from(f);
      for (const [i, v] of muts) m[i % m.length] = v;
      safe(m);
      // keep the envelope valid so the mutation reaches the fields
      m[0] = 0x53; m[1] = 0x56; m.writeUInt16BE(m.length, 2);
      safe(m);
    }), { numRuns: 3000 });
  });

  it('oversize lengths are rejected, random hex strings never throw', () => {
    expect(decode(Buffer.concat([Buffer.from('5356ffff', 'hex'), Buffer.alloc(70000)]))).toMatchObject({ errorCode: 'OVERSIZE' });
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => { decodeHex(s); }), { numRuns: 1000 });
  });

  it('framer: valid frames between random garbage, cut in arbitrary chunks, all come out in order', () => {
    const arb = fc.tuple(
      fc.array(fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(...VALID)), { minLength: 1, maxLength: 6 }),
      fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 10 }),
    );
    fc.assert(fc.property(arb, ([parts, sizes]) => {
      // garbage without 'S' (0x53) cannot fake a frame start
      const stream = Buffer.concat(parts.flatMap(([g, f]) => [Buffer.from(g.map((b) => (b === 0x53 ? 0 : b))), f]));
      const got: string[] = [];
      let rest: Buffer = Buffer.alloc(0);
      let pos = 0;
      let k = 0;
      let garbage = 0;
      while (pos < stream.length) {
        const n = sizes[k++ % sizes.length];
        const r = frame(Buffer.concat([rest, stream.subarray(pos, pos + n)]));
        pos += n;
        got.push(...r.frames.map((x) => x.toString('hex')));
        garbage += r.garbage ?? 0;
        rest = r.rest;
      }
      expect(got).toEqual(parts.map(([, f]) => f.toString('hex')));
      expect(garbage).toBe(parts.reduce((s, [g]) => s + g.length, 0));
      expect(rest.length).toBe(0);
    }), { numRuns: 500 });
  });

  it('isoSeconds matches Date for every 32-bit second', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), (t) => {
      expect(isoSeconds(t)).toBe(new Date(t * 1000).toISOString());
    }), { numRuns: 5000 });
    for (const t of [0, 951782400, 951868800, 4107542400, 0xffffffff]) expect(isoSeconds(t)).toBe(new Date(t * 1000).toISOString());
  });
});
