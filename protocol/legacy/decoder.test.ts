// Decoding of real `SV` frames (public captures) and of the spec extension; expected values computed by hand.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isDecodeError, toJson, type DecodeResult } from '../types.ts';
import { findByKey } from '../catalog.ts';
import { decodeHex, readCoordinates } from './index.ts';
import { COUNTERS_BODY, REAL, STATUS_BODY, STATUS_EXT_BODY, sv } from './fixtures.ts';

const schema = JSON.parse(readFileSync(new URL('../normalized.schema.json', import.meta.url), 'utf8'));
const validateNormalized = new Ajv({ strict: false }).compile(schema);

function ok(hex: string): DecodeResult {
  const r = decodeHex(hex);
  if (isDecodeError(r)) throw new Error(`${r.errorCode}: ${r.error}`);
  expect(validateNormalized(toJson(r)), JSON.stringify(validateNormalized.errors)).toBe(true);
  return r;
}
const replyHex = (r: DecodeResult) => (r.reply as Buffer).toString('hex');

describe('legacy (SV): real frames from public captures', () => {
  it('extended coordinates (1/360000°), odometer and hour counter', () => {
    const r = ok(REAL.extended);
    expect(r).toMatchObject({ protocol: 'legacy', deviceId: '2012293', type: 'status', sentTime: '2018-07-06T23:57:29.000Z' });
    // lat 0x0f7f18ce: 28-bit two's complement -8447794 / 360000; lon 0x0f005222: -16756190 / 360000
    expect(r.positions).toEqual([{
      fixTime: '2018-07-06T23:57:29.000Z', latitude: -23.466094, longitude: -46.544972, speedKmh: 1, course: 64, valid: true,
    }]);
    // Traccar's test expects 2018-07-06 23:57:29, -23.46609, -46.54497
    expect(r.positions[0].latitude).toBeCloseTo(-23.46609, 5);
    expect(r.positions[0].longitude).toBeCloseTo(-46.54497, 5);
    expect(r.events).toEqual([{ code: '14', key: 'primary_14', description: '' }]);
    expect(r.attributes).toMatchObject({
      version: 0x16, product: 5, event: 14, gps_quality: 1, gps_course: 64, gps_instant_speed: 1,
      status_inputs: 0x8201, 'main_input-ignition': true, ignition: true, status_outputs: 0, 'output_status-blocking': false,
      main_battery: 12, externalPowerSupplyVoltage: 12, temperature: 36, reserved: 1,
      odo_gps: 85.508, odometer: 85.508, hour_meter: 7563898, coordinates_extended: true,
      position: { latitude: -23.466094, longitude: -46.544972 },
    });
    expect(r.attributes.payload).toBeUndefined();
    // server ACK: SV, length 11, version 01, serial 001eb485, product 00, type 06
    expect(replyHex(r)).toBe('5356000b01001eb4850006');
  });

  it('standard coordinates (1/3600°); bytes after the declared length are counted, not decoded', () => {
    const r = ok(REAL.standard);
    expect(r).toMatchObject({ deviceId: '12345', type: 'status', sentTime: '2005-12-19T10:28:39.000Z' });
    // lat 0x00feb5ab: 24-bit -84565 / 3600; lon 0x00fd715f: -167585 / 3600
    expect(r.positions).toEqual([{
      fixTime: '2005-12-19T10:28:39.000Z', latitude: -23.490278, longitude: -46.551389, speedKmh: 0, course: 295, valid: true,
    }]);
    expect(r.positions[0].latitude).toBeCloseTo(-23.49027, 4); // Traccar: -23.49027, -46.55138
    expect(r.positions[0].longitude).toBeCloseTo(-46.55138, 4);
    expect(r.attributes).toMatchObject({
      version: 0x11, product: 3, 'main_input-ignition': false, ignition: false, main_battery: 12, temperature: 47,
      coordinates_extended: false, trailingBytes: 2,
    });
    expect(r.attributes.odo_gps).toBeUndefined();
    expect(r.attributes.hour_meter).toBeUndefined();
    expect(replyHex(r)).toBe('5356000b01000030390006');
  });

  it('ignition bit on, fix time one second before the device time', () => {
    const r = ok(REAL.ignition);
    expect(r).toMatchObject({ deviceId: '1089828', sentTime: '2018-03-06T14:24:00.000Z' });
    expect(r.positions).toEqual([{
      fixTime: '2018-03-06T14:23:59.000Z', latitude: -23.572222, longitude: -46.763611, speedKmh: 0, course: 12, valid: true,
    }]);
    expect(r.attributes).toMatchObject({ status_inputs: 1, 'main_input-ignition': true, ignition: true, main_battery: 12, temperature: 0 });
  });

  it('GPS quality 0: valid false, fix time is the last fix (older than the device time)', () => {
    const r = ok(REAL.noFix);
    expect(r.sentTime).toBe('2016-11-04T11:41:46.000Z');
    expect(r.positions).toEqual([{
      fixTime: '2016-11-03T19:47:13.000Z', latitude: -22.837778, longitude: -43.261389, speedKmh: 19, course: 313, valid: false,
    }]);
    expect(r.attributes).toMatchObject({ gps_quality: 0, ignition: false, main_battery: 13, temperature: 0, reserved: 1 });
    expect(replyHex(r)).toBe('5356000b010010a1240006');
  });

  it('status with the odometer only (46 bytes) and a negative temperature', () => {
    const r = ok(sv(0x02, `${STATUS_BODY} 0001e240`));
    expect(r.attributes).toMatchObject({ odo_gps: 123.456, odometer: 123.456, temperature: -25 });
    expect(r.attributes.hour_meter).toBeUndefined();
    expect(r.attributes.payload).toBeUndefined();
  });

  it('bytes beyond the known fields are kept as payload (hex)', () => {
    const r = ok(sv(0x02, `${STATUS_BODY} ${COUNTERS_BODY} aabb`));
    expect(r.attributes).toMatchObject({ hour_meter: 3600, payload: 'aabb' });
  });
});

describe('legacy (SV): keep-alive and command answers', () => {
  it('keep-alive: no position, answered with the server ACK', () => {
    const r = ok(sv(0x00, '', { serial: 1089828, version: 0x0d, product: 3 }));
    expect(r).toMatchObject({ deviceId: '1089828', type: 'keepAlive', positions: [], events: [], attributes: { version: 13, product: 3 } });
    expect(r.sentTime).toBeUndefined();
    expect(replyHex(r)).toBe('5356000b010010a1240006');
    expect(ok(sv(0x00, '0102')).attributes.payload).toBe('0102');
  });

  it('device ACK and NACK: bare (no command named) and naming the command (extension), never answered', () => {
    const bare = ok(sv(0x06));
    expect(bare).toMatchObject({ type: 'ack', ack: { command: '', serial: '', success: true } });
    expect(bare.reply).toBeUndefined();
    expect(ok(sv(0x15))).toMatchObject({ type: 'nack', ack: { command: '', serial: '', success: false } });
    expect(ok(sv(0x06, '03 0007'))).toMatchObject({ ack: { command: 'engineBlock', serial: '0007', success: true } });
    expect(ok(sv(0x15, '7f abcd'))).toMatchObject({ ack: { command: '0x7f', serial: 'ABCD', success: false } });
    // only the command code: the sequence does not fit and is left empty
    expect(ok(sv(0x06, '03'))).toMatchObject({ ack: { command: 'engineBlock', serial: '', success: true } });
  });
});

describe('legacy (SV): coordinates', () => {
  it('standard 24-bit and extended 28-bit readings, sign bit 23 or 27', () => {
    expect(readCoordinates(0xfeb588, 0xfd7056)).toEqual({ latitude: -23.5, longitude: -46.625, extended: false });
    expect(readCoordinates(0x00a8c0, 0x0001c2)).toEqual({ latitude: 12, longitude: 0.125, extended: false });
    expect(readCoordinates(0x0f7ee920, 0x0f7ee920)).toEqual({ latitude: -23.5, longitude: -23.5, extended: true });
  });

  it('extended positive values with a zero top byte: the 1/3600° reading is out of range, so extended', () => {
    // +10° = 3600000 = 0x36ee80, +20° = 0x6ddd00: as 1/3600° they would be 1000° and 2000°
    expect(readCoordinates(0x36ee80, 0x6ddd00)).toEqual({ latitude: 10, longitude: 20, extended: true });
    // extended south with a positive longitude: the top byte of the latitude decides
    expect(readCoordinates(0x0f7ee920, 0x6ddd00)).toEqual({ latitude: -23.5, longitude: 20, extended: true });
  });

  it('documented ambiguity: extended 46° N 45° E has zero top bytes and a valid 1/3600° reading, so it reads standard', () => {
    // 46 * 360000 = 0xfcaf80, 45 * 360000 = 0xf73140 -> as 24-bit 1/3600°: -217216 / 3600, -577216 / 3600
    expect(readCoordinates(0xfcaf80, 0xf73140)).toEqual({ latitude: -60.337778, longitude: -160.337778, extended: false });
  });

  it('out of range in both readings, or bits above 28: MALFORMED', () => {
    expect(readCoordinates(0x7fffff0, 0)).toBeNull(); // +372.8° extended
    expect(readCoordinates(0x10000000, 0)).toBeNull();
    const bad = STATUS_BODY.replace('00feb588', '10feb588');
    expect(decodeHex(sv(0x02, bad))).toMatchObject({ errorCode: 'MALFORMED', deviceId: '12345678', type: 'status' });
  });
});

describe('legacy (SV): extension from the spec (type codes provisional)', () => {
  const ext = `${STATUS_BODY} ${COUNTERS_BODY} ${STATUS_EXT_BODY}`;

  it('extended status bits and battery as integer + tenths', () => {
    const r = ok(sv(0x83, `${ext} 0401 01 0203 f6 05 00 0b 50`));
    expect(r.type).toBe('modem');
    expect(r.positions).toEqual([{
      fixTime: '2024-05-01T12:34:50.000Z', latitude: -23.5, longitude: -46.625, speedKmh: 72, course: 270, valid: true,
    }]);
    expect(r.events).toEqual([{ code: '1', key: 'primary_1', description: '' }]);
    expect(r.attributes).toMatchObject({
      'extended_1-jamming': true, 'extended_1-over_speed': false, 'extended_1-free_wheel': true, 'extended_1-satellites_zero': false,
      'extended_2-position_violation': true, 'extended_2-tilt': false, 'extended_2-driver_identification': true,
      main_battery: 12.6, externalPowerSupplyVoltage: 12.6, 'output_status-blocking': true, odo_gps: 123.456, hour_meter: 3600,
      // modem data
      battery_backup_voltage: 4.1, server_status: 1, software_additional_info: 0x203,
      accelerometer_data_x: -10, accelerometer_data_y: 5, accelerometer_data_z: 0, accelerometer_data_r: 11, vehicle_speed_sensor: 80,
    });
    expect(replyHex(r)).toBe('5356000b0100bc614e0006');
  });

  it('optional-field message: flag byte in reverse bit order, all ones = 0, absent fields left out', () => {
    // a6 = 1010 0110: bit 7 gear, bit 5 engine running time, bit 2 fence route, bit 1 odometer sensor
    const r = ok(sv(0x82, `${ext} a6 05 ffffffff 0102 000f4240`));
    expect(r.type).toBe('optional');
    expect(r.attributes).toMatchObject({ transmission_gear: 5, engine_running_time_meter: 0, fence_route_id: 258, odo_sensor: 1000 });
    for (const k of ['gps_average_speed', 'fence_group_a_id', 'fence_group_b_id']) expect(r.attributes[k]).toBeUndefined();
    // 41 = 0100 0001: bit 0 is reserved
    expect(decodeHex(sv(0x82, `${ext} 41 0050`))).toMatchObject({ errorCode: 'MALFORMED' });
    // announced field missing
    expect(decodeHex(sv(0x82, `${ext} 40 00`))).toMatchObject({ errorCode: 'TRUNCATED' });
    expect(ok(sv(0x82, `${ext} 40 0050`)).attributes.gps_average_speed).toBe(80);
  });

  it('CAN data', () => {
    const r = ok(sv(0x84, `${ext} 0708 01 50 00bc614e 06a4 5a 00003039 00000123456789ab`));
    expect(r.attributes).toMatchObject({
      engine_speed_sensor: 1800, can_status: 1, vehicle_speed_can: 80, odo_can: 12345.678, engine_speed_can: 1700,
      temperature_can: 90, fuel_consumption_can: 1234.5, driver_identification: '00000123456789ab',
    });
    const noDriver = ok(sv(0x84, `${ext} 0708 01 50 00bc614e 06a4 5a 00003039 0000000000000000`));
    expect(noDriver.attributes.driver_identification).toBeUndefined();
  });

  it('battery tenths above 9 and a short extension frame are rejected', () => {
    expect(decodeHex(sv(0x83, `${STATUS_BODY} ${COUNTERS_BODY} 05 81 0a 0401 01 0203 f6 05 00 0b 50`))).toMatchObject({ errorCode: 'MALFORMED' });
    expect(decodeHex(sv(0x83, `${STATUS_BODY} ${COUNTERS_BODY} 05 81 06 040a 01 0203 f6 05 00 0b 50`))).toMatchObject({ errorCode: 'MALFORMED' });
    expect(decodeHex(sv(0x84, `${ext} 0708`))).toMatchObject({ errorCode: 'MALFORMED', type: 'can' });
  });
});

describe('legacy (SV): errors', () => {
  it('returns errors, never throws', () => {
    expect(decodeHex('')).toMatchObject({ protocol: 'legacy', errorCode: 'EMPTY' });
    expect(decodeHex('zz')).toMatchObject({ errorCode: 'MALFORMED' });
    expect(decodeHex('aa55002d01')).toMatchObject({ errorCode: 'MALFORMED' });
    expect(decodeHex('5356')).toMatchObject({ errorCode: 'TRUNCATED' });
    expect(decodeHex(REAL.extended.slice(0, 40))).toMatchObject({ errorCode: 'TRUNCATED' });
    expect(decodeHex('53560401')).toMatchObject({ errorCode: 'OVERSIZE' });
    expect(decodeHex('5356000a16')).toMatchObject({ errorCode: 'MALFORMED' });
    expect(decodeHex(sv(0x42))).toMatchObject({ errorCode: 'UNSUPPORTED', deviceId: '12345678' });
    // a status shorter than its 42 bytes
    expect(decodeHex(sv(0x02, STATUS_BODY.slice(0, 20)))).toMatchObject({ errorCode: 'MALFORMED', type: 'status' });
    // course above 360
    expect(decodeHex(sv(0x02, STATUS_BODY.replace('010e', '0169')))).toMatchObject({ errorCode: 'MALFORMED', error: 'gps_course: 361 > 360' });
  });
});

describe('legacy (SV): attribute keys are catalogue keys', () => {
  it('every emitted key is in legacy-parametros.yaml, except frame metadata and newer-family aliases', () => {
    const meta = new Set(['version', 'product', 'event', 'payload', 'trailingBytes', 'coordinates_extended', 'reserved',
      'ignition', 'externalPowerSupplyVoltage', 'odometer']);
    const ext = `${STATUS_BODY} ${COUNTERS_BODY} ${STATUS_EXT_BODY}`;
    const frames = [REAL.extended, sv(0x82, `${ext} fe 05 0050 00000001 0001 0002 0003 00000001`), sv(0x83, `${ext} 0401 01 0203 f6 05 00 0b 50`),
      sv(0x84, `${ext} 0708 01 50 00bc614e 06a4 5a 00003039 00000123456789ab`)];
    const missing = frames.flatMap((h) => Object.keys(ok(h).attributes)).filter((k) => !meta.has(k) && !findByKey('legacy-parametros', k));
    expect([...new Set(missing)]).toEqual([]);
  });
});
