import { describe, expect, it } from 'vitest';
import { CommandValidationError, isDecodeError } from '../types.ts';
import { decode, encode, encodeReply, frame, legacyDecoder } from './index.ts';
import { REAL, STATUS_BODY, sv } from './fixtures.ts';

const A = REAL.extended;
const B = REAL.ignition;
const K = sv(0x00, '', { serial: 1089828 });
const hex = (s: string) => Buffer.from(s, 'hex');
const hexes = (bs: Buffer[]) => bs.map((f) => f.toString('hex'));

describe('legacy (SV) framing', () => {
  it('splits many frames in one chunk (length = whole frame)', () => {
    const r = frame(hex(A + K + B));
    expect(hexes(r.frames)).toEqual([A, K, B]);
    expect(r.rest.length).toBe(0);
    expect(r.garbage).toBe(0);
  });

  it('keeps a split frame as rest and completes it with the next chunk, at every cut', () => {
    const all = hex(A + K + B);
    for (let cut = 1; cut < all.length; cut++) {
      const first = frame(all.subarray(0, cut));
      const second = frame(Buffer.concat([first.rest, all.subarray(cut)]));
      expect(hexes([...first.frames, ...second.frames]), `cut ${cut}`).toEqual([A, K, B]);
      expect(first.garbage! + second.garbage!).toBe(0);
    }
  });

  it('skips garbage up to the next SV: stray S, bad length, unknown type, a status too short for its type', () => {
    const junk = [
      '0102', '53', '5300', // S not followed by V
      '53560005', // length below 11
      '5356ffff', // length above the maximum
      sv(0x42, '00'), // unknown type 0x42
      '5356000c16000000010502ff', // a status declaring 12 bytes
    ].join('');
    const r = frame(hex(junk + A + '5353' + B));
    expect(hexes(r.frames)).toEqual([A, B]);
    expect(r.garbage).toBe(junk.length / 2 + 2);
    expect(r.rest.length).toBe(0);
  });

  it('a public frame followed by 2 stray bytes: the frame, then the bytes as garbage before the next one', () => {
    const r = frame(hex(REAL.standard + B));
    expect(hexes(r.frames)).toEqual([REAL.standard.slice(0, 84).toLowerCase(), B]);
    expect(r.garbage).toBe(2);
  });

  it('waits for more bytes without consuming a possible frame start; rest stays below one frame', () => {
    for (const head of ['53', '5356', '535600', '5356002a', '5356002a0d0010']) {
      const r = frame(hex(`0000${head}`));
      expect(r.frames).toEqual([]);
      expect(r.rest.toString('hex')).toBe(head);
      expect(r.garbage).toBe(2);
    }
    const longest = hex(sv(0x00, '00'.repeat(1013))); // 1024 bytes, the maximum
    expect(frame(longest).frames).toHaveLength(1);
    expect(frame(longest.subarray(0, 1023)).rest.length).toBe(1023);
  });

  it('frames are views of the input (no copy) and decode', () => {
    const buf = hex(A + B);
    const r = frame(buf);
    expect(r.frames[0].buffer).toBe(buf.buffer);
    expect(r.frames.map((f) => (isDecodeError(decode(f)) ? 'err' : 'ok'))).toEqual(['ok', 'ok']);
  });
});

describe('legacy (SV) replies and commands', () => {
  it('server ACK echoes the serial', () => {
    expect(encodeReply(2012293).toString('hex')).toBe('5356000b01001eb4850006');
    expect(encodeReply(0xffffffff).toString('hex')).toBe('5356000b01ffffffff0006');
  });

  it('encodes commands in an SV frame (type 90: sequence, code, parameter length, parameters)', () => {
    expect(encode({ type: 'engineBlock', serial: 7, params: { deviceId: 12345678 } }).toString('hex')).toBe('5356000f0100bc614e00900007' + '0300');
    expect(encode({ type: 'output', serial: 0x0102, params: { output: 'siren', active: true } }).toString('hex')).toBe('53560011010000000000900102' + '0202' + '0101');
    expect(encode({ type: 'reboot' }).toString('hex')).toBe('5356000f010000000000900000' + '0100');
  });

  it('rejects invalid or unsupported commands with CommandValidationError', () => {
    expect(() => encode({ type: 'sync' })).toThrow(CommandValidationError);
    expect(() => encode({ type: 'output', params: { output: 5, active: true } })).toThrow(/entre 0 e 2/);
    expect(() => encode({ type: 'output', params: { output: 'siren' } })).toThrow(/active/);
    expect(() => encode({ type: 'reboot', serial: 70000 })).toThrow(CommandValidationError);
    expect(() => encode({ type: 'reboot', params: { deviceId: -1 } })).toThrow(CommandValidationError);
    expect(() => encode(null as never)).toThrow(CommandValidationError);
    expect(() => encode({ type: 'constructor' as never })).toThrow(CommandValidationError);
  });

  it('a device ACK naming the command echoes the sequence the gateway sent', () => {
    const cmd = encode({ type: 'engineBlock', serial: 0x0a1f, params: { deviceId: 12345678 } });
    const seq = cmd.subarray(11, 13).toString('hex');
    const r = decode(hex(sv(0x06, `03${seq}`)));
    expect(r).toMatchObject({ deviceId: '12345678', ack: { command: 'engineBlock', serial: '0A1F', success: true } });
  });

  it('implements the Decoder interface', () => {
    expect(legacyDecoder.protocol).toBe('legacy');
    expect(legacyDecoder.decode(hex(sv(0x02, STATUS_BODY)))).toMatchObject({ type: 'status', deviceId: '12345678' });
    expect(hexes(legacyDecoder.frame(hex(A)).frames)).toEqual([A]);
  });
});
