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

const CAPTURE = [
  '# legacy capture',
  'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2405e',
  '',
  'not hex at all',
  'AA 55 00 0D 01 00 BC 61 4E 07 05 01 00 03 00 07 00 95',
  'aa55002d0100bc614e07',
].join('\n');

describe('npm run decode', () => {
  it('decodes a file: one JSON line per message, errors as objects with an error field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'decode-'));
    const file = join(dir, 'capture.txt');
    writeFileSync(file, CAPTURE);
    const r = run(['--protocol', 'legacy', file]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({
      protocol: 'legacy', deviceId: '12345678', type: 'position',
      positions: [{ latitude: -23.5, longitude: -46.625, speedKmh: 72, fixTime: '2024-05-01T12:34:50.000Z' }],
      attributes: { 'main_input-ignition': true, main_battery: 12.6 },
      replyHex: 'aa5500090100bc614e0080002a38',
    });
    expect(lines[1]).toMatchObject({ protocol: 'legacy', errorCode: 'MALFORMED', line: 4 });
    expect(typeof lines[1].error).toBe('string');
    expect(lines[2]).toMatchObject({ type: 'ack', ack: { command: 'engineBlock', serial: '0007', success: true } });
    expect(lines[3]).toMatchObject({ errorCode: 'TRUNCATED', line: 6 });
  });

  it('reads stdin when no file is given (--protocol=legacy form)', () => {
    const r = run(['--protocol=legacy'], 'aa55000d0100bc614e070501000300070095\n');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'ack', deviceId: '12345678' });
  });

  it('decodes Queclink @Track lines with the queclink decoder', () => {
    const line = '+RESP:GTFRI,8020080100,866314060109269,,12900,10,1,0,0.0,0,9.0,-46.633308,-23.550520,20230722145338,0724,0005,772A,052B253E,00,1520.3,,,,,100,110000,,,,20230722145341,0F4C$';
    const r = run(['--protocol', 'queclink'], `${line}\n+RESP:GTFRI,broken\n`);
    expect(r.status).toBe(0);
    const [ok, bad] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(ok).toMatchObject({ protocol: 'queclink', deviceId: '866314060109269', positions: [{ latitude: -23.55052, longitude: -46.633308 }] });
    expect(typeof bad.error).toBe('string');
  });

  it('fails with usage on an unknown protocol or a missing --protocol', () => {
    expect(run(['--protocol', 'nope'], '').status).toBe(2);
    const r = run([], '');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--protocol');
  });
});
