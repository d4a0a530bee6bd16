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
    deviceId: '135790246811220', type: 'GTFRI',
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
    deviceId: '867963063190000', type: 'GTIGF', buffered: true, event: 'ignitionOff', positions: [],
    attrs: { ignition: false, mcc: 268, mnc: 6 },
  },
  {
    name: 'GTVGN virtual ignition (Traccar)',
    frame: '+RESP:GTVGN,C2010D,869653060009939,GV600M,453966,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,,0.0,20240107182623,143F$',
    deviceId: '869653060009939', type: 'GTVGN', event: 'virtualIgnitionOn',
    positions: [{ latitude: 45.931389, longitude: 10.239379, valid: false }],
    attrs: { ignition: true },
  },
  {
    name: 'GTHBM harsh braking, type 0 (Traccar)',
    frame: '+RESP:GTHBM,0F0100,135790246811220,,,10,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$',
    deviceId: '135790246811220', type: 'GTHBM', event: 'harshBraking',
    positions: [{ latitude: 31.222073, longitude: 121.354335, speedKmh: 4.3, valid: true }],
    attrs: { harshBehaviorType: 0, speedLevel: 1, odometer: 2000 },
  },
  {
    name: 'GTHBM harsh acceleration, type 1',
    frame: '+RESP:GTHBM,0F0100,135790246811220,,,11,1,1,24.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$',
    deviceId: '135790246811220', type: 'GTHBM', event: 'harshAcceleration', attrs: { harshBehaviorType: 1 },
  },
  {
    name: 'GTHBM cornering, type 2 (Traccar)',
    frame: '+RESP:GTHBM,BD0214,869409069481243,cv100,,12,1,1,5.6,344,274.7,-1.601826,6.666228,20250114094616,0620,0001,3EE8,00016E04,,,20250114094616,20250114094616,2862$',
    deviceId: '869409069481243', type: 'GTHBM', event: 'harshTurn', attrs: { harshBehaviorType: 2 },
  },
  {
    name: 'GTSOS panic (Traccar)',
    frame: '+RESP:GTSOS,020102,135790246811220,,0,0,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,,20090214093254,11F0$',
    deviceId: '135790246811220', type: 'GTSOS', event: 'panic',
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
    deviceId: '862894020178276', type: 'GTSTT', event: 'motionStateChange',
    positions: [{ latitude: -17.77633, longitude: -63.169745, valid: false }],
    attrs: { motionStatus: '21', ignition: true, motion: false },
  },
  {
    name: 'GTMPN external power connected (Traccar)',
    frame: '+RESP:GTMPN,450102,865084030001323,gb100,0,1.6,0,-93.1,121.393023,31.164105,20170619103113,0460,0000,1806,2142,00,20170619103143,0512$',
    deviceId: '865084030001323', type: 'GTMPN', event: 'externalPowerConnected',
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
    deviceId: '867292060140006', type: 'GTPNA', event: 'powerOn', positions: [], attrs: { powerOnReason: 2 },
  },
  {
    name: 'GTPFA power off (Traccar)',
    frame: '+RESP:GTPFA,F50201,866425030235982,GL300M,20190208124849,0BD4$',
    deviceId: '866425030235982', type: 'GTPFA', event: 'powerOff', positions: [],
  },
  {
    name: 'GTCRA crash (public decoder test)',
    frame: '+RESP:GTCRA,260301,135790246811220,,00,0,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,20161111133140,11F0$',
    deviceId: '135790246811220', type: 'GTCRA', event: 'collision',
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
    deviceId: '135790246811220', type: 'GTHBD', event: 'heartbeat', positions: [], reply: '+SACK:GTHBD,1A0401,11F0$',
  },
  {
    name: 'heartbeat sent as +RESP:GTHBD (GV500CG capture)',
    frame: '+RESP:GTHBD,8020090100,864696060004173,GV500CG,20230811075652,09CF$',
    deviceId: '864696060004173', type: 'GTHBD', event: 'heartbeat', positions: [], reply: '+SACK:GTHBD,8020090100,09CF$',
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

  it('reads the model from the device type of the protocol version', () => {
    expect(modelFromVersion('740904')).toMatchObject({ model: 'gv350ceu', deviceType: '74', firmware: '09.04' });
    expect(modelFromVersion('8020030703')).toMatchObject({ model: 'gv58cg', deviceType: '802003' });
    expect(modelFromVersion('8020080100')).toMatchObject({ model: 'gv50cg', deviceType: '802008' });
    expect(modelFromVersion('060100').model).toBeUndefined();
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
      ['+RESP:GTXYZ,740904,862524060867948,,1,20251016184035,AA3C$', 'UNSUPPORTED'],
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
