// Property-based robustness: the decoder never throws, the framer never loses the next good frame.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Ajv from 'ajv';
import schema from '../normalized.schema.json' with { type: 'json' };
import { isDecodeError, toJson } from '../types.ts';
import { decode, frame, MAX_FRAME, queclinkDecoder } from './index.ts';
import { round } from './fields.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

const GOOD = [
  '+RESP:GTFRI,740904,862524060867948,GV350CEU,,10,1,1,89.5,169,672.9,-70.292914,-23.949947,20251016184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,20251016184035,AA3C$',
  '+BUFF:GTFRI,8020030703,866314061771471,GV58CG,28204,10,1,1,29.9,25,142.2,-71.586724,-33.590164,20251015190846,,,,,08,0.69,1.11,1.30,659946.1,0001265:29:11,,,,100,220100,,,,20251015190847,868C$',
  '+RESP:GTCAN,740B05,862524061506735,GV350CEU,10,1,FFBFFFFF,,1,H3700440,,0,0,76,,L25.50,,0,,0.00,0.37,,,8080,0040,00,00,0.00,0.00,0,3,2,699,0,B3FFFFFF,,,,,,,,,0,0,0,0.37,0.00,0.00,0,,,,,,0000,0,0,,,,0,,1,,17FC7,,,,,,,,,,,,,,,,1,0.0,0,2325.4,38.758242,8.999264,20260630101409,0636,0001,2BEB,01B9F304,11,12,0,20260630131409,F004$',
  '+RESP:GTINF,74040A,862524060748775,GV350CEU,11,89999112400719062394,37,0,1,13074,,4.19,0,1,,,20251007213710,,0,0,0,00,00,+0000,0,20251007213751,6B91$',
  '+ACK:GTHBD,8020080100,866314060299814,GV50CG,20260514010458,00A5$',
  '+ACK:GTOUT,8020030703,866314060299813,GV58CG,0A1F,20260514010458,0017$',
  '+RESP:GTIGN,8020030202,868589060169789,ra79,379,1,0.0,105,532.2,-70.616413,-33.393457,20240610201712,0730,0001,333A,00CFA301,01,11,,0.0,20240610201713,3AE2$',
  // GTERI accessory blocks and GTCAN expansion masks (Traccar's public test frames)
  // (not the GV300 fuel-sensor capture ending "...,1,4,100.0,100.0,{send time},{count}": without its '$' its last
  // two accessory values look like the coordinates of a cut position block, so the "$-less frame" rule refuses it)
  '+RESP:GTERI,271002,863457051562823,,00000002,,10,1,1,0.0,15,28.2,-58.695253,-34.625413,20230119193305,0722,0007,1168,16B3BB,00,0.0,,,,99,210100,2,1,28F8A149F69A3C25,1,0190,20230119193314,07C7$',
  '+RESP:GTERI,F10415,862599050680717,GV350M,00000001,,50,1,1,0.0,274,2963.1,-78.691767,-0.951295,20250512214226,,,,,,0.0,,,100,210100,,1,1,1,01DF,20250512214226,009D$',
  '+RESP:GTERI,040A00,862894022579562,gv200,00000002,,10,1,1,96.1,180,749.7,39.222692,24.165463,20210225065756,0420,0004,759C,3360,00,15529.8,,,2789,,01,00,2,2,282BD47A0B000063,1,FFE2,281FDD5D0B000057,1,FFC8,20210225065800,6974$',
  '+RESP:GTERI,8020050605,867488060225819,GV355CEU,00000106,12390,10,1,1,0.0,37,253.0,10.240915,45.930262,20240226074452,0222,0010,2F31,0063952B,03,7,0,0.0,,,,,100,110000,0,0,1,FFFFF,VR3USHNSSNJ711765,0,H311796,109.40,0,,,,,,,46.54,29.91,16.63,12.88,,8080,,,00,0,20240226074453,2548$',
  '+RESP:GTERI,6E0A03,868589060745174,,00000100,,10,1,1,0.0,0,1509.0,-90.544928,14.584461,20250307182819,0704,0001,13A7,000B60AB,01,12,358.6,,,,,100,1A0000,0,2,00,6,5,0E7109BB,283F,SENTEMP1,7805412CF2DD,1,3466,24,36,24.91,100,01,6,2,,083F,SENTEMP2,7805412CF25C,0,,,,,20250307182820,1ABC$',
  '+RESP:GTERI,C2010D,869653060009939,GV600M,00000100,,10,1,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,0.0,,,,3,410000,,1,0,6,4,0,,01BF,Sondaporte,EA7D0A3882F6,1,3484,21.81,43,00,00,0,0,0,20240114221802,1875$',
  '+BUFF:GTCAN,8020050402,867488060267845,,00,1,E00FFFFF,YS2K4X20001928588,1,H149381,4236.08,0,0,58,,P94.80,,0,529.00,0.03,0.33,0.77,8688,0008,0042,00,00,001FFFFF,P100.00,5571,,,0,0,,,20,7,0,0.36,0.00,0.00,0,E E05653940B000003,,C*********,,4054MTX,0000,,,1,0.0,101,698.5,-3.647673,40.481997,20241213113715,0214,0003,04D2,B801,00,20241213113715,1A47$',
  '+RESP:GTERI,740904,862524060204589,GV350CEU,00000100,,10,1,1,0.0,355,97.7,117.129252,31.839388,20240415054037,0460,0000,550B,085BE2AA,01,11,3.6,,,,,0,210100,0,1,00,11,0,0000001E,100F,,D325C2B2A2F8,1,2967,0,15,0,20240415154438,405C$',
];

/** Decoding must not throw, and must give either a schema-valid result or a schema-valid error. */
function checked(buf: Buffer): void {
  const r = decode(buf);
  expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
  if (!isDecodeError(r)) expect(r.deviceId).toMatch(/^[0-9A-Fa-f]{14,15}$/);
}

const good = fc.constantFrom(...GOOD);

describe('queclink properties', () => {
  it('all reference frames decode', () => {
    for (const g of GOOD) expect(isDecodeError(decode(Buffer.from(g)))).toBe(false);
  });

  it('random bytes never throw', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (a) => checked(Buffer.from(a))), { numRuns: 2000 });
  });

  it('random field-shaped text never throws', () => {
    const field = fc.oneof(fc.string({ maxLength: 8 }), fc.stringMatching(/^-?\d{0,4}(\.\d{0,6})?$/), fc.stringMatching(/^[0-9A-F]{0,10}$/));
    const txt = fc.tuple(fc.constantFrom('+RESP:GTFRI', '+BUFF:GTERI', '+ACK:GTHBD', '+RESP:GTCAN', '+RESP:GTINF', '+ACK:GTRTO', '+RESP:GTIGN'), fc.constantFrom('740904', '8020030703', '8020080100', 'ZZ'), fc.array(field, { maxLength: 70 }))
      .map(([h, ver, fs]) => `${h},${ver},862524060867948,${fs.join(',')}$`);
    fc.assert(fc.property(txt, (t) => checked(Buffer.from(t, 'latin1'))), { numRuns: 3000 });
  });

  it('truncated frames never throw and report an error', () => {
    fc.assert(fc.property(good, fc.nat(), (g, n) => {
      const cut = g.slice(0, n % g.length);
      const r = decode(Buffer.from(cut));
      // Only the whole message without its final '$' decodes (as the same message).
      if (cut.length === g.length - 1) expect(r).toEqual(decode(Buffer.from(g)));
      else expect(isDecodeError(r), cut).toBe(true);
      checked(Buffer.from(cut + '$'));
    }), { numRuns: 1500 });
    for (const g of GOOD) expect(decode(Buffer.from(g.slice(0, -1)))).toEqual(decode(Buffer.from(g)));
  });

  it('random mutations of valid frames never throw', () => {
    const mutation = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('replace', 'insert', 'delete', 'dupField', 'dropField'));
    fc.assert(fc.property(good, fc.array(mutation, { minLength: 1, maxLength: 6 }), (g, ms) => {
      let b: Buffer = Buffer.from(g);
      for (const [pos, byte, kind] of ms) {
        const i = pos % b.length;
        if (kind === 'replace') { b = Buffer.from(b); b[i] = byte; }
        else if (kind === 'insert') b = Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i)]);
        else if (kind === 'delete') b = Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
        else {
          const f = b.toString('latin1').split(',');
          const k = pos % f.length;
          if (kind === 'dupField') f.splice(k, 0, f[k]!); else f.splice(k, 1);
          b = Buffer.from(f.join(','), 'latin1');
        }
      }
      checked(b);
    }), { numRuns: 3000 });
  });

  it('any ERI or CAN mask on accessory frames: never throws, the position stays', () => {
    const eri = GOOD.filter((g) => g.includes('GTERI') || g.includes('GTCAN'));
    const mask = fc.integer({ min: 0, max: 0xffffffff });
    const hex8 = (n: number) => (n >>> 0).toString(16).toUpperCase().padStart(8, '0');
    fc.assert(fc.property(fc.constantFrom(...eri), mask, mask, (g, m, ext) => {
      // GTCAN keeps bit 30 (location present) so that the position is still announced; its expansion mask is
      // fuzzed too.
      const f = g.replace(/,(001FFFFF|B3FFFFFF),/, `,${hex8(ext)},`).replace(/(GTERI,[^,]*,[^,]*,[^,]*,)[0-9A-F]{8}|(GTCAN,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,)[0-9A-F]{8}/,
        (_x, a, b) => (a ? a + hex8(m) : b + hex8(m | 0x40000000)));
      const r = decode(Buffer.from(f));
      checked(Buffer.from(f));
      expect(isDecodeError(r), f).toBe(false);
      if (!isDecodeError(r) && !isDecodeError(decode(Buffer.from(g)))) {
        expect(r.positions.length, f).toBe((decode(Buffer.from(g)) as { positions: unknown[] }).positions.length);
      }
    }), { numRuns: 1500 });
  });

  it('any device type, any report, extra or missing leading fields: the position is never lost', () => {
    const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9A-F]{${n}}$`));
    const version = fc.oneof(hex(6), hex(10));
    const code = fc.constantFrom('GTFRI', 'GTERI', 'GTSOS', 'GTIGN', 'GTIGF', 'GTSTT', 'GTXYZ', 'GTLSW', 'GTDAT');
    // Leading fields that cannot look like coordinates: digits without a point, hex words, empty.
    const lead = fc.array(fc.oneof(fc.constant(''), fc.stringMatching(/^\d{1,5}$/), hex(8)), { maxLength: 6 });
    const coord = (max: number) => fc.integer({ min: -max * 1e6, max: max * 1e6 }).map((v) => (v / 1e6).toFixed(6));
    const time = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => d.toISOString().replace(/[-T:]/g, '').slice(0, 14));
    const tail = fc.array(fc.oneof(fc.constant(''), fc.stringMatching(/^\d{1,4}$/)), { maxLength: 8 });
    fc.assert(fc.property(version, code, lead, fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 359 }), coord(180), coord(90), time, tail,
      (ver, c, pre, speed10, course, lon, lat, t, post) => {
        const block = `1,${(speed10 / 10).toFixed(1)},${course},100.0,${lon},${lat},${t},0724,0005,772A,052B253E,00`;
        const f = ['+RESP:' + c, ver, '862524060867948', 'X', ...pre, block, ...post, '20260101000000', 'AB12'].join(',') + '$';
        const r = decode(Buffer.from(f));
        if (isDecodeError(r)) throw new Error(`${r.error}: ${f}`);
        expect(r.positions.length, f).toBeGreaterThan(0);
        expect(r.positions[0]).toMatchObject({ latitude: Number(lat), longitude: Number(lon), speedKmh: speed10 / 10, course, altitude: 100, valid: true });
        expect(r.positions[0]!.fixTime).toBe(`${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(8, 10)}:${t.slice(10, 12)}:${t.slice(12, 14)}.000Z`);
        expect(r.reply).toBe('+SACK:AB12$');
        checked(Buffer.from(f));
      }), { numRuns: 3000 });
  });

  it('oversize frames are refused by the decoder and skipped by the framer', () => {
    const big = `+RESP:GTFRI,740904,862524060867948,${'9,'.repeat(MAX_FRAME)}AA3C$`;
    const r = decode(Buffer.from(big));
    expect(isDecodeError(r) && r.errorCode).toBe('OVERSIZE');
    const out = frame(Buffer.from(big + GOOD[0]));
    expect(out.frames.map(String)).toEqual([GOOD[0]]);
    expect(out.garbage).toBeGreaterThan(MAX_FRAME);
    // Oversize without any '$': dropped once it exceeds the limit, the stream continues.
    const runaway = frame(Buffer.from('+RESP:GTFRI,' + 'x'.repeat(MAX_FRAME + 10)));
    expect(runaway.frames).toHaveLength(0);
    expect(runaway.rest.length).toBe(0);
  });
});

/** Feeds chunks through the framer like a TCP connection. */
function stream(chunks: Buffer[]): { frames: string[]; garbage: number } {
  let rest: Buffer = Buffer.alloc(0);
  const frames: string[] = [];
  let garbage = 0;
  for (const c of chunks) {
    const r = queclinkDecoder.frame(Buffer.concat([rest, c]));
    frames.push(...r.frames.map((f) => f.toString('latin1')));
    garbage += r.garbage ?? 0;
    rest = r.rest;
    expect(rest.length).toBeLessThanOrEqual(MAX_FRAME + 16);
  }
  return { frames, garbage };
}

function split(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of points) { out.push(buf.subarray(prev, p)); prev = p; }
  out.push(buf.subarray(prev));
  return out;
}

describe('queclink rounding', () => {
  it('round(n, d) gives the values of Math.round(n * 10 ** d) / 10 ** d (its table replaced the **)', () => {
    fc.assert(fc.property(fc.oneof(fc.double({ noNaN: true, min: -1e9, max: 1e9 }), fc.integer({ min: -1e7, max: 1e7 }).map((x) => x / 1000)),
      fc.integer({ min: 0, max: 6 }), (n, d) => Object.is(round(n, d), Math.round(n * 10 ** d) / 10 ** d)), { numRuns: 20_000 });
    expect([round(12.3456, 1), round(13_821 / 1000, 3), round(-0.05, 1)]).toEqual([12.3, 13.821, -0]);
  });
});

describe('queclink framer', () => {
  it('many frames per packet, split frames and line breaks', () => {
    const all = Buffer.from(GOOD.join('\r\n'));
    const r = stream([all]);
    expect(r.frames).toEqual(GOOD);
    expect(r.garbage).toBe(0);
    const one = stream([...all].map((b) => Buffer.from([b])));
    expect(one.frames).toEqual(GOOD);
  });

  it('never loses the next good frame after garbage (any chunking)', () => {
    const noise = fc.oneof(fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)), fc.stringMatching(/^[+$A-Z:,0-9]{0,40}$/).map((s) => Buffer.from(s)));
    const truncated = good.chain((g) => fc.nat(g.length - 1).map((n) => Buffer.from(g.slice(0, n).replace(/\$/g, ''))));
    const junk = fc.oneof(noise, truncated, fc.constant(Buffer.from('+')), fc.constant(Buffer.from('+RE')), fc.constant(Buffer.from('$$$')));
    fc.assert(fc.property(fc.array(fc.tuple(junk, good), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), (pairs, cuts) => {
      const wire = Buffer.concat(pairs.flatMap(([j, g]) => [j, Buffer.from(g)]));
      const r = stream(split(wire, cuts));
      // Every good frame comes out, in order; junk that happens to look like a frame may come out too
      // (the decoder then rejects it), but never swallows a good one.
      const want = pairs.map(([, g]) => g);
      const got = r.frames.filter((f) => !isDecodeError(decode(Buffer.from(f, 'latin1'))));
      expect(got).toEqual(want);
    }), { numRuns: 1500 });
  });

  it('counts garbage bytes', () => {
    const r = frame(Buffer.from(`hello${GOOD[4]}`));
    expect(r.garbage).toBe(5);
    expect(r.frames.map(String)).toEqual([GOOD[4]]);
  });

  it('keeps an incomplete frame as rest', () => {
    const r = frame(Buffer.from(GOOD[0]!.slice(0, 50)));
    expect(r.frames).toHaveLength(0);
    expect(r.rest.toString()).toBe(GOOD[0]!.slice(0, 50));
  });
});
