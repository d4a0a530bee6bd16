// Decodes never share state: frames scanned step by step (scanFrame, then decodeScanned later), with other
// frames scanned and decoded in between, decode exactly as each one alone.
import { describe, expect, it } from 'vitest';
import { isDecodeError, toJson, type DecodeError, type DecodeResult } from '../types.ts';
import { decode, decodeScanned, scanFrame, type Cursor } from './decoder.ts';

// Long real frames (decoder.test.ts): four positions each followed by the mileage (GL300); CAN with the
// expansion and third masks (GV350CEU); append mask and BLE accessories (GV310LAU GTERI).
const GL300 = '+RESP:GTFRI,1A0900,860599000306845,G3-313,0,0,4,1,2.1,0,426.7,8.611466,47.681639,20181214134603,0228,0001,077F,4812,25.2,1,5.7,34,437.3,8.611600,47.681846,20181214134619,0228,0001,077F,4812,25.2,1,4.4,62,438.2,8.611893,47.681983,20181214134633,0228,0001,077F,4812,25.2,1,4.8,78,436.6,8.612236,47.682040,20181214134648,0228,0001,077F,4812,25.2,83,20181214134702,0654$';
const CAN = '+RESP:GTCAN,740B05,862524061506735,GV350CEU,10,1,FFBFFFFF,,1,H3700440,,0,0,76,,L25.50,,0,,0.00,0.37,,,8080,0040,00,00,0.00,0.00,0,3,2,699,0,B3FFFFFF,,,,,,,,,0,0,0,0.37,0.00,0.00,0,,,,,,0000,0,0,,,,0,,1,,17FC7,,,,,,,,,,,,,,,,1,0.0,0,2325.4,38.758242,8.999264,20260630101409,0636,0001,2BEB,01B9F304,11,12,0,20260630131409,F004$';
const ERI = '+RESP:GTERI,6E0A03,868589060745174,,00000100,,10,1,1,0.0,0,1509.0,-90.544928,14.584461,20250307182819,0704,0001,13A7,000B60AB,01,12,358.6,,,,,100,1A0000,0,2,00,6,5,0E7109BB,283F,SENTEMP1,7805412CF2DD,1,3466,24,36,24.91,100,01,6,2,,083F,SENTEMP2,7805412CF25C,0,,,,,20250307182820,1ABC$';

function scanned(frame: string): Cursor {
  const c = scanFrame(Buffer.from(frame, 'latin1'));
  if (isDecodeError(c as DecodeError)) throw new Error((c as DecodeError).error);
  return c as Cursor;
}
function result(r: DecodeResult | DecodeError): DecodeResult {
  if (isDecodeError(r)) throw new Error(`${r.errorCode}: ${r.error}`);
  return r;
}
const alone = (frame: string) => toJson(result(decode(Buffer.from(frame, 'latin1'))));

describe('@Track decoder: re-entrant', () => {
  it('two frames scanned, then read and decoded interleaved, each gives its own fields and result', () => {
    const a = scanned(GL300);
    const b = scanned(CAN);
    // a's fields after b was scanned
    expect(a.count).toBe(GL300.split(',').length);
    expect(a.field(2)).toBe('860599000306845');
    expect(a.field(a.count - 1)).toBe('0654');
    expect(b.field(2)).toBe('862524061506735');
    const ra = result(decodeScanned(a));
    // a one-shot decode of a third frame between the two
    const re = result(decode(Buffer.from(ERI, 'latin1')));
    const rb = result(decodeScanned(b));
    expect(ra.deviceId).toBe('860599000306845');
    expect(ra.positions.map((p) => [p.latitude, p.longitude, p.fixTime])).toEqual([
      [47.681639, 8.611466, '2018-12-14T13:46:03.000Z'],
      [47.681846, 8.6116, '2018-12-14T13:46:19.000Z'],
      [47.681983, 8.611893, '2018-12-14T13:46:33.000Z'],
      [47.68204, 8.612236, '2018-12-14T13:46:48.000Z'],
    ]);
    expect(ra.attributes.batteryLevel).toBe(83);
    expect(ra.reply).toBe('+SACK:0654$');
    expect(rb.deviceId).toBe('862524061506735');
    expect(rb.type).toBe('GTCAN');
    expect(rb.positions.map((p) => [p.latitude, p.longitude, p.altitude])).toEqual([[8.999264, 38.758242, 2325.4]]);
    expect(rb.attributes.canExpansionMask).toBe('B3FFFFFF');
    expect(rb.reply).toBe('+SACK:F004$');
    expect(re.deviceId).toBe('868589060745174');
    expect(re.positions[0]!.latitude).toBe(14.584461);
    // and exactly what each frame gives alone
    expect(toJson(ra)).toEqual(alone(GL300));
    expect(toJson(rb)).toEqual(alone(CAN));
    expect(toJson(re)).toEqual(alone(ERI));
  });

  it('every order of scanning and decoding three frames gives the results of each frame alone', () => {
    const frames = [GL300, CAN, ERI];
    const expected = frames.map(alone);
    const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for (const order of orders) {
      const cursors = frames.map(scanned);
      const got: unknown[] = [];
      for (const k of order) got[k] = toJson(result(decodeScanned(cursors[k]!)));
      expect(got).toEqual(expected);
    }
  });
});
