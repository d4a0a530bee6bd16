// The binary (HEX) form of @Track on real public frames. Source of most frames: Traccar's public test suite,
// github.com/traccar/traccar src/test/java/org/traccar/protocol/Gl200BinaryProtocolDecoderTest.java (GB100,
// device type 45, and the "+\0" TLV form); the others name theirs; layouts: protocol/queclink/binary.ts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Ajv from 'ajv';
import schema from '../normalized.schema.json' with { type: 'json' };
import { isDecodeError, toJson, type DecodeResult } from '../types.ts';
import { decode, frame, queclinkDecoder } from './index.ts';
import { crc16 } from '../crc16.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
const hex = (h: string) => Buffer.from(h, 'hex');
function ok(b: Buffer): DecodeResult {
  const r = decode(b);
  if (isDecodeError(r)) throw new Error(`${r.errorCode}: ${r.error}`);
  expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
  return r;
}

const TLV = hex('2b000038000865134050947226820300030000216a3ed6f101895000521629fa8b28f402ac1a8e6a3ed6f100001600000010f505010ff824');
const RSP = hex('2b5253500700fc1fbf005d4501020209563254030003430564377e42071001000000000000007eff75a151025c6a8107e10801081a2a02680003189c1ac500000000000002100700000000000000000007e1080108241019e17ebe0d0a');
const EVT = hex('2b4556540c00fc1fbf005c4501010108563254030003430564312a41090100000000003f007dff75a11a025c6a7807e1070a14041202680003189c1ac500000000000000000000000000000000000007e1070b041134054e5c6e0d0a');
const EVT_VGN = hex('2b4556542d00fc1fbf0063450102020956325403000343056437f8220700000200000000010000160100f2007eff75a1f0025c6b1a07e1080108241a02680003189c1ac500000000000002100800000000000000000007e1080108241a19e24e4e0d0a');
const RSP_LCB = hex('2B5253500300FC1FFF0064450102020867623130302D446F642F442105007018217345005F010100000001100045073C4D4101DB86BD07E106130B2B0F0460000018770013000000030000000106020F2300002714301107E106130B2B1003424EFB0D0A');
const INF = hex('2b494e4601fd7f0076676231303000000045010202090104020500004100054007e107150b061d0000003f010e02580000000000d0312a1013648935103226313921591f1200000000000302680003189c1ac3001b02680003189c1ac4000d02680003189c1ac5001207e107150b0d3704f658060d0a');
// Binary +ACK of a GB100 (Traccar's suite): type 01 (GTSRI), mask 7F (device name as unique ID), serial FFFF.
const ACK = hex('2b41434b017f244501010108676231303000000000ffff07e1070b03112d054dfe030d0a');
// Binary +ACK with the IMEI (mask 6F): the frame of the public Boxon codec's tests (github.com/mtrevisan/Boxon,
// ParserTest/TemplateParserTest): type 06 (GTEPS), device type 46 (GB200S there), IMEI 359464038116666 (its Luhn
// digit holds).
const ACK_IMEI = hex('2b41434b066f2446010a0311235e40035110420600ffff07e30405083639001265b60d0a');
// Binary +ACK of the GV300CAN @Track Air Interface Protocol V12.00 (4.2, the example frame): type 02 (GTQSS), mask EF
// (bit 7 set, bit 4 clear: the IMEI), serial number 0028.
const ACK_GV300CAN = hex('2B41434B02EF244B03050318564F5F0300520A0400002807E30418020918BBCA4CD10D0A');
// GV55 (device type 0F) in HEX mode, report mask 00FE0FBF: two consecutive frames (counts 0051, 0052) of a device
// in Asunción posted in github.com/traccar/traccar/issues/1410 (Traccar log, 2015-09-16).
const GV55_RSP = hex('2b5253500700fe0fbf005d0f0106060956155d0204331203070100210910010100000000a3006bfc91ee18fe7e34a807df091016331d0744000528a262cd00000000000052f30000000000000000000007df09101633220051897e0d0a');
// GV300CAN (device type 4B) in HEX mode, mask 00FE0FBF: the 93-byte +RSP example of its @Track Air Interface
// Protocol V12.00 (p. 354), as a public study of the protocol quotes it (length and checksum check): digital input 01,
// output 00, satellites byte 18 (antenna state 1, 8 satellites).
const RSP_GV300CAN = hex(('2B525350 07 00FE0FBF 005D 4B 0305 0318 564F5F0300520A04 00 01 00 21 18 10 01 01 000000 00AF 0043 06FB3FDE'
  + ' 01E5D3C8 07E3 04 18 02 09 39 0460 0000 550B B969 00 000000 0000000000 000000 000000000000 07E3 04 18 02 09 3A BBCD 1D7C 0D0A').replace(/ /g, ''));
// GV300CAN +EVT GTIGN (type 13) with its factory-default mask 00FE5FBF: the 100-byte example of the same document
// (external power, analog input, inputs/outputs before the motion byte; the duration of ignition off after it).
const EVT_IGN_GV300CAN = hex('2B4556540D00FE5FBF00644B03050318564F5F0300520A0455000000000100221900001CC7010000000000F8006906FB404901E5D43B07E3041805103A04600000550BB96900000000000000000000000000000000000007E30418051102BE1D62A20D0A');
const GV55_RSP2 = hex('2b5253500700fe0fbf005d0f0106060956155d0204331203070100210710010100000000a3006bfc91ee18fe7e34a807df091016341d0744000528a262cd00000000000052f30000000000000000000007df091016342200522dc00d0a');
// Binary heartbeat: the +HBD example of the GV200 @Track Air Interface Protocol (TRACGV200AN003, 4.6 Heartbeat
// Data, public manual pages), mask EB (no protocol version, IMEI as unique ID).
const HBD = hex('2B484244EB1E010C01235C1F0343231B0007DC011E092026000DE29C0D0A');
const ALL = [TLV, RSP, EVT, EVT_VGN, RSP_LCB, INF, ACK, ACK_IMEI, ACK_GV300CAN, GV55_RSP, GV55_RSP2, RSP_GV300CAN, EVT_IGN_GV300CAN, HBD];

const TEXT = '+RESP:GTFRI,8020030703,862524060867948,GV58CG,12345,10,1,1,89.5,169,672.9,-70.292914,-23.949947,20251016184033,0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,20251016184035,AA3C$';

describe('binary @Track reports', () => {
  it('+RSP (GB100): IMEI from its decimal pairs, battery, power, position, cell, send time and count', () => {
    const r = ok(RSP);
    expect(r).toMatchObject({ deviceId: '865084030003675', model: 'gb100', type: 'RSP7', sentTime: '2017-08-01T08:36:16.000Z' });
    expect(r.positions).toEqual([{ fixTime: '2017-08-01T08:26:42.000Z', latitude: 39.611009, longitude: -9.068207, speedKmh: 0, course: 0, altitude: 126, valid: false, satellites: 7 }]);
    expect(r.attributes).toMatchObject({
      protocolVersion: '450102', firmwareVersion: '02.09', batteryLevel: 100, externalPowerSupplyVoltage: 14.206, motionStatus: '42',
      motion: true, reportId: 1, reportType: 0, mcc: 268, mnc: 3, lac: 0x189c, cellId: 0x1ac5, messageCount: '19E1',
    });
  });

  it('+EVT (GB100, type 12): the next count number of the same device', () => {
    const r = ok(EVT);
    expect(r).toMatchObject({ deviceId: '865084030003675', type: 'EVT12', sentTime: '2017-07-11T04:17:52.000Z' });
    expect(r.positions[0]).toMatchObject({ fixTime: '2017-07-10T20:04:18.000Z', latitude: 39.611, longitude: -9.068262, course: 63, altitude: 125, satellites: 9 });
    expect(r.attributes).toMatchObject({ batteryLevel: 100, externalPowerSupplyVoltage: 12.586, motion: false, messageCount: '054E' });
  });

  it('+RSP (GV55, mask 00FE0FBF): IMEI, model, position, cell, send time and count as the text form gives them', () => {
    const r = ok(GV55_RSP);
    expect(r).toMatchObject({ deviceId: '862193020451183', model: 'gv55', type: 'RSP7', sentTime: '2015-09-16T22:51:34.000Z' });
    expect(r.positions).toEqual([{ fixTime: '2015-09-16T22:51:29.000Z', latitude: -25.283416, longitude: -57.545192, speedKmh: 0, course: 163, altitude: 107, valid: true, satellites: 9 }]);
    expect(r.attributes).toMatchObject({
      protocolVersion: '0F0106', firmwareVersion: '06.09', reportMask: '00FE0FBF', batteryLevel: 7, ignitionInput: true, digitalInput1: false, digitalOutput1: false,
      motionStatus: '21', ignition: true, motion: false, mcc: 744, mnc: 5, lac: 0x28a2, cellId: 0x62cd, messageCount: '0051',
    });
    expect(r.attributes.externalPowerSupplyVoltage).toBeUndefined();
    const r2 = ok(GV55_RSP2);
    expect(r2).toMatchObject({ deviceId: '862193020451183', sentTime: '2015-09-16T22:52:34.000Z' });
    expect(r2.positions[0]).toMatchObject({ fixTime: '2015-09-16T22:52:29.000Z', satellites: 7 });
    expect(r2.attributes.messageCount).toBe('0052');
    // the same device and position as text (GTFRI of the same GV55) give the same device, model, place and cell
    const t = ok(Buffer.from('+RESP:GTFRI,0F0106,862193020451183,,0,0,1,1,0.0,163,107.0,-57.545192,-25.283416,20150916225129,0744,0005,28A2,62CD,00,,,,,7,210000,20150916225134,0051$'));
    expect(t).toMatchObject({ deviceId: r.deviceId, model: r.model, sentTime: r.sentTime });
    expect(t.positions[0]).toMatchObject({ fixTime: r.positions[0]!.fixTime, latitude: r.positions[0]!.latitude, longitude: r.positions[0]!.longitude, course: 163, altitude: 107 });
    expect(t.attributes).toMatchObject({ mcc: 744, mnc: 5, ignition: true, messageCount: '0051' });
  });

  it('+RSP (GV300CAN, mask 00FE0FBF, the protocol document\'s example): inputs and outputs, satellites from the low nibble', () => {
    expect(RSP_GV300CAN.length).toBe(93);
    const r = ok(RSP_GV300CAN);
    expect(r).toMatchObject({ deviceId: '867995030082104', model: 'gv300can', type: 'RSP7', sentTime: '2019-04-24T02:09:58.000Z' });
    expect(r.positions).toEqual([{ fixTime: '2019-04-24T02:09:57.000Z', latitude: 31.839176, longitude: 117.129182, speedKmh: 0, course: 175, altitude: 67, valid: true, satellites: 8 }]);
    expect(r.attributes).toMatchObject({ batteryLevel: 0, ignitionInput: true, digitalInput1: false, digitalOutput1: false, gnssAntennaState: 1,
      motionStatus: '21', ignition: true, motion: false, mcc: 460, mnc: 0, lac: 0x550b, cellId: 0xb969, messageCount: 'BBCD' });
    // the text form of the same status (device status 210100: motion 21, inputs 01, outputs 00)
    const t = ok(Buffer.from('+RESP:GTFRI,4B0305,867995030082104,,,10,1,1,0.0,175,67.0,117.129182,31.839176,20190424020957,0460,0000,550B,B969,00,0.0,,,,0,210100,,,,20190424020958,BBCD$'));
    for (const k of ['ignition', 'motion', 'ignitionInput', 'digitalInput1', 'digitalInput2', 'digitalOutput1', 'mcc', 'lac', 'cellId', 'messageCount']) expect(r.attributes[k], k).toEqual(t.attributes[k]);
    expect(r.positions[0]).toMatchObject({ latitude: t.positions[0]!.latitude, longitude: t.positions[0]!.longitude, fixTime: t.positions[0]!.fixTime });
  });

  it('+EVT GTIGN (GV300CAN, factory-default mask 00FE5FBF): the ignition-on event and its off duration, as the text GTIGN gives them', () => {
    expect(EVT_IGN_GV300CAN.length).toBe(100);
    const r = ok(EVT_IGN_GV300CAN);
    expect(r).toMatchObject({ deviceId: '867995030082104', model: 'gv300can', type: 'GTIGN', sentTime: '2019-04-24T05:17:02.000Z' });
    expect(r.positions).toEqual([{ fixTime: '2019-04-24T05:16:58.000Z', latitude: 31.839291, longitude: 117.129289, speedKmh: 0, course: 248, altitude: 105, valid: false, satellites: 9 }]);
    expect(r.attributes).toMatchObject({ batteryLevel: 85, externalPowerSupplyVoltage: 0, ignitionInput: true, motionStatus: '22', ignition: true, motion: true, ignitionOffDuration: 7367, messageCount: 'BE1D' });
    const t = ok(Buffer.from('+RESP:GTIGN,4B0305,867995030082104,,7367,0,0.0,248,105.0,117.129289,31.839291,20190424051658,0460,0000,550B,B969,00,,0.0,20190424051702,BE1D$'));
    expect(r.events).toEqual(t.events);
    expect(r.events.map((e) => e.key)).toEqual(['ignitionOn']);
    expect(r.positions[0]).toMatchObject({ latitude: t.positions[0]!.latitude, longitude: t.positions[0]!.longitude, fixTime: t.positions[0]!.fixTime, valid: t.positions[0]!.valid });
    for (const k of ['ignitionOffDuration', 'mcc', 'lac', 'cellId', 'messageCount']) expect(r.attributes[k], k).toEqual(t.attributes[k]);
  });

  it('+HBD (binary heartbeat): identified by its mask, answered with the heartbeat SACK like the text +ACK:GTHBD', () => {
    const r = ok(HBD);
    expect(r).toMatchObject({ deviceId: '359231036735270', type: 'GTHBD', sentTime: '2012-01-30T09:32:38.000Z', positions: [], reply: '+SACK:GTHBD,,000D$' });
    expect(r.events).toEqual([{ code: 'GTHBD', key: 'heartbeat', description: 'Sinal de vida (heartbeat)' }]);
    expect(r.attributes).toMatchObject({ reportMask: 'EB', deviceType: '01', firmwareVersion: '0C.01', messageCount: '000D' });
    // mask EF: device type and protocol version present → the reply carries them, as the text SACK does
    const full = Buffer.concat([hex('2B484244EF20'), hex('0F0106'), hex('0609'), hex('56155d0204331203'), hex('07DF0910163322'), hex('0051'), hex('0000'), hex('0D0A')]);
    full[5] = full.length;
    const b = ok(full);
    const text = ok(Buffer.from('+ACK:GTHBD,0F0106,862193020451183,,20150916163322,0051$'));
    expect(b).toMatchObject({ deviceId: text.deviceId, model: text.model, type: text.type, reply: text.reply, events: text.events });
    expect(b.reply).toBe('+SACK:GTHBD,0F0106,0051$');
    // a cut heartbeat or one without unique ID is refused, never answered
    expect(decode(full.subarray(0, 20))).toMatchObject({ errorCode: 'MALFORMED' });
    const noUid = Buffer.concat([hex('2B4842446F00'), hex('0F0106'), hex('0609'), hex('07DF0910163322'), hex('0051'), hex('0000'), hex('0D0A')]);
    noUid[5] = noUid.length;
    expect(decode(noUid)).toMatchObject({ errorCode: 'UNSUPPORTED' });
  });

  it('"+\\0" TLV form: BCD IMEI and the GNSS record', () => {
    const r = ok(TLV);
    expect(r.deviceId).toBe('865134050947226');
    expect(r.positions).toEqual([{ fixTime: '2026-06-26T19:45:53.000Z', latitude: 44.833422, longitude: -91.543308, speedKmh: 0, course: 0, altitude: 434.1, valid: true, hdop: 2.2, satellites: 5 }]);
    expect(r.attributes).toMatchObject({ deviceType: '8203', protocolVersion: '0003', messageCount: '010F' });
  });

  it('+ACK (binary command acknowledgement): the command, its serial number, the device, as the text +ACK gives them', () => {
    const r = ok(ACK_IMEI);
    expect(r).toMatchObject({ deviceId: '359464038116666', model: 'gb200s', type: 'ack', positions: [], events: [], sentTime: '2019-04-05T08:54:57.000Z', ack: { command: 'GTEPS', serial: 'FFFF', success: true } });
    expect(r.reply).toBeUndefined();
    expect(r.attributes).toMatchObject({ reportMask: '6F', deviceType: '46', protocolVersion: '46010A', firmwareVersion: '03.11', messageCount: '0012', ackId: 0 });
    // the same acknowledgement in ASCII
    const t = ok(Buffer.from('+ACK:GTEPS,46010A,359464038116666,,FFFF,20190405085457,0012$'));
    expect(r).toMatchObject({ deviceId: t.deviceId, type: t.type, ack: t.ack, sentTime: t.sentTime, model: t.model, events: t.events, positions: t.positions });
    for (const k of ['protocolVersion', 'deviceType', 'messageCount', 'ackKind']) expect(r.attributes[k], k).toEqual(t.attributes[k]);
    // GB100 naming itself by its device name (mask bit 4): GTSRI acknowledged, send time and count
    const g = ok(ACK);
    expect(g).toMatchObject({ deviceId: 'gb100', model: 'gb100', type: 'ack', sentTime: '2017-07-11T03:17:45.000Z', ack: { command: 'GTSRI', serial: 'FFFF', success: true } });
    expect(g.attributes).toMatchObject({ deviceName: 'gb100', protocolVersion: '450101', firmwareVersion: '01.08', messageCount: '054D', reportMask: '7F' });
    // the manual's example: the serial number a command was sent with comes back
    const v = ok(ACK_GV300CAN);
    expect(v).toMatchObject({ deviceId: '867995030082104', model: 'gv300can', sentTime: '2019-04-24T02:09:24.000Z', ack: { command: 'GTQSS', serial: '0028', success: true } });
    expect(v.attributes).toMatchObject({ reportMask: 'EF', protocolVersion: '4B0305', firmwareVersion: '03.18', messageCount: 'BBCA', ackId: 0 });
  });

  it('+ACK: a changed byte fails the checksum; a cut frame or an unknown command type is refused, never matched to a command', () => {
    const bad = Buffer.from(ACK_IMEI);
    bad[22] = 0xab; // the serial number's first byte
    expect(decode(bad)).toMatchObject({ errorCode: 'MALFORMED', error: 'soma de verificação do quadro binário não confere' });
    expect(decode(ACK_IMEI.subarray(0, 30))).toMatchObject({ errorCode: 'MALFORMED' });
    const unknown = Buffer.from(ACK_IMEI);
    unknown[4] = 3; // no command has message type 3
    unknown.writeUInt16BE(crc16(unknown, 4, unknown.length - 4), unknown.length - 4);
    expect(decode(unknown)).toMatchObject({ errorCode: 'UNSUPPORTED', deviceId: '359464038116666' });
  });

  it('layouts not public (type-specific +EVT fields, another report mask, +INF) are UNSUPPORTED, never guessed', () => {
    expect(decode(EVT_VGN)).toMatchObject({ errorCode: 'UNSUPPORTED', deviceId: '865084030003675', type: 'GTVGN' });
    expect(decode(RSP_LCB)).toMatchObject({ errorCode: 'UNSUPPORTED' });
    expect(decode(INF)).toMatchObject({ errorCode: 'UNSUPPORTED' });
  });

  it('the same report in text gives the same result (positions, device, send time, battery, power, cell)', () => {
    // The +RSP above written as the device writes it in ASCII (same device type and version).
    const text = '+RESP:GTFRI,450102,865084030003675,,14206,10,1,0,0.0,0,126.0,-9.068207,39.611009,20170801082642,0268,0003,189C,1AC5,01,7,,,,,100,420000,,,,20170801083616,19E1$';
    const t = ok(Buffer.from(text)), b = ok(RSP);
    expect(b.deviceId).toBe(t.deviceId);
    expect(b.model).toBe(t.model);
    expect(b.sentTime).toBe(t.sentTime);
    expect(b.positions).toEqual(t.positions);
    for (const k of ['batteryLevel', 'externalPowerSupplyVoltage', 'mcc', 'mnc', 'lac', 'cellId', 'motionStatus', 'motion', 'reportId', 'reportType', 'messageCount', 'protocolVersion'])
      expect(b.attributes[k], k).toEqual(t.attributes[k]);
  });
});

describe('binary and text on the same stream', () => {
  const wire = Buffer.concat([Buffer.from(TEXT), RSP, Buffer.from('\r\n'), TLV, Buffer.from(TEXT), EVT, ACK, Buffer.from(TEXT)]);
  const want = [TEXT, RSP.toString('hex'), TLV.toString('hex'), TEXT, EVT.toString('hex'), ACK.toString('hex'), TEXT];

  it('frames every message in order, none as garbage', () => {
    const r = frame(wire);
    expect(r.garbage).toBe(0);
    expect(r.rest.length).toBe(0);
    expect(r.frames.map((f) => (f.toString('latin1').startsWith('+RESP:') ? f.toString('latin1') : f.toString('hex')))).toEqual(want);
    expect(r.frames.map((f) => decode(f)).map((d) => (isDecodeError(d) ? d.errorCode : d.deviceId))).toEqual([
      '862524060867948', '865084030003675', '865134050947226', '862524060867948', '865084030003675', 'gb100', '862524060867948']);
  });

  it('any chunking gives the same frames; cut binary frames wait in rest', () => {
    fc.assert(fc.property(fc.array(fc.nat(wire.length), { maxLength: 20 }), (cuts) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b);
      let rest: Buffer = Buffer.alloc(0);
      const got: string[] = [];
      let prev = 0;
      for (const p of [...points, wire.length]) {
        const r = queclinkDecoder.frame(Buffer.concat([rest, wire.subarray(prev, p)]));
        prev = p;
        rest = r.rest;
        got.push(...r.frames.map((f) => (f.toString('latin1').startsWith('+RESP:') ? f.toString('latin1') : f.toString('hex'))));
      }
      expect(got).toEqual(want);
    }), { numRuns: 500 });
  });
});

describe('binary frames from a hostile network never throw', () => {
  const check = (b: Buffer) => {
    const r = decode(b);
    if (isDecodeError(r)) expect(r.errorCode).not.toBe('INTERNAL');
    else expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
    frame(b);
  };
  it('mutations and truncations of the real frames', () => {
    fc.assert(fc.property(fc.constantFrom(...ALL), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat(),
      (f, muts, cut) => {
        const b = Buffer.from(f);
        for (const [i, v] of muts) b[i % b.length] = v;
        check(b);
        check(b.subarray(0, cut % (b.length + 1)));
      }), { numRuns: 5000 });
  });
  it('random bytes after a binary header', () => {
    const heads = ['+RSP', '+BSP', '+EVT', '+BVT', '+INF', '+HBD', '+ACK', '+\0'].map((h) => Buffer.from(h, 'latin1'));
    fc.assert(fc.property(fc.constantFrom(...heads), fc.uint8Array({ maxLength: 300 }), (h, a) => check(Buffer.concat([h, Buffer.from(a)]))), { numRuns: 5000 });
  });
  it('+ACK with any type, mask and body whose length and checksum agree (reaches every field of the mask walk)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 40 }), (type, mask, body) => {
      const b = Buffer.concat([Buffer.from('+ACK', 'latin1'), Buffer.from([type, mask, 0]), Buffer.from(body), Buffer.from([0, 0, 13, 10])]);
      b[6] = b.length & 255;
      b.writeUInt16BE(crc16(b, 4, b.length - 4), b.length - 4);
      check(b);
    }), { numRuns: 5000 });
  });
  it('+HBD with any mask and body whose length field agrees (reaches every field of the mask walk)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 40 }), fc.boolean(), (mask, body, crlf) => {
      const b = Buffer.concat([Buffer.from('+HBD', 'latin1'), Buffer.from([mask, 0]), Buffer.from(body), crlf ? Buffer.from('\r\n') : Buffer.alloc(0)]);
      b[5] = b.length & 255;
      check(b);
      const r = decode(b);
      if (!isDecodeError(r)) expect(r.reply).toMatch(/^\+SACK:GTHBD,[0-9A-F]*,[0-9A-F]{0,4}\$$/);
    }), { numRuns: 5000 });
  });
});
