// Frames built from README.md's layout, hex literal; expected values computed by hand.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isDecodeError, toJson, type DecodeResult } from '../types.ts';
import { findByKey } from '../catalog.ts';
import { decodeHex } from './index.ts';

const schema = JSON.parse(readFileSync(new URL('../normalized.schema.json', import.meta.url), 'utf8'));
const validateNormalized = new Ajv({ strict: false }).compile(schema);

function ok(hex: string): DecodeResult {
  const r = decodeHex(hex);
  if (isDecodeError(r)) throw new Error(`${r.errorCode}: ${r.error}`);
  expect(validateNormalized(toJson(r)), JSON.stringify(validateNormalized.errors)).toBe(true);
  return r;
}

// header: 01 | serial 00bc614e (12345678) | product 07 | type | sequence
// base: time 663236f0 (2024-05-01T12:34:56Z) | gpsTime 663236ea (12:34:50Z) | flags | lat | lon | course | speed |
//       sats | DOP | gprs | event | main(2) | ext1 | ext2 | out | batt(2) | temp | odo(4)
const A = 'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2405e';
const B = 'aa55002d0100bc614e07010001663236f0663236ea050043d11c8002bf2000000000001f0000000fff060d00fb0000000006';

describe('legacy: base block (type 01)', () => {
  it('decodes header, time, low-resolution negative coordinates, speed, event, inputs, voltage', () => {
    const r = ok(A);
    expect(r).toMatchObject({ protocol: 'legacy', deviceId: '12345678', type: 'position', sentTime: '2024-05-01T12:34:56.000Z' });
    expect(r.buffered).toBeUndefined();
    expect(r.positions).toEqual([{
      fixTime: '2024-05-01T12:34:50.000Z',
      latitude: -23.5,        // 0x80014a78: sign set, 84600 / 3600
      longitude: -46.625,     // 0x80028faa: sign set, 167850 / 3600
      speedKmh: 72, course: 270, valid: true, hdop: 1.2, satellites: 9,
    }]);
    expect(r.events).toEqual([{ code: '1', key: 'primary_1', description: '' }]);
    expect(r.attributes).toMatchObject({
      version: 1, product: 7, sequence: 42, event: 1,
      gps_course: 270, gps_instant_speed: 72, gps_satellites: 9, gps_DOP: 1.2, gprs_signal_quality: 31,
      'main_input-ignition': true, 'main_input-panic_button': false, 'main_input-anti_theft': false,
      'output_status-blocking': true, 'output_status-siren': false, 'output_status-aux_output_1': false,
      main_battery: 12.6, temperature: 25, odo_gps: 123.456,
      ignition: true, externalPowerSupplyVoltage: 12.6, odometer: 123.456,
      position: { latitude: -23.5, longitude: -46.625 },
    });
    // server ack: type 80, same serial and sequence; checksum = xor(01 00 bc 61 4e 00 80 00 2a) = 38
    expect((r.reply as Buffer).toString('hex')).toBe('aa5500090100bc614e0080002a38');
  });

  it('decodes high resolution (1/360000), positive latitude, buffered, invalid fix, all flag bits', () => {
    const r = ok(B);
    expect(r.buffered).toBe(true);
    expect(r.positions[0]).toMatchObject({
      latitude: 12.345678,    // 0x0043d11c = 4444444 / 360000 = 12.3456777.. -> 6 decimals
      longitude: -0.5,        // 0x8002bf20: 180000 / 360000, negative
      valid: false, speedKmh: 0, course: 0, satellites: 0, hdop: 0,
    });
    expect(r.events).toEqual([]);
    const a = r.attributes;
    expect(a.event).toBe(0);
    expect(a['main_input-ignition']).toBe(false);
    expect(a.ignition).toBe(false);
    for (const k of ['jamming', 'over_speed', 'free_wheel', 'satellites_zero']) expect(a[`extended_1-${k}`]).toBe(true);
    for (const k of ['position_violation', 'tilt', 'idle_engine', 'alternator_failure', 'rain', 'harsh_acceleration', 'harsh_braking', 'driver_identification'])
      expect(a[`extended_2-${k}`]).toBe(true);
    expect(a).toMatchObject({ 'output_status-blocking': false, 'output_status-siren': true, 'output_status-aux_output_1': true });
    expect(a.main_battery).toBe(13);     // 0d 00
    expect(a.temperature).toBe(-5);      // fb
    expect(a.odo_gps).toBe(0);
  });

  it.each([
    // main input word -> which main_input-* bits are on
    ['0001', ['ignition']],
    ['0002', ['panic_button']],
    ['003c', ['aux_input_1', 'aux_input_2', 'aux_input_3', 'aux_input_4']],
    ['00c0', ['anti_theft', 'gps_antenna_cut']],
    ['0700', ['battery_voltage', 'temperature', 'weak_gsm']],
    ['1800', ['backup_battery_low', 'backup_battery_faulty']],
  ])('main inputs %s -> %j', (word, on) => {
    // CAN frame E with main input word = 1fff; here rebuild only via the table of ready frames below
    const frames: Record<string, string> = {
      '0001': A,
      '0002': 'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100020000010c06190001e2405d',
      '003c': 'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f01003c0000010c06190001e24063',
      '00c0': 'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100c00000010c06190001e2409f',
      '0700': 'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0107000000010c06190001e24058',
      '1800': 'aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0118000000010c06190001e24047',
    };
    const r = ok(frames[word]);
    const all = ['ignition', 'panic_button', 'aux_input_1', 'aux_input_2', 'aux_input_3', 'aux_input_4', 'anti_theft', 'gps_antenna_cut',
      'battery_voltage', 'temperature', 'weak_gsm', 'backup_battery_low', 'backup_battery_faulty'];
    for (const k of all) expect(r.attributes[`main_input-${k}`], k).toBe(on.includes(k));
  });
});

describe('legacy: optional-field message (type 02), reverse bit order', () => {
  const base = '663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e240';
  it.each([
    // flags A6 = 1010 0110: gear(b7) 05, engine time(b5) ffffffff -> 0, route(b2) 0102, odo_sensor(b1) 000f4240 m
    ['aa5500390100bc614e0702002a' + base + 'a605ffffffff0102000f4240f0',
      { transmission_gear: 5, engine_running_time_meter: 0, fence_route_id: 258, odo_sensor: 1000 },
      ['gps_average_speed', 'fence_group_a_id', 'fence_group_b_id']],
    // flags 50 = 0101 0000: avg speed(b6) 003c, fence A(b4) 0007
    ['aa5500320100bc614e0702002a' + base + '50003c000736',
      { gps_average_speed: 60, fence_group_a_id: 7 },
      ['transmission_gear', 'engine_running_time_meter', 'fence_group_b_id', 'fence_route_id', 'odo_sensor']],
    // flags 22 = 0010 0010: engine time 00000e10 = 3600 s, odo_sensor ffffffff -> 0
    ['aa5500360100bc614e0702002a' + base + '2200000e10ffffffff61',
      { engine_running_time_meter: 3600, odo_sensor: 0 },
      ['transmission_gear', 'gps_average_speed', 'fence_group_a_id', 'fence_group_b_id', 'fence_route_id']],
    // flags 00: nothing follows
    ['aa55002e0100bc614e0702002a' + base + '005d', {},
      ['transmission_gear', 'gps_average_speed', 'engine_running_time_meter', 'fence_group_a_id', 'fence_group_b_id', 'fence_route_id', 'odo_sensor']],
  ])('%s', (hex, present, absent) => {
    const r = ok(hex);
    expect(r.type).toBe('optional');
    expect(r.attributes).toMatchObject(present);
    for (const k of absent) expect(r.attributes).not.toHaveProperty(k);
    expect(r.attributes.main_battery).toBe(12.6);
  });

  it('rejects the reserved flag bit 0', () => {
    const r = decodeHex('aa55002e0100bc614e0702002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e240015c');
    expect(r).toMatchObject({ errorCode: 'MALFORMED', deviceId: '12345678', type: 'optional' });
  });
});

describe('legacy: modem and CAN data', () => {
  it('modem (type 03): backup voltage, server status, accelerometer, vehicle speed; tachograph event 196', () => {
    const r = ok('aa5500370100bc614e0703002a663236f0663236ea0280014a7880028faa010e48090c1fc400010000010c06190001e2400401010203f605000b5034');
    expect(r.type).toBe('modem');
    expect(r.attributes).toMatchObject({
      battery_backup_voltage: 4.1, server_status: 1, software_additional_info: 515,
      accelerometer_data_x: -10, accelerometer_data_y: 5, accelerometer_data_z: 0, accelerometer_data_r: 11,
      vehicle_speed_sensor: 80, temperature: 25, odo_gps: 123.456,
    });
    expect(r.events).toEqual([{ code: '196', key: 'primary_196', description: 'Evento de tacógrafo' }]);
  });

  it('CAN (type 04): rpm, speeds, odo_can, temperature, fuel, driver id; all main inputs on', () => {
    const r = ok('aa5500440100bc614e0704002a663236f0663236ea0280014a7880028faa010e48090c1f011fff0000010c06190001e2400708015000bc614e06a45a0000303900000123456789aba4');
    expect(r.type).toBe('can');
    expect(r.attributes).toMatchObject({
      engine_speed_sensor: 1800, can_status: 1, vehicle_speed_can: 80,
      odo_can: 12345.678,               // 0x00bc614e metres
      engine_speed_can: 1700, temperature_can: 90,
      fuel_consumption_can: 1234.5,     // 0x3039 = 12345 tenths of a litre
      driver_identification: '00000123456789ab',
      'main_input-backup_battery_faulty': true, 'main_input-ignition': true,
    });
  });

  it('CAN with an all-zero driver identification leaves it empty', () => {
    const r = ok('aa5500440100bc614e0704002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2400708015000bc614e06a45a00003039000000000000000067');
    expect(r.attributes).not.toHaveProperty('driver_identification');
  });
});

describe('legacy: command acknowledgements (type 05)', () => {
  it.each([
    ['aa55000d0100bc614e070501000300070095', { command: 'engineBlock', serial: '0007', success: true }],
    ['aa55000d0100bc614e07050101010008029b', { command: 'reboot', serial: '0008', success: false }],
  ])('%s', (hex, ack) => {
    const r = ok(hex);
    expect(r).toMatchObject({ type: 'ack', deviceId: '12345678', positions: [], events: [], ack });
    expect(r.reply).toBeUndefined();
  });
});

describe('legacy: errors are returned, never thrown', () => {
  it.each([
    ['', 'EMPTY'],
    ['zz', 'MALFORMED'],
    ['abc', 'MALFORMED'],
    ['1234', 'MALFORMED'],                                            // no sync
    ['aa55', 'TRUNCATED'],
    ['aa55002d0100bc614e07', 'TRUNCATED'],
    ['aa5502010100', 'OVERSIZE'],                                     // 0x0201 = 513 > 512
    ['aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2405f', 'MALFORMED'], // checksum
    ['aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2405e00', 'MALFORMED'], // trailing byte
    ['aa55002d0100bc614e0701002a663236f0663236ea027fffffff80028faa010e48090c1f0100010000010c06190001e2406d', 'MALFORMED'], // latitude out of range
    ['aa55002d0100bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c0a190001e24052', 'MALFORMED'], // tenths 10
    ['aa5500090100bc614e077f002ac0', 'UNSUPPORTED'],                 // type 7f
    ['aa55002d0200bc614e0701002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e2405d', 'UNSUPPORTED'], // version 2
    ['aa5500090100bc614e0701002abe', 'TRUNCATED'],                   // type 01 without base block
  ])('%s -> %s', (hex, code) => {
    const r = decodeHex(hex);
    expect(isDecodeError(r)).toBe(true);
    expect(r).toMatchObject({ protocol: 'legacy', errorCode: code });
  });
});

describe('legacy: every emitted attribute key is in the catalogues', () => {
  it('keys exist in legacy-parametros (aliases in queclink-parametros)', () => {
    const frames = [A, 'aa5500390100bc614e0702002a663236f0663236ea0280014a7880028faa010e48090c1f0100010000010c06190001e240a605ffffffff0102000f4240f0',
      'aa5500370100bc614e0703002a663236f0663236ea0280014a7880028faa010e48090c1fc400010000010c06190001e2400401010203f605000b5034',
      'aa5500440100bc614e0704002a663236f0663236ea0280014a7880028faa010e48090c1f011fff0000010c06190001e2400708015000bc614e06a45a0000303900000123456789aba4'];
    const meta = new Set(['version', 'product', 'sequence', 'event']);
    const aliases = new Set(['ignition', 'externalPowerSupplyVoltage', 'odometer']);
    for (const hex of frames) {
      for (const k of Object.keys(ok(hex).attributes)) {
        if (meta.has(k)) continue;
        const hit = aliases.has(k) ? findByKey('queclink-parametros', k) : findByKey('legacy-parametros', k);
        expect(hit, k).toBeDefined();
      }
    }
  });
});
