// Spawns the decode CLI (same command as `npm run decode`) on a small capture file and on stdin.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'protocol/cli.ts', ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 30_000 });

// public frames of Continental VDO "Rastrear" trackers (Traccar's ContinentalProtocolDecoderTest)
const CAPTURE = [
  '# legacy (SV) capture',
  '5356003216001eb48505025b4001e90f7f18ce0f00522200400001015b4001e9000e820100000c24000100014e0400736a7a',
  '',
  'not hex at all',
  '53 56 00 2a 0d 00 10 a1 24 03 02 58 1b 94 41 00 fe be d8 00 fd 9f a3 01 39 00 13 00 58 1c 73 fa 00 0e 00 00 00 00 0d 00 00 01',
  '5356002a0d0010a1240302',
  '5356000b0100bc614e0005',
].join('\n');

describe('npm run decode', () => {
  it('decodes a file: one JSON line per message, errors as objects with an error field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'decode-'));
    const file = join(dir, 'capture.txt');
    writeFileSync(file, CAPTURE);
    const r = run(['--protocol', 'legacy', file]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatchObject({
      protocol: 'legacy', deviceId: '2012293', type: 'status', sentTime: '2018-07-06T23:57:29.000Z',
      positions: [{ fixTime: '2018-07-06T23:57:29.000Z', latitude: -23.466094, longitude: -46.544972, speedKmh: 1, course: 64, valid: true }],
      attributes: { 'main_input-ignition': true, ignition: true, main_battery: 12, temperature: 36, odo_gps: 85.508 },
      replyHex: '5356000b01001eb4850006',
    });
    expect(lines[1]).toMatchObject({ protocol: 'legacy', errorCode: 'MALFORMED', line: 4 });
    expect(typeof lines[1].error).toBe('string');
    expect(lines[2]).toMatchObject({
      deviceId: '1089828', sentTime: '2016-11-04T11:41:46.000Z',
      positions: [{ fixTime: '2016-11-03T19:47:13.000Z', latitude: -22.837778, longitude: -43.261389, speedKmh: 19, course: 313, valid: false }],
      attributes: { ignition: false, main_battery: 13, temperature: 0 },
    });
    expect(lines[3]).toMatchObject({ errorCode: 'TRUNCATED', line: 6 });
    expect(lines[4]).toMatchObject({ errorCode: 'UNSUPPORTED', deviceId: '12345678', line: 7 });
  });

  it('reads stdin when no file is given (--protocol=legacy form)', () => {
    const r = run(['--protocol=legacy'], '5356000b0100bc614e0500\n5356000b0100bc614e0506\n');
    expect(r.status).toBe(0);
    const [keepAlive, ack] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(keepAlive).toMatchObject({ type: 'keepAlive', deviceId: '12345678', replyHex: '5356000b0100bc614e0006' });
    expect(ack).toMatchObject({ type: 'ack', deviceId: '12345678', ack: { success: true } });
  });

  it('decodes Queclink @Track lines with the queclink decoder', () => {
    const line = '+RESP:GTFRI,8020080100,866314060109269,,12900,10,1,0,0.0,0,9.0,-46.633308,-23.550520,20230722145338,0724,0005,772A,052B253E,00,1520.3,,,,,100,110000,,,,20230722145341,0F4C$';
    const r = run(['--protocol', 'queclink'], `${line}\n+RESP:GTFRI,broken\n`);
    expect(r.status).toBe(0);
    const [ok, bad] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(ok).toMatchObject({ protocol: 'queclink', deviceId: '866314060109269', positions: [{ latitude: -23.55052, longitude: -46.633308 }] });
    expect(typeof bad.error).toBe('string');
  });

  it('decodes @Track frames given as arguments, text and binary (hex), without --protocol', () => {
    // Traccar's public tests: Gl200TextProtocolDecoderTest (GTWIF), Gl200BinaryProtocolDecoderTest (+RSP)
    const text = '+RESP:GTWIF,210102,354524044484948,,1,08626693fb98,-36,,,,,,,,97,20170119071300,05E3$';
    const bin = '2b5253500700fc1fbf005d4501020209563254030003430564377e42071001000000000000007eff75a151025c6a8107e10801081a2a02680003189c1ac500000000000002100700000000000000000007e1080108241019e17ebe0d0a';
    const r = run([text, bin]);
    expect(r.status).toBe(0);
    const [a, b] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(a).toMatchObject({ deviceId: '354524044484948', attributes: { wifiAccessPoints: [{ mac: '08:62:66:93:fb:98', rssi: -36 }], batteryLevel: 97 } });
    expect(b).toMatchObject({ deviceId: '865084030003675', positions: [{ latitude: 39.611009, longitude: -9.068207, altitude: 126 }], attributes: { batteryLevel: 100 } });
  });

  it('fails with usage on an unknown protocol or a missing --protocol', () => {
    expect(run(['--protocol', 'nope'], '').status).toBe(2);
    const r = run([], '');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--protocol');
  });
});
