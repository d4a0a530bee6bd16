// Queclink @Track binary (HEX) form: framing and decoding. Never throws.
//
// Two binary forms are known from real public frames (Traccar's test suite, src/test/java/org/traccar/protocol/
// Gl200BinaryProtocolDecoderTest.java; its frame decoder Gl200FrameDecoder.java gives where each header keeps
// its length). Layouts below are this decoder's own reading of those frames, checked field by field (IMEI Luhn
// digit, coordinates, times, consecutive count numbers, MCC of the cell's country):
//
// 1. Legacy HEX reports "+RSP"/"+BSP" (position reports, live/buffered) and "+EVT"/"+BVT" (events):
//    header(4) message type(1) report mask(4) length(2, the whole frame) device type(1) protocol version(2)
//    firmware version(2) unique ID(8) battery %(1) external power mV(2) motion status(1) satellites(1)
//    [+RSP: report id/type(1)] number of positions(1), per position: accuracy(1) speed(3, km/h × 10)
//    azimuth(2) altitude(2, signed m) longitude(4, signed × 10⁻⁶) latitude(4) GNSS UTC time(7: year(2) month day
//    hour minute second) MCC(2) MNC(2) LAC(2) cell id(2) reserved(1); ... send time(7) count(2) checksum(2) CR LF.
//    The unique ID is the IMEI as decimal pairs, one per byte (0x56 0x32 ... = "86" "50" ...), the last byte its
//    15th digit. MCC and MNC are written as decimal digits (0x0268 = MCC 268). The fields present depend on the
//    report mask (AT+GTHRM); only the masks of public frames (KNOWN_MASKS) are read — another mask, or a +EVT type
//    whose type-specific fields no public frame shows (EVT_EXTRA), is UNSUPPORTED, never guessed.
// 2. The TLV binary form "+\0": header '+'(1) 0x00(1) length(2) flags(1) [frame count/number(2) when flags bit 7]
//    IMEI(8, BCD, first nibble padding) device type(2) protocol version(2) custom version(1) reserved length(1)+data,
//    then records until length-4: record length(1-2, variable) generated time(4, Unix s) count(2) record id(1)
//    event code(1), then data items id(1-2) length(1-2) data; item 0x52 is the GNSS fix: fix flags(1, bits 2-3 = 2:
//    valid) longitude(4, signed × 10⁻⁶) latitude(4) time(4, Unix s) speed(2, km/h × 10) HDOP(1, × 10)
//    azimuth(2) altitude(3, m × 10) satellites(1). Tail: count(2) check(1) '$'.
//
// 3. Binary heartbeats "+HBD": by their +HBD mask (decodeHbd), answered with the heartbeat SACK.
// 4. Command acknowledgements "+ACK" (decodeAck): the layout of the public codec of Boxon (github.com/mtrevisan/Boxon,
//    codecs/queclink ACKMessageHex and ACKMaskHex), checked on three public frames by their length byte and checksum
//    (Traccar's GB100 frame, Boxon's GB200S frame, the GV300CAN protocol document's example).
// +INF and the other headers are framed (the gateway keeps reading the stream) and answered UNSUPPORTED: no public
// frame fixes their layout.
import type { DecodeError, DecodeResult, NormalizedPosition } from '../types.ts';
import { modelFromVersion } from './models.ts';
import { eventsFor } from './events.ts';
import { bits } from './fields.ts';
import { crc16 } from '../crc16.ts';

const PROTOCOL = 'queclink';

/** Binary headers (4 ASCII bytes) and the offset/size of their length field (Gl200FrameDecoder's table). */
const LENGTH_AT: Record<string, [offset: number, size: 1 | 2]> = {
  '+RSP': [9, 2], '+BSP': [9, 2], '+EVT': [9, 2], '+BVT': [9, 2],
  '+INF': [7, 2], '+BNF': [7, 2],
  '+HBD': [5, 1],
  '+CRD': [6, 2], '+BRD': [6, 2], '+LGN': [6, 2],
  '+ACK': [6, 1],
};
/** Shortest binary frame: a length field must never announce less (it would not hold the header). */
export const MIN_BINARY = 11;

/**
 * Binary header at i: the offset and size of its length field; null when the bytes at i are no binary header
 * (text frames "+RESP:", "+BUFF:", "+ACK:", "+SACK:" are not), undefined when the buffer ends too soon to tell.
 */
export function binaryHeaderAt(buf: Buffer, i: number): [number, 1 | 2] | null | undefined {
  if (buf[i] !== 0x2b) return null;
  if (i + 1 >= buf.length) return undefined;
  if (buf[i + 1] === 0) return [2, 2];
  if (i + 5 > buf.length) {
    // could still become a binary header: compare what is there
    for (const h of Object.keys(LENGTH_AT)) if (buf.toString('latin1', i, buf.length) === h.slice(0, buf.length - i)) return undefined;
    return null;
  }
  const h = LENGTH_AT[buf.toString('latin1', i, i + 4)];
  if (!h) return null;
  if (buf[i + 1] === 0x41 && buf[i + 4] === 0x3a) return null; // "+ACK:" is text
  return h;
}

/**
 * Length of the binary frame at i (header checked by binaryHeaderAt): the frame length, 0 when more bytes are
 * needed to read it, -1 when the length field is impossible (then the '+' is garbage).
 */
export function binaryLengthAt(buf: Buffer, i: number, h: [number, 1 | 2], maxFrame: number): number {
  const [off, size] = h;
  if (i + off + size > buf.length) return 0;
  const n = size === 1 ? buf[i + off]! : buf.readUInt16BE(i + off);
  if (n < MIN_BINARY || n > maxFrame) return -1;
  return n;
}

/** The frame [i, i + n) ends as a binary frame does: CR LF (legacy HEX), '$' (the "+\0" form). */
export function binaryTailOk(buf: Buffer, i: number, n: number): boolean {
  const e = i + n;
  return buf[i + 1] === 0 ? buf[e - 1] === 0x24 : buf[e - 2] === 0x0d && buf[e - 1] === 0x0a;
}

/** true when the frame starts with a binary header (decode() dispatch; text frames fail on byte 4 or 5). */
export function isBinaryFrame(frame: Buffer): boolean {
  if (frame.length < MIN_BINARY || frame[0] !== 0x2b) return false;
  if (frame[1] === 0) return true;
  if (frame[4] === 0x3a || frame[5] === 0x3a) return false;
  return !!binaryHeaderAt(frame, 0);
}

class Bad extends Error {
  constructor(readonly code: 'TRUNCATED' | 'MALFORMED' | 'UNSUPPORTED', message: string) { super(message); }
}

const two = (n: number) => (n < 10 ? '0' : '') + n;

/** 7-byte date: year(2) month day hour minute second → ISO-8601, validated. */
function time7(b: Buffer, o: number, name: string): string {
  const y = b.readUInt16BE(o), mo = b[o + 2]!, d = b[o + 3]!, h = b[o + 4]!, mi = b[o + 5]!, s = b[o + 6]!;
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const dt = new Date(t);
  if (y < 2000 || y > 2099 || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    throw new Bad('MALFORMED', `campo ${name} inválido`);
  }
  return `${y}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}.000Z`;
}
/** Unix seconds → ISO-8601 (2000-2099 only). */
function unixTime(sec: number, name: string): string {
  if (sec < 946684800 || sec >= 4102444800) throw new Bad('MALFORMED', `campo ${name} inválido`);
  return new Date(sec * 1000).toISOString();
}
/** 2 bytes written as 4 decimal digits (0x0268 → 268); NaN when a nibble is not a digit. */
function bcd2(b: Buffer, o: number): number {
  let v = 0;
  for (const byte of [b[o]!, b[o + 1]!]) {
    const hi = byte >> 4, lo = byte & 15;
    if (hi > 9 || lo > 9) return NaN;
    v = v * 100 + hi * 10 + lo;
  }
  return v;
}
/** Legacy unique ID: 7 bytes of decimal pairs and the last digit → 15-digit IMEI; null when not one. */
function legacyImei(b: Buffer, o: number): string | null {
  let s = '';
  for (let k = 0; k < 7; k++) {
    const v = b[o + k]!;
    if (v > 99) return null;
    s += two(v);
  }
  const last = b[o + 7]!;
  if (last > 9) return null;
  return s + last;
}
/** Version bytes (2) → "HHHH" upper-case hex. */
const hex2 = (b: Buffer, o: number) => b.toString('hex', o, o + 2).toUpperCase();

function check(b: Buffer, end: number): void {
  if (end > b.length) throw new Bad('TRUNCATED', 'quadro binário mais curto que seus campos');
}

/** Event codes of the legacy +EVT message types named by Traccar's binary decoder (no type-specific fields are read). */
const EVT_CODES: Record<number, string> = {
  6: 'GTBPL', 13: 'GTIGN', 15: 'GTUPD', 17: 'GTIDF', 21: 'GTGSS', 23: 'GTCRA', 26: 'GTGES', 31: 'GTGPJ', 33: 'GTJDS', 34: 'GTUPC',
  35: 'GTRMD', 45: 'GTVGN', 46: 'GTVGF',
};
/** +EVT types whose type-specific fields (between satellites and the position count) are known: their size in bytes
 *  (12: none; 13 GTIGN: the duration of ignition off, seconds, 4 — the GV300CAN document's 100-byte example). */
const EVT_EXTRA: Record<number, number> = { 12: 0, 13: 4 };
/** The report mask of the public GB100 frames: the layout above. */
const KNOWN_MASK = 0x00fc1fbf;
/**
 * Report masks read, by the bytes before the position count that each puts there (both verified on real frames;
 * everything else of the two layouts is the same, frame length included):
 * 00FC1FBF (GB100, Traccar's suite): battery %(1) external power mV(2, mask bit 12) motion(1) satellites(1);
 * 00FE0FBF (GV55, device type 0F, frames of github.com/traccar/traccar/issues/1410): bit 12 (external power) off,
 * bit 17 on: battery %(1) digital inputs(1) digital outputs(1) motion(1) satellites(1). Bits 0-12 as in the GV200
 * @Track HEX table (speed, azimuth, altitude, cell, send time, count, device name, length, device type, protocol
 * version, firmware version, reserved, external power); bit 17 (inputs, outputs) and the satellites byte (high
 * nibble: external GNSS antenna state, low nibble: satellites) as the GV300CAN protocol's HEX +RSP table has them,
 * read from its 93-byte example frame (mask 00FE0FBF too) in a public study of the protocol. The inputs and outputs
 * give the attributes of the text device status (ignition input, inputs 1-3, outputs 1-3).
 */
const MASK_GV55 = 0x00fe0fbf;
/** The GV300CAN factory default (its document's +EVT example): external power (bit 12), analog input (bit 14, 2 bytes,
 *  not read: its unit is not in the example) and bit 17 before the motion byte. */
const MASK_DEFAULT = 0x00fe5fbf;
const KNOWN_MASKS = new Set([KNOWN_MASK, MASK_GV55, MASK_DEFAULT]);

function decodeLegacy(b: Buffer, head: string): DecodeResult {
  const rsp = head === '+RSP' || head === '+BSP';
  const buffered = head === '+BSP' || head === '+BVT';
  if (!rsp && head !== '+EVT' && head !== '+BVT') throw new Bad('UNSUPPORTED', `mensagem binária ${head} sem layout público`);
  check(b, 31);
  const type = b[4]!, mask = b.readUInt32BE(5), length = b.readUInt16BE(9);
  if (length !== b.length) throw new Bad('MALFORMED', 'comprimento do quadro binário não confere');
  const version = `${b.toString('hex', 11, 12)}${hex2(b, 12)}`.toUpperCase();
  const info = modelFromVersion(version);
  const code = rsp ? (type === 8 ? 'GTGEO' : `RSP${type}`) : (EVT_CODES[type] ?? `EVT${type}`);
  if (!KNOWN_MASKS.has(mask) || (rsp && (type === 3 || type === 8 || type === 100)) || (!rsp && EVT_EXTRA[type] === undefined)) {
    // where the unique ID is depends on the mask: only named when it is at its place in a known mask
    const id = KNOWN_MASKS.has(mask) ? legacyImei(b, 16) : null;
    throw Object.assign(new Bad('UNSUPPORTED', `layout binário não público (máscara ${mask.toString(16).toUpperCase().padStart(8, '0')}, tipo ${type})`), id ? { deviceId: id, type: code } : { type: code });
  }
  const deviceId = legacyImei(b, 16);
  if (!deviceId) throw new Bad('MALFORMED', 'IMEI binário inválido');
  const attributes: DecodeResult['attributes'] = {
    protocolVersion: version, deviceType: info.deviceType, firmwareVersion: `${b.toString('hex', 14, 15).toUpperCase()}.${b.toString('hex', 15, 16).toUpperCase()}`,
    binaryMessageType: type, reportMask: mask.toString(16).toUpperCase().padStart(8, '0'),
    batteryLevel: b[24]!,
  };
  let o = 25;
  if (mask & 0x1000) { check(b, o + 2); attributes.externalPowerSupplyVoltage = b.readUInt16BE(o) / 1000; o += 2; }
  if (mask & 0x4000) o += 2;
  if (mask & 0x20000) {
    check(b, o + 2);
    bits(b[o]!, 8, 'input', attributes);
    bits(b[o + 1]!, 8, 'output', attributes);
    o += 2;
  }
  check(b, o + 4);
  const motion = b[o]!;
  // motion state as in the text form: 1x ignition off, 2x on; x1 rest, x2 motion
  attributes.motionStatus = b.toString('hex', o, o + 1).toUpperCase();
  if (motion >> 4 === 1) attributes.ignition = false;
  else if (motion >> 4 === 2) attributes.ignition = true;
  if ((motion & 15) === 1) attributes.motion = false;
  else if ((motion & 15) === 2) attributes.motion = true;
  const satellites = b[o + 1]! & 15;
  if (b[o + 1]! >> 4) attributes.gnssAntennaState = b[o + 1]! >> 4;
  o += 2;
  if (!rsp) {
    check(b, o + EVT_EXTRA[type]!);
    if (type === 13) attributes.ignitionOffDuration = b.readUInt32BE(o);
    o += EVT_EXTRA[type]!;
  }
  if (rsp) {
    const idType = b[o++]!;
    attributes.reportId = idType >> 4;
    attributes.reportType = idType & 15;
  }
  const n = b[o++]!;
  const positions: NormalizedPosition[] = [];
  for (let k = 0; k < n; k++) {
    check(b, o + 32);
    const accuracy = b[o]!, speed = b.readUIntBE(o + 1, 3) / 10, course = b.readUInt16BE(o + 4), altitude = b.readInt16BE(o + 6);
    const lon = b.readInt32BE(o + 8) / 1e6, lat = b.readInt32BE(o + 12) / 1e6;
    if (lat > 90 || lat < -90 || lon > 180 || lon < -180 || course > 360) throw new Bad('MALFORMED', 'coordenadas fora do intervalo');
    const fixTime = time7(b, o + 16, 'gnssUtcTime');
    const p: NormalizedPosition = { fixTime, latitude: lat, longitude: lon, speedKmh: speed, course, altitude, valid: accuracy > 0, satellites };
    positions.push(p);
    attributes.gnssAccuracy = accuracy;
    const mcc = bcd2(b, o + 23), mnc = bcd2(b, o + 25);
    if (mcc === mcc) attributes.mcc = mcc;
    if (mnc === mnc) attributes.mnc = mnc;
    attributes.lac = b.readUInt16BE(o + 27);
    attributes.cellId = b.readUInt16BE(o + 29);
    o += 32;
  }
  // Tail from the end: send time(7) count(2) checksum(2) CR LF.
  const t = b.length - 13;
  if (t < o || b[b.length - 2] !== 0x0d || b[b.length - 1] !== 0x0a) throw new Bad('MALFORMED', 'fim do quadro binário inválido');
  const sentTime = time7(b, t, 'sendTime');
  attributes.messageCount = hex2(b, t + 7);
  const r: DecodeResult = {
    protocol: PROTOCOL, deviceId, model: info.model, type: code, sentTime, positions,
    events: code.startsWith('GT') ? eventsFor(code) : [{ code, key: code.toLowerCase(), description: '' }], attributes,
  };
  if (buffered) r.buffered = true;
  return r;
}

/**
 * The fields bits 1-3 of a +HBD or +ACK mask put from offset o: device type(1), protocol version(2), firmware
 * version(2), kept as attributes (deviceType, protocolVersion = type + version when both are there, firmwareVersion);
 * end: the offset after them.
 */
function versions(b: Buffer, mask: number, attributes: DecodeResult['attributes'], o: number): { deviceType: string; protocolVersion: string; end: number } {
  let deviceType = '', version = '';
  if (mask & 2) { check(b, o + 1); deviceType = b.toString('hex', o, o + 1).toUpperCase(); o += 1; }
  if (mask & 4) { check(b, o + 2); version = hex2(b, o); o += 2; }
  if (mask & 8) { check(b, o + 2); attributes.firmwareVersion = `${b.toString('hex', o, o + 1).toUpperCase()}.${b.toString('hex', o + 1, o + 2).toUpperCase()}`; o += 2; }
  const protocolVersion = deviceType && version ? deviceType + version : '';
  if (protocolVersion) attributes.protocolVersion = protocolVersion;
  if (deviceType) attributes.deviceType = deviceType;
  return { deviceType, protocolVersion, end: o };
}

/** The 8-byte unique ID at o: the IMEI as decimal pairs, or (byName) the device name, zero padded. */
function uniqueId(b: Buffer, o: number, byName: boolean, attributes: DecodeResult['attributes']): string {
  check(b, o + 8);
  if (!byName) {
    const imei = legacyImei(b, o);
    if (!imei) throw new Bad('MALFORMED', 'IMEI binário inválido');
    return imei;
  }
  const name = b.toString('latin1', o, o + 8).replace(/\0+$/, '');
  if (!/^[0-9A-Za-z_?-]+$/.test(name)) throw new Bad('MALFORMED', 'nome do equipamento inválido');
  attributes.deviceName = name;
  return name;
}

/**
 * Binary heartbeat "+HBD" (GV200 @Track Air Interface Protocol, 4.6 Heartbeat Data, public manual pages): header(4)
 * +HBD mask(1) length(1) then, by the mask (AT+GTHRM): bit 1 device type(1), bit 2 protocol version(2), bit 3
 * firmware version(2), bit 7 unique ID(8: IMEI as decimal pairs, or with bit 4 the device name, zero padded),
 * bit 5 send time(7), bit 6 count(2); checksum(2) CR LF. The reply is the heartbeat SACK the device expects,
 * "+SACK:GTHBD,{protocol version},{count}$" (server → device messages are text in both modes); the protocol
 * version is device type + version as in the text form, left empty when the mask leaves them out.
 */
function decodeHbd(b: Buffer): DecodeResult {
  check(b, 6);
  const mask = b[4]!, length = b[5]!;
  if (length !== b.length) throw new Bad('MALFORMED', 'comprimento do quadro binário não confere');
  const attributes: DecodeResult['attributes'] = { reportMask: b.toString('hex', 4, 5).toUpperCase() };
  let deviceId: string | null = null, sentTime: string | undefined, count = '';
  const { deviceType, protocolVersion, end } = versions(b, mask, attributes, 6);
  let o = end;
  if (mask & 0x80) { deviceId = uniqueId(b, o, (mask & 0x10) !== 0, attributes); o += 8; }
  if (mask & 0x20) { check(b, o + 7); sentTime = time7(b, o, 'sendTime'); o += 7; }
  if (mask & 0x40) { check(b, o + 2); count = hex2(b, o); attributes.messageCount = count; o += 2; }
  if (o + 4 !== b.length || b[b.length - 2] !== 0x0d || b[b.length - 1] !== 0x0a) throw new Bad('MALFORMED', 'fim do quadro binário inválido');
  if (!deviceId) throw new Bad('UNSUPPORTED', 'batimento binário sem identificação (máscara sem UID)');
  const r: DecodeResult = {
    protocol: PROTOCOL, deviceId, type: 'GTHBD', positions: [], attributes,
    events: eventsFor('GTHBD'),
    reply: `+SACK:GTHBD,${protocolVersion},${count}$`,
  };
  if (protocolVersion) r.model = modelFromVersion(protocolVersion).model;
  else if (deviceType) r.model = modelFromVersion(deviceType + '0000').model;
  if (sentTime) r.sentTime = sentTime;
  return r;
}


/** Binary +ACK message types: the acknowledged command (Boxon's ACKMessageHex table). */
const ACK_COMMANDS: Record<number, string> = {
  0: 'GTBSI', 1: 'GTSRI', 2: 'GTQSS', 4: 'GTCFG', 5: 'GTTOW', 6: 'GTEPS', 7: 'GTDIS', 8: 'GTOUT', 9: 'GTIOB', 10: 'GTTMA',
  11: 'GTFRI', 12: 'GTGEO', 13: 'GTSPD', 14: 'GTSOS', 15: 'GTMON', 16: 'GTRTO', 21: 'GTUPD', 22: 'GTPIN', 23: 'GTDAT',
  24: 'GTOWH', 25: 'GTDOG', 26: 'GTAIS', 27: 'GTJDC', 28: 'GTIDL', 29: 'GTHBM', 30: 'GTHMC', 32: 'GTURT', 34: 'GTWLT',
  35: 'GTHRM', 36: 'GTFFC', 37: 'GTJBS', 38: 'GTSSR', 41: 'GTEFS', 43: 'GTIDA', 44: 'GTACD', 45: 'GTPDS', 46: 'GTCRA',
  47: 'GTBZA', 48: 'GTSPA', 53: 'GTRMD', 57: 'GTPGD', 62: 'GTSSI', 63: 'GTASC', 64: 'GTTRF',
};

/**
 * Binary command acknowledgement "+ACK": header(4) message type(1, the command: ACK_COMMANDS) +ACK mask(1), then by
 * the mask: bit 0 length(1), bit 1 device type(1), bit 2 protocol version(2), bit 3 firmware version(2); the unique
 * ID(8: the IMEI as decimal pairs, or with bit 4 the device name, zero padded); one byte the public codec names
 * `id` (0 in both public frames; kept raw as ackId); the command's serial number(2); bit 5 send time(7), bit 6
 * count(2); checksum(2: CRC-16/CCITT-FALSE of everything after the header) CR LF (mask bit 7, set in the
 * GV300CAN example, adds no field). Gives what the text
 * +ACK:GT{command} gives: ack {command, serial, success}, no reply. With the device name as unique ID the device is
 * named by it, as +HBD does (the command queue matches only a registered serial).
 */
function decodeAck(b: Buffer): DecodeResult {
  check(b, 7);
  const type = b[4]!, mask = b[5]!;
  if (!(mask & 1)) throw new Bad('UNSUPPORTED', 'confirmação binária sem comprimento');
  if (b[6] !== b.length) throw new Bad('MALFORMED', 'comprimento do quadro binário não confere');
  if (b[b.length - 2] !== 0x0d || b[b.length - 1] !== 0x0a) throw new Bad('MALFORMED', 'fim do quadro binário inválido');
  if (crc16(b, 4, b.length - 4) !== b.readUInt16BE(b.length - 4)) throw new Bad('MALFORMED', 'soma de verificação do quadro binário não confere');
  const attributes: DecodeResult['attributes'] = { ackKind: 'ACK', reportMask: b.toString('hex', 5, 6).toUpperCase() };
  let sentTime: string | undefined;
  const { protocolVersion, end } = versions(b, mask, attributes, 7);
  let o = end;
  check(b, o + 11);
  const deviceId = uniqueId(b, o, (mask & 0x10) !== 0, attributes);
  attributes.ackId = b[o + 8]!;
  const serial = hex2(b, o + 9);
  o += 11;
  if (mask & 0x20) { check(b, o + 7); sentTime = time7(b, o, 'sendTime'); o += 7; }
  if (mask & 0x40) { check(b, o + 2); attributes.messageCount = hex2(b, o); o += 2; }
  if (o + 4 !== b.length) throw new Bad('MALFORMED', 'comprimento do quadro binário não confere');
  const command = ACK_COMMANDS[type];
  if (!command) throw Object.assign(new Bad('UNSUPPORTED', `confirmação binária de tipo ${type} sem comando conhecido`), { deviceId });
  const r: DecodeResult = { protocol: PROTOCOL, deviceId, type: 'ack', positions: [], events: [], attributes, ack: { command, serial, success: true } };
  if (protocolVersion) r.model = modelFromVersion(protocolVersion).model;
  if (sentTime) r.sentTime = sentTime;
  return r;
}

/** Variable length (1 byte, or 2 with bit 7 of the first). */
function varLen(b: Buffer, o: number): [value: number, next: number] {
  check(b, o + 1);
  const v = b[o]!;
  if (!(v & 0x80)) return [v, o + 1];
  check(b, o + 2);
  return [((v & 0x7f) << 8) | b[o + 1]!, o + 2];
}

function decodeTlv(b: Buffer): DecodeResult {
  check(b, 4);
  const length = b.readUInt16BE(2);
  if (length !== b.length) throw new Bad('MALFORMED', 'comprimento do quadro binário não confere');
  let o = 4;
  check(b, o + 1);
  if (b[o++]! & 0x80) o += 2; // multi-packet: frame count and number
  check(b, o + 8 + 5);
  const bcd = b.toString('hex', o, o + 8);
  if (!/^\d{16}$/.test(bcd)) throw new Bad('MALFORMED', 'IMEI binário inválido');
  const deviceId = bcd.slice(1);
  o += 8;
  const deviceType = b.toString('hex', o, o + 2).toUpperCase();
  const protocolVersion = b.toString('hex', o + 2, o + 4).toUpperCase();
  o += 5;
  const reserved = b[o++]!;
  o += reserved;
  const end = b.length - 4; // count(2) check(1) '$'
  if (b[b.length - 1] !== 0x24) throw new Bad('MALFORMED', "quadro binário sem '$' final");
  const positions: NormalizedPosition[] = [];
  const attributes: DecodeResult['attributes'] = { deviceType, protocolVersion, messageCount: hex2(b, end) };
  let records = 0;
  while (o < end) {
    const start = o;
    const [len, p0] = varLen(b, o);
    const recEnd = start + len;
    if (len < 8 || recEnd > end) throw new Bad('MALFORMED', 'registro binário fora do quadro');
    let p = p0;
    const generated = b.readUInt32BE(p);
    p += 8; // generated time(4) record count(2) record id(1) event code(1)
    attributes.eventCode = b[p - 1]!;
    records++;
    while (p < recEnd) {
      const [id, q] = varLen(b, p);
      const [dl, r0] = varLen(b, q);
      const dEnd = r0 + dl;
      if (dEnd > recEnd) throw new Bad('MALFORMED', 'dado binário fora do registro');
      if (id === 0x52 && dl >= 22) {
        const fix = b[r0]!;
        const lon = b.readInt32BE(r0 + 1) / 1e6, lat = b.readInt32BE(r0 + 5) / 1e6;
        if (lat > 90 || lat < -90 || lon > 180 || lon < -180) throw new Bad('MALFORMED', 'coordenadas fora do intervalo');
        const course = b.readUInt16BE(r0 + 16);
        if (course > 360) throw new Bad('MALFORMED', 'direção inválida');
        positions.push({
          fixTime: unixTime(b.readUInt32BE(r0 + 9), 'gnssUtcTime'), latitude: lat, longitude: lon,
          speedKmh: b.readUInt16BE(r0 + 13) / 10, course, altitude: b.readUIntBE(r0 + 18, 3) / 10,
          valid: ((fix >> 2) & 3) === 2, hdop: b[r0 + 15]! / 10, satellites: b[r0 + 21]!,
        });
      }
      p = dEnd;
    }
    o = recEnd;
    if (records === 1) attributes.generatedTime = unixTime(generated, 'generatedTime');
  }
  return {
    protocol: PROTOCOL, deviceId, type: 'binary', positions, attributes,
    events: [{ code: 'binary', key: 'binary', description: '' }],
  };
}

/** Decodes a binary frame (isBinaryFrame true). Never throws. */
export function decodeBinary(frame: Buffer): DecodeResult | DecodeError {
  try {
    if (frame[1] === 0) return decodeTlv(frame);
    const head = frame.toString('latin1', 0, 4);
    if (head === '+HBD') return decodeHbd(frame);
    if (head === '+ACK') return decodeAck(frame);
    return decodeLegacy(frame, head);
  } catch (e) {
    if (e instanceof Bad) {
      const err: DecodeError = { protocol: PROTOCOL, error: e.message, errorCode: e.code };
      const extra = e as Bad & { deviceId?: string; type?: string };
      if (extra.deviceId) err.deviceId = extra.deviceId;
      if (extra.type) err.type = extra.type;
      return err;
    }
    if (e instanceof RangeError) return { protocol: PROTOCOL, error: 'quadro binário mais curto que seus campos', errorCode: 'TRUNCATED' };
    return { protocol: PROTOCOL, error: `erro interno: ${(e as Error)?.message ?? String(e)}`, errorCode: 'INTERNAL' };
  }
}
