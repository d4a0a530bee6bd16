import { describe, expect, it } from 'vitest';
import { CommandValidationError, isDecodeError } from '../types.ts';
import { decode, encode, encodeServerAck, frame, legacyDecoder } from './index.ts';

const A = 'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2405e';
const F = 'aa55000d0100bc614e070501000300070095';
const hex = (s: string) => Buffer.from(s, 'hex');

describe('legacy framing', () => {
  it('splits many frames in one chunk', () => {
    const r = frame(hex(A + F + A));
    expect(r.frames.map((f) => f.toString('hex'))).toEqual([A, F, A]);
    expect(r.rest.length).toBe(0);
    expect(r.garbage).toBe(0);
  });

  it('keeps a split frame as rest and completes it with the next chunk', () => {
    const all = hex(A + F);
    for (let cut = 1; cut < all.length; cut++) {
      const first = frame(all.subarray(0, cut));
      const second = frame(Buffer.concat([first.rest, all.subarray(cut)]));
      expect([...first.frames, ...second.frames].map((f) => f.toString('hex')), `cut ${cut}`).toEqual([A, F]);
    }
  });

  it('skips garbage, bad checksums and oversize lengths, then resyncs', () => {
    const badChecksum = A.slice(0, -2) + '00';
    const r = frame(hex('0102aa' + 'aa55ffff00' + badChecksum + F));
    expect(r.frames.map((f) => f.toString('hex'))).toEqual([F]);
    expect(r.garbage).toBeGreaterThan(0);
  });

  it('keeps a lone trailing AA as rest', () => {
    const r = frame(hex(F + 'aa'));
    expect(r.frames).toHaveLength(1);
    expect(r.rest.toString('hex')).toBe('aa');
  });
});

describe('legacy encoder', () => {
  it.each([
    // header 01 | serial | product 00 | type 90 | sequence, then code, param length, params; checksum = XOR of body
    [{ type: 'reboot', serial: 7, params: { deviceId: 12345678 } }, 'aa55000b0100bc614e00900007010004'],
    [{ type: 'engineBlock', serial: 8 }, 'aa55000b01000000000090000803009a'],
    [{ type: 'engineUnblock', serial: 9 }, 'aa55000b01000000000090000904009c'],
    [{ type: 'output', serial: 1, params: { output: 'siren', active: true } }, 'aa55000d0100000000009000010202010190'],
    [{ type: 'output', serial: 1, params: { output: 2, active: false } }, 'aa55000d0100000000009000010202020092'],
  ] as const)('%j', (cmd, expected) => {
    const buf = encode(cmd as never);
    expect(buf.toString('hex')).toBe(expected);
    expect(frame(buf).frames).toHaveLength(1); // self-consistent envelope
  });

  it('server ack echoes serial and sequence', () => {
    expect(encodeServerAck(12345678, 42).toString('hex')).toBe('aa5500090100bc614e0080002a38');
  });

  it.each([
    [{ type: 'sync' }, 'UNSUPPORTED'],
    [{ type: 'writeConfig' }, 'UNSUPPORTED'],
    [{ type: 'toString' }, 'UNSUPPORTED'],
    [{ type: 'reboot', serial: 70000 }, 'RANGE'],
    [{ type: 'reboot', serial: 1.5 }, 'INVALID'],
    [{ type: 'output', params: { output: 3, active: true } }, 'RANGE'],
    [{ type: 'output', params: { output: 'x,$', active: true } }, 'INVALID'],
    [{ type: 'output', params: { output: 0 } }, 'REQUIRED'],
    [{ type: 'reboot', params: { deviceId: -1 } }, 'RANGE'],
  ])('%j throws %s', (cmd, code) => {
    try {
      encode(cmd as never);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CommandValidationError);
      expect((err as CommandValidationError).code).toBe(code);
    }
  });

  it('exports a Decoder object', () => {
    expect(legacyDecoder.protocol).toBe('legacy');
    const r = legacyDecoder.decode(hex(A));
    expect(isDecodeError(r)).toBe(false);
    expect(isDecodeError(decode(Buffer.alloc(0)))).toBe(true);
  });
});
