// Battery trackers, message bodies and text variants, on real public frames. Source of every frame: Traccar's
// public test suite (github.com/traccar/traccar, src/test/java/org/traccar/protocol/Gl200TextProtocolDecoderTest.java).
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import schema from '../normalized.schema.json' with { type: 'json' };
import { isDecodeError, toJson, type DecodeResult } from '../types.ts';
import { decode } from './index.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
function ok(frame: string): DecodeResult {
  const r = decode(Buffer.from(frame));
  if (isDecodeError(r)) throw new Error(`${r.errorCode}: ${r.error}`);
  expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
  return r;
}

describe('battery-powered trackers read their battery percentage, not a neighbour as odometer or power', () => {
  it.each([
    ['GL500 GTFRI', '+RESP:GTFRI,110100,A5868800000015,,0,0,1,1,4.3,92,70.0,121.354335,31.222073,20110214013254,0460,0000,18d8,6141,00,80,20110214013254,000C$', 'gl500', 80, { latitude: 31.222073, longitude: 121.354335, speedKmh: 4.3 }],
    ['GT501 GTFRI (fw 30.31)', '+RESP:GTFRI,423031,866873025895726,,0,1,1,0,1,16,0.0,351,51.6,121.391063,31.164633,20181212072535,460,00,1877,DAE,00,3,85,20181212072535,002C$', 'gt501', 85, { latitude: 31.164633, course: 351 }],
    ['GL500M GTFRI', '+RESP:GTFRI,DE0114,865284042140479,,0,0,1,1,0.0,0,28.0,-118.268093,33.975430,20200901105954,0311,0480,3500,00D07F02,18,0,,93,0,,,20200901110000,0355$', 'gl500m', 93, { latitude: 33.97543 }],
    ['GL500M GTERI', '+RESP:GTERI,DE0115,865284042104863,gl500m,00000100,0,0,1,2,0.0,0,36.9,-1.844589,52.177779,20201006125701,0234,0015,0135,34A1,19,0,,79,1,,0,20201006125723,184D$', 'gl500m', 79, { latitude: 52.177779 }],
    ['GL530 GTSTR', '+RESP:GTSTR,440502,866427030112088,GL530,0,0,2,,100,3,0.6,0,127.5,2.413963,48.877096,20180704180102,0208,0001,0310,E625,,,0000,20180704180100,004C$', 'gl530', 100, { latitude: 48.877096 }],
    ['GL530 GTCTN', '+RESP:GTCTN,440200,866427030007379,NOKIA3,0,0,2,,9,1,0.1,174,48.7,-1.061812,51.435270,20190717080549,0234,0015,0025,145A,,,0000,20190717081008,1D3B$', 'gl530', 9, { latitude: 51.43527 }],
  ] as const)('%s', (_n, frame, model, battery, pos) => {
    const r = ok(frame);
    expect(r.model).toBe(model);
    expect(r.attributes.batteryLevel).toBe(battery);
    expect(r.positions[0]).toMatchObject(pos);
    expect(r.attributes).not.toHaveProperty('odometer');
    expect(r.attributes).not.toHaveProperty('externalPowerSupplyVoltage');
  });

  it('GL500 GTSTR: device temperature and battery before the block', () => {
    const r = ok('+RESP:GTSTR,400201,862365030034940,GL500,0,0,2,21.1,86,0,1.6,0,5.8,0.622831,51.582688,20170215090422,0234,0030,0870,35EF,,,,20170215220049,008C$');
    expect(r.attributes).toMatchObject({ deviceTemperature: 21.1, batteryLevel: 86 });
    expect(r.positions[0]).toMatchObject({ latitude: 51.582688, valid: false });
  });

  it('GT501 GTFRI: the Wi-Fi list after the block, the cell after it, the battery at the end', () => {
    const r = ok('+RESP:GTFRI,423037,866884047716519,GT501,0,1,1,5,12,0.1,0,46.8,-95.559173,30.109955,20231110185836,6,0e36c9916485,-50,,,,e831cd5eb79d,-73,,,,ccf4110c4bd5,-79,,,,acdb48973168,-79,,,,80ab4dc323c4,-82,,,,ec8eb5cfa1c6,-89,,,,310,10,711D,81ECF0F,00,,93,20231110185839,0005$');
    expect(r.attributes.batteryLevel).toBe(93);
    expect(r.attributes.wifiAccessPoints).toHaveLength(6);
    expect((r.attributes.wifiAccessPoints as unknown[])[0]).toEqual({ mac: '0e:36:c9:91:64:85', rssi: -50 });
    expect(r.attributes).toMatchObject({ mcc: 310, mnc: 10, lac: 0x711d, cellId: 0x81ecf0f });
    expect(r.attributes).not.toHaveProperty('externalPowerSupplyVoltage');
  });

  it('GL500 GTINF: battery after the last fix time', () => {
    const r = ok('+RESP:GTINF,110100,358688000000158,,41,898600810906F8048812,18,99,0,33.23,1,4.19,1,1,1,0,0,20110714104934,100,,,,,20110714104934,0014$');
    expect(r.attributes).toMatchObject({ batteryLevel: 100, backupBatteryVoltage: 4.19, iccid: '898600810906F8048812' });
  });
});

describe('message bodies are kept', () => {
  it('GTGSM: fix type and the cell list', () => {
    const r = ok('+RESP:GTGSM,400201,862365030025161,STR,0234,0015,003a,62a2,16,,0234,0015,003a,56a2,14,,0234,0015,003a,062a,13,,0234,0015,003a,32d9,11,,0234,0015,003a,56a0,11,,,,,,,,0234,0015,003a,7489,17,,20170219200048,0033$');
    expect(r.attributes.gsmFixType).toBe('STR');
    expect(r.attributes).not.toHaveProperty('deviceName');
    const cells = r.attributes.cellTowers as Array<Record<string, number>>;
    expect(cells).toHaveLength(6);
    expect(cells[0]).toEqual({ mcc: 234, mnc: 15, lac: 0x3a, cellId: 0x62a2, rxLevel: 16 });
    expect(cells[5]).toEqual({ mcc: 234, mnc: 15, lac: 0x3a, cellId: 0x7489, rxLevel: 17 });
    expect(r.reply).toBe('+SACK:0033$');
  });

  it('GTLBS: battery and the cells', () => {
    const r = ok('+RESP:GTLBS,660400,863574046265138,GL50BLITE,0,0,92,,2,,,0000,0204,0008,0cee,b951,18,,0204,0008,0cee,cd83,15,,0204,0008,0cee,3994,13,,,,,,,,,,,,,,,,,,,,0204,0008,0cee,d071,11,,20240826085102,00C6$');
    expect(r.attributes.batteryLevel).toBe(92);
    const cells = r.attributes.cellTowers as Array<Record<string, number>>;
    expect(cells.map((c) => c.cellId)).toEqual([0xb951, 0xcd83, 0x3994, 0xd071]);
    expect(cells[0]).toEqual({ mcc: 204, mnc: 8, lac: 0xcee, cellId: 0xb951, rxLevel: 18 });
  });

  it('GTVER: device type name, firmware and hardware versions', () => {
    const r = ok('+RESP:GTVER,1A0800,860599000773978,GL300,GL300,0A03,0103,20161007041531,10F8$');
    expect(r.attributes).toMatchObject({ deviceTypeName: 'GL300', firmwareVersion: '0A.03', hardwareVersion: '01.03' });
  });

  it('GTDAT: the transparent data string and the position after it', () => {
    const r = ok('+RESP:GTDAT,270B01,867162027893742,gv300w,1,,,>I:5014|DB|607|0|0.00|0.00|0.00|0|0|0|0|1679|4|<,0,37.6,184,1940.4,-101.041169,22.143452,20240726234344,0334,0020,2F03,BDB2E4B,00,,,,,20240726234346,4CFE$');
    expect(r.attributes.transparentData).toBe('>I:5014|DB|607|0|0.00|0.00|0.00|0|0|0|0|1679|4|<');
    expect(r.positions[0]).toMatchObject({ latitude: 22.143452, longitude: -101.041169, speedKmh: 37.6, valid: false });
    expect(r.attributes).toMatchObject({ mcc: 334, mnc: 20 });
  });

  it('GTDTT: transparent data in hex, with its type', () => {
    const r = ok('+RESP:GTDTT,410502,864802030541621,,,,1,35,45637561747261636b0d0a434f4d422c302c39342e302c2d312e302c2c2c4844430d0a,20230421034626,EA2E$');
    expect(r.attributes.transparentDataType).toBe(1);
    expect(r.attributes.transparentData).toBe('45637561747261636B0D0A434F4D422C302C39342E302C2D312E302C2C2C4844430D0A');
    expect(Buffer.from(r.attributes.transparentData as string, 'hex').toString('latin1')).toContain('COMB,0,94.0');
  });

  it('GTWIF: the access points and the battery', () => {
    const r = ok('+RESP:GTWIF,210102,354524044608058,,4,c413e200ff14,-39,,,,c413e2010e55,-39,,,,c8d3ff04a837,-43,,,,42490f997c6d,-57,,,,,,,,100,20170201020055,0001$');
    expect(r.attributes.wifiAccessPoints).toEqual([
      { mac: 'c4:13:e2:00:ff:14', rssi: -39 }, { mac: 'c4:13:e2:01:0e:55', rssi: -39 },
      { mac: 'c8:d3:ff:04:a8:37', rssi: -43 }, { mac: '42:49:0f:99:7c:6d', rssi: -57 },
    ]);
    expect(r.attributes.batteryLevel).toBe(100);
  });

  it('GV600M GTINF: the second power voltage', () => {
    const r = ok('+RESP:GTINF,C20113,869653060997976,,1A,89464278206103756482,19,0,11,12295,13985,4.25,0,0,,,20241104220934,0,0,,00,00,,,20241104162009,06D6$');
    expect(r.attributes).toMatchObject({ externalPowerSupplyVoltage: 12.295, externalPowerSupplyVoltage2: 13.985, backupBatteryVoltage: 4.25 });
  });

  it('the new numeric attributes have catalogue entries', async () => {
    const { findByKey } = await import('../catalog.ts');
    for (const k of ['externalPowerSupplyVoltage2', 'deviceTemperature', 'batteryLevel']) expect(findByKey('queclink-parametros', k), k).toMatchObject({ event: k });
  });
});

describe('text variants real devices send', () => {
  it('a 12-digit send time without count: decoded, not answered (no count to acknowledge)', () => {
    const r = ok('+RESP:GTFRI,5E0100,862061048023666,,,12940,10,1,1,0.0,97,179.8,-90.366478,38.735379,20230616183231,0310,0410,6709,03ADF710,00,6223.7,,,,,110000,,,,202306161834$');
    expect(r.sentTime).toBe('2023-06-16T18:34:00.000Z');
    expect(r.positions[0]).toMatchObject({ latitude: 38.735379, longitude: -90.366478, course: 97 });
    expect(r.attributes).toMatchObject({ externalPowerSupplyVoltage: 12.94, odometer: 6223.7 });
    expect(r.attributes).not.toHaveProperty('messageCount');
    expect(r.reply).toBeUndefined();
  });

  it('a message without protocol-version field: IMEI right after the header, generic rules, no model', () => {
    const r = ok('+RESP:GTTRI,862370030005908,1,0,99,1,0.0,354,18.5,18.821100,-34.084002,20170607152024,0655,0001,00DD,1CAE,00,0103010100,20170607172115,3E7D$');
    expect(r.deviceId).toBe('862370030005908');
    expect(r.model).toBeUndefined();
    expect(r.positions[0]).toMatchObject({ latitude: -34.084002, longitude: 18.8211, course: 354 });
    expect(r.reply).toBe('+SACK:3E7D$');
  });

  it('a message without version field that sends it after the count (no final $)', () => {
    const r = ok('+RESP:GTINF,359464030073766,8938003990320469804f,18,99,100,1,0,+2.00,0,20131018084015,00EE,0103090402');
    expect(r.deviceId).toBe('359464030073766');
    expect(r.attributes).toMatchObject({ protocolVersion: '0103090402', messageCount: '00EE' });
    expect(r.sentTime).toBe('2013-10-18T08:40:15.000Z');
  });
});

// Real frames of Traccar's public suite (src/test/java/org/traccar/protocol/Gl200TextProtocolDecoderTest.java).
describe('accessory data for the other modules (passengers by RFID, fuel, temperatures)', () => {
  it('RFID card reads (GTIDA, GV300) give the generic rfid attribute modules/passageiros boards by', () => {
    const a = ok('+RESP:GTIDA,060228,862894020178276,,,01C68011010000C7,1,1,0,0.0,0,413.0,-63.169675,-17.776349,20160317222129,0736,0003,6AD4,32CF,00,34.9,,,,,20160317182130,1626$');
    expect(a).toMatchObject({ deviceId: '862894020178276', model: 'gv300', type: 'GTIDA', reply: '+SACK:1626$' });
    expect(a.events[0]).toMatchObject({ key: 'rfidRead' });
    expect(a.attributes).toMatchObject({ rfid: '01C68011010000C7', rfidAuthorized: true, odometer: 34.9 });
    const b = ok('+RESP:GTIDA,06020A,862170013895931,,,D2C4FBC5,1,1,1,0.8,0,22.2,117.198630,31.845229,20120802121626,0460,0000,5663,2BB9,00,0.0,,,,,20120802121627,008E$');
    expect(b.attributes).toMatchObject({ rfid: 'D2C4FBC5', rfidAuthorized: true });
    expect(b.positions[0]).toMatchObject({ latitude: 31.845229, longitude: 117.19863, valid: true });
  });

  it('GTERI by its ERI mask: 1-wire temperature (bit 1) and fuel sensors (bits 0, 3, 4); a 1-wire ID is no card read', () => {
    const t = ok('+RESP:GTERI,271002,863457051562823,,00000002,,10,1,1,0.0,15,28.2,-58.695253,-34.625413,20230119193305,0722,0007,1168,16B3BB,00,0.0,,,,99,210100,2,1,28F8A149F69A3C25,1,0190,20230119193314,07C7$');
    expect(t.attributes).toMatchObject({ oneWireId1: '28F8A149F69A3C25', temperature1: 25 });
    expect(t.attributes).not.toHaveProperty('rfid');
    const f = ok('+RESP:GTERI,250C02,868789023691057,,00000019,,10,1,1,0.0,196,2258.0,-99.201807,19.559242,20180214002957,0334,0003,235B,7F8D,00,6786.7,,,,100,110000,1,0394,1,4,100.0,100.0,20180214003006,C72B$');
    expect(f.attributes).toMatchObject({ fuelSensor1: 0x394, fuelSensorLevel1: 100, fuelSensorVolume1: 100 });
  });

  it('GTERI 1-wire iButton keys (device type 2): the key and its data as sent, never a temperature', () => {
    // GV300CAN @Track Air Interface Protocol V12.00, 3.3.1, the example of the 1-wire data with two iButtons
    const k = ok('+RESP:GTERI,4B0306,867995030009362,,00000002,,10,1,1,0.0,0,40.4,117.129326,31.839245,20190522064541,0460,0000,550B,B969,00,0.0,,,65,210100,,2,3C00000340FD1128,2,019E,FD0000034129ED28,2,01AC,20190522064542,0541$');
    expect(k).toMatchObject({ deviceId: '867995030009362', model: 'gv300can', reply: '+SACK:0541$' });
    expect(k.attributes).toMatchObject({ oneWireId1: '3C00000340FD1128', oneWireData1: '019E', oneWireId2: 'FD0000034129ED28', oneWireData2: '01AC', batteryLevel: 65 });
    expect(Object.keys(k.attributes).filter((n) => n.startsWith('temperature'))).toEqual([]);
    // a key present in every periodic report is no card read: passengers board and alight on GTIDA reads only
    expect(k.attributes).not.toHaveProperty('rfid');
    expect(k.events.map((e) => e.key)).toEqual(['fixedReport']);
  });
});
