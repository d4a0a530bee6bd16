import { describe, expect, it } from 'vitest';
import { CommandValidationError } from '../types.ts';
import { encode } from './index.ts';

const s = (b: Buffer) => b.toString('ascii');

describe('queclink encode', () => {
  it('builds reboot, reset, sync and read-configuration commands (AT+GTRTO)', () => {
    expect(s(encode({ type: 'reboot', model: 'gv58cg', serial: 10 }))).toBe('AT+GTRTO=gv58cg,3,,,,,,000A$');
    expect(s(encode({ type: 'reboot', model: 'gv350ceu', password: 'senha1', serial: 0xffff, params: { reset: true } })))
      .toBe('AT+GTRTO=senha1,4,,,,,,FFFF$');
    expect(s(encode({ type: 'sync', model: 'gv50cg', serial: 1 }))).toBe('AT+GTRTO=gv50cg,1,,,,,,0001$');
    // Default password of the other @Track models, named or not; unknown types fall back to the generic one.
    expect(s(encode({ type: 'sync', model: 'gv350m', serial: 1 }))).toBe('AT+GTRTO=gv350m,1,,,,,,0001$');
    expect(s(encode({ type: 'sync', model: 'gl500', serial: 1 }))).toBe('AT+GTRTO=gl500,1,,,,,,0001$');
    expect(s(encode({ type: 'sync', model: 'desconhecido (4B)', serial: 1 }))).toBe('AT+GTRTO=gv58cg,1,,,,,,0001$');
    expect(s(encode({ type: 'readConfig', model: 'gv50cg', serial: 0x1a2b }))).toBe('AT+GTRTO=gv50cg,2,,,,,,1A2B$');
  });

  it('builds engine block/unblock and output commands (AT+GTOUT)', () => {
    expect(s(encode({ type: 'engineBlock', model: 'gv350ceu', serial: 0xabc }))).toBe('AT+GTOUT=gv350ceu,1,,,0,0,0,0,0,0,0,,,,,,,0ABC$');
    expect(s(encode({ type: 'engineUnblock', model: 'gv58cg', serial: 2 }))).toBe('AT+GTOUT=gv58cg,0,,,0,0,0,0,0,0,0,,,,,,,0002$');
    expect(s(encode({ type: 'output', model: 'gv58cg', serial: 3, params: { output: 2, active: true } })))
      .toBe('AT+GTOUT=gv58cg,0,,,1,0,0,0,0,0,0,,,,,,,0003$');
  });

  it('writes a configuration group with validated values', () => {
    expect(s(encode({ type: 'writeConfig', model: 'gv58cg', serial: 0x10, params: { group: 'GTFRI', values: [1, 0, '', 0, 0, '0000', '0000', 60, 60, true] } })))
      .toBe('AT+GTFRI=gv58cg,1,0,,0,0,0000,0000,60,60,1,0010$');
    expect(s(encode({ type: 'writeConfig', model: 'gv50cg', params: { group: 'QSS', values: ['apn.exemplo.br', 'user', 'pass'] } })))
      .toBe('AT+GTQSS=gv50cg,apn.exemplo.br,user,pass,FFFF$');
  });

  it('never lets protocol delimiters into the frame', () => {
    const evil = ['a,b', 'x$', 'l1\r', 'l2\n', 'ok\r\nAT+GTRTO=gv58cg,4,,,,,,FFFF$'];
    for (const v of evil) {
      const t = () => encode({ type: 'writeConfig', model: 'gv58cg', params: { group: 'GTQSS', values: ['ok', v] } });
      expect(t).toThrow(CommandValidationError);
      try { t(); } catch (e) {
        expect((e as CommandValidationError).code).toBe('DELIMITER');
        expect((e as CommandValidationError).field).toBe('values[1]');
      }
      expect(() => encode({ type: 'reboot', password: v })).toThrow(CommandValidationError);
      expect(() => encode({ type: 'sync', params: { sub: v } })).toThrow(CommandValidationError);
      expect(() => encode({ type: 'writeConfig', params: { group: v, values: [] } })).toThrow(CommandValidationError);
    }
  });

  it('validates serial, password, output and type', () => {
    const bad = [
      { type: 'reboot', serial: 0x10000 },
      { type: 'reboot', serial: -1 },
      { type: 'reboot', serial: 1.5 },
      { type: 'reboot', password: 'abc' },
      { type: 'reboot', password: 'sen ha' },
      { type: 'output', params: { output: 4, active: true } },
      { type: 'output', params: { output: 1, active: 'talvez' } },
      { type: 'writeConfig', params: { group: 'GTFRI' } },
      { type: 'writeConfig', params: { group: 'GTFRI', values: [Number.NaN] } },
      { type: 'writeConfig', params: { group: 'GTFRI', values: ['\u0001'] } },
      { type: 'formatar' },
    ] as const;
    for (const cmd of bad) expect(() => encode(cmd as never), JSON.stringify(cmd)).toThrow(CommandValidationError);
  });
});
