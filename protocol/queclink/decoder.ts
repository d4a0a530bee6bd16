// Queclink @Track ASCII decoder: one frame → normalized result. Never throws.
import type { CommandAck, DecodeError, DecodeErrorCode, DecodeResult, NormalizedPosition } from '../types.ts';
import { eventsFor } from './events.ts';
import { applyField, FieldError, hex, int, isHex, num, upper, utc, type Attrs } from './fields.ts';
import { MAX_FRAME } from './framer.ts';
import { layoutFor, modelFromVersion, type ModelInfo, type ModelSpec, type Segment } from './models.ts';

export const PROTOCOL = 'queclink';

export interface DecodeOptions {
  /** Answer every +RESP/+BUFF report with "+SACK:{count}$" (device SACK mode). Default true. */
  sackReports?: boolean;
}

class Malformed extends Error {
  constructor(readonly code: DecodeErrorCode, message: string) { super(message); }
}

// Field grammars, checked by character codes (no regular expressions on the hot path):
// COORD /^-?\d{1,3}\.\d{1,6}$/, TIME14 /^\d{14}$/, IMEI /^(\d{15}|[0-9A-Fa-f]{14})$/,
// VERSION /^[0-9A-Fa-f]{6}$|^[0-9A-Fa-f]{10}$/, COUNT /^[0-9A-Fa-f]{4}$/.
const isDigit = (c: number) => c >= 48 && c <= 57;
function digitsFrom(s: string, i: number): boolean {
  for (; i < s.length; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}
function isCoord(s: string): boolean {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  const a = i;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  if (i === a || i - a > 3 || i === n || s.charCodeAt(i) !== 46) return false;
  const f = ++i;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  return i === n && i > f && i - f <= 6;
}
const isTime14 = (s: string) => s.length === 14 && digitsFrom(s, 0);
const isImei = (s: string) => (s.length === 15 && digitsFrom(s, 0)) || (s.length === 14 && isHex(s));
const isVersion = (s: string) => (s.length === 6 || s.length === 10) && isHex(s);
const isCount = (s: string) => s.length === 4 && isHex(s);
/** /^\d{0,2}$/ */
const isShortDigits = (s: string) => s.length <= 2 && digitsFrom(s, 0);

/** modelFromVersion() per protocol version, cached (a fleet has few distinct versions). */
const modelCache = new Map<string, ModelInfo>();
function modelInfo(version: string): ModelInfo {
  let info = modelCache.get(version);
  if (!info) {
    if (modelCache.size >= 1000) modelCache.clear();
    info = modelFromVersion(version);
    modelCache.set(version, info);
  }
  return info;
}

interface Ctx {
  v: string[];
  i: number;
  /** Index of the first tail field (send time); fields stop here. */
  end: number;
  spec: ModelSpec;
  attrs: Attrs;
  positions: NormalizedPosition[];
  /** Layout lost alignment (unknown mask bit): stop reading fields. */
  desync: boolean;
}

function fail(code: DecodeErrorCode, message: string): never {
  throw new Malformed(code, message);
}

/** Looks like a position block starting at j (accuracy at j, lon/lat at j+4/j+5, time at j+6). */
function blockAt(v: string[], j: number, end: number, span = 11): boolean {
  if (j + span > end) return false;
  const lon = v[j + 4]!, lat = v[j + 5]!, t = v[j + 6]!;
  if (lon === '' && lat === '' && (t === '' || isTime14(t))) return isShortDigits(v[j]!);
  return isCoord(lon) && isCoord(lat) && isTime14(t);
}

/** Reads one position block (with cell fields unless told otherwise); no position when it has no coordinates. */
function readPosition(c: Ctx, withCell = true): void {
  const { v } = c;
  const span = withCell ? 11 : 7;
  // Tolerate undocumented leading fields: realign on the next plausible block (at most 3 fields on).
  let j = c.i;
  while (!blockAt(v, j, c.end, span) && j < c.i + 3) j++;
  if (!blockAt(v, j, c.end, span)) fail('MALFORMED', `bloco de posição não encontrado no campo ${c.i}`);
  c.i = j;
  const acc = v[c.i++]!, speed = v[c.i++]!, course = v[c.i++]!, alt = v[c.i++]!;
  const lon = v[c.i++]!, lat = v[c.i++]!, time = v[c.i++]!;
  let mcc = '', mnc = '', lac = '', cell = '';
  if (withCell) { mcc = v[c.i++]!; mnc = v[c.i++]!; lac = v[c.i++]!; cell = v[c.i++]!; }
  const a = c.attrs;
  if (acc !== '') a.gnssAccuracy = int(acc, 'gnssAccuracy');
  if (mcc !== '') a.mcc = int(mcc, 'mcc');
  if (mnc !== '') a.mnc = int(mnc, 'mnc');
  if (lac !== '') a.lac = hex(lac, 'lac');
  if (cell !== '') a.cellId = hex(cell, 'cellId');
  let satellites: number | undefined, hdop: number | undefined;
  // Position append mask (hex; older firmware: reserved "00" or empty).
  if (c.i < c.end) {
    const maskRaw = v[c.i++]!;
    if (maskRaw !== '') {
      const mask = hex(maskRaw, 'positionAppendMask');
      for (let bit = 0; bit < 8; bit++) {
        if (!((mask >> bit) & 1)) continue;
        const fields = c.spec.appendMask[bit];
        if (!fields) { c.desync = true; break; }
        for (const f of fields) {
          const raw = c.i < c.end ? v[c.i++]! : '';
          if (raw === '') continue;
          if (f === 'satellites') satellites = int(raw, f);
          else if (f === 'hdop') hdop = num(raw, f);
          else applyField(f, raw, a);
        }
      }
    }
  }
  if (lon === '' || lat === '' || time === '') return; // no fix ever: nothing to report
  const latitude = num(lat, 'latitude'), longitude = num(lon, 'longitude');
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) fail('MALFORMED', 'coordenadas fora do intervalo');
  const p: NormalizedPosition = {
    fixTime: utc(time, 'gnssUtcTime'),
    latitude,
    longitude,
    speedKmh: speed === '' ? 0 : num(speed, 'speed'),
    course: course === '' ? 0 : num(course, 'azimuth'),
    // GNSS accuracy 0 = no current fix (coordinates are the last known ones).
    valid: acc !== '' && Number(acc) > 0,
  };
  if (alt !== '') p.altitude = num(alt, 'altitude');
  if (hdop !== undefined) p.hdop = hdop;
  if (satellites !== undefined) p.satellites = satellites;
  if (p.speedKmh < 0 || p.course < 0 || p.course > 360) fail('MALFORMED', 'velocidade ou direção inválida');
  c.positions.push(p);
}

function readCan(c: Ctx): void {
  const bits = c.spec.canBits;
  if (!bits) { c.desync = true; return; }
  const maskRaw = c.v[c.i++] ?? '';
  const mask = BigInt(hex(maskRaw, 'canReportMask'));
  c.attrs.canReportMask = maskRaw.toUpperCase();
  for (const { bit, field } of bits) {
    if (!((mask >> BigInt(bit)) & 1n)) continue;
    if (c.i >= c.end) return;
    applyField(field, c.v[c.i++]!, c.attrs);
  }
  // Location (bit 30) follows the expansion blocks, whose length depends on further masks:
  // find it from the end instead (accuracy, speed, course, altitude, lon, lat, time [, cell..., mask...]).
  if ((mask >> 30n) & 1n) {
    const withCell = ((mask >> 31n) & 1n) === 1n;
    for (let j = c.end - 7; j >= c.i; j--) {
      if (isCoord(c.v[j + 4]!) && blockAt(c.v, j, c.end, 7)) {
        c.i = j;
        readPosition(c, withCell);
        break;
      }
    }
  }
  c.desync = true; // remaining expansion data is not decoded
}

function runLayout(c: Ctx, layout: Segment[]): void {
  for (const seg of layout) {
    if (c.desync || c.i >= c.end) return;
    if (typeof seg === 'string') applyField(seg, c.v[c.i++]!, c.attrs);
    else if ('can' in seg) readCan(c);
    else if (seg.positions === 'single') readPosition(c);
    else {
      const n = int(c.v[c.i++]!, 'number');
      if (n < 1 || n > 15) fail('MALFORMED', `número de posições inválido: ${n}`);
      for (let k = 0; k < n && !c.desync; k++) readPosition(c);
    }
  }
}

function decodeAck(v: string[], kind: string, code: string, base: Omit<DecodeResult, 'type'>): DecodeResult {
  const count = v[v.length - 1]!;
  const version = v[1]!;
  if (code === 'GTHBD') {
    return { ...base, type: 'GTHBD', events: eventsFor('GTHBD'), reply: `+SACK:GTHBD,${version},${count}$` };
  }
  const serial = v[v.length - 3] ?? '';
  if (!isCount(serial)) fail('MALFORMED', `número de série do comando inválido: ${serial}`);
  const ack: CommandAck = { command: code, serial: upper(serial), success: true };
  if (v.length > 7) base.attributes.ackDetail = v.slice(4, v.length - 3).join(',');
  return { ...base, type: 'ack', ack, attributes: { ...base.attributes, ackKind: kind } };
}

/** Report kind of a "+RESP:GTxxx," header: the length of the kind word, 0 when the text has no such header. */
function headerKind(text: string): number {
  // /^\+(RESP|BUFF|ACK|SACK):(GT[A-Z0-9]{3}),/
  if (text.charCodeAt(0) !== 43) return 0;
  const k = text.startsWith('RESP:', 1) || text.startsWith('BUFF:', 1) || text.startsWith('SACK:', 1) ? 4 : text.startsWith('ACK:', 1) ? 3 : 0;
  if (!k) return 0;
  const g = k + 2; // index of 'G'
  if (text.charCodeAt(g) !== 71 || text.charCodeAt(g + 1) !== 84 || text.charCodeAt(g + 5) !== 44) return 0;
  for (let i = g + 2; i < g + 5; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || isDigit(c))) return 0;
  }
  return k;
}

function decodeText(text: string, opts: DecodeOptions): DecodeResult {
  const k = headerKind(text);
  if (!k) fail(text.startsWith('+') ? 'UNSUPPORTED' : 'MALFORMED', 'cabeçalho @Track não reconhecido');
  const kind = text.slice(1, 1 + k), code = text.slice(k + 2, k + 7);
  if (kind === 'SACK') fail('UNSUPPORTED', '+SACK é enviado pelo servidor, não pelo equipamento');
  const v = text.slice(0, -1).split(',');
  if (v.length < 6) fail('TRUNCATED', 'mensagem com campos insuficientes');
  const version = v[1]!, deviceId = v[2]!;
  if (!isVersion(version)) fail('MALFORMED', `versão de protocolo inválida: ${version}`);
  if (!isImei(deviceId)) fail('MALFORMED', `IMEI inválido: ${deviceId}`);
  const count = v[v.length - 1]!, sendTime = v[v.length - 2]!;
  if (!isCount(count)) fail('MALFORMED', `contador inválido: ${count}`);
  const info = modelInfo(version);
  const attributes: Attrs = { protocolVersion: upper(version), deviceType: info.deviceType, messageCount: upper(count) };
  if (info.firmware) attributes.firmwareVersion = info.firmware;
  if (v[3]) attributes.deviceName = v[3];
  const base: Omit<DecodeResult, 'type'> = { protocol: PROTOCOL, deviceId, positions: [], events: [], attributes };
  if (info.model) base.model = info.model;
  if (kind === 'BUFF') base.buffered = true;
  if (sendTime !== '') base.sentTime = utc(sendTime, 'sendTime');

  if (kind === 'ACK') return decodeAck(v, kind, code, base);

  const layout = layoutFor(info.spec, code);
  if (!layout) fail('UNSUPPORTED', `relatório ${code} não suportado`);
  const c: Ctx = { v, i: 4, end: v.length - 2, spec: info.spec, attrs: attributes, positions: base.positions, desync: false };
  runLayout(c, layout);
  if (layout.length === 0 && v.length !== 6) attributes.unparsed = v.slice(4, -2).join(',');
  const reportType = typeof attributes.reportType === 'number' ? String(attributes.reportType) : undefined;
  if (code === 'GTHBM' && attributes.reportType !== undefined) {
    attributes.harshBehaviorType = attributes.reportType;
    attributes.speedLevel = attributes.reportId!;
  }
  if (code === 'GTGEO' && attributes.reportId !== undefined) attributes.geofenceId = attributes.reportId;
  if ((code === 'GTIGN' || code === 'GTVGN')) attributes.ignition = true;
  if ((code === 'GTIGF' || code === 'GTVGF')) attributes.ignition = false;
  // Same keys, in the same order, as { ...base, type, events }.
  base.events = eventsFor(code, reportType);
  const result = base as DecodeResult;
  result.type = code;
  if (code === 'GTHBD') result.reply = `+SACK:GTHBD,${version},${count}$`;
  else if (opts.sackReports !== false) result.reply = `+SACK:${count}$`;
  return result;
}

const NO_OPTS: DecodeOptions = {};

export function decode(frame: Buffer, _now?: Date, opts: DecodeOptions = NO_OPTS): DecodeResult | DecodeError {
  let text: string | undefined;
  try {
    if (!frame || frame.length === 0) return { protocol: PROTOCOL, error: 'quadro vazio', errorCode: 'EMPTY' };
    const n = frame.length;
    if (n > MAX_FRAME) return { protocol: PROTOCOL, error: 'quadro grande demais', errorCode: 'OVERSIZE' };
    for (let i = 0; i < n; i++) {
      const b = frame[i]!;
      if (b < 0x20 || b > 0x7e) return { protocol: PROTOCOL, error: 'byte não ASCII no quadro', errorCode: 'MALFORMED' };
    }
    text = frame.toString('latin1'); // printable ASCII only: same as 'ascii', faster
    if (text.charCodeAt(n - 1) !== 36) return { protocol: PROTOCOL, error: "quadro sem '$' final", errorCode: 'TRUNCATED' };
    return decodeText(text.trim(), opts);
  } catch (e) {
    const err: DecodeError = e instanceof Malformed
      ? { protocol: PROTOCOL, error: e.message, errorCode: e.code }
      : e instanceof FieldError
        ? { protocol: PROTOCOL, error: e.message, errorCode: 'MALFORMED' }
        : { protocol: PROTOCOL, error: `erro interno: ${(e as Error)?.message ?? String(e)}`, errorCode: 'INTERNAL' };
    // What could be read before failing: the device id (third field) and the message type (first field).
    if (text !== undefined) {
      const parts = text.split(',', 3);
      const type = /:(GT[A-Z0-9]{3})$/.exec(parts[0] ?? '')?.[1];
      if (parts[2] && isImei(parts[2])) err.deviceId = parts[2];
      if (type) err.type = type;
    }
    return err;
  }
}
