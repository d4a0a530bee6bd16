// fast-check: random bytes, truncations, oversize and mutations never throw out of the decoder/framer.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isDecodeError, toJson } from '../types.ts';
import { decode, decodeHex, frame, wrapFrame } from './index.ts';

const VALID = [
  'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2405e',
  'aa5500390100bc614e0702002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e240a605ffffffff0102000f4240f0',
  'aa5500370100bc614e0703002a663236f0663236ea0280014a7880028faa010e48090c1fc400010000010c06190001e2400401010203f605000b5034',
  'aa5500440100bc614e0704002a663236f0663236ea0280014a7880028faa010e48090c1f011fff0000010c06190001e2400708015000bc614e06a45a0000303900000123456789aba4',
  'aa55000d0100bc614e070501000300070095',
].map((h) => Buffer.from(h, 'hex'));

const schema = JSON.parse(readFileSync(new URL('../normalized.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ strict: false }).compile(schema);

/** Decoding must return either an error or a schema-valid result. */
function safe(buf: Buffer): void {
  const r = decode(buf);
  if (!isDecodeError(r)) expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
  else expect(typeof r.error).toBe('string');
}

describe('legacy property-based', () => {
  it('random bytes never throw', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (a) => { safe(Buffer.from(a)); frame(Buffer.from(a)); }), { numRuns: 2000 });
  });

  it('random bodies in a valid envelope (checksum correct) never throw and stay schema-valid', () => {
    const body = fc.tuple(fc.constantFrom(1, 2, 3, 4, 5), fc.uint8Array({ minLength: 0, maxLength: 120 }))
      .map(([type, rest]) => Buffer.concat([Buffer.from([1, 0, 0, 0, 1, 7, type, 0, 1]), Buffer.from(rest)]));
    fc.assert(fc.property(body, (b) => safe(wrapFrame(b))), { numRuns: 3000 });
  });

  it('valid body with randomized fields (right length) decodes to a schema-valid result or a clean error', () => {
    const lengths: Record<number, number> = { 1: 36, 3: 46, 4: 59, 5: 4 };
    const arb = fc.constantFrom(1, 3, 4, 5).chain((type) =>
      fc.uint8Array({ minLength: lengths[type], maxLength: lengths[type] }).map((rest) =>
        wrapFrame(Buffer.concat([Buffer.from([1, 0, 0, 0, 1, 7, type, 0, 1]), Buffer.from(rest)]))));
    fc.assert(fc.property(arb, safe), { numRuns: 3000 });
  });

  it('truncations of valid frames return TRUNCATED', () => {
    fc.assert(fc.property(fc.constantFrom(...VALID), fc.nat(), (f, n) => {
      const cut = f.subarray(0, n % f.length);
      const r = decode(cut);
      expect(isDecodeError(r)).toBe(true);
      if (cut.length >= 2) expect(r).toMatchObject({ errorCode: 'TRUNCATED' });
    }));
  });

  it('single and multiple byte mutations never throw', () => {
    const arb = fc.tuple(fc.constantFrom(...VALID), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }));
    fc.assert(fc.property(arb, ([f, muts]) => {
      const m = Buffer.from(f);
      for (const [i, v] of muts) m[i % m.length] = v;
      safe(m);
      // re-checksummed mutation: reaches the field decoding
      const body = m.subarray(4, m.length - 1);
      safe(wrapFrame(body));
    }), { numRuns: 3000 });
  });

  it('oversize frames are rejected, random hex strings never throw', () => {
    safe(Buffer.concat([Buffer.from([0xaa, 0x55, 0xff, 0xff]), Buffer.alloc(70000)]));
    expect(decode(Buffer.concat([Buffer.from([0xaa, 0x55, 0x02, 0x01]), Buffer.alloc(600)]))).toMatchObject({ errorCode: 'OVERSIZE' });
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => { decodeHex(s); }), { numRuns: 1000 });
  });

  it('framer: valid frames surrounded by random garbage and arbitrary chunking all come out', () => {
    const arb = fc.tuple(
      fc.array(fc.tuple(fc.uint8Array({ maxLength: 20 }), fc.constantFrom(...VALID)), { minLength: 1, maxLength: 5 }),
      fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 10 }),
    );
    fc.assert(fc.property(arb, ([parts, sizes]) => {
      // garbage without AA so it cannot fake a frame start
      const stream = Buffer.concat(parts.flatMap(([g, f]) => [Buffer.from(g.map((b) => (b === 0xaa ? 0 : b))), f]));
      const got: string[] = [];
      let rest: Buffer = Buffer.alloc(0);
      let pos = 0;
      let k = 0;
      while (pos < stream.length) {
        const n = sizes[k++ % sizes.length];
        const r = frame(Buffer.concat([rest, stream.subarray(pos, pos + n)]));
        pos += n;
        got.push(...r.frames.map((x) => x.toString('hex')));
        rest = r.rest;
      }
      expect(got).toEqual(parts.map(([, f]) => f.toString('hex')));
    }), { numRuns: 500 });
  });
});
