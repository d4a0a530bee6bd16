// Decoder/encoder of the older binary tracker family (layout: ./layout.ts and ./README.md).
import {
  CommandValidationError,
  type DecodeError, type DecodeErrorCode, type DecodeResult, type Decoder, type DeviceCommand,
  type FrameResult, type NormalizedEvent, type AttributeValue,
} from '../types.ts';
import { findByCode } from '../catalog.ts';
import {
  ACK, BASE, CAN, COMMAND_CODES, ENVELOPE_HEAD, ENVELOPE_TAIL, HEADER, MAX_BODY, MESSAGE_TYPES, MODEM,
  OPTIONAL_FIELDS, OUTPUT_INDEX, POSITION_FLAGS, PROTOCOL_VERSION, RESOLUTION, SERVER_TYPES, SYNC,
  type BlockName, type FieldDef,
} from './layout.ts';
import { ReadError, readFields, readOptional, writeUInt, type Value } from './reader.ts';

export const PROTOCOL = 'legacy';
const HEADER_SIZE = 9;

const BLOCKS: Record<BlockName, FieldDef[] | 'optional'> = {
  base: BASE, optional: 'optional', modem: MODEM, can: CAN, ack: ACK,
};

const COMMAND_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(COMMAND_CODES).map(([k, v]) => [v, k]),
);

/** XOR of all bytes in [start, end). */
export function checksum(buf: Uint8Array | number[], start = 0, end = buf.length): number {
  let x = 0;
  for (let i = start; i < end; i++) x ^= buf[i];
  return x;
}

/** Wrap a body (header + blocks) into a frame: AA 55, length, body, XOR checksum. */
export function wrapFrame(body: Buffer | Uint8Array | number[]): Buffer {
  const n = body.length;
  const out = Buffer.allocUnsafe(n + ENVELOPE_HEAD + ENVELOPE_TAIL);
  out[0] = SYNC[0]; out[1] = SYNC[1]; out[2] = (n >> 8) & 0xff; out[3] = n & 0xff;
  for (let i = 0; i < n; i++) out[ENVELOPE_HEAD + i] = body[i];
  out[ENVELOPE_HEAD + n] = checksum(body);
  return out;
}

function fail(errorCode: DecodeErrorCode, error: string, extra: Partial<DecodeError> = {}): DecodeError {
  return { protocol: PROTOCOL, error, errorCode, ...extra };
}

// ---- Framing ------------------------------------------------------------------------------------

/** Split a TCP byte stream into frames; resynchronizes on garbage, bad length or bad checksum. */
export function frame(buffer: Buffer): FrameResult {
  const frames: Buffer[] = [];
  let garbage = 0;
  let i = 0;
  while (i < buffer.length) {
    if (buffer[i] !== SYNC[0] || (i + 1 < buffer.length && buffer[i + 1] !== SYNC[1])) { i++; garbage++; continue; }
    if (i + ENVELOPE_HEAD > buffer.length) break; // header incomplete: keep as rest
    const len = buffer[i + 2] * 0x100 + buffer[i + 3];
    if (len < HEADER_SIZE || len > MAX_BODY) { i++; garbage++; continue; }
    const total = ENVELOPE_HEAD + len + ENVELOPE_TAIL;
    if (i + total > buffer.length) break; // wait for the rest
    const start = i + ENVELOPE_HEAD;
    if (checksum(buffer, start, start + len) !== buffer[start + len]) { i++; garbage++; continue; }
    frames.push(Buffer.from(buffer.subarray(i, i + total)));
    i += total;
  }
  return { frames, rest: Buffer.from(buffer.subarray(i)), garbage };
}

// ---- Decoding -----------------------------------------------------------------------------------

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function primaryEvent(code: number): NormalizedEvent {
  const entry = findByCode('legacy-eventos', code);
  return { code: String(code), key: entry?.event ?? `primary_${code}`, description: entry?.description ?? '' };
}

/** Decode one frame (AA 55 ... checksum). Never throws. */
export function decode(input: Buffer): DecodeResult | DecodeError {
  try {
    return decodeUnsafe(input);
  } catch (err) {
    if (err instanceof ReadError) return fail(err.code, err.message);
    return fail('INTERNAL', `erro interno: ${(err as Error)?.message ?? String(err)}`);
  }
}

function decodeUnsafe(buf: Buffer): DecodeResult | DecodeError {
  if (!buf || buf.length === 0) return fail('EMPTY', 'mensagem vazia');
  if (buf[0] !== SYNC[0] || (buf.length > 1 && buf[1] !== SYNC[1])) return fail('MALFORMED', 'sincronismo AA55 ausente');
  if (buf.length < ENVELOPE_HEAD) return fail('TRUNCATED', 'cabeçalho incompleto');
  const len = buf[2] * 0x100 + buf[3];
  if (len > MAX_BODY) return fail('OVERSIZE', `corpo de ${len} bytes excede ${MAX_BODY}`);
  const total = ENVELOPE_HEAD + len + ENVELOPE_TAIL;
  if (buf.length < total) return fail('TRUNCATED', `quadro com ${buf.length} de ${total} bytes`);
  if (buf.length > total) return fail('MALFORMED', `${buf.length - total} bytes após o quadro`);
  const body = buf.subarray(ENVELOPE_HEAD, ENVELOPE_HEAD + len);
  if (checksum(body) !== buf[total - 1]) return fail('MALFORMED', 'checksum inválido');

  const head: Record<string, Value> = {};
  let off = readFields(body, 0, HEADER, head);
  const deviceId = String(head.serial);
  const typeCode = head.type as number;
  const mt = MESSAGE_TYPES[typeCode];
  if (head.version !== PROTOCOL_VERSION) return fail('UNSUPPORTED', `versão ${head.version} não suportada`, { deviceId });
  if (!mt) return fail('UNSUPPORTED', `tipo 0x${typeCode.toString(16).padStart(2, '0')} não suportado`, { deviceId });

  // attributes are written directly by catalogue key; internal fields (time, coordinates ...) go to rec
  const attributes: Record<string, AttributeValue> = { version: head.version, product: head.product, sequence: head.sequence };
  const attrs = attributes as Record<string, Value>;
  const rec: Record<string, Value> = {};
  try {
    for (const block of mt.blocks) {
      const def = BLOCKS[block];
      off = def === 'optional' ? readOptional(body, off, OPTIONAL_FIELDS, attrs) : readFields(body, off, def, attrs, rec);
    }
  } catch (err) {
    if (err instanceof ReadError) return fail(err.code, err.message, { deviceId, type: mt.name });
    throw err;
  }
  if (off !== body.length) return fail('MALFORMED', `${body.length - off} bytes sobrando no corpo`, { deviceId, type: mt.name });

  const result: DecodeResult = { protocol: PROTOCOL, deviceId, type: mt.name, positions: [], events: [], attributes };

  if (mt.name === 'ack') {
    const code = rec.command as number;
    result.ack = {
      command: COMMAND_NAMES[code] ?? `0x${code.toString(16).padStart(2, '0')}`,
      serial: (rec.commandSequence as number).toString(16).toUpperCase().padStart(4, '0'),
      success: rec.result === 0,
    };
    attributes.result = rec.result;
    return result;
  }

  // base block: position, time, event
  const flags = rec.positionFlags as number;
  const div = flags & POSITION_FLAGS.HIGH_RESOLUTION ? RESOLUTION.high : RESOLUTION.low;
  const latitude = round6((rec.latitude as number) / div);
  const longitude = round6((rec.longitude as number) / div);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    return fail('MALFORMED', `coordenada fora da faixa (${latitude}, ${longitude})`, { deviceId, type: mt.name });
  }
  const satellites = attrs.gps_satellites as number;
  const dop = attrs.gps_DOP as number;
  result.sentTime = iso(rec.time as number);
  if (flags & POSITION_FLAGS.BUFFERED) result.buffered = true;
  result.positions.push({
    fixTime: iso(rec.gpsTime as number), latitude, longitude,
    speedKmh: attrs.gps_instant_speed as number, course: attrs.gps_course as number,
    valid: (flags & POSITION_FLAGS.VALID) !== 0, hdop: dop, satellites,
  });
  const event = rec.event as number;
  if (event !== 0) result.events.push(primaryEvent(event));

  attributes.position = { latitude, longitude };
  attributes.event = event;
  // aliases with newer-family keys, for the latest-state columns of ingest
  attributes.ignition = attrs['main_input-ignition'];
  attributes.externalPowerSupplyVoltage = attrs.main_battery;
  attributes.odometer = attrs.odo_gps;

  if (mt.reply) result.reply = encodeServerAck(Number(head.serial), head.sequence as number);
  return result;
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** Decode one hex line (whitespace ignored). Never throws. */
export function decodeHex(hex: string): DecodeResult | DecodeError {
  const clean = String(hex ?? '').replace(/\s+/g, '');
  if (clean === '') return fail('EMPTY', 'mensagem vazia');
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(clean)) return fail('MALFORMED', 'hexadecimal inválido');
  return decode(Buffer.from(clean, 'hex'));
}

// ---- Encoding (server -> device) -------------------------------------------------------------------

function header(serial: number, type: number, sequence: number): number[] {
  return [PROTOCOL_VERSION, ...writeUInt(serial, 4), 0, type, ...writeUInt(sequence, 2)];
}

/** Acknowledgement the gateway sends after committing a report (type 0x80, echoes the sequence). */
export function encodeServerAck(serial: number, sequence: number): Buffer {
  return wrapFrame(header(serial, SERVER_TYPES.ACK, sequence));
}

function intParam(v: unknown, field: string, min: number, max: number): number {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new CommandValidationError('INVALID', field, `O campo ${field} deve ser inteiro`);
  if (n < min || n > max) throw new CommandValidationError('RANGE', field, `O campo ${field} deve estar entre ${min} e ${max}`);
  return n;
}

/**
 * Build a command frame (type 0x90). params.deviceId (device serial, default 0 = the connected device),
 * command.serial = sequence echoed in the device's ack (0..65535).
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
  return wrapFrame([...header(serial, SERVER_TYPES.COMMAND, sequence), code, args.length, ...args]);
}

export const legacyDecoder: Decoder = { protocol: PROTOCOL, frame, decode: (f) => decode(f), encode };
export default legacyDecoder;
