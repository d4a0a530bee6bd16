// Continental VDO "Rastrear" trackers (`SV` binary protocol): framer, decoder, replies, commands.
// Byte layout: ./layout.ts (tables) and ./README.md.
import {
  CommandValidationError,
  type AttributeValue, type DecodeError, type DecodeErrorCode, type DecodeResult, type Decoder, type DeviceCommand,
  type FrameResult, type NormalizedEvent,
} from '../types.ts';
import { findByCode } from '../catalog.ts';
import {
  CAN, COMMAND_ACK, COMMAND_CODES, COMMAND_TYPE, COORDINATES, COUNTERS, HEADER, MAX_FRAME, MESSAGE_TYPES, MIN_FRAME,
  MODEM, OFFSET, OPTIONAL_FIELDS, OUTPUT_INDEX, REPLY, STATUS, STATUS_EXT,
  type FieldDef, type MessageType,
} from './layout.ts';
import { ReadError, compileBlocks, internalNames, type BlockReader, type Value } from './compile.ts';

export const PROTOCOL = 'legacy';
const S = HEADER[0];
const V = HEADER[1];
const EMPTY = Buffer.alloc(0);

const BLOCKS: Record<string, FieldDef[]> = {
  status: STATUS, counters: COUNTERS, statusExt: STATUS_EXT, modem: MODEM, can: CAN, commandAck: COMMAND_ACK,
};

interface CompiledType extends MessageType { read: BlockReader }

/** Message types by code (array for the hot path), each with its compiled block reader. */
const TYPES: (CompiledType | undefined)[] = Array.from({ length: 256 }, (_, c) => {
  if (!Object.hasOwn(MESSAGE_TYPES, c)) return undefined;
  const mt = MESSAGE_TYPES[c];
  return { ...mt, read: compileBlocks(mt.blocks, BLOCKS, OPTIONAL_FIELDS) };
});

/** Per-frame record of the internal fields, always created with the same shape; -1 = not in the frame. */
const INTERNAL = internalNames([...Object.values(BLOCKS), OPTIONAL_FIELDS]);
const newRecord = new Function(`return { ${INTERNAL.map((k) => `${JSON.stringify(k)}: -1`).join(', ')} };`) as () => Record<string, number>;

const COMMAND_NAMES: Record<number, string> = Object.fromEntries(Object.entries(COMMAND_CODES).map(([k, v]) => [v, k]));

function fail(errorCode: DecodeErrorCode, error: string, deviceId?: string, type?: string): DecodeError {
  const e: DecodeError = { protocol: PROTOCOL, error, errorCode };
  if (deviceId !== undefined) e.deviceId = deviceId;
  if (type !== undefined) e.type = type;
  return e;
}

// ---- Framing ------------------------------------------------------------------------------------

/**
 * Split a TCP byte stream into frames. A frame starts with `SV`, a length (whole frame) within bounds and a
 * known message type long enough for that type; anything else is skipped byte by byte up to the next `S`.
 * Frames are views of `buffer` (no copy). `rest` never exceeds MAX_FRAME - 1 bytes.
 */
export function frame(buffer: Buffer): FrameResult {
  const frames: Buffer[] = [];
  const n = buffer.length;
  let garbage = 0;
  let i = 0;
  while (i < n) {
    if (buffer[i] !== S) {
      const j = buffer.indexOf(S, i);
      const to = j < 0 ? n : j;
      garbage += to - i;
      i = to;
      continue;
    }
    if (i + 1 >= n) break;
    if (buffer[i + 1] !== V) { i++; garbage++; continue; }
    if (i + 4 > n) break;
    const len = buffer[i + 2] * 0x100 + buffer[i + 3];
    if (len < MIN_FRAME || len > MAX_FRAME) { i++; garbage++; continue; }
    if (i + MIN_FRAME > n) break;
    const mt = TYPES[buffer[i + OFFSET.type]];
    if (mt === undefined || len < mt.minLength) { i++; garbage++; continue; }
    if (i + len > n) break;
    frames.push(buffer.subarray(i, i + len));
    i += len;
  }
  return { frames, rest: i >= n ? EMPTY : buffer.subarray(i), garbage };
}

// ---- Time -----------------------------------------------------------------------------------------

const P2 = Array.from({ length: 100 }, (_, k) => (k < 10 ? `0${k}` : String(k)));

let dayCached = -1;
let dayPrefix = '';

/** Unix seconds (0 .. 2^32-1) to ISO-8601 UTC, by arithmetic (civil-from-days); the date part is cached per day. */
export function isoSeconds(t: number): string {
  const days = Math.floor(t / 86400);
  let rem = t - days * 86400;
  const hh = (rem / 3600) | 0;
  rem -= hh * 3600;
  const mi = (rem / 60) | 0;
  const ss = rem - mi * 60;
  if (days !== dayCached) {
    dayPrefix = civilDate(days);
    dayCached = days;
  }
  return `${dayPrefix}${P2[hh]}:${P2[mi]}:${P2[ss]}.000Z`;
}

function civilDate(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${P2[m]}-${P2[d]}T`;
}

// ---- Coordinates ------------------------------------------------------------------------------------

/** Two's complement of the low `bits` bits (sign bit = bit bits-1); bits <= 31. */
function signed(raw: number, bits: number): number {
  const shift = 32 - bits;
  return (raw << shift) >> shift;
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/**
 * Latitude/longitude from the two raw words. Extended (1/360000°, 28 bits) when a top byte is non-zero
 * (negative extended values always have one) or when the 1/3600° reading falls outside ±90/±180;
 * otherwise standard (1/3600°, 24 bits, top byte 0). Returns null when neither reading is a coordinate.
 */
export function readCoordinates(rawLat: number, rawLon: number): { latitude: number; longitude: number; extended: boolean } | null {
  const { standard: st, extended: ex } = COORDINATES;
  if (rawLat < 0x1000000 && rawLon < 0x1000000) {
    const latitude = signed(rawLat, st.bits) / st.divisor;
    const longitude = signed(rawLon, st.bits) / st.divisor;
    if (latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180) {
      return { latitude: round6(latitude), longitude: round6(longitude), extended: false };
    }
  }
  if (rawLat >= 2 ** ex.bits || rawLon >= 2 ** ex.bits) return null;
  const latitude = signed(rawLat, ex.bits) / ex.divisor;
  const longitude = signed(rawLon, ex.bits) / ex.divisor;
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) return null;
  return { latitude: round6(latitude), longitude: round6(longitude), extended: true };
}

// ---- Events --------------------------------------------------------------------------------------------

const eventCache = new Map<number, { key: string; description: string }>();
function primaryEvent(code: number): NormalizedEvent {
  let e = eventCache.get(code);
  if (!e) {
    const entry = findByCode('legacy-eventos', code);
    e = { key: entry?.event ?? `primary_${code}`, description: entry?.description ?? '' };
    eventCache.set(code, e);
  }
  return { code: String(code), key: e.key, description: e.description };
}

// ---- Replies --------------------------------------------------------------------------------------------

const replyCache = new Map<number, Buffer>();

/** Server ACK for a keep-alive or a status: `SV`, length 11, version, serial, product, type 0x06. */
export function encodeReply(serial: number): Buffer {
  let r = replyCache.get(serial);
  if (!r) {
    r = writeFrame(serial, REPLY.type, []);
    if (replyCache.size >= 100_000) replyCache.clear();
    replyCache.set(serial, r);
  }
  return r;
}

function writeFrame(serial: number, type: number, body: number[]): Buffer {
  const len = MIN_FRAME + body.length;
  const out = Buffer.alloc(len);
  out[0] = S; out[1] = V;
  out.writeUInt16BE(len, OFFSET.length);
  out[OFFSET.version] = REPLY.version;
  out.writeUInt32BE(serial, OFFSET.serial);
  out[OFFSET.product] = REPLY.product;
  out[OFFSET.type] = type;
  for (let k = 0; k < body.length; k++) out[OFFSET.body + k] = body[k];
  return out;
}

// ---- Decoding -----------------------------------------------------------------------------------------

/** Decode one frame (`SV` ... up to the declared length). Never throws. */
export function decode(input: Buffer): DecodeResult | DecodeError {
  try {
    return decodeUnsafe(input);
  } catch (err) {
    return fail('INTERNAL', `erro interno: ${(err as Error)?.message ?? String(err)}`);
  }
}

let lastSerial = -1;
let lastDeviceId = '';

function decodeUnsafe(buf: Buffer): DecodeResult | DecodeError {
  const n = buf?.length ?? 0;
  if (n === 0) return fail('EMPTY', 'mensagem vazia');
  if (buf[0] !== S || (n > 1 && buf[1] !== V)) return fail('MALFORMED', 'cabeçalho SV ausente');
  if (n < 4) return fail('TRUNCATED', 'cabeçalho incompleto');
  const len = buf[2] * 0x100 + buf[3];
  if (len > MAX_FRAME) return fail('OVERSIZE', `quadro de ${len} bytes excede ${MAX_FRAME}`);
  if (len < MIN_FRAME) return fail('MALFORMED', `comprimento ${len} menor que ${MIN_FRAME}`);
  if (n < len) return fail('TRUNCATED', `quadro com ${n} de ${len} bytes`);

  const serial = buf.readUInt32BE(OFFSET.serial);
  if (serial !== lastSerial) {
    lastSerial = serial;
    lastDeviceId = String(serial);
  }
  const deviceId = lastDeviceId;
  const code = buf[OFFSET.type];
  const mt = TYPES[code];
  if (mt === undefined) return fail('UNSUPPORTED', `tipo de mensagem 0x${code.toString(16).padStart(2, '0')} não suportado`, deviceId);
  if (len < mt.minLength) return fail('MALFORMED', `mensagem ${mt.name} com ${len} bytes (mínimo ${mt.minLength})`, deviceId, mt.name);

  const attributes: Record<string, Value> = { version: buf[OFFSET.version], product: buf[OFFSET.product] };
  const rec = newRecord();
  let off: number;
  try {
    off = mt.read(buf, OFFSET.body, len, attributes, rec);
  } catch (err) {
    if (err instanceof ReadError) return fail(err.code, err.message, deviceId, mt.name);
    throw err;
  }
  if (off < len) attributes.payload = buf.toString('hex', off, len);
  if (n > len) attributes.trailingBytes = n - len;

  const result: DecodeResult = {
    protocol: PROTOCOL, deviceId, type: mt.name, positions: [], events: [], attributes: attributes as Record<string, AttributeValue>,
  };

  if (mt.ack !== undefined) {
    const c = rec.command;
    const seq = rec.commandSequence;
    result.ack = {
      command: c < 0 ? '' : (COMMAND_NAMES[c] ?? `0x${c.toString(16).padStart(2, '0')}`),
      serial: seq < 0 ? '' : seq.toString(16).toUpperCase().padStart(4, '0'),
      success: mt.ack,
    };
    return result;
  }

  if (rec.fixTime >= 0) {
    const c = readCoordinates(rec.latitude, rec.longitude);
    if (c === null) return fail('MALFORMED', 'coordenadas fora da faixa', deviceId, mt.name);
    result.sentTime = isoSeconds(rec.deviceTime);
    result.positions.push({
      fixTime: isoSeconds(rec.fixTime), latitude: c.latitude, longitude: c.longitude,
      speedKmh: attributes.gps_instant_speed as number, course: attributes.gps_course as number,
      valid: attributes.gps_quality !== 0,
    });
    const event = rec.event;
    if (event !== 0) result.events.push(primaryEvent(event));
    const a = result.attributes;
    a.event = event;
    a.position = { latitude: c.latitude, longitude: c.longitude };
    a.coordinates_extended = c.extended;
    // newer-family keys read by ingest for the latest-state columns
    a.ignition = attributes['main_input-ignition'];
    a.externalPowerSupplyVoltage = attributes.main_battery;
    if (attributes.odo_gps !== undefined) a.odometer = attributes.odo_gps;
  }

  if (mt.reply) result.reply = encodeReply(serial);
  return result;
}

/** Decode one hex line (whitespace ignored). Never throws. */
export function decodeHex(hex: string): DecodeResult | DecodeError {
  const clean = String(hex ?? '').replace(/\s+/g, '');
  if (clean === '') return fail('EMPTY', 'mensagem vazia');
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(clean)) return fail('MALFORMED', 'hexadecimal inválido');
  return decode(Buffer.from(clean, 'hex'));
}

// ---- Commands (server -> device; provisional layout, see README) ------------------------------------

function intParam(v: unknown, field: string, min: number, max: number): number {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new CommandValidationError('INVALID', field, `O campo ${field} deve ser inteiro`);
  if (n < min || n > max) throw new CommandValidationError('RANGE', field, `O campo ${field} deve estar entre ${min} e ${max}`);
  return n;
}

/**
 * Command frame: `SV` header with type 0x90, body = sequence (2, echoed in the device's ACK/NACK), command code,
 * parameter length, parameters. params.deviceId = device serial (default 0).
 * output: params { output: 'blocking'|'siren'|'aux_output_1' or 0..2, active: boolean }.
 */
export function encode(command: DeviceCommand): Buffer {
  if (!command || typeof command !== 'object') throw new CommandValidationError('REQUIRED', 'type', 'Comando obrigatório');
  const code = Object.hasOwn(COMMAND_CODES, command.type) ? COMMAND_CODES[command.type] : undefined;
  if (code === undefined) throw new CommandValidationError('UNSUPPORTED', 'type', `Comando ${String(command.type)} não suportado pelo protocolo legacy`);
  const params = command.params ?? {};
  const serial = params.deviceId === undefined ? 0 : intParam(params.deviceId, 'deviceId', 0, 0xffffffff);
  const sequence = command.serial === undefined ? 0 : intParam(command.serial, 'serial', 0, 0xffff);
  let args: number[] = [];
  if (command.type === 'output') {
    const o = params.output;
    const index = typeof o === 'string' && Object.hasOwn(OUTPUT_INDEX, o) ? OUTPUT_INDEX[o] : intParam(o, 'output', 0, 2);
    if (typeof params.active !== 'boolean') throw new CommandValidationError('REQUIRED', 'active', 'O campo active é obrigatório');
    args = [index, params.active ? 1 : 0];
  }
  return writeFrame(serial, COMMAND_TYPE, [sequence >> 8, sequence & 0xff, code, args.length, ...args]);
}

export const legacyDecoder: Decoder = { protocol: PROTOCOL, frame, decode: (f) => decode(f), encode };
export default legacyDecoder;
