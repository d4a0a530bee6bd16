// Real @Track frame layouts (public captures and the public Traccar / queclink-parser test suites).
// Frames marked "layout of ..." reuse a capture of a sibling model with the device type of ours.
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import schema from '../normalized.schema.json' with { type: 'json' };
import { isDecodeError, toJson, type DecodeResult } from '../types.ts';
import { decode, eventCatalogue, modelFromVersion } from './index.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

function ok(frame: string): DecodeResult {
  const r = decode(Buffer.from(frame));
  if (isDecodeError(r)) throw new Error(`${r.errorCode}: ${r.error}`);
  expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
  return r;
}

interface Case {
  name: string;
  frame: string;
  deviceId: string;
  model?: string;
  type: string;
  buffered?: boolean;
  event?: string;
  positions?: Array<Partial<DecodeResult['positions'][number]>>;
  attrs?: Record<string, unknown>;
  reply?: string;
}

const CASES: Case[] = [
  {
    name: 'GV350CEU GTFRI (capture)',
    frame: '+RESP:GTFRI,740904,862524060867948,GV350CEU,,10,1,1,89.5,169,672.9,-70.292914,-23.949947,20251016184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,20251016184035,AA3C$',
    deviceId: '862524060867948', model: 'gv350ceu', type: 'GTFRI', event: 'fixedReport',
    positions: [{ fixTime: '2025-10-16T18:40:33.000Z', latitude: -23.949947, longitude: -70.292914, speedKmh: 89.5, course: 169, altitude: 672.9, valid: true, satellites: 12 }],
    attrs: { odometer: 775824.1, hourMeter: 439 * 3600 + 30 * 60 + 29, batteryLevel: 100, ignition: true, motion: true, ignitionInput: true, digitalInput4: true, digitalOutput2: true, mcc: 730, mnc: 1, firmwareVersion: '09.04' },
    reply: '+SACK:AA3C$',
  },
  {
    name: 'GV350CEU +BUFF:GTFRI (capture)',
    frame: '+BUFF:GTFRI,740904,862524060867948,GV350CEU,,10,1,1,89.3,169,683.0,-70.291984,-23.954364,20251016184053,0730,0001,0836,002BEE06,01,10,775824.6,0000439:30:50,,,,100,221102,,,,20251016184055,AA3F$',
    deviceId: '862524060867948', model: 'gv350ceu', type: 'GTFRI', buffered: true, event: 'fixedReport',
    positions: [{ fixTime: '2025-10-16T18:40:53.000Z', latitude: -23.954364, longitude: -70.291984, speedKmh: 89.3, altitude: 683, valid: true, satellites: 10 }],
    attrs: { odometer: 775824.6 },
  },
  {
    name: 'GV350CEU GTERI with BLE accessory mask (capture)',
    frame: '+RESP:GTERI,740904,862524060204589,GV350CEU,00000100,,10,1,1,0.0,355,97.7,117.129252,31.839388,20240415054037,0460,0000,550B,085BE2AA,01,11,3.6,,,,,0,210100,0,1,00,11,0,0000001E,100F,,D325C2B2A2F8,1,2967,0,15,0,20240415154438,405C$',
    deviceId: '862524060204589', model: 'gv350ceu', type: 'GTERI', event: 'fixedReport',
    positions: [{ fixTime: '2024-04-15T05:40:37.000Z', latitude: 31.839388, longitude: 117.129252, speedKmh: 0, course: 355, valid: true, satellites: 11 }],
    attrs: { eriMask: '00000100', odometer: 3.6, batteryLevel: 0, ignition: true, motion: false, uartDeviceType: 0 },
  },
  {
    name: 'GV350CEU GTCAN (Traccar test suite)',
    frame: '+RESP:GTCAN,740B05,862524061506735,GV350CEU,10,1,FFBFFFFF,,1,H3700440,,0,0,76,,L25.50,,0,,0.00,0.37,,,8080,0040,00,00,0.00,0.00,0,3,2,699,0,B3FFFFFF,,,,,,,,,0,0,0,0.37,0.00,0.00,0,,,,,,0000,0,0,,,,0,,1,,17FC7,,,,,,,,,,,,,,,,1,0.0,0,2325.4,38.758242,8.999264,20260630101409,0636,0001,2BEB,01B9F304,11,12,0,20260630131409,F004$',
    deviceId: '862524061506735', model: 'gv350ceu', type: 'GTCAN', event: 'canReport',
    positions: [{ fixTime: '2026-06-30T10:14:09.000Z', latitude: 8.999264, longitude: 38.758242, altitude: 2325.4, valid: true, satellites: 12 }],
    attrs: { fuelLevel: 25.5, odo_can: 370044, temperature_can: 76, engine_speed_can: 0, ignitionKey: 1, engineStarts: 3, gnssJammingState: 0 },
  },
  {
    name: 'GV350CEU GTINF (capture)',
    frame: '+RESP:GTINF,74040A,862524060748775,GV350CEU,11,89999112400719062394,37,0,1,13074,,4.19,0,1,,,20251007213710,,0,0,0,00,00,+0000,0,20251007213751,6B91$',
    deviceId: '862524060748775', model: 'gv350ceu', type: 'GTINF', event: 'deviceInformation', positions: [],
    attrs: { ignition: false, externalPowerSupplyVoltage: 13.074, backupBatteryVoltage: 4.19, externalPowerConnected: true, iccid: '89999112400719062394', rssi: 37, lastFixTime: '2025-10-07T21:37:10.000Z' },
  },
  {
    name: 'GV58CG GTFRI (layout of GV58LAU capture; HDOP/VDOP/PDOP append mask)',
    frame: '+BUFF:GTFRI,8020030703,866314061771471,GV58CG,28204,10,1,1,29.9,25,142.2,-71.586724,-33.590164,20251015190846,,,,,08,0.69,1.11,1.30,659946.1,0001265:29:11,,,,100,220100,,,,20251015190847,868C$',
    deviceId: '866314061771471', model: 'gv58cg', type: 'GTFRI', buffered: true,
    positions: [{ fixTime: '2025-10-15T19:08:46.000Z', latitude: -33.590164, longitude: -71.586724, speedKmh: 29.9, course: 25, altitude: 142.2, valid: true, hdop: 0.69 }],
    attrs: { externalPowerSupplyVoltage: 28.204, vdop: 1.11, pdop: 1.3, odometer: 659946.1, hourMeter: 1265 * 3600 + 29 * 60 + 11, ignition: true },
  },
  {
    name: 'GV58CG +BUFF:GTFRI with GNSS trigger type (layout of GV58LAU, Traccar)',
    frame: '+BUFF:GTFRI,8020030200,866314060249032,,12194,10,1,3,0.0,0,20.1,-71.596533,-33.524718,20230926200338,0730,0001,772A,052B253E,02,0,0.0,,,,,0,420000,,,,20230926200340,1549$',
    deviceId: '866314060249032', model: 'gv58cg', type: 'GTFRI', buffered: true,
    positions: [{ fixTime: '2023-09-26T20:03:38.000Z', latitude: -33.524718, longitude: -71.596533, valid: true }],
    attrs: { gnssTriggerType: 0, externalPowerSupplyVoltage: 12.194, motionStatus: '42', motion: true, odometer: 0 },
  },
  {
    name: 'GV50CG GTFRI, no current fix (accuracy 0)',
    frame: '+RESP:GTFRI,8020080100,866314060109269,,12900,10,1,0,0.0,0,9.0,-46.633308,-23.550520,20230722145338,0724,0005,772A,052B253E,00,1520.3,,,,,100,110000,,,,20230722145341,0F4C$',
    deviceId: '866314060109269', model: 'gv50cg', type: 'GTFRI',
    positions: [{ latitude: -23.55052, longitude: -46.633308, valid: false }],
    attrs: { ignition: false, motion: false, odometer: 1520.3, externalPowerSupplyVoltage: 12.9 },
  },
  {
    name: 'GTFRI with two positions (Number=2), second without fix',
    frame: '+RESP:GTFRI,240100,135790246811220,,,10,2,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,0,4.3,92,70.0,121.354335,31.222073,20090101000000,0460,0000,18d8,6141,00,2000.0,12345:12:34,,,80,,,,,20090214093254,11F0$',
    deviceId: '135790246811220', model: 'desconhecido (24)', type: 'GTFRI',
    positions: [
      { fixTime: '2009-02-14T01:32:54.000Z', latitude: 31.222073, longitude: 121.354335, speedKmh: 4.3, course: 92, altitude: 70, valid: true },
      { fixTime: '2009-01-01T00:00:00.000Z', valid: false },
    ],
    attrs: { odometer: 2000, hourMeter: 12345 * 3600 + 12 * 60 + 34 },
  },
  {
    name: 'GV58CG GTIGN (layout of GV310LAU capture)',
    frame: '+BUFF:GTIGN,8020030202,868589060169789,ra79,379,1,0.0,105,532.2,-70.616413,-33.393457,20240610201712,0730,0001,333A,00CFA301,01,11,,0.0,20240610201713,3AE2$',
    deviceId: '868589060169789', model: 'gv58cg', type: 'GTIGN', buffered: true, event: 'ignitionOn',
    positions: [{ fixTime: '2024-06-10T20:17:12.000Z', latitude: -33.393457, longitude: -70.616413, course: 105, satellites: 11, valid: true }],
    attrs: { ignition: true, ignitionOffDuration: 379, odometer: 0 },
  },
  {
    name: 'GV350CEU GTIGF (layout of GV355CEU capture)',
    frame: '+RESP:GTIGF,740502,867488060278727,,509,1,0.0,184,32.6,14.003446,42.654554,20240219124629,0222,0001,0FAD,0497F715,00,,0.0,20240219124630,FD2F$',
    deviceId: '867488060278727', model: 'gv350ceu', type: 'GTIGF', event: 'ignitionOff',
    positions: [{ fixTime: '2024-02-19T12:46:29.000Z', latitude: 42.654554, longitude: 14.003446, course: 184, altitude: 32.6, valid: true }],
    attrs: { ignition: false, ignitionOnDuration: 509 },
  },
  {
    name: 'GTIGF buffered, no GNSS data at all (Traccar)',
    frame: '+BUFF:GTIGF,840502,867963063190000,,0,0,,,,,,,0268,0006,22C4,13E5,00,,,20250116170541,22D0$',
    deviceId: '867963063190000', model: 'desconhecido (84)', type: 'GTIGF', buffered: true, event: 'ignitionOff', positions: [],
    attrs: { ignition: false, mcc: 268, mnc: 6 },
  },
  {
    name: 'GTVGN virtual ignition (Traccar)',
    frame: '+RESP:GTVGN,C2010D,869653060009939,GV600M,453966,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,,0.0,20240107182623,143F$',
    deviceId: '869653060009939', model: 'gv600m', type: 'GTVGN', event: 'virtualIgnitionOn',
    positions: [{ latitude: 45.931389, longitude: 10.239379, valid: false }],
    attrs: { ignition: true },
  },
  {
    name: 'GTHBM harsh braking, type 0 (Traccar)',
    frame: '+RESP:GTHBM,0F0100,135790246811220,,,10,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$',
    deviceId: '135790246811220', model: 'gv55', type: 'GTHBM', event: 'harshBraking',
    positions: [{ latitude: 31.222073, longitude: 121.354335, speedKmh: 4.3, valid: true }],
    attrs: { harshBehaviorType: 0, speedLevel: 1, odometer: 2000 },
  },
  {
    name: 'GTHBM harsh acceleration, type 1',
    frame: '+RESP:GTHBM,0F0100,135790246811220,,,11,1,1,24.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$',
    deviceId: '135790246811220', model: 'gv55', type: 'GTHBM', event: 'harshAcceleration', attrs: { harshBehaviorType: 1 },
  },
  {
    name: 'GTHBM cornering, type 2 (Traccar)',
    frame: '+RESP:GTHBM,BD0214,869409069481243,cv100,,12,1,1,5.6,344,274.7,-1.601826,6.666228,20250114094616,0620,0001,3EE8,00016E04,,,20250114094616,20250114094616,2862$',
    deviceId: '869409069481243', model: 'cv200', type: 'GTHBM', event: 'harshTurn', attrs: { harshBehaviorType: 2 },
  },
  {
    name: 'GTSOS panic (Traccar)',
    frame: '+RESP:GTSOS,020102,135790246811220,,0,0,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,,20090214093254,11F0$',
    deviceId: '135790246811220', model: 'gl200', type: 'GTSOS', event: 'panic',
    positions: [{ latitude: 31.222073, longitude: 121.354335, valid: true }],
  },
  {
    name: 'GV58CG GTSPD overspeed',
    frame: '+RESP:GTSPD,8020030703,866314060299813,,,10,1,1,112.4,275,937.7,-46.655881,-23.561414,20260514010456,0724,0005,772A,052B253E,01,9,1234.5,20260514010458,BBCE$',
    deviceId: '866314060299813', model: 'gv58cg', type: 'GTSPD', event: 'overspeed',
    positions: [{ speedKmh: 112.4, latitude: -23.561414, longitude: -46.655881, satellites: 9, valid: true }],
    attrs: { odometer: 1234.5 },
  },
  {
    name: 'GV50CG GTGEO geofence 3 enter',
    frame: '+RESP:GTGEO,8020080100,866314060299814,,,31,1,2,20.0,90,760.0,-46.633308,-23.550520,20260514010456,0724,0005,772A,052B253E,00,10.0,20260514010458,0001$',
    deviceId: '866314060299814', model: 'gv50cg', type: 'GTGEO', event: 'geofenceEnter', attrs: { geofenceId: 3, reportType: 1 },
  },
  {
    name: 'GTTOW towing',
    frame: '+RESP:GTTOW,740904,862524060867948,GV350CEU,,10,1,1,5.0,10,700.0,-46.633308,-23.550520,20260514010456,0724,0005,772A,052B253E,00,100.0,20260514010458,0002$',
    deviceId: '862524060867948', model: 'gv350ceu', type: 'GTTOW', event: 'towing',
  },
  {
    name: 'GTSTT motion state (Traccar)',
    frame: '+RESP:GTSTT,060228,862894020178276,,21,0,0.0,0,411.3,-63.169745,-17.776330,20160319132220,0736,0003,6AD4,5BAA,00,20160319092223,1FBD$',
    deviceId: '862894020178276', model: 'gv300', type: 'GTSTT', event: 'motionStateChange',
    positions: [{ latitude: -17.77633, longitude: -63.169745, valid: false }],
    attrs: { motionStatus: '21', ignition: true, motion: false },
  },
  {
    name: 'GTMPN external power connected (Traccar)',
    frame: '+RESP:GTMPN,450102,865084030001323,gb100,0,1.6,0,-93.1,121.393023,31.164105,20170619103113,0460,0000,1806,2142,00,20170619103143,0512$',
    deviceId: '865084030001323', model: 'gb100', type: 'GTMPN', event: 'externalPowerConnected',
    positions: [{ altitude: -93.1, latitude: 31.164105, longitude: 121.393023, valid: false, speedKmh: 1.6 }],
  },
  {
    name: 'GTMPF external power disconnected',
    frame: '+RESP:GTMPF,740904,862524060867948,GV350CEU,1,0.0,0,700.0,-46.633308,-23.550520,20260514010456,0724,0005,772A,052B253E,00,20260514010458,0003$',
    deviceId: '862524060867948', model: 'gv350ceu', type: 'GTMPF', event: 'externalPowerDisconnected',
    positions: [{ valid: true, latitude: -23.55052 }],
  },
  {
    name: 'GTPNA power on with reason (Traccar)',
    frame: '+RESP:GTPNA,710402,867292060140006,,2,20250516120427,0121$',
    deviceId: '867292060140006', model: 'desconhecido (71)', type: 'GTPNA', event: 'powerOn', positions: [], attrs: { powerOnReason: 2 },
  },
  {
    name: 'GTPFA power off (Traccar)',
    frame: '+RESP:GTPFA,F50201,866425030235982,GL300M,20190208124849,0BD4$',
    deviceId: '866425030235982', model: 'gl300m', type: 'GTPFA', event: 'powerOff', positions: [],
  },
  {
    name: 'GTCRA crash (public decoder test)',
    frame: '+RESP:GTCRA,260301,135790246811220,,00,0,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,20161111133140,11F0$',
    deviceId: '135790246811220', model: 'desconhecido (26)', type: 'GTCRA', event: 'collision',
    positions: [{ valid: false, speedKmh: 4.3, latitude: 31.222073 }], attrs: { crashCounter: 0 },
  },
  {
    name: 'GTDOS output status',
    frame: '+RESP:GTDOS,8020030703,866314060299813,,,11,1,1,0.0,0,700.0,-46.633308,-23.550520,20260514010456,0724,0005,772A,052B253E,00,100.0,20260514010458,0004$',
    deviceId: '866314060299813', model: 'gv58cg', type: 'GTDOS', event: 'digitalOutputChange', attrs: { reportId: 1, reportType: 1 },
  },
  {
    name: 'heartbeat +ACK:GTHBD answered with +SACK:GTHBD (Traccar)',
    frame: '+ACK:GTHBD,1A0401,135790246811220,,20100214093254,11F0$',
    deviceId: '135790246811220', model: 'gl300', type: 'GTHBD', event: 'heartbeat', positions: [], reply: '+SACK:GTHBD,1A0401,11F0$',
  },
  {
    name: 'heartbeat sent as +RESP:GTHBD (GV500CG capture)',
    frame: '+RESP:GTHBD,8020090100,864696060004173,GV500CG,20230811075652,09CF$',
    deviceId: '864696060004173', model: 'desconhecido (802009)', type: 'GTHBD', event: 'heartbeat', positions: [], reply: '+SACK:GTHBD,8020090100,09CF$',
  },
  {
    name: 'heartbeat GV50CG',
    frame: '+ACK:GTHBD,8020080100,866314060299814,GV50CG,20260514010458,00A5$',
    deviceId: '866314060299814', model: 'gv50cg', type: 'GTHBD', reply: '+SACK:GTHBD,8020080100,00A5$',
  },
];

describe('queclink decode: real frame layouts', () => {
  it.each(CASES)('$name', (c) => {
    const r = ok(c.frame);
    expect(r.protocol).toBe('queclink');
    expect(r.deviceId).toBe(c.deviceId);
    expect(r.model).toBe(c.model);
    expect(r.type).toBe(c.type);
    expect(r.buffered ?? false).toBe(c.buffered ?? false);
    if (c.event) expect(r.events.map((e) => e.key)).toEqual([c.event]);
    for (const e of r.events) expect(e.description.length).toBeGreaterThan(0);
    if (c.positions) {
      expect(r.positions).toHaveLength(c.positions.length);
      c.positions.forEach((p, i) => expect(r.positions[i]).toMatchObject(p));
    }
    if (c.attrs) expect(r.attributes).toMatchObject(c.attrs);
    if (c.reply) expect(r.reply).toBe(c.reply);
  });
});

// One real frame per @Track family (Traccar's public test suite, captures of devices in the field): the position
// (coordinates, fix time, speed, course, altitude), ignition and the reply the device waits for.
interface FamilyCase {
  name: string;
  frame: string;
  model: string;
  type: string;
  position?: Partial<DecodeResult['positions'][number]>;
  ignition?: boolean;
  attrs?: Record<string, unknown>;
  reply: string;
}
const FAMILY: FamilyCase[] = [
  {
    name: 'GV350M GTERI',
    frame: '+RESP:GTERI,F10413,862599050544301,GV350M,00000002,14164,10,1,1,98.2,93,216.4,-117.484369,33.896640,20240919020058,0311,0480,2C01,00ADBA01,,39539.5,,,100,220100,,0,20240919020058,20A7$',
    model: 'gv350m', type: 'GTERI',
    position: { latitude: 33.89664, longitude: -117.484369, fixTime: '2024-09-19T02:00:58.000Z', speedKmh: 98.2, course: 93, altitude: 216.4, valid: true },
    ignition: true, attrs: { odometer: 39539.5, batteryLevel: 100, externalPowerSupplyVoltage: 14.164, deviceStatus: '220100', motion: true, mcc: 311, mnc: 480 },
    reply: '+SACK:20A7$',
  },
  {
    name: 'GV350M GTERI with fuel-sensor mask (no cell data)',
    frame: '+RESP:GTERI,F10415,862599050680717,GV350M,00000001,,50,1,1,0.0,274,2963.1,-78.691767,-0.951295,20250512214226,,,,,,0.0,,,100,210100,,1,1,1,01DF,20250512214226,009D$',
    model: 'gv350m', type: 'GTERI',
    position: { latitude: -0.951295, longitude: -78.691767, fixTime: '2025-05-12T21:42:26.000Z', speedKmh: 0, course: 274, altitude: 2963.1, valid: true },
    ignition: true, attrs: { odometer: 0, batteryLevel: 100, motion: false },
    reply: '+SACK:009D$',
  },
  {
    name: 'GV350M GTCAN (location after the CAN fields)',
    frame: '+RESP:GTCAN,F10413,862599050467479,GV350M,0,1,C18CFDFF,3BKHHZ8X7GF723380,2,H2898058,232160.50,896,0,64,L/H1.5,P99.20,0,40532.95,,,,,,,,,,,1,0.0,234,2812.2,-78.508807,-0.218812,20240226211921,,,,,,20240226211922,DE03$',
    model: 'gv350m', type: 'GTCAN',
    position: { latitude: -0.218812, longitude: -78.508807, fixTime: '2024-02-26T21:19:21.000Z', speedKmh: 0, course: 234, altitude: 2812.2, valid: true },
    attrs: { vin: '3BKHHZ8X7GF723380', odo_can: 289805.8, engine_speed_can: 896, fuelLevel: 99.2 },
    reply: '+SACK:DE03$',
  },
  {
    name: 'GV600M GTVGN (virtual ignition, no current fix)',
    frame: '+RESP:GTVGN,C2010D,869653060009939,GV600M,453966,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,,0.0,20240107182623,143F$',
    model: 'gv600m', type: 'GTVGN',
    position: { latitude: 45.931389, longitude: 10.239379, fixTime: '2023-12-10T23:37:23.000Z', speedKmh: 0, course: 0, altitude: 163.9, valid: false },
    ignition: true, attrs: { ignitionOffDuration: 453966, odometer: 0 },
    reply: '+SACK:143F$',
  },
  {
    name: 'GV600M GTERI (one analog input and a reserved field before the battery)',
    frame: '+RESP:GTERI,C2010D,869653060009939,GV600M,00000100,,10,1,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,0.0,,,,3,410000,,1,0,6,4,0,,01BF,Sondaporte,EA7D0A3882F6,1,3484,21.81,43,00,00,0,0,0,20240114221802,1875$',
    model: 'gv600m', type: 'GTERI',
    position: { latitude: 45.931389, longitude: 10.239379, altitude: 163.9, valid: false },
    attrs: { batteryLevel: 3, motionStatus: '41', motion: false, deviceStatus: '410000' },
    reply: '+SACK:1875$',
  },
  {
    name: 'GV600M GTINF (two power voltages)',
    frame: '+RESP:GTINF,C20113,869653060997976,,1A,89464278206103756482,19,0,11,12295,13985,4.25,0,0,,,20241104220934,0,0,,00,00,,,20241104162009,06D6$',
    model: 'gv600m', type: 'GTINF',
    attrs: { motionStatus: '1A', motion: true, iccid: '89464278206103756482', rssi: 19, externalPowerSupplyVoltage: 12.295, backupBatteryVoltage: 4.25, charging: false, lastFixTime: '2024-11-04T22:09:34.000Z' },
    ignition: false, reply: '+SACK:06D6$',
  },
  {
    name: 'GV55 GTFRI (two analog inputs; altitude not sent)',
    frame: '+RESP:GTFRI,0F0106,862193020451183,,,10,1,1,0.0,163,,-57.513617,-25.368191,20150918182145,,,,,,21235.0,,,,0,210100,,,,20150918182149,00B8$',
    model: 'gv55', type: 'GTFRI',
    position: { latitude: -25.368191, longitude: -57.513617, fixTime: '2015-09-18T18:21:45.000Z', speedKmh: 0, course: 163, valid: true },
    ignition: true, attrs: { odometer: 21235, batteryLevel: 0, deviceStatus: '210100', ignitionInput: true },
    reply: '+SACK:00B8$',
  },
  {
    name: 'GV55 GTHBM',
    frame: '+RESP:GTHBM,0F0100,135790246811220,,,10,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$',
    model: 'gv55', type: 'GTHBM',
    position: { latitude: 31.222073, longitude: 121.354335, fixTime: '2009-02-14T01:32:54.000Z', speedKmh: 4.3, course: 92, altitude: 70, valid: true },
    attrs: { harshBehaviorType: 0, odometer: 2000 },
    reply: '+SACK:11F0$',
  },
  {
    name: 'GV55W GTIGF without GNSS data',
    frame: '+RESP:GTIGF,500101,868570000393782,,0,0,,,,,,,0730,0002,A08F,872B36,00,,0.0,20240921021804,E3B1$',
    model: 'gv55w', type: 'GTIGF', ignition: false, attrs: { mcc: 730, mnc: 2, lac: 0xa08f, odometer: 0 },
    reply: '+SACK:E3B1$',
  },
  {
    name: 'GV56 GTERI',
    frame: '+RESP:GTERI,4F0D06,865585041396684,,00000100,12665,10,1,1,0.0,342,38.6,49.846792,40.426182,20260220064016,0400,0010,0F6E,08D7,00,0.0,,,,100,110000,,0,20260220064016,91C9$',
    model: 'gv56', type: 'GTERI',
    position: { latitude: 40.426182, longitude: 49.846792, fixTime: '2026-02-20T06:40:16.000Z', speedKmh: 0, course: 342, altitude: 38.6, valid: true },
    ignition: false, attrs: { batteryLevel: 100, externalPowerSupplyVoltage: 12.665, motion: false },
    reply: '+SACK:91C9$',
  },
  {
    name: 'GV300 GTFRI (two analog inputs)',
    frame: '+RESP:GTFRI,060228,862894020178276,,15153,10,1,1,0.0,0,431.7,-63.169571,-17.776235,20160210153458,0736,0003,6AD4,80EF,00,34.9,00117:31:26,13442,15163,0,210101,,,,20160210113503,38EE$',
    model: 'gv300', type: 'GTFRI',
    position: { latitude: -17.776235, longitude: -63.169571, fixTime: '2016-02-10T15:34:58.000Z', speedKmh: 0, course: 0, altitude: 431.7, valid: true },
    ignition: true, attrs: { analogInput1: 13.442, analogInput2: 15.163, batteryLevel: 0, hourMeter: 117 * 3600 + 31 * 60 + 26, odometer: 34.9, digitalOutput1: true },
    reply: '+SACK:38EE$',
  },
  {
    name: 'GV300 GTIGN',
    frame: '+RESP:GTIGN,060228,862894020180553,,9860,0,0.2,189,420.0,-63.158195,-17.800608,20160309022951,0736,0003,6AD4,3471,00,,881.2,20160308222956,129A$',
    model: 'gv300', type: 'GTIGN',
    position: { latitude: -17.800608, longitude: -63.158195, fixTime: '2016-03-09T02:29:51.000Z', speedKmh: 0.2, course: 189, altitude: 420, valid: false },
    ignition: true, attrs: { ignitionOffDuration: 9860, odometer: 881.2 },
    reply: '+SACK:129A$',
  },
  {
    name: 'GV310LAU GTERI (satellites in the append mask, BLE accessories after)',
    frame: '+RESP:GTERI,6E0A03,868589060745174,,00000100,,10,1,1,0.0,0,1509.0,-90.544928,14.584461,20250307182819,0704,0001,13A7,000B60AB,01,12,358.6,,,,,100,1A0000,0,2,00,6,5,0E7109BB,283F,SENTEMP1,7805412CF2DD,1,3466,24,36,24.91,100,01,6,2,,083F,SENTEMP2,7805412CF25C,0,,,,,20250307182820,1ABC$',
    model: 'gv310lau', type: 'GTERI',
    position: { latitude: 14.584461, longitude: -90.544928, fixTime: '2025-03-07T18:28:19.000Z', speedKmh: 0, course: 0, altitude: 1509, valid: true, satellites: 12 },
    ignition: false, attrs: { odometer: 358.6, batteryLevel: 100, motionStatus: '1A', motion: true },
    reply: '+SACK:1ABC$',
  },
  {
    name: 'GL300 GTFRI with four positions, each followed by the mileage',
    frame: '+RESP:GTFRI,1A0900,860599000306845,G3-313,0,0,4,1,2.1,0,426.7,8.611466,47.681639,20181214134603,0228,0001,077F,4812,25.2,1,5.7,34,437.3,8.611600,47.681846,20181214134619,0228,0001,077F,4812,25.2,1,4.4,62,438.2,8.611893,47.681983,20181214134633,0228,0001,077F,4812,25.2,1,4.8,78,436.6,8.612236,47.682040,20181214134648,0228,0001,077F,4812,25.2,83,20181214134702,0654$',
    model: 'gl300', type: 'GTFRI',
    position: { latitude: 47.68204, longitude: 8.612236, fixTime: '2018-12-14T13:46:48.000Z', speedKmh: 4.8, course: 78, altitude: 436.6, valid: true },
    attrs: { odometer: 25.2, batteryLevel: 83 },
    reply: '+SACK:0654$',
  },
  {
    name: 'GL300 heartbeat +ACK:GTHBD as the public test suite has it (no final $)',
    frame: '+ACK:GTHBD,1A0401,135790246811220,,20100214093254,11F0',
    model: 'gl300', type: 'GTHBD', reply: '+SACK:GTHBD,1A0401,11F0$',
  },
  {
    name: 'GL300 GTSTT',
    frame: '+RESP:GTSTT,1A0401,860599000508846,,41,0,0.0,84,107.5,-76.657998,39.497203,20150623160622,0310,0260,B435,3B81,,20150623160622,0F54$',
    model: 'gl300', type: 'GTSTT',
    position: { latitude: 39.497203, longitude: -76.657998, fixTime: '2015-06-23T16:06:22.000Z', speedKmh: 0, course: 84, altitude: 107.5, valid: false },
    attrs: { motionStatus: '41', motion: false },
    reply: '+SACK:0F54$',
  },
  {
    name: 'GL300M GTPNA',
    frame: '+RESP:GTPNA,F50201,866425030235982,GL300M,20190208124909,0BD5$',
    model: 'gl300m', type: 'GTPNA', reply: '+SACK:0BD5$',
  },
  {
    name: 'CV100LG GTFRI (device status is the motion state only)',
    frame: '+RESP:GTFRI,DF0200,868487004353181,cv100,14051,10,1,0,0.0,0,264.1,114.015515,22.537178,20210608064328,0460,0001,25F8,061A7D02,,0.0,,,,100,21,,,,20210608144354,32DB$',
    model: 'cv100lg', type: 'GTFRI',
    position: { latitude: 22.537178, longitude: 114.015515, fixTime: '2021-06-08T06:43:28.000Z', speedKmh: 0, course: 0, altitude: 264.1, valid: false },
    ignition: true, attrs: { batteryLevel: 100, externalPowerSupplyVoltage: 14.051, motion: false, odometer: 0 },
    reply: '+SACK:32DB$',
  },
  {
    name: 'GV500 GTFRI (VIN before the device name)',
    frame: '+RESP:GTFRI,1F0301,862193022001432,WF0GXXGBBGBM26503,,14900,41,1,1,11.6,74,356.0,14.120023,50.167894,20181104080703,0230,0003,9B14,5891,00,74.1,,,,83,220000,799,7.3,,20181104080703,099B$',
    model: 'gv500', type: 'GTFRI',
    position: { latitude: 50.167894, longitude: 14.120023, fixTime: '2018-11-04T08:07:03.000Z', speedKmh: 11.6, course: 74, altitude: 356, valid: true },
    ignition: true, attrs: { vin: 'WF0GXXGBBGBM26503', externalPowerSupplyVoltage: 14.9, reportId: 4, reportType: 1, odometer: 74.1, batteryLevel: 83 },
    reply: '+SACK:099B$',
  },
  {
    name: 'GV65+ GTFRI (type 38)',
    frame: '+RESP:GTFRI,380903,869606020188383,,,40,1,2,43.4,80,252.4,8.606297,50.700200,20200721090109,0262,0001,1932,1BA4,00,0.0,,,,0,220100,,,,20200721090110,00B9$',
    model: 'gv65', type: 'GTFRI',
    position: { latitude: 50.7002, longitude: 8.606297, fixTime: '2020-07-21T09:01:09.000Z', speedKmh: 43.4, course: 80, altitude: 252.4, valid: true },
    ignition: true, attrs: { deviceType: '38', batteryLevel: 0, odometer: 0, reportId: 4, reportType: 0 },
    reply: '+SACK:00B9$',
  },
  {
    name: 'GV300CAN (4B), a type named only: generic rules',
    frame: '+RESP:GTCAN,4B0201,867995030004314,,00,1,C07FFFFF,,2,H982769,30263.00,1266,69,82,H0,P69.20,,0,2037.40,243.93,45.56,74.33,13115,,C00,,0,,,0,68.3,99,42.5,-69.099503,18.445614,20190417233605,0370,0002,5A3D,EB42,00,20190417183607,BD76$',
    model: 'gv300can', type: 'GTCAN',
    position: { latitude: 18.445614, longitude: -69.099503, fixTime: '2019-04-17T23:36:05.000Z', speedKmh: 68.3, course: 99, altitude: 42.5, valid: false },
    attrs: { deviceType: '4B', odo_can: 98276.9, engine_speed_can: 1266, fuelLevel: 69.2, mcc: 370, mnc: 2 },
    reply: '+SACK:BD76$',
  },
  {
    name: 'GV300 GTIDA: an RFID card read (ID number → the generic rfid attribute, passengers by tag)',
    frame: '+RESP:GTIDA,060100,135790246811220,,,D2C4FBC5,1,1,1,0.8,0,22.2,117.198630,31.845229,20120802061037,0460,0000,5663,0359,00,0.0,,,,,,20120802061038,0031$',
    model: 'gv300', type: 'GTIDA',
    position: { latitude: 31.845229, longitude: 117.19863, fixTime: '2012-08-02T06:10:37.000Z', speedKmh: 0.8, course: 0, altitude: 22.2, valid: true },
    attrs: { rfid: 'D2C4FBC5', rfidAuthorized: true, odometer: 0 },
    reply: '+SACK:0031$',
  },
];

describe('queclink decode: the whole @Track family', () => {
  it.each(FAMILY)('$name', (c) => {
    const r = ok(c.frame);
    expect(r.model).toBe(c.model);
    expect(r.type).toBe(c.type);
    if (c.position) {
      expect(r.positions.length).toBeGreaterThan(0);
      expect(r.positions[r.positions.length - 1]).toMatchObject(c.position);
      if (!('altitude' in c.position)) expect(r.positions[r.positions.length - 1]!.altitude).toBeUndefined();
    } else expect(r.positions).toEqual([]);
    expect(r.attributes.ignition).toBe(c.ignition);
    if (c.attrs) expect(r.attributes).toMatchObject(c.attrs);
    expect(r.reply).toBe(c.reply);
  });

  it('GL300 gives every one of its four positions', () => {
    const r = ok(FAMILY.find((c) => c.name.startsWith('GL300 GTFRI'))!.frame);
    expect(r.positions.map((p) => [p.latitude, p.longitude, p.speedKmh, p.course])).toEqual([
      [47.681639, 8.611466, 2.1, 0], [47.681846, 8.6116, 5.7, 34], [47.681983, 8.611893, 4.4, 62], [47.68204, 8.612236, 4.8, 78],
    ]);
  });

  it('heartbeats are answered whatever the model and the header', () => {
    for (const [frame, reply] of [
      ['+ACK:GTHBD,F10413,862599050544301,GV350M,20240919020058,20A8$', '+SACK:GTHBD,F10413,20A8$'],
      ['+ACK:GTHBD,C2010D,869653060009939,GV600M,20240107182623,1440$', '+SACK:GTHBD,C2010D,1440$'],
      ['+ACK:GTHBD,F50201,866425030235982,GL300M,20190208124909,0BD6$', '+SACK:GTHBD,F50201,0BD6$'],
      ['+BUFF:GTHBD,0F0106,862193020451183,,20150918182149,00B9$', '+SACK:GTHBD,0F0106,00B9$'],
      ['+ACK:GTHBD,E70100,862193020451183,,20150918182149,00BA$', '+SACK:GTHBD,E70100,00BA$'],
    ]) {
      const r = ok(frame!);
      expect(r.type, frame).toBe('GTHBD');
      expect(r.reply, frame).toBe(reply);
    }
  });

  it('an unknown report still decodes its position and is answered', () => {
    const r = ok('+RESP:GTXYZ,740904,862524060867948,,7,1,12.5,90,700.0,-46.633308,-23.550520,20260514010456,0724,0005,772A,052B253E,00,20260514010458,AA3C$');
    expect(r.type).toBe('GTXYZ');
    expect(r.events).toEqual([{ code: 'GTXYZ', key: 'xyz', description: '' }]);
    expect(r.positions).toEqual([{ fixTime: '2026-05-14T01:04:56.000Z', latitude: -23.55052, longitude: -46.633308, speedKmh: 12.5, course: 90, valid: true, altitude: 700 }]);
    expect(r.reply).toBe('+SACK:AA3C$');
    const none = ok('+RESP:GTXYZ,740904,862524060867948,,1,20251016184035,AA3D$');
    expect(none.positions).toEqual([]);
    expect(none.reply).toBe('+SACK:AA3D$');
  });

  it('a field the layout does not expect stops the attributes, not the position', () => {
    // GV350CEU layout on a frame with one analog input too few and a junk device status.
    const r = ok('+RESP:GTFRI,740904,862524060867948,GV350CEU,,10,1,1,89.5,169,672.9,-70.292914,-23.949947,20251016184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,100,XYZ,,,,20251016184035,AA3C$');
    expect(r.positions[0]).toMatchObject({ latitude: -23.949947, longitude: -70.292914, speedKmh: 89.5 });
    expect(r.attributes.odometer).toBe(775824.1);
    expect(r.attributes.deviceStatus).toBeUndefined();
    expect(r.reply).toBe('+SACK:AA3C$');
  });
});

describe('queclink decode: acknowledgements and specifics', () => {
  it('+ACK of a command gives its serial number for the processing queue', () => {
    const r = ok('+ACK:GTRTO,350401,867844003101634,,REBOOT,0060,20161102204545,028F$');
    expect(r.type).toBe('ack');
    expect(r.ack).toEqual({ command: 'GTRTO', serial: '0060', success: true });
    expect(r.attributes.ackDetail).toBe('REBOOT');
    expect(r.reply).toBeUndefined();
    const out = ok('+ACK:GTOUT,8020030703,866314060299813,GV58CG,0A1F,20260514010458,0017$');
    expect(out.ack).toEqual({ command: 'GTOUT', serial: '0A1F', success: true });
    expect(out.model).toBe('gv58cg');
    expect(out.sentTime).toBe('2026-05-14T01:04:58.000Z');
  });

  it('the configuration a device reports after AT+GTRTO READ (GTALL, GTALC; GTALS for one command) is kept as written', () => {
    const all = ok('+RESP:GTALL,8020030703,864100000000001,GV58CG,FRI,1,0,,,0000,0000,30,30,,,,,0,3600,TOW,1,120,20261126002000,00A1$');
    expect([all.type, all.configuration, all.positions, all.events.map((e) => e.key), all.reply])
      .toEqual(['GTALL', 'FRI,1,0,,,0000,0000,30,30,,,,,0,3600,TOW,1,120', [], ['configurationReport'], '+SACK:00A1$']);
    const one = ok('+RESP:GTALS,1A0401,135790246811220,,CFG,gl300,GL300,,0,1,,20100214093254,11F0$');
    expect([one.type, one.model, one.configuration]).toEqual(['GTALS', 'gl300', 'CFG,gl300,GL300,,0,1,']);
    expect(ok('+RESP:GTALC,8020030703,864100000000001,GV58CG,20261126002000,00A2$').configuration).toBe('');
    expect(ok('+RESP:GTFRI,8020030703,864100000000001,GV58CG,12600,10,1,1,0.0,0,700.0,-46.6,-23.5,20261126002000,0724,0005,1A2B,00C3F1D2,01,9,1000.0,00012:34:56,,,,90,220100,,,,20261126002000,00A3$').configuration).toBeUndefined();
  });

  it('reads the model from the device type of the protocol version', () => {
    expect(modelFromVersion('740904')).toMatchObject({ model: 'gv350ceu', deviceType: '74', firmware: '09.04' });
    expect(modelFromVersion('8020030703')).toMatchObject({ model: 'gv58cg', deviceType: '802003' });
    expect(modelFromVersion('8020080100')).toMatchObject({ model: 'gv50cg', deviceType: '802008' });
    expect(modelFromVersion('060100')).toMatchObject({ model: 'gv300', known: true });
    expect(modelFromVersion('F10413')).toMatchObject({ model: 'gv350m', deviceType: 'F1', firmware: '04.13' });
    expect(modelFromVersion('990100')).toMatchObject({ model: 'desconhecido (99)', known: false, deviceType: '99' });
  });

  it('reports can be acknowledged without SACK', async () => {
    const { createQueclinkDecoder } = await import('./index.ts');
    const d = createQueclinkDecoder({ sackReports: false });
    const r = d.decode(Buffer.from(CASES[0]!.frame));
    expect(isDecodeError(r) ? r : r.reply).toBeUndefined();
    const hb = d.decode(Buffer.from('+ACK:GTHBD,1A0401,135790246811220,,20100214093254,11F0$'));
    expect(isDecodeError(hb) ? hb : hb.reply).toBe('+SACK:GTHBD,1A0401,11F0$');
  });

  it('rejects bad frames with typed errors', () => {
    const bad: Array<[string, string]> = [
      ['', 'EMPTY'],
      ['+RESP:GTFRI,740904,862524060867948,GV350CEU,,10,1,1,89.5', 'TRUNCATED'],
      ['+SACK:11F0$', 'UNSUPPORTED'],
      ['+RESP:GTFRI,740904,86252406086794X,GV350CEU,,10,1,1,89.5,169,672.9,-70.292914,-23.949947,20251016184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,20251016184035,AA3C$', 'MALFORMED'],
      ['+RESP:GTFRI,740904,862524060867948,GV350CEU,,10,1,1,89.5,169,672.9,-70.292914,-23.949947,20251332184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,20251016184035,AA3C$', 'MALFORMED'],
      ['+RESP:GTFRI,740904,862524060867948,GV350CEU,,10,1,1,89.5,169,672.9,-270.292914,-23.949947,20251016184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,20251016184035,AA3C$', 'MALFORMED'],
    ];
    for (const [frame, code] of bad) {
      const r = decode(Buffer.from(frame));
      expect(isDecodeError(r), frame).toBe(true);
      if (isDecodeError(r)) {
        expect(r.errorCode, frame).toBe(code);
        expect(validate(toJson(r))).toBe(true);
      }
    }
    const e = decode(Buffer.from(CASES[0]!.frame.replace('20251016184033', '2025101618403X')));
    expect(isDecodeError(e) && e.deviceId).toBe('862524060867948');
  });

  it('every event has a pt-BR description and a key', () => {
    const cat = eventCatalogue();
    expect(cat.length).toBeGreaterThan(20);
    for (const e of cat) {
      expect(e.code).toMatch(/^GT[A-Z]{3}$/);
      expect(e.key).toMatch(/^[a-z][A-Za-z]+$/);
      expect(e.description).not.toBe('');
    }
  });
});

// GTERI accessory blocks (ERI mask) and the GTCAN expansion masks: real frames of Traccar's public test suite
// (Gl200TextProtocolDecoderTest) and public captures; values worked out by hand from the field order.
interface AccessoryCase {
  name: string;
  frame: string;
  model: string;
  position: Partial<DecodeResult['positions'][number]>;
  ignition?: boolean;
  attrs: Record<string, unknown>;
  /** Attributes that must not be there (the reading stops before data it cannot place). */
  absent?: string[];
  reply: string;
}
const ACCESSORIES: AccessoryCase[] = [
  {
    name: 'GV300 GTERI: digital fuel sensor (bit 0), percentage and volume fuel sensors (bits 3, 4)',
    frame: '+RESP:GTERI,250C02,868789023691057,,00000019,,10,1,1,0.0,196,2258.0,-99.201807,19.559242,20180214002957,0334,0003,235B,7F8D,00,6786.7,,,,100,110000,1,0394,1,4,100.0,100.0,20180214003006,C72B$',
    model: 'gv300',
    position: { fixTime: '2018-02-14T00:29:57.000Z', latitude: 19.559242, longitude: -99.201807, speedKmh: 0, course: 196, altitude: 2258, valid: true },
    ignition: false,
    attrs: { eriMask: '00000019', odometer: 6786.7, batteryLevel: 100, uartDeviceType: 1, fuelSensor1: 0x394, fuelSensorLevel1: 100, fuelSensorVolume1: 100 },
    reply: '+SACK:C72B$',
  },
  {
    name: 'GV350M GTERI: counted digital fuel sensors with type and UART id',
    frame: '+RESP:GTERI,F10415,862599050680717,GV350M,00000001,,50,1,1,0.0,274,2963.1,-78.691767,-0.951295,20250512214226,,,,,,0.0,,,100,210100,,1,1,1,01DF,20250512214226,009D$',
    model: 'gv350m',
    position: { fixTime: '2025-05-12T21:42:26.000Z', latitude: -0.951295, longitude: -78.691767, speedKmh: 0, course: 274, altitude: 2963.1, valid: true },
    ignition: true,
    attrs: { fuelSensor1: 479, batteryLevel: 100, odometer: 0 },
    absent: ['fuelSensor2', 'uartDeviceType'],
    reply: '+SACK:009D$',
  },
  {
    name: 'GV75W-type GTERI (type 41, generic rules): one digital fuel sensor reading after the UART type',
    frame: '+BUFF:GTERI,410502,864802030794634,,00000001,,10,1,1,0.0,0,3027.8,-78.706612,-0.955699,20230418170736,0740,0002,A08C,2AB72D,00,0.0,,,,100,110000,1,0099,20230418171004,8B98$',
    model: 'gv75w',
    position: { fixTime: '2023-04-18T17:07:36.000Z', latitude: -0.955699, longitude: -78.706612, altitude: 3027.8, valid: true },
    ignition: false,
    attrs: { uartDeviceType: 1, fuelSensor1: 153 },
    reply: '+SACK:8B98$',
  },
  {
    name: 'GV300W GTERI: one 1-wire temperature sensor',
    frame: '+RESP:GTERI,271002,863457051562823,,00000002,,10,1,1,0.0,15,28.2,-58.695253,-34.625413,20230119193305,0722,0007,1168,16B3BB,00,0.0,,,,99,210100,2,1,28F8A149F69A3C25,1,0190,20230119193314,07C7$',
    model: 'gv300w',
    position: { fixTime: '2023-01-19T19:33:05.000Z', latitude: -34.625413, longitude: -58.695253, speedKmh: 0, course: 15, altitude: 28.2, valid: true },
    ignition: true,
    attrs: { batteryLevel: 99, uartDeviceType: 2, oneWireId1: '28F8A149F69A3C25', temperature1: 25 },
    reply: '+SACK:07C7$',
  },
  {
    name: 'GV200 GTERI: two 1-wire sensors below zero (signed, 1/16 °C), inputs/outputs words',
    frame: '+RESP:GTERI,040A00,862894022579562,gv200,00000002,,10,1,1,96.1,180,749.7,39.222692,24.165463,20210225065756,0420,0004,759C,3360,00,15529.8,,,2789,,01,00,2,2,282BD47A0B000063,1,FFE2,281FDD5D0B000057,1,FFC8,20210225065800,6974$',
    model: 'gv200',
    position: { fixTime: '2021-02-25T06:57:56.000Z', latitude: 24.165463, longitude: 39.222692, speedKmh: 96.1, course: 180, altitude: 749.7, valid: true },
    attrs: { odometer: 15529.8, analogInput2: 2.789, ignitionInput: true, oneWireId1: '282BD47A0B000063', temperature1: -1.875, oneWireId2: '281FDD5D0B000057', temperature2: -3.5 },
    reply: '+SACK:6974$',
  },
  {
    name: 'GV300 GTERI: 1-wire sensor with the hour meter (firmware 05.02)',
    frame: '+RESP:GTERI,060502,861074023620928,,00000002,27822,10,1,1,0.0,84,2870.9,-78.531796,-0.277329,20170825045344,,,,,,0.0,01138:30:24,,,83,220104,2,1,28FF2776A2150308,1,FFAD,0,20170825045348,A88C$',
    model: 'gv300',
    position: { fixTime: '2017-08-25T04:53:44.000Z', latitude: -0.277329, longitude: -78.531796, speedKmh: 0, course: 84, altitude: 2870.9, valid: true },
    ignition: true,
    attrs: { externalPowerSupplyVoltage: 27.822, hourMeter: 1138 * 3600 + 30 * 60 + 24, batteryLevel: 83, digitalOutput3: true, temperature1: -5.1875 },
    reply: '+SACK:A88C$',
  },
  {
    name: 'GV355CEU GTERI: 1-wire (none), CAN data block, BLE (none)',
    frame: '+RESP:GTERI,8020050605,867488060225819,GV355CEU,00000106,12390,10,1,1,0.0,37,253.0,10.240915,45.930262,20240226074452,0222,0010,2F31,0063952B,03,7,0,0.0,,,,,100,110000,0,0,1,FFFFF,VR3USHNSSNJ711765,0,H311796,109.40,0,,,,,,,46.54,29.91,16.63,12.88,,8080,,,00,0,20240226074453,2548$',
    model: 'gv355ceu',
    position: { fixTime: '2024-02-26T07:44:52.000Z', latitude: 45.930262, longitude: 10.240915, speedKmh: 0, course: 37, altitude: 253, valid: true, satellites: 7 },
    ignition: false,
    attrs: {
      externalPowerSupplyVoltage: 12.39, batteryLevel: 100, canBusState: true, canReportMask: 'FFFFF', vin: 'VR3USHNSSNJ711765',
      ignitionKey: 0, odo_can: 31179.6, fuel_consumption_can: 109.4, engine_speed_can: 0, engine_running_time_meter: 46.54 * 3600,
      drivingTime: 29.91 * 3600, idleTime: 16.63 * 3600, idleFuelUsed: 12.88, tachographInfo: '8080', doors: '00',
    },
    absent: ['fuelLevel', 'oneWireId1', 'bleName1'],
    reply: '+SACK:2548$',
  },
  {
    name: 'GV355CEU GTERI: CAN data block only (ERI mask bit 2)',
    frame: '+RESP:GTERI,8020050704,867488060246195,,00000004,28823,10,1,1,0.0,33,10.1,10.606120,43.656780,20240408084402,0222,0010,7D53,00DD120D,02,0,0.0,,,,,100,210100,0,1,FFFFF,YS2R4X20009288827,2,H1910197,58234.30,500,1,90,H1.5,P84.00,,0,4616.20,2.28,2.16,5.64,5358,1038,0010,00,00,20240408084403,1809$',
    model: 'gv355ceu',
    position: { fixTime: '2024-04-08T08:44:02.000Z', latitude: 43.65678, longitude: 10.60612, speedKmh: 0, course: 33, altitude: 10.1, valid: true },
    ignition: true,
    attrs: {
      batteryLevel: 100, gnssTriggerType: 0, vin: 'YS2R4X20009288827', ignitionKey: 2, odo_can: 191019.7, engine_speed_can: 500,
      vehicle_speed_can: 1, temperature_can: 90, fuelLevel: 84, acceleratorPedal: 0, 'detailedInformation-axleWeight2': 5358,
      tachographInfo: '1038', indicators: '0010', lights: '00', doors: '00',
    },
    reply: '+SACK:1809$',
  },
  {
    name: 'GV310LAU GTERI: two BLE temperature sensors (enhanced temperature, battery mV and %)',
    frame: '+RESP:GTERI,6E0A03,868589060745174,,00000100,,10,1,1,0.0,0,1509.0,-90.544928,14.584461,20250307182819,0704,0001,13A7,000B60AB,01,12,358.6,,,,,100,1A0000,0,2,00,6,5,0E7109BB,283F,SENTEMP1,7805412CF2DD,1,3466,24,36,24.91,100,01,6,2,,083F,SENTEMP2,7805412CF25C,0,,,,,20250307182820,1ABC$',
    model: 'gv310lau',
    position: { fixTime: '2025-03-07T18:28:19.000Z', latitude: 14.584461, longitude: -90.544928, speedKmh: 0, course: 0, altitude: 1509, valid: true, satellites: 12 },
    ignition: false,
    attrs: {
      odometer: 358.6, batteryLevel: 100, motionStatus: '1A', bleRawData1: '0E7109BB', bleName1: 'SENTEMP1', bleMac1: '7805412CF2DD', bleStatus1: 1,
      bleBatteryVoltage1: 3.466, bleTemperature1: 24.91, bleHumidity1: 36, bleBatteryLevel1: 100,
      bleName2: 'SENTEMP2', bleMac2: '7805412CF25C', bleStatus2: 0,
    },
    absent: ['bleTemperature2', 'bleBatteryLevel2', 'bleRawData2'],
    reply: '+SACK:1ABC$',
  },
  {
    name: "GV310LAU GTERI (Queclink's protocol document example, firmware 12.03): BLE tire sensor with a raw data length field",
    frame: '+RESP:GTERI,6E1203,864696060004173,GV310LAU,00000100,,10,1,1,0.0,0,115.8,117.129356,31.839248,20230808061540,0460,0001,DF5C,05FE6667,03,15,,4.0,0000102:34:33,14549,42,11172,100,210000,0,1,0,06,12,0,001A42A2,0617,TMPS,08351B00043C,1,26,65,20231030085704,20231030085704,0017$',
    model: 'gv310lau',
    position: { fixTime: '2023-08-08T06:15:40.000Z', latitude: 31.839248, longitude: 117.129356, speedKmh: 0, course: 0, altitude: 115.8, valid: true, satellites: 15 },
    ignition: true,
    attrs: {
      odometer: 4, hourMeter: 102 * 3600 + 34 * 60 + 33, analogInput1: 14.549, analogInput2: 0.042, analogInput3: 11.172, batteryLevel: 100,
      uartDeviceType: 0, bleRawData1: '001A42A2', bleName1: 'TMPS', bleMac1: '08351B00043C', bleStatus1: 1, bleTemperature1: 26,
      bleTirePressure1: 65, bleTimestamp1: '20231030085704',
    },
    absent: ['bleHumidity1', 'bleBatteryVoltage1'],
    reply: '+SACK:0017$',
  },
  {
    name: 'GV350CEU GTERI: BLE magnet sensor (MAC, status, battery mV, magnet; empty name)',
    frame: '+RESP:GTERI,740904,862524060204589,GV350CEU,00000100,,10,1,1,0.0,355,97.7,117.129252,31.839388,20240415054037,0460,0000,550B,085BE2AA,01,11,3.6,,,,,0,210100,0,1,00,11,0,0000001E,100F,,D325C2B2A2F8,1,2967,0,15,0,20240415154438,405C$',
    model: 'gv350ceu',
    position: { fixTime: '2024-04-15T05:40:37.000Z', latitude: 31.839388, longitude: 117.129252, speedKmh: 0, course: 355, altitude: 97.7, valid: true, satellites: 11 },
    ignition: true,
    attrs: { odometer: 3.6, batteryLevel: 0, bleRawData1: '0000001E', bleMac1: 'D325C2B2A2F8', bleStatus1: 1, bleBatteryVoltage1: 2.967, bleMagnet1: 0 },
    absent: ['bleName1', 'bleTemperature1', 'bleName2'],
    reply: '+SACK:405C$',
  },
  {
    name: 'GV600M GTERI: BLE door sensor with the raw data length field',
    frame: '+RESP:GTERI,C2010D,869653060009939,GV600M,00000100,,10,1,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,0.0,,,,3,410000,,1,0,6,4,0,,01BF,Sondaporte,EA7D0A3882F6,1,3484,21.81,43,00,00,0,0,0,20240114221802,1875$',
    model: 'gv600m',
    position: { fixTime: '2023-12-10T23:37:23.000Z', latitude: 45.931389, longitude: 10.239379, speedKmh: 0, course: 0, altitude: 163.9, valid: false },
    attrs: {
      batteryLevel: 3, motionStatus: '41', bleName1: 'Sondaporte', bleMac1: 'EA7D0A3882F6', bleStatus1: 1, bleBatteryVoltage1: 3.484,
      bleTemperature1: 21.81, bleHumidity1: 43, bleInputOutput1: '00', bleEvent1: '00',
    },
    reply: '+SACK:1875$',
  },
  {
    name: 'GV355CEU +BUFF:GTCAN: CAN mask, expansion mask (AdBlue, axle weight, tachograph driver), location and cell',
    frame: '+BUFF:GTCAN,8020050402,867488060267845,,00,1,E00FFFFF,YS2K4X20001928588,1,H149381,4236.08,0,0,58,,P94.80,,0,529.00,0.03,0.33,0.77,8688,0008,0042,00,00,001FFFFF,P100.00,5571,,,0,0,,,20,7,0,0.36,0.00,0.00,0,E E05653940B000003,,C*********,,4054MTX,0000,,,1,0.0,101,698.5,-3.647673,40.481997,20241213113715,0214,0003,04D2,B801,00,20241213113715,1A47$',
    model: 'gv355ceu',
    position: { fixTime: '2024-12-13T11:37:15.000Z', latitude: 40.481997, longitude: -3.647673, speedKmh: 0, course: 101, altitude: 698.5, valid: true },
    attrs: {
      canReportMask: 'E00FFFFF', vin: 'YS2K4X20001928588', ignitionKey: 1, odo_can: 14938.1, fuel_consumption_can: 4236.08, temperature_can: 58,
      fuelLevel: 94.8, engine_running_time_meter: 529 * 3600, 'detailedInformation-axleWeight2': 8688, indicators: '0042',
      canExpansionMask: '001FFFFF', adBlueLevel: 100, 'detailedInformation-axleWeight1': 5571, tachographOverspeed: 0, tachographMotion: 0,
      pedalBrakingFactor: 20, engineBrakingFactor: 7, 'expansionInformation-kickdownCounter': 0, effectiveEngineSpeedTime: 1296,
      cruiseControlTime: 0, kickdownTime: 0, 'expansionInformation-brakeApplications': 0, tachographDriver1Card: 'E E05653940B000003',
      tachographDriver1Name: 'C*********', registration: '4054MTX', expansionInformation: '0000', mcc: 214, mnc: 3, lac: 0x4d2, cellId: 0xb801,
    },
    absent: ['detailedInformation-axleWeight3', 'tachographDriver2Card', 'analogInput1'],
    reply: '+SACK:1A47$',
  },
  {
    name: 'GV300W GTCAN: expansion mask bits 0-22 (expansion information, rapid brakings and accelerations)',
    frame: '+RESP:GTCAN,270703,867162025056839,gv300w,0,1,E07FFFFF,,2,H9307659,368713.50,1291,90,91,,P82.40,,61,10.10,6.76,3.34,524.08,,,0000,,00,,,007FFFFF,,,,,,,,,,,,,,,,,,,,,0000,2,0,,,0,88.6,104,117.6,-116.886007,32.543697,20181031202959,0334,0020,5234,7FCC3D0,00,20181031203002,9F50$',
    model: 'gv300w',
    position: { fixTime: '2018-10-31T20:29:59.000Z', latitude: 32.543697, longitude: -116.886007, speedKmh: 88.6, course: 104, altitude: 117.6, valid: false },
    attrs: {
      ignitionKey: 2, odo_can: 930765.9, engine_speed_can: 1291, vehicle_speed_can: 90, temperature_can: 91, fuelLevel: 82.4, acceleratorPedal: 61,
      canExpansionMask: '007FFFFF', expansionInformation: '0000', rapidBrakings: 2, rapidAccelerations: 0,
    },
    absent: ['adBlueLevel', 'tachographDriver1Card'],
    reply: '+SACK:9F50$',
  },
  {
    name: 'GV350CEU GTCAN: expansion mask B3FFFFFF with its third mask (bit 31)',
    frame: '+RESP:GTCAN,740B05,862524061506735,GV350CEU,10,1,FFBFFFFF,,1,H3700440,,0,0,76,,L25.50,,0,,0.00,0.37,,,8080,0040,00,00,0.00,0.00,0,3,2,699,0,B3FFFFFF,,,,,,,,,0,0,0,0.37,0.00,0.00,0,,,,,,0000,0,0,,,,0,,1,,17FC7,,,,,,,,,,,,,,,,1,0.0,0,2325.4,38.758242,8.999264,20260630101409,0636,0001,2BEB,01B9F304,11,12,0,20260630131409,F004$',
    model: 'gv350ceu',
    position: { fixTime: '2026-06-30T10:14:09.000Z', latitude: 8.999264, longitude: 38.758242, speedKmh: 0, course: 0, altitude: 2325.4, valid: true, satellites: 12 },
    attrs: {
      fuelLevel: 25.5, engineColdStarts: 0, engineStarts: 3, engineStartsByIgnition: 2, engineColdRunningTime: 699, handbrakeApplies: 0,
      canExpansionMask: 'B3FFFFFF', pedalBrakingFactor: 0, engineBrakingFactor: 0, effectiveEngineSpeedTime: 1332, expansionInformation: '0000',
      rapidBrakings: 0, rapidAccelerations: 0, dtcCodes: '0',
    },
    absent: ['adBlueLevel', 'retarderUsage'],
    reply: '+SACK:F004$',
  },
];

describe('queclink decode: GTERI accessories and GTCAN expansion masks (real frames)', () => {
  it.each(ACCESSORIES)('$name', (c) => {
    const r = ok(c.frame);
    expect(r.model).toBe(c.model);
    expect(r.positions).toHaveLength(1);
    expect(r.positions[0]).toMatchObject(c.position);
    expect(r.attributes.ignition).toBe(c.ignition);
    expect(r.attributes).toMatchObject(c.attrs);
    for (const k of c.absent ?? []) expect(r.attributes, k).not.toHaveProperty(k);
    expect(r.reply).toBe(c.reply);
  });

  it('an ERI mask bit it does not know stops the blocks there, never the position or what came before', () => {
    // GV300 capture with bit 5 (not in the table) added: the fuel sensor (bit 0) is before it and read, the
    // percentage sensors (bits 3, 4) are before it too; nothing after bit 5 is guessed.
    const f = ACCESSORIES[0]!.frame.replace('00000019', '00000139');
    const r = ok(f);
    expect(r.positions[0]).toMatchObject({ latitude: 19.559242, longitude: -99.201807 });
    expect(r.attributes).toMatchObject({ fuelSensor1: 0x394, fuelSensorLevel1: 100, fuelSensorVolume1: 100 });
    // Bits 0, 5 and 8: the fuel reading, then stop: the fields after it are not taken as BLE accessories.
    const g = ok(ACCESSORIES[0]!.frame.replace('00000019', '00000121'));
    expect(g.attributes.fuelSensor1).toBe(0x394);
    expect(Object.keys(g.attributes).filter((k) => k.startsWith('ble') || k.startsWith('fuelSensorL'))).toEqual([]);
  });

  it('a CAN expansion bit of unknown length (26) stops the walk after the fields before it; the location is still found', () => {
    const base = ACCESSORIES.find((c) => c.name.startsWith('GV355CEU +BUFF:GTCAN'))!;
    const r = ok(base.frame.replace('001FFFFF', '041FFFFF'));
    expect(r.positions[0]).toMatchObject(base.position);
    expect(r.attributes).toMatchObject({ adBlueLevel: 100, registration: '4054MTX', expansionInformation: '0000' });
  });

  it('the new attributes have catalogue entries (stem without the sensor number)', async () => {
    const { findByKey } = await import('../catalog.ts');
    for (const k of ['fuelSensor', 'fuelSensorLevel', 'fuelSensorVolume', 'temperature', 'bleTemperature', 'bleHumidity', 'bleBatteryVoltage',
      'bleBatteryLevel', 'adBlueLevel', 'effectiveEngineSpeedTime', 'rapidBrakings', 'tachographDriver1Card']) {
      expect(findByKey('queclink-parametros', k), k).toMatchObject({ event: k });
    }
    for (const k of ['detailedInformation-axleWeight1', 'detailedInformation-axleWeight2', 'expansionInformation-kickdownCounter',
      'expansionInformation-brakeApplications']) expect(findByKey('can-parametros', k), k).toMatchObject({ event: k });
  });
});
