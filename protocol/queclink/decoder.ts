// Queclink @Track ASCII decoder: one frame → normalized result. Never throws.
// Fields are located once (offsets of the commas) and read in place: no split(), numbers parsed from the
// character codes, strings sliced only for values that are strings. Layout notes: protocol/queclink/README.md.
import type { CommandAck, DecodeError, DecodeErrorCode, DecodeResult, NormalizedEvent, NormalizedPosition } from '../types.ts';
import { decodeBinary, isBinaryFrame } from './binary.ts';
import { eventsFor } from './events.ts';
import { bits, FIELDS, FieldError, round, type Attrs } from './fields.ts';
import { MAX_FRAME } from './framer.ts';
import {
  BLE_FIELDS, CAN_EXPANSION, CAN_EXPANSION3, CAN_EXPANSION_BIT, CAN_TAIL_BITS, layoutFor, modelFromVersion,
  type CanBit, type ModelInfo, type ModelSpec, type Segment, GENERIC_MODEL,
} from './models.ts';

export const PROTOCOL = 'queclink';

export interface DecodeOptions {
  /** Answer every +RESP/+BUFF report with "+SACK:{count}$" (device SACK mode). Default true. */
  sackReports?: boolean;
}

class Malformed extends Error {
  constructor(readonly code: DecodeErrorCode, message: string) { super(message); }
}
function fail(code: DecodeErrorCode, message: string): never {
  throw new Malformed(code, message);
}


// ---- Reading state of one frame: a cursor passed to every reader, so that decodes never share state ----
/**
 * The field table of a frame (its text and the offsets of its comma-separated fields) and the reading position
 * of the layout. decode() takes one from a small pool and gives it back: a decode started while another one is
 * running (a worker, a re-entrant caller) gets its own.
 */
export class Cursor {
  /** Frame text without the final '$'. */
  T = '';
  /** Start and end (exclusive) offset of each comma-separated field; NF fields. */
  readonly ST = new Int32Array(MAX_FRAME + 2);
  readonly EN = new Int32Array(MAX_FRAME + 2);
  NF = 0;
  /** Field index. */
  i = 0;
  /** Index of the first tail field (send time); fields stop here. */
  end = 0;
  spec: ModelSpec = null as unknown as ModelSpec;
  attrs: Attrs = {};
  positions: NormalizedPosition[] = [];
  /** Layout lost alignment (unknown mask bit, invalid field): stop reading fields. */
  desync = false;
  /** GTERI: the ERI mask (0 when absent or invalid). */
  eri = 0;
  /** Block last checked by blockAt() and its coordinates (read again by readPosition() without parsing). */
  blockJ = -1;
  blockLon = NaN;
  blockLat = NaN;

  /** Number of fields. */
  get count(): number { return this.NF; }
  /** Text of field i. */
  field(i: number): string { return this.T.slice(this.ST[i]!, this.EN[i]!); }
}

/** Value of a hex digit, -1 if not one (local: calls across modules cost more under the test/dev loaders). */
// Hex digit values by character code (the text is printable ASCII, checked by scan()).
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[65 + c] = HEX[97 + c] = 10 + c;
function hexDigit(c: number): number {
  return HEX[c]!;
}
/** The string upper-cased; the same string when it has no lower-case letter (no allocation). */
function upper(raw: string): string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 97 && c <= 122) return raw.toUpperCase();
  }
  return raw;
}
const str = (c: Cursor, i: number): string => c.T.slice(c.ST[i]!, c.EN[i]!);
const flen = (c: Cursor, i: number): number => c.EN[i]! - c.ST[i]!;
const isDigit = (c: number) => c >= 48 && c <= 57;
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

function digitsAt(c: Cursor, i: number): boolean {
  const e = c.EN[i]!;
  for (let p = c.ST[i]!; p < e; p++) if (!isDigit(c.T.charCodeAt(p))) return false;
  return true;
}
function hexFieldAt(c: Cursor, i: number): boolean {
  const e = c.EN[i]!;
  for (let p = c.ST[i]!; p < e; p++) if (hexDigit(c.T.charCodeAt(p)) < 0) return false;
  return e > c.ST[i]!;
}
/** Coordinate /^-?\d{1,3}\.\d{1,6}$/ at field i → value (equal to Number(text)), NaN if not one. */
function coordAt(c: Cursor, i: number): number {
  const e = c.EN[i]!;
  let p = c.ST[i]!;
  const neg = c.T.charCodeAt(p) === 45;
  if (neg) p++;
  const a = p;
  let m = 0;
  for (; p < e; p++) {
    const d = c.T.charCodeAt(p) - 48;
    if (d < 0 || d > 9) break;
    m = m * 10 + d;
  }
  if (p === a || p - a > 3 || p === e || c.T.charCodeAt(p) !== 46) return NaN;
  const f = ++p;
  for (; p < e; p++) {
    const d = c.T.charCodeAt(p) - 48;
    if (d < 0 || d > 9) return NaN;
    m = m * 10 + d;
  }
  if (p === f || p - f > 6) return NaN;
  const v = m / POW10[p - f]!;
  return neg ? -v : v;
}
function isCoordAt(c: Cursor, i: number): boolean {
  const v = coordAt(c, i);
  return v === v;
}
function hasDot(c: Cursor, i: number): boolean {
  const d = c.T.indexOf('.', c.ST[i]!);
  return d >= 0 && d < c.EN[i]!;
}
const isTime14At = (c: Cursor, i: number) => flen(c, i) === 14 && digitsAt(c, i);
/** /^\d{0,2}$/ */
const isShortDigitsAt = (c: Cursor, i: number) => flen(c, i) <= 2 && digitsAt(c, i);

/**
 * Decimal /^-?\d+(\.\d+)?$/ at field i, NaN if not one. The value is mantissa / 10^k: one correctly rounded
 * division of exact integers, so it equals Number(text) bit for bit.
 */
function decAt(c: Cursor, i: number): number {
  const e = c.EN[i]!;
  let p = c.ST[i]!;
  const neg = c.T.charCodeAt(p) === 45;
  if (neg) p++;
  let m = 0, digits = 0, frac = -1;
  for (; p < e; p++) {
    const d = c.T.charCodeAt(p) - 48;
    if (d >= 0 && d <= 9) { m = m * 10 + d; digits++; if (frac >= 0) frac++; }
    else if (d === -2 && frac < 0 && digits > 0) frac = 0;
    else return NaN;
  }
  if (digits === 0 || frac === 0) return NaN;
  if (digits > 15) return Number(str(c, i)); // mantissa past 2^53: let the runtime round it
  const v = frac > 0 ? m / POW10[frac]! : m;
  return neg ? -v : v;
}
/** /^\d{1,12}$/ → number, NaN if not. */
function intAt(c: Cursor, i: number): number {
  const s = c.ST[i]!, e = c.EN[i]!;
  if (e === s || e - s > 12) return NaN;
  let v = 0;
  for (let p = s; p < e; p++) {
    const d = c.T.charCodeAt(p) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}
/** 1-12 hex digits → number, NaN if not. */
function hexAt(c: Cursor, i: number): number {
  const s = c.ST[i]!, e = c.EN[i]!;
  if (e === s || e - s > 12) return NaN;
  let v = 0;
  for (let p = s; p < e; p++) {
    const d = hexDigit(c.T.charCodeAt(p));
    if (d < 0) return NaN;
    v = v * 16 + d;
  }
  return v;
}
function decField(c: Cursor, i: number, name: string): number {
  const v = decAt(c, i);
  if (v !== v) throw new FieldError(name, str(c, i));
  return v;
}

// YYYYMMDDHHMMSS (UTC) → ISO-8601, strictly validated (real calendar date, years 0100-9999), no Date, no regex.
// The text is built from two cached parts ("YYYY-MM-DDT" per day, "HH:MM:SS.000Z" per second of the day).
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIME_PART: string[] = [];
let lastDay = -1, lastDayPart = '', lastSec = -1, lastIso = '';
function dd(c: Cursor, p: number): number {
  const a = c.T.charCodeAt(p) - 48, b = c.T.charCodeAt(p + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
const two = (n: number) => (n < 10 ? '0' : '') + n;
function utcAt(c: Cursor, i: number, name: string): string {
  const s = c.ST[i]!, len = c.EN[i]! - s;
  // 14 digits; a send time may have 12 (YYYYMMDDHHMM, no seconds: real devices without count)
  if (len !== 14 && !(len === 12 && name === 'sendTime')) throw new FieldError(name, str(c, i));
  const y1 = dd(c, s), y2 = dd(c, s + 2), mo = dd(c, s + 4), d = dd(c, s + 6), h = dd(c, s + 8), mi = dd(c, s + 10), se = len === 14 ? dd(c, s + 12) : 0;
  if (y1 < 0 || y2 < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) throw new FieldError(name, str(c, i));
  const y = y1 * 100 + y2;
  if (y < 100) throw new FieldError(name, str(c, i)); // Date.UTC never round-trips years 0-99: always refused
  const day = (y * 100 + mo) * 100 + d, sec = (h * 60 + mi) * 60 + se;
  if (day === lastDay && sec === lastSec) return lastIso; // fix time and send time are often the same
  if (day !== lastDay) {
    const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    if (d > (mo === 2 && leap ? 29 : MONTH_DAYS[mo - 1]!)) throw new FieldError(name, str(c, i));
    lastDayPart = `${c.T.slice(s, s + 4)}-${two(mo)}-${two(d)}T`;
    lastDay = day;
  }
  let tp = TIME_PART[sec];
  if (tp === undefined) tp = TIME_PART[sec] = `${two(h)}:${two(mi)}:${two(se)}.000Z`;
  lastSec = sec;
  return (lastIso = lastDayPart + tp);
}

const isImeiAt = (c: Cursor, i: number) => (flen(c, i) === 15 && digitsAt(c, i)) || (flen(c, i) === 14 && hexFieldAt(c, i));
const isCountAt = (c: Cursor, i: number) => flen(c, i) === 4 && hexFieldAt(c, i);
/** A VIN before the device name (GV500 family): 17 of [0-9A-Z] without I, O, Q, with letters and digits. */
function isVinAt(c: Cursor, i: number): boolean {
  if (flen(c, i) !== 17) return false;
  let letters = 0, digits = 0;
  for (let p = c.ST[i]!; p < c.EN[i]!; p++) {
    const ch = c.T.charCodeAt(p);
    if (isDigit(ch)) digits++;
    else if (ch >= 65 && ch <= 90 && ch !== 73 && ch !== 79 && ch !== 81) letters++;
    else return false;
  }
  return letters > 0 && digits > 0;
}
/** Device status: 6 or 10 hex digits starting with a motion state 1x, 2x or 4x. */
function isStatusAt(c: Cursor, i: number): boolean {
  const n = flen(c, i);
  if ((n !== 6 && n !== 10) || !hexFieldAt(c, i)) return false;
  const h = c.T.charCodeAt(c.ST[i]!);
  return h === 49 || h === 50 || h === 52;
}
/** Battery percentage or empty. */
const isBatteryAt = (c: Cursor, i: number) => flen(c, i) <= 3 && digitsAt(c, i);

interface VersionInfo {
  info: ModelInfo;
  /** Protocol version, upper-case. */
  version: string;
  /** Per message code (3 chars after "GT" as a number): layout, or null when the message has none. */
  layouts: Map<number, Segment[] | null>;
}
/** Per protocol version (as a number: a fleet has few distinct versions), cached. */
const versionCache = new Map<number, VersionInfo>();
function versionInfo(c: Cursor, i: number): VersionInfo | null {
  const n = flen(c, i), h = hexAt(c, i);
  if ((n !== 6 && n !== 10) || h !== h) return null;
  const key = h + (n === 10 ? 2 ** 41 : 0);
  let vi = versionCache.get(key);
  if (!vi) {
    if (versionCache.size >= 1000) versionCache.clear();
    const version = upper(str(c, i));
    vi = { info: modelFromVersion(version), version, layouts: new Map() };
    versionCache.set(key, vi);
  }
  return vi;
}
function layoutOf(vi: VersionInfo, codeKey: number, code: string): Segment[] | null {
  let l = vi.layouts.get(codeKey);
  if (l === undefined) {
    l = layoutFor(vi.info.spec, code) ?? null;
    vi.layouts.set(codeKey, l);
  }
  return l;
}


/** A frame without protocol-version field: the generic rules, no model. */
const NO_VERSION: VersionInfo = { info: { model: '', known: false, spec: GENERIC_MODEL, deviceType: '' }, version: '', layouts: new Map() };

/**
 * Text variants real devices send, brought to the common shape "header,version,IMEI,name,...,send time,count":
 * - no protocol-version field (the IMEI right after the header, e.g. GT300/GTTRI "+RESP:GTTRI,862370030005908,1,..."):
 *   an empty version field is inserted; when the frame ends "send time,count,version" (GTINF
 *   "...,20131018084015,00EE,0103090402") that trailing version takes its place.
 * - a 12-digit send time (YYYYMMDDHHMM) without count ("...,,,,202306161834$"): an empty count field is added.
 * Returns true when the frame has no count.
 */
function normalizeVariants(c: Cursor): boolean {
  const ST = c.ST, EN = c.EN;
  if (flen(c, 1) === 15 && digitsAt(c, 1)) {
    let vs = EN[0]!, ve = EN[0]!; // empty field (any position; empty)
    const l = c.NF - 1;
    if ((flen(c, l) === 6 || flen(c, l) === 10) && hexFieldAt(c, l) && isCountAt(c, l - 1) && isTime14At(c, l - 2)) {
      vs = ST[l]!; ve = EN[l]!;
      c.NF--;
    }
    ST.copyWithin(2, 1, c.NF); EN.copyWithin(2, 1, c.NF);
    ST[1] = vs; EN[1] = ve;
    c.NF++;
  }
  const l = c.NF - 1;
  if (isCountAt(c, l)) return false;
  const n = flen(c, l);
  if ((n === 12 || n === 14) && digitsAt(c, l)) {
    ST[c.NF] = EN[c.NF] = EN[l]!;
    c.NF++;
    return true;
  }
  return false;
}

/** Message code strings ("GTFRI") by number, so that they are not sliced from each frame. */
const codeCache = new Map<number, string>();
function codeOf(c: Cursor, at: number, key: number): string {
  let s = codeCache.get(key);
  if (s === undefined) {
    s = c.T.slice(at, at + 5);
    if (codeCache.size < 5000) codeCache.set(key, s);
  }
  return s;
}

/** Events by message code and report type (the event objects are shared; each result gets its own array). */
const eventCache = new Map<string, NormalizedEvent[]>();
function eventOf(code: string, reportType: number): NormalizedEvent[] {
  let byType = eventCache.get(code);
  if (byType === undefined) {
    byType = [];
    if (eventCache.size < 5000) eventCache.set(code, byType);
  }
  const k = reportType + 1; // -1: no report type
  let e = byType[k];
  if (e === undefined) e = byType[k] = eventsFor(code, reportType < 0 ? undefined : String(reportType))[0]!;
  return [e];
}


// ---- Position blocks: accuracy, speed, course, altitude, longitude, latitude, UTC time [, cell] [, tail] ----


/** A position block starts at j: coordinates and time at j+4..j+6, or the empty block of a device never fixed. */
function blockAt(c: Cursor, j: number, end: number): boolean {
  if (j < 4 || j + 7 > end) return false;
  if (flen(c, j + 4) === 0 && flen(c, j + 5) === 0) return (flen(c, j + 6) === 0 || isTime14At(c, j + 6)) && isShortDigitsAt(c, j);
  const lon = coordAt(c, j + 4);
  if (lon !== lon) return false;
  const lat = coordAt(c, j + 5);
  if (lat !== lat || !isTime14At(c, j + 6)) return false;
  c.blockJ = j; c.blockLon = lon; c.blockLat = lat;
  return true;
}
/** First block with coordinates starting at or after `from` (the anchor: two coordinates and a time); -1 if none. */
function findBlock(c: Cursor, from: number, end: number): number {
  for (let k = from + 4; k + 3 <= end; k++) {
    if (isCoordAt(c, k) && isCoordAt(c, k + 1) && isTime14At(c, k + 2) && k - 4 >= 4) return k - 4;
  }
  return -1;
}
/** mcc, mnc (decimal, up to 4 digits), lac, cell id (hex, up to 8 and 10), each possibly empty; read when all are. */
function readCell(c: Cursor, j: number, end: number, a: Attrs): boolean {
  if (j + 4 > end) return false;
  const n0 = flen(c, j), n1 = flen(c, j + 1), n2 = flen(c, j + 2), n3 = flen(c, j + 3);
  if (n0 > 4 || n1 > 4 || n2 > 8 || n3 > 10) return false;
  const mcc = n0 ? intAt(c, j) : 0, mnc = n1 ? intAt(c, j + 1) : 0, lac = n2 ? hexAt(c, j + 2) : 0, cell = n3 ? hexAt(c, j + 3) : 0;
  if (mcc !== mcc || mnc !== mnc || lac !== lac || cell !== cell) return false;
  if (n0) a.mcc = mcc;
  if (n1) a.mnc = mnc;
  if (n2) a.lac = lac;
  if (n3) a.cellId = cell;
  return true;
}

/** A position; a class so that V8 keeps room in the object for the optional altitude, hdop and satellites. */
class Position {
  declare altitude?: number;
  declare hdop?: number;
  declare satellites?: number;
  constructor(public fixTime: string, public latitude: number, public longitude: number, public speedKmh: number,
    public course: number, public valid: boolean) {}
}

function readPosition(c: Cursor): void {
  const j = c.i, end = c.end;
  const a = c.attrs;
  const acc = j, lon = j + 4, lat = j + 5, time = j + 6;
  c.i = j + 7;
  if (readCell(c, c.i, end, a)) c.i += 4;
  let satellites: number | undefined, hdop: number | undefined;
  // Block tail: the position append mask (hex; older firmware "00" or empty), or the mileage after each
  // block (GL300 family).
  if (c.i < end) {
    const m = c.i;
    const n = flen(c, m);
    if (n === 0) c.i++;
    else if (n <= 2 && c.spec.appendMask && hexFieldAt(c, m)) {
      c.i++;
      const mask = hexAt(c, m);
      for (let bit = 0; bit < 8; bit++) {
        if (!((mask >> bit) & 1)) continue;
        const fields = c.spec.appendMask[bit];
        if (!fields) { c.desync = true; break; }
        for (const f of fields) {
          const k = c.i < end ? c.i++ : -1;
          if (k < 0 || flen(c, k) === 0) continue;
          if (f === 'satellites') { const s = intAt(c, k); if (s === s) satellites = s; else c.desync = true; }
          else if (f === 'hdop') { const h = decAt(c, k); if (h === h) hdop = h; else c.desync = true; }
          else applyAt(f, k, a, c);
        }
      }
    } else if (hasDot(c, m) && decAt(c, m) === decAt(c, m)) {
      c.i++;
      a.odometer = round(decAt(c, m), 1);
    } else if (c.spec.appendMask) c.desync = true;
  }
  if (flen(c, acc) !== 0) { const g = intAt(c, acc); if (g === g) a.gnssAccuracy = g; }
  if (flen(c, lon) === 0 || flen(c, lat) === 0 || flen(c, time) === 0) return; // no fix ever: nothing to report
  const cached = c.blockJ === j;
  const latitude = cached ? c.blockLat : decField(c, lat, 'latitude'), longitude = cached ? c.blockLon : decField(c, lon, 'longitude');
  if (latitude > 90 || latitude < -90 || longitude > 180 || longitude < -180) fail('MALFORMED', 'coordenadas fora do intervalo');
  const speedKmh = flen(c, j + 1) === 0 ? 0 : decField(c, j + 1, 'speed');
  const course = flen(c, j + 2) === 0 ? 0 : decField(c, j + 2, 'azimuth');
  if (speedKmh < 0 || course < 0 || course > 360) fail('MALFORMED', 'velocidade ou direção inválida');
  const accuracy = flen(c, acc) === 0 ? 0 : decAt(c, acc);
  // GNSS accuracy 0 = no current fix (coordinates are the last known ones).
  const p: NormalizedPosition = new Position(utcAt(c, time, 'gnssUtcTime'), latitude, longitude, speedKmh, course, accuracy > 0);
  if (flen(c, j + 3) !== 0) p.altitude = decField(c, j + 3, 'altitude');
  if (hdop !== undefined) p.hdop = hdop;
  if (satellites !== undefined) p.satellites = satellites;
  c.positions.push(p);
}

// ---- Fields ----

/** Applies a named field read at index k; an invalid value stops the layout (the position is already read). */
function applyAt(name: string, k: number, a: Attrs, c: Cursor): void {
  if (flen(c, k) === 0) return;
  let v: number;
  switch (name) {
    case 'reserved': return;
    case 'eriMask':
      v = flen(c, k) === 8 ? hexAt(c, k) : NaN;
      if (v === v) { a.eriMask = upper(str(c, k)); c.eri = v; return; }
      break;
    case 'externalPowerVoltage':
      v = intAt(c, k);
      if (v === v) { a.externalPowerSupplyVoltage = round(v / 1000, 3); return; }
      break;
    case 'mileage':
      v = decAt(c, k);
      if (v === v) { a.odometer = round(v, 1); return; }
      break;
    case 'batteryLevel':
      v = intAt(c, k);
      if (v === v) { a.batteryLevel = v; return; }
      break;
    case 'ignitionOnDuration':
      v = intAt(c, k);
      if (v === v) { a.ignitionOnDuration = v; return; }
      break;
    case 'ignitionOffDuration':
      v = intAt(c, k);
      if (v === v) { a.ignitionOffDuration = v; return; }
      break;
    case 'deviceStatus':
      if (statusAt(c, k, a)) return;
      break;
    case 'hourMeter':
      v = hoursAt(c, k);
      if (v === v) { a.hourMeter = v; return; }
      break;
    case 'reportIdType': {
      // 1 or 2 hex digits: report id, report type ("5" = id 0, type 5).
      const n = flen(c, k), s = c.ST[k]!;
      const id = n === 2 ? hexDigit(c.T.charCodeAt(s)) : 0, type = n === 1 || n === 2 ? hexDigit(c.T.charCodeAt(s + n - 1)) : -1;
      if (id >= 0 && type >= 0) { a.reportId = id; a.reportType = type; return; }
      break;
    }
    default: {
      const fn = FIELDS[name];
      if (!fn) throw new Error(`layout names unknown field ${name}`);
      try { fn(str(c, k), a, name); return; } catch (e) { if (!(e instanceof FieldError)) throw e; }
    }
  }
  c.desync = true;
}

/** "HHHHHHH:MM:SS" (also "HHHHH:MM:SS") → seconds, NaN if not /^(\d{1,7}):([0-5]\d):([0-5]\d)$/. */
function hoursAt(c: Cursor, k: number): number {
  const s = c.ST[k]!, colon = c.EN[k]! - 6; // index of the first ':'
  if (colon - s < 1 || colon - s > 7 || c.T.charCodeAt(colon) !== 58 || c.T.charCodeAt(colon + 3) !== 58) return NaN;
  let hh = 0;
  for (let p = s; p < colon; p++) {
    const x = c.T.charCodeAt(p) - 48;
    if (x < 0 || x > 9) return NaN;
    hh = hh * 10 + x;
  }
  const mm = dd(c, colon + 1), ss = dd(c, colon + 4);
  if (mm < 0 || mm > 59 || ss < 0 || ss > 59) return NaN;
  return hh * 3600 + mm * 60 + ss;
}

/** Motion state byte (2 hex digits, upper case) by value. */
const HEX2: string[] = Array.from({ length: 256 }, (_, v) => v.toString(16).toUpperCase().padStart(2, '0'));

/**
 * Device status at k: motion state byte, input bits, output bits (6 or 10 hex; CV100LG: the motion state
 * only). Motion states: 1x ignition off, 2x ignition on, 4x motion sensor only; x1 rest, x2 motion, 16/1A tow.
 */
function statusAt(c: Cursor, k: number, a: Attrs): boolean {
  const n = flen(c, k);
  if ((n !== 2 && n !== 6 && n !== 10) || !hexFieldAt(c, k)) return false;
  const s = c.ST[k]!;
  const hi = hexDigit(c.T.charCodeAt(s)), lo = hexDigit(c.T.charCodeAt(s + 1));
  a.deviceStatus = upper(str(c, k));
  a.motionStatus = HEX2[hi * 16 + lo]!;
  if (hi === 1) a.ignition = false;
  else if (hi === 2) a.ignition = true;
  if (lo === 1) a.motion = false;
  else if (lo === 2 || lo === 6 || lo === 0xa) a.motion = true;
  if (n === 2) return true;
  const w = n === 10 ? 4 : 2;
  let inp = 0, out = 0;
  for (let p = s + 2; p < s + 2 + w; p++) inp = inp * 16 + hexDigit(c.T.charCodeAt(p));
  for (let p = s + 2 + w; p < s + 2 + 2 * w; p++) out = out * 16 + hexDigit(c.T.charCodeAt(p));
  if (inp < 16 && out < 8) {
    // Common case, same attributes as bits(): ignition input, inputs 1-3, outputs 1-3.
    a.ignitionInput = (inp & 1) === 1; a.digitalInput1 = (inp & 2) === 2; a.digitalInput2 = (inp & 4) === 4; a.digitalInput3 = (inp & 8) === 8;
    a.digitalOutput1 = (out & 1) === 1; a.digitalOutput2 = (out & 2) === 2; a.digitalOutput3 = (out & 4) === 4;
  } else {
    bits(inp, w * 4, 'input', a);
    bits(out, w * 4, 'output', a);
  }
  return true;
}

const AN3 = ['analogInput1', 'analogInput2', 'analogInput3'];
/**
 * The analog inputs before battery and device status: the model's table when the frame agrees with it,
 * otherwise inferred from where the device status is (0-3 fields after the hour meter).
 */
function adcNames(c: Cursor): string[] | null {
  const known = c.spec.adcs;
  if (known && isStatusAt(c, c.i + known.length + 1) && isBatteryAt(c, c.i + known.length)) return known;
  for (let k = 0; k <= 3; k++) {
    const s = c.i + k + 1;
    if (s >= c.end) break;
    if (isStatusAt(c, s) && isBatteryAt(c, s - 1)) return k === 3 ? AN3 : AN3.slice(0, k);
  }
  return known;
}

// ---- Layouts ----

function readBlocks(c: Cursor, counted: boolean, firstChecked: boolean): void {
  const n0 = counted ? intAt(c, c.i - 1) : 1;
  // An invalid Number field: read the blocks that are there.
  const n = n0 >= 1 && n0 <= 15 ? n0 : 15;
  for (let k = 0; k < n && !c.desync; k++) {
    if (!(k === 0 && firstChecked) && !blockAt(c, c.i, c.end)) {
      if (k === 0) c.desync = true;
      break;
    }
    readPosition(c);
  }
}

function runLayout(c: Cursor, layout: Segment[]): void {
  let s = 0;
  // Fields before the first position block: aligned on the block found in the frame, so that devices with
  // more (VIN, reserved) or fewer leading fields than the layout still give their position.
  const pIdx = positionsIndex(layout);
  if (pIdx >= 0) {
    const counted = (layout[pIdx] as { positions: string }).positions === 'counted';
    const lead = counted ? 1 : 0;
    const expected = c.i + pIdx + lead;
    let start = expected, checked = blockAt(c, expected, c.end);
    if (!checked) {
      const found = findBlock(c, c.i, c.end);
      if (found >= 0) { start = found; checked = true; }
      // Coordinates where the block belongs but no valid time: a corrupt position, not a missing one.
      else if (expected + 7 <= c.end && isCoordAt(c, expected + 4) && isCoordAt(c, expected + 5)) utcAt(c, expected + 6, 'gnssUtcTime');
    }
    const avail = start - lead - c.i;
    if (avail < pIdx) s = pIdx - avail; // missing leading fields: drop the first names
    else c.i += avail - pIdx; // extra leading fields: skipped
    for (; s < pIdx && !c.desync; s++) applyAt(layout[s] as string, c.i++, c.attrs, c);
    c.desync = false;
    c.i = start;
    readBlocks(c, counted, checked);
    s = pIdx + 1;
  }
  for (; s < layout.length; s++) {
    if (c.desync || c.i >= c.end) return;
    const seg = layout[s]!;
    if (typeof seg === 'string') applyAt(seg, c.i++, c.attrs, c);
    else if ('adcs' in seg) {
      const names = adcNames(c);
      if (!names) { c.desync = true; return; }
      for (const n of names) if (c.i < c.end) applyAt(n, c.i++, c.attrs, c);
    } else if ('can' in seg) readCan(c);
    else if ('eri' in seg) readEri(c);
    else { // positions segment without a layout lead (not reached: handled above)
      readBlocks(c, seg.positions === 'counted', false);
    }
  }
}

const pIdxCache = new WeakMap<Segment[], number>();
function positionsIndex(layout: Segment[]): number {
  let v = pIdxCache.get(layout);
  if (v === undefined) {
    v = layout.findIndex((s) => typeof s === 'object' && 'positions' in s);
    pIdxCache.set(layout, v);
  }
  return v;
}

/** Reports without a layout: every position block found in the frame. */
function readAnyPositions(c: Cursor): void {
  let from = c.i;
  while (c.positions.length < 15) {
    const b = findBlock(c, from, c.end);
    if (b < 0) return;
    c.i = b;
    c.desync = false;
    readPosition(c);
    from = c.i;
  }
}


/** Bit `bit` (0-31) of a mask of at most 8 hex digits. */
const bitOf = (mask: number, bit: number): boolean => ((mask >>> bit) & 1) === 1;

/** Mask field at c.i (1-8 hex digits; empty = 0), advanced past; -1 when not a mask. */
function maskField(c: Cursor): number {
  const k = c.i++;
  if (flen(c, k) === 0) return 0;
  if (flen(c, k) > 8) return -1;
  const m = hexAt(c, k);
  return m === m ? m : -1;
}

/** The fields selected by `mask` in a bit table (frame order); false when a set bit is not in the table. */
function readMasked(c: Cursor, mask: number, table: CanBit[], known: number): boolean {
  if (mask & ~known) { // a set bit without a field: read up to it, then stop
    const stop = 31 - Math.clz32((mask & ~known) & -(mask & ~known));
    for (const { bit, field } of table) {
      if (bit >= stop) break;
      if (!bitOf(mask, bit)) continue;
      if (c.i >= c.end || c.desync) return false;
      applyAt(field, c.i++, c.attrs, c);
    }
    return false;
  }
  for (const { bit, field } of table) {
    if (!bitOf(mask, bit)) continue;
    if (c.i >= c.end || c.desync) return false;
    applyAt(field, c.i++, c.attrs, c);
  }
  return !c.desync;
}

/** Bits of a table, as a mask. */
const knownCache = new WeakMap<CanBit[], number>();
function knownBits(table: CanBit[]): number {
  let v = knownCache.get(table);
  if (v === undefined) {
    v = 0;
    for (const { bit } of table) v |= 1 << bit;
    knownCache.set(table, v >>>= 0);
  }
  return v;
}
const STRUCTURAL_CAN = (1 << CAN_EXPANSION_BIT) | (1 << 30) | (1 << 31);
const EXPANSION3_BIT = 31;

/**
 * CAN report mask and the fields it selects, then (bit 29) the CAN report expansion mask and its fields, then
 * (bit 31 of the expansion mask) a third mask and its fields. Bits 30 (location) and 31 (cell) are structural.
 * Returns true when every selected field was read (the next data is aligned).
 */
function readCanFields(c: Cursor): boolean {
  const maskAt = c.i;
  const mask = maskField(c);
  if (mask < 0) { c.desync = true; return false; }
  if (flen(c, maskAt) !== 0) c.attrs.canReportMask = upper(str(c, maskAt));
  const table = c.spec.canBits;
  if (!table) return false;
  const known = (knownBits(table) | STRUCTURAL_CAN | CAN_TAIL_BITS) >>> 0;
  // Bits 22 and 28 without a field of the model: their data is at the end, after the expansion blocks.
  const tail = mask & CAN_TAIL_BITS & ~knownBits(table);
  if (!readMasked(c, (mask & ~tail) >>> 0 & ~STRUCTURAL_CAN, table, known & ~STRUCTURAL_CAN)) return false;
  if (bitOf(mask, CAN_EXPANSION_BIT) && !readExpansion(c)) return false;
  // Data of the tail bits follows: what comes after it is not aligned.
  return tail === 0;
}

/** The CAN report expansion mask at c.i, its fields, and (its bit 31) the third mask and its fields. */
function readExpansion(c: Cursor): boolean {
  if (c.i >= c.end) return false;
  const ext = maskField(c);
  if (ext < 0) { c.desync = true; return false; }
  if (ext) c.attrs.canExpansionMask = upper(str(c, c.i - 1));
  const extKnown = knownBits(CAN_EXPANSION);
  if (!readMasked(c, (ext & ~(1 << EXPANSION3_BIT)) >>> 0, CAN_EXPANSION, extKnown)) return false;
  if (!bitOf(ext, EXPANSION3_BIT)) return true;
  if (c.i >= c.end) return false;
  const m3 = maskField(c);
  if (m3 < 0) { c.desync = true; return false; }
  return readMasked(c, m3, CAN_EXPANSION3, knownBits(CAN_EXPANSION3));
}

function readCan(c: Cursor): void {
  const maskAt = c.i;
  const m = flen(c, maskAt) <= 8 ? hexAt(c, maskAt) : NaN;
  readCanFields(c);
  // Location (bit 30) follows the expansion blocks and the electric-vehicle block (bit 28), whose length is not
  // known here: find it from the end instead (accuracy, speed, course, altitude, lon, lat, time [, cell..., mask...]).
  if (m === m && bitOf(m, 30)) {
    for (let j = c.end - 7; j >= 4; j--) {
      if (isCoordAt(c, j + 4) && blockAt(c, j, c.end)) {
        c.i = j;
        c.desync = false;
        readPosition(c);
        break;
      }
    }
  }
  c.desync = true; // what follows (cell, reserved) is read with the location
}

// ---- GTERI accessory blocks (models.ts EriBlock) ----

/** A count field at c.i (0-20), advanced past; -1 (and desync) when not one. */
function countField(c: Cursor): number {
  const k = c.i++;
  const n = k < c.end ? intAt(c, k) : NaN;
  if (n === n && n <= 20) return n;
  c.desync = true;
  return -1;
}
/** Field k as a number by `read`; undefined when empty; NaN when invalid. */
function valueAt(c: Cursor, k: number, read: 'str' | 'int' | 'dec' | 'mv'): string | number | undefined {
  if (flen(c, k) === 0) return undefined;
  switch (read) {
    case 'str': return str(c, k);
    case 'int': return intAt(c, k);
    case 'dec': return decAt(c, k);
    case 'mv': { const v = intAt(c, k); return v === v ? round(v / 1000, 3) : NaN; }
  }
}
/** Stores a value read by valueAt under key; false (desync) when it was invalid. */
function put(c: Cursor, key: string, v: string | number | undefined): boolean {
  if (v === undefined) return true;
  if (v !== v) { c.desync = true; return false; }
  c.attrs[key] = v;
  return true;
}
/** Signed 16-bit hex (1/16 °C, DS18B20 1-wire sensors) → °C; NaN when not 1-4 hex digits. */
function oneWireTemp(c: Cursor, k: number): number {
  if (flen(c, k) > 4) return NaN;
  const v = hexAt(c, k);
  if (v !== v) return NaN;
  return ((v << 16) >> 16) * 0.0625;
}

/** true when the BLE accessory mask is at `withLength` (after a raw data length field) rather than at `without`. */
function bleMaskAt(c: Cursor, without: number, withLength: number, lengthFirst: boolean, end: number): boolean {
  const isMask = (k: number) => k < end && flen(c, k) === 4 && hexFieldAt(c, k);
  if (lengthFirst) return isMask(withLength) || !isMask(without);
  return !isMask(without) && isMask(withLength);
}

function readEri(c: Cursor): void {
  const mask = c.eri;
  if (!mask) return;
  const blocks = c.spec.eriBlocks;
  let known = 0;
  for (const b of blocks) known |= b.bits;
  const unknown = (mask & ~known) >>> 0;
  // Blocks come in bit order: a set bit not in the table hides where the later blocks are.
  const stop = unknown ? 31 - Math.clz32(unknown & -unknown) : 32;
  const a = c.attrs;
  for (const b of blocks) {
    if (!(mask & b.bits)) continue;
    if (31 - Math.clz32(b.bits & -b.bits) > stop || c.desync || c.i >= c.end) return;
    switch (b.kind) {
      case 'fuel':
        if (!put(c, 'fuelSensor1', flen(c, c.i) > 8 ? NaN : flen(c, c.i) === 0 ? undefined : hexAt(c, c.i))) return;
        c.i++;
        break;
      case 'fuelSensors': {
        const n = countField(c);
        for (let s = 1; s <= n && !c.desync; s++) {
          c.i++; // sensor type
          if (b.uart) {
            c.i++; // UART id
            if (mask & 1) { if (!put(c, `fuelSensor${s}`, flen(c, c.i) > 8 ? NaN : flen(c, c.i) === 0 ? undefined : hexAt(c, c.i))) return; c.i++; }
          }
          if (mask & 8) { if (!put(c, `fuelSensorLevel${s}`, valueAt(c, c.i, 'dec'))) return; c.i++; }
          if (mask & 16) { if (!put(c, `fuelSensorVolume${s}`, valueAt(c, c.i, 'dec'))) return; c.i++; }
          if (c.i > c.end) { c.desync = true; return; }
        }
        break;
      }
      case 'oneWire': {
        const n = countField(c);
        for (let s = 1; s <= n && !c.desync; s++) {
          if (c.i + 3 > c.end) { c.desync = true; return; }
          const id = c.i, type = intAt(c, c.i + 1), val = c.i + 2;
          c.i += 3;
          if (flen(c, id) !== 0) a[`oneWireId${s}`] = str(c, id);
          if (flen(c, val) === 0) continue;
          // Type 1: temperature sensor; other devices: the value as sent.
          if (type === 1) { if (!put(c, `temperature${s}`, oneWireTemp(c, val))) return; }
          else a[`oneWireData${s}`] = str(c, val);
        }
        break;
      }
      case 'can':
        if (flen(c, c.i) !== 0) { const s = intAt(c, c.i); if (s === 0 || s === 1) a.canBusState = s === 1; else { c.desync = true; return; } }
        c.i++;
        if (!readCanFields(c)) { c.desync = true; return; }
        break;
      case 'rf433': {
        const n = countField(c);
        for (let s = 1; s <= n && !c.desync; s++) {
          if (c.i + 3 > c.end) { c.desync = true; return; }
          const type = intAt(c, c.i + 1);
          if (flen(c, c.i) !== 0) a[`rfId${s}`] = str(c, c.i);
          if (!put(c, `rfTemperature${s}`, valueAt(c, c.i + 2, 'dec'))) return;
          c.i += 3;
          if (type === 2) { if (!put(c, `rfHumidity${s}`, valueAt(c, c.i, 'dec'))) return; c.i++; }
        }
        break;
      }
      case 'ble': {
        const n = countField(c);
        for (let s = 1; s <= n && !c.desync; s++) {
          // index, type, model [, raw data length], raw data, accessory mask (4 hex). Whether the length field is
          // there depends on the firmware (GV310LAU 0A.03 captures: no; its 12.03 document and GV600M: yes): the
          // model's default first, then where the 4-hex accessory mask is.
          const at = c.i + (bleMaskAt(c, c.i + 4, c.i + 5, c.spec.bleRawLength, c.end) ? 5 : 4);
          if (at >= c.end) { c.desync = true; return; }
          if (flen(c, at - 1) !== 0) a[`bleRawData${s}`] = str(c, at - 1);
          c.i = at;
          const m = flen(c, c.i) <= 8 ? hexAt(c, c.i) : NaN;
          if (m !== m) { c.desync = true; return; }
          c.i++;
          let bleKnown = 0;
          for (const f of BLE_FIELDS) bleKnown |= 1 << f.bit;
          if (m & ~bleKnown) { c.desync = true; return; }
          for (const f of BLE_FIELDS) {
            if (!bitOf(m, f.bit)) continue;
            if (c.i >= c.end) { c.desync = true; return; }
            if (!put(c, f.stem + s, valueAt(c, c.i, f.read))) return;
            c.i++;
          }
        }
        break;
      }
    }
  }
}


// ---- Message bodies (reports whose body is not a position layout) ----

/** mcc, mnc (decimal), lac, cell id (hex) and rx level at j..j+4 → a cell; null when the group is empty or invalid. */
function cellAt(c: Cursor, j: number): Attrs | null {
  if (flen(c, j) === 0 && flen(c, j + 3) === 0) return null;
  const mcc = intAt(c, j), mnc = intAt(c, j + 1), lac = flen(c, j + 2) <= 8 ? hexAt(c, j + 2) : NaN, cell = flen(c, j + 3) <= 10 ? hexAt(c, j + 3) : NaN;
  if (mcc !== mcc || mnc !== mnc || lac !== lac || cell !== cell) return null;
  const t: Attrs = { mcc, mnc, lac, cellId: cell };
  const rx = flen(c, j + 4) === 0 ? NaN : decAt(c, j + 4);
  if (rx === rx) t.rxLevel = rx;
  return t;
}
/** Groups of `size` fields from `from` up to c.end, each a cell (mcc, mnc, lac, cell id, rx level, reserved...). */
function readCells(c: Cursor, from: number, size: number, max: number): void {
  const cells: Attrs[] = [];
  for (let j = from; j + 5 <= c.end && cells.length < max; j += size) {
    const t = cellAt(c, j);
    if (t) cells.push(t);
  }
  if (cells.length) c.attrs.cellTowers = cells;
}
/** "c413e200ff14" → "c4:13:e2:00:ff:14" (lower case). */
function macAt(c: Cursor, k: number): string | null {
  if (flen(c, k) !== 12 || !hexFieldAt(c, k)) return null;
  const s = str(c, k).toLowerCase();
  return `${s.slice(0, 2)}:${s.slice(2, 4)}:${s.slice(4, 6)}:${s.slice(6, 8)}:${s.slice(8, 10)}:${s.slice(10, 12)}`;
}
/**
 * A Wi-Fi list at c.i: count, then per access point MAC (12 hex), RSSI and three reserved fields; advanced past.
 * false when the count or an entry is invalid.
 */
function readWifi(c: Cursor): boolean {
  const n = intAt(c, c.i);
  if (n !== n || n > 20) return false;
  const aps: Attrs[] = [];
  let k = c.i + 1;
  for (let s = 0; s < n; s++, k += 5) {
    if (k + 2 > c.end) return false;
    const mac = macAt(c, k), rssi = decAt(c, k + 1);
    if (mac === null || rssi !== rssi) return false;
    aps.push({ mac, rssi });
  }
  c.i = k;
  if (aps.length) c.attrs.wifiAccessPoints = aps;
  return true;
}
/** Battery percentage (0-100) at k → attrs.batteryLevel. */
function batteryAt(c: Cursor, k: number): void {
  if (k < 4 || k >= c.end || flen(c, k) === 0 || flen(c, k) > 3) return;
  const v = intAt(c, k);
  if (v === v && v <= 100) c.attrs.batteryLevel = v;
}
/** "0A03" (4 hex) → "0A.03". */
function versionAt(c: Cursor, k: number): string | undefined {
  if (flen(c, k) !== 4 || !hexFieldAt(c, k)) return undefined;
  const s = upper(str(c, k));
  return `${s.slice(0, 2)}.${s.slice(2)}`;
}

/**
 * Battery trackers after the layout: a Wi-Fi list after the position block (GT501 "...,{time},6,0e36c9916485,-50,,,,
 * ...,310,10,711D,81ECF0F,...") with the cell after it, and the battery percentage at its place from the end.
 */
function batteryTail(c: Cursor): void {
  if (!c.desync && c.i + 1 < c.end && macAt(c, c.i + 1) !== null && readWifi(c) && readCell(c, c.i, c.end, c.attrs)) c.i += 4;
  const n = c.spec.batteryFromEnd!;
  if (n && c.attrs.batteryLevel === undefined) batteryAt(c, c.end - n);
}

/**
 * Bodies read field by field (not by a position layout). `first` is the first field after the device name.
 * Returns false when the code has no body reader here.
 */
function readBody(c: Cursor, code: string, first: number): boolean {
  const a = c.attrs;
  switch (code) {
    case 'GTGSM': {
      // No device name: the field after the IMEI is the fix type (STR, CTN, NMR, RTL...); then up to 7 cells
      // (6 neighbours and the serving one) of mcc, mnc, lac, cell id, rx level, reserved.
      delete a.deviceName;
      if (flen(c, 3) !== 0) a.gsmFixType = str(c, 3);
      readCells(c, 4, 6, 7);
      return true;
    }
    case 'GTLBS': {
      // trigger type, report type, battery %, reserved, motion status, reserved, reserved, component mask, then
      // 7 cells of mcc, mnc, lac, cell id, rx level, reserved.
      batteryAt(c, first + 2);
      readCells(c, first + 8, 6, 7);
      return true;
    }
    case 'GTVER': {
      // device type name, firmware version, hardware version (4 hex each "0A03" = 0A.03)
      if (first < c.end && flen(c, first) !== 0) a.deviceTypeName = str(c, first);
      const fw = versionAt(c, first + 1), hw = versionAt(c, first + 2);
      if (fw) a.firmwareVersion = fw;
      if (hw) a.hardwareVersion = hw;
      return true;
    }
    case 'GTDTT': {
      // reserved, reserved, data type, data length, data (hex)
      const t = intAt(c, first + 2), len = intAt(c, first + 3), d = first + 4;
      if (t === t) a.transparentDataType = t;
      if (d < c.end && hexFieldAt(c, d) && (len !== len || flen(c, d) === len * 2)) a.transparentData = upper(str(c, d));
      return true;
    }
    case 'GTDAT': {
      // report type, reserved, reserved, data [, position block, reserved...]. The data is the device's
      // transparent string as sent (it may hold commas: up to the position block, or else the send time).
      const d = first + 3;
      if (d >= c.end) return true;
      const b = findBlock(c, first, c.end);
      const last = b >= 0 ? b - 1 : c.end - 1;
      if (last >= d) a.transparentData = c.T.slice(c.ST[d]!, c.EN[last]!);
      if (b >= 0) { c.i = b; readPosition(c); }
      return true;
    }
    case 'GTWIF': {
      // count, access points (MAC, RSSI, 3 reserved), reserved fields, battery %
      c.i = first;
      readWifi(c);
      batteryAt(c, c.end - 1);
      return true;
    }
  }
  return false;
}

function decodeAck(c: Cursor, kind: string, code: string, base: Omit<DecodeResult, 'type'>): DecodeResult {
  const count = str(c, c.NF - 1);
  const version = str(c, 1);
  if (code === 'GTHBD') {
    return { ...base, type: 'GTHBD', events: eventOf('GTHBD', -1), reply: `+SACK:GTHBD,${version},${count}$` };
  }
  const serial = c.NF >= 7 ? c.NF - 3 : -1;
  if (serial < 0 || !isCountAt(c, serial)) fail('MALFORMED', `número de série do comando inválido: ${serial < 0 ? '' : str(c, serial)}`);
  const ack: CommandAck = { command: code, serial: upper(str(c, serial)), success: true };
  if (c.NF > 7) base.attributes.ackDetail = c.T.slice(c.ST[4]!, c.EN[c.NF - 4]!);
  return { ...base, type: 'ack', ack, attributes: { ...base.attributes, ackKind: kind } };
}

/** Report kind of a "+RESP:GTxxx," header: the length of the kind word, 0 when the text has no such header. */
function headerKind(text: string): number {
  // /^\+(RESP|BUFF|ACK|SACK):(GT[A-Z0-9]{3}),/ by character codes
  if (text.charCodeAt(0) !== 43) return 0;
  const a = text.charCodeAt(1), b = text.charCodeAt(2), c = text.charCodeAt(3), d = text.charCodeAt(4);
  let k = 0;
  if (text.charCodeAt(5) === 58) {
    if ((a === 82 && b === 69 && c === 83 && d === 80) || (a === 66 && b === 85 && c === 70 && d === 70)
      || (a === 83 && b === 65 && c === 67 && d === 75)) k = 4; // RESP, BUFF, SACK
  } else if (a === 65 && b === 67 && c === 75 && d === 58) k = 3; // ACK
  if (!k) return 0;
  const g = k + 2; // index of 'G'
  if (text.charCodeAt(g) !== 71 || text.charCodeAt(g + 1) !== 84 || text.charCodeAt(g + 5) !== 44) return 0;
  for (let i = g + 2; i < g + 5; i++) {
    const ch = text.charCodeAt(i);
    if (!((ch >= 65 && ch <= 90) || isDigit(ch))) return 0;
  }
  return k;
}

/**
 * The attributes object. Built by a constructor so that V8 gives it in-object room for the ~25 attributes a
 * report adds one by one (an object literal would grow and copy a separate property store several times).
 */
class AttributeBag {}

/** Reports answering AT+GTRTO READ with the device's configuration (all: GTALL, GTALC; one command: GTALS). */
const CONFIG_REPORTS = new Set(['GTALL', 'GTALC', 'GTALS']);

function decodeText(c: Cursor, opts: DecodeOptions): DecodeResult {
  const k = headerKind(c.T);
  if (!k) fail(c.T.charCodeAt(0) === 43 ? 'UNSUPPORTED' : 'MALFORMED', 'cabeçalho @Track não reconhecido');
  const h = c.T.charCodeAt(1); // R(ESP), B(UFF), A(CK), S(ACK)
  if (h === 83) fail('UNSUPPORTED', '+SACK é enviado pelo servidor, não pelo equipamento');
  const at = k + 2, codeKey = c.T.charCodeAt(at + 2) * 65536 + c.T.charCodeAt(at + 3) * 256 + c.T.charCodeAt(at + 4);
  const code = codeOf(c, at, codeKey);
  if (c.NF < 5) fail('TRUNCATED', 'mensagem com campos insuficientes');
  const noCount = normalizeVariants(c);
  if (c.NF < 6) fail('TRUNCATED', 'mensagem com campos insuficientes');
  const vi = flen(c, 1) === 0 ? NO_VERSION : versionInfo(c, 1);
  if (!vi) fail('MALFORMED', `versão de protocolo inválida: ${str(c, 1)}`);
  if (!isImeiAt(c, 2)) fail('MALFORMED', `IMEI inválido: ${str(c, 2)}`);
  if (!noCount && !isCountAt(c, c.NF - 1)) fail('MALFORMED', `contador inválido: ${str(c, c.NF - 1)}`);
  const info = vi.info;
  const deviceId = str(c, 2), rawCount = str(c, c.NF - 1), count = upper(rawCount);
  const attributes = new AttributeBag() as Attrs;
  if (vi !== NO_VERSION) {
    attributes.protocolVersion = vi.version;
    attributes.deviceType = info.deviceType;
  }
  if (!noCount) attributes.messageCount = count;
  if (info.firmware) attributes.firmwareVersion = info.firmware;
  let first = 4; // first field after the device name
  if (c.NF > 8 && isVinAt(c, 3)) {
    attributes.vin = str(c, 3);
    if (flen(c, 4) !== 0) attributes.deviceName = str(c, 4);
    first = 5;
  } else if (flen(c, 3) !== 0) attributes.deviceName = str(c, 3);
  const base: Omit<DecodeResult, 'type'> = { protocol: PROTOCOL, deviceId, positions: [], events: [], attributes };
  if (vi !== NO_VERSION) base.model = info.model;
  if (h === 66) base.buffered = true;
  if (flen(c, c.NF - 2) !== 0) base.sentTime = utcAt(c, c.NF - 2, 'sendTime');

  if (h === 65) return decodeAck(c, 'ACK', code, base);

  c.i = first; c.end = c.NF - 2; c.spec = info.spec; c.attrs = attributes; c.positions = base.positions; c.desync = false; c.eri = 0;
  if (CONFIG_REPORTS.has(code)) {
    // the configuration, command by command, between the device name and the send time: kept as the device wrote it
    // (its field layout is each command's, per model and firmware)
    base.configuration = first <= c.NF - 3 ? c.T.slice(c.ST[first]!, c.EN[c.NF - 3]!) : '';
  } else if (!readBody(c, code, first)) {
    const layout = layoutOf(vi, codeKey, code);
    if (layout) {
      runLayout(c, layout);
      if (c.spec.batteryFromEnd !== undefined) batteryTail(c);
      if (layout.length === 0 && c.NF !== 6) attributes.unparsed = c.T.slice(c.ST[4]!, c.EN[c.NF - 3]!);
    } else readAnyPositions(c);
  }
  const reportType = typeof attributes.reportType === 'number' ? attributes.reportType : -1;
  if (code === 'GTHBM' && reportType >= 0) {
    attributes.harshBehaviorType = reportType;
    attributes.speedLevel = attributes.reportId!;
  } else if (code === 'GTGEO' && attributes.reportId !== undefined) attributes.geofenceId = attributes.reportId;
  else if (code === 'GTIGN' || code === 'GTVGN') attributes.ignition = true;
  else if (code === 'GTIGF' || code === 'GTVGF') attributes.ignition = false;
  base.events = eventOf(code, reportType);
  const result = base as DecodeResult;
  result.type = code;
  if (noCount) return result; // nothing to acknowledge with
  if (code === 'GTHBD') result.reply = `+SACK:GTHBD,${str(c, 1)},${rawCount}$`;
  else if (opts.sackReports !== false) result.reply = `+SACK:${rawCount}$`;
  return result;
}

const NO_OPTS: DecodeOptions = {};
const NO_ATTRS = {} as Attrs;

type LatinBuffer = Buffer & { latin1Slice(start: number, end: number): string };

/**
 * Locates the fields of a frame in c; the text ends before the final '$' (or at the end when there is none).
 * An error when the bytes cannot be a frame.
 */
function scan(c: Cursor, frame: Buffer): DecodeError | null {
  c.T = '';
  c.blockJ = -1;
  if (!frame || frame.length === 0) return { protocol: PROTOCOL, error: 'quadro vazio', errorCode: 'EMPTY' };
  const n = frame.length;
  if (n > MAX_FRAME) return { protocol: PROTOCOL, error: 'quadro grande demais', errorCode: 'OVERSIZE' };
  const end = frame[n - 1] === 36 ? n - 1 : n;
  let nf = 0;
  const ST = c.ST, EN = c.EN;
  ST[0] = 0;
  for (let i = 0; i < end; i++) {
    const b = frame[i]!;
    if (b === 44) { EN[nf] = i; ST[++nf] = i + 1; }
    else if (b - 0x20 >>> 0 > 0x5e) return { protocol: PROTOCOL, error: 'byte não ASCII no quadro', errorCode: 'MALFORMED' };
  }
  c.T = (frame as LatinBuffer).latin1Slice(0, end); // printable ASCII only: same as 'ascii', faster
  EN[nf] = end;
  c.NF = nf + 1;
  // Without its '$' a frame is accepted only when it ends like a whole message: send time and count, not
  // a cut right after a position's time (then the "count" would be the MCC, and the two fields before the
  // time longitude and latitude).
  if (frame[n - 1] !== 36 && !(c.NF >= 6 && isCountAt(c, c.NF - 1) && isTime14At(c, c.NF - 2)
    && !(isCoordAt(c, c.NF - 3) && isCoordAt(c, c.NF - 4)))
    // variant "send time,count,protocol version" (no version field after the header). A 12-digit send time
    // without count is accepted only with its '$': without it, it cannot be told from a cut.
    && !(c.NF >= 6 && (flen(c, c.NF - 1) === 6 || flen(c, c.NF - 1) === 10) && hexFieldAt(c, c.NF - 1) && isCountAt(c, c.NF - 2) && isTime14At(c, c.NF - 3))) {
    return { protocol: PROTOCOL, error: "quadro sem '$' final", errorCode: 'TRUNCATED' };
  }
  return null;
}

/** Decodes the frame scanned into c. Never throws. */
function read(c: Cursor, opts: DecodeOptions): DecodeResult | DecodeError {
  try {
    return decodeText(c, opts);
  } catch (e) {
    const err: DecodeError = e instanceof Malformed
      ? { protocol: PROTOCOL, error: e.message, errorCode: e.code }
      : e instanceof FieldError
        ? { protocol: PROTOCOL, error: e.message, errorCode: 'MALFORMED' }
        : { protocol: PROTOCOL, error: `erro interno: ${(e as Error)?.message ?? String(e)}`, errorCode: 'INTERNAL' };
    // What could be read before failing: the device id (third field) and the message type (first field).
    if (c.T !== '') {
      const parts = c.T.split(',', 3);
      const type = /:(GT[A-Z0-9]{3})$/.exec(parts[0] ?? '')?.[1];
      if (parts[2] && /^(\d{15}|[0-9A-Fa-f]{14})$/.test(parts[2])) err.deviceId = parts[2];
      if (type) err.type = type;
    }
    return err;
  }
}

/** Idle cursors (one in the common case; more only while decodes overlap). */
const pool: Cursor[] = [];
const NO_POSITIONS: NormalizedPosition[] = [];

export function decode(frame: Buffer, _now?: Date, opts: DecodeOptions = NO_OPTS): DecodeResult | DecodeError {
  // Binary (HEX) form: "+\0", or "+RSP"/"+EVT"... where a text frame has its ':' (byte 4 or 5).
  if (frame && frame.length > 5 && (frame[1] === 0 || (frame[4] !== 58 && frame[5] !== 58)) && isBinaryFrame(frame)) return decodeBinary(frame);
  const c = pool.pop() ?? new Cursor();
  try {
    return scan(c, frame) ?? read(c, opts);
  } finally {
    c.attrs = NO_ATTRS; c.positions = NO_POSITIONS; // keep no result alive
    pool.push(c);
  }
}

/**
 * Step by step: the fields of one frame in a cursor of its own (count, field(i)), or why it is no frame. Any
 * number of them can be open at once; decodeScanned() decodes one.
 */
export function scanFrame(frame: Buffer): Cursor | DecodeError {
  const c = new Cursor();
  return scan(c, frame) ?? c;
}

/** Decodes a frame scanned by scanFrame(). Never throws. */
export function decodeScanned(c: Cursor, opts: DecodeOptions = NO_OPTS): DecodeResult | DecodeError {
  return read(c, opts);
}
