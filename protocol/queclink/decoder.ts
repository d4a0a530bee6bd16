// Queclink @Track ASCII decoder: one frame → normalized result. Never throws.
import type { CommandAck, DecodeError, DecodeErrorCode, DecodeResult, NormalizedPosition } from '../types.ts';
import { eventsFor } from './events.ts';
import { applyField, FieldError, hex, int, num, utc, type Attrs } from './fields.ts';
import { MAX_FRAME } from './framer.ts';
import { layoutFor, modelFromVersion, type ModelSpec, type Segment } from './models.ts';

export const PROTOCOL = 'queclink';

export interface DecodeOptions {
  /** Answer every +RESP/+BUFF report with "+SACK:{count}$" (device SACK mode). Default true. */
  sackReports?: boolean;
}

class Malformed extends Error {
  constructor(readonly code: DecodeErrorCode, message: string) { super(message); }
}

const COORD = /^-?\d{1,3}\.\d{1,6}$/;
const TIME14 = /^\d{14}$/;
const IMEI = /^(\d{15}|[0-9A-Fa-f]{14})$/;
const VERSION = /^[0-9A-Fa-f]{6}$|^[0-9A-Fa-f]{10}$/;
const COUNT = /^[0-9A-Fa-f]{4}$/;

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
  if (lon === '' && lat === '' && (t === '' || TIME14.test(t))) return /^\d{0,2}$/.test(v[j]!);
  return COORD.test(lon) && COORD.test(lat) && TIME14.test(t);
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
  const [mcc, mnc, lac, cell] = withCell ? [v[c.i++]!, v[c.i++]!, v[c.i++]!, v[c.i++]!] : ['', '', '', ''];
  const a = c.attrs;
  if (acc !== '') a.gnssAccuracy = int(acc, 'gnssAccuracy');
  if (mcc !== '') a.mcc = int(mcc, 'mcc');
  if (mnc !== '') a.mnc = int(mnc, 'mnc');
  if (lac !== '') a.lac = hex(lac, 'lac');
  if (cell !== '') a.cellId = hex(cell, 'cellId');
  const pos: Partial<NormalizedPosition> = {};
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
          if (f === 'satellites') pos.satellites = int(raw, f);
          else if (f === 'hdop') pos.hdop = num(raw, f);
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
  if (pos.hdop !== undefined) p.hdop = pos.hdop;
  if (pos.satellites !== undefined) p.satellites = pos.satellites;
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
      if (COORD.test(c.v[j + 4]!) && blockAt(c.v, j, c.end, 7)) {
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
  if (!COUNT.test(serial)) fail('MALFORMED', `número de série do comando inválido: ${serial}`);
  const ack: CommandAck = { command: code, serial: serial.toUpperCase(), success: true };
  if (v.length > 7) base.attributes.ackDetail = v.slice(4, v.length - 3).join(',');
  return { ...base, type: 'ack', ack, attributes: { ...base.attributes, ackKind: kind } };
}

function decodeText(text: string, opts: DecodeOptions): DecodeResult {
  const m = /^\+(RESP|BUFF|ACK|SACK):(GT[A-Z0-9]{3}),/.exec(text);
  if (!m) fail(text.startsWith('+') ? 'UNSUPPORTED' : 'MALFORMED', 'cabeçalho @Track não reconhecido');
  const kind = m[1]!, code = m[2]!;
  if (kind === 'SACK') fail('UNSUPPORTED', '+SACK é enviado pelo servidor, não pelo equipamento');
  const v = text.slice(0, -1).split(',');
  if (v.length < 6) fail('TRUNCATED', 'mensagem com campos insuficientes');
  const version = v[1]!, deviceId = v[2]!;
  if (!VERSION.test(version)) fail('MALFORMED', `versão de protocolo inválida: ${version}`);
  if (!IMEI.test(deviceId)) fail('MALFORMED', `IMEI inválido: ${deviceId}`);
  const count = v[v.length - 1]!, sendTime = v[v.length - 2]!;
  if (!COUNT.test(count)) fail('MALFORMED', `contador inválido: ${count}`);
  const info = modelFromVersion(version);
  const attributes: Attrs = { protocolVersion: version.toUpperCase(), deviceType: info.deviceType, messageCount: count.toUpperCase() };
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
  const result: DecodeResult = { ...base, type: code, events: eventsFor(code, reportType) };
  if (code === 'GTHBD') result.reply = `+SACK:GTHBD,${version},${count}$`;
  else if (opts.sackReports !== false) result.reply = `+SACK:${count}$`;
  return result;
}

export function decode(frame: Buffer, _now?: Date, opts: DecodeOptions = {}): DecodeResult | DecodeError {
  let deviceId: string | undefined;
  let type: string | undefined;
  try {
    if (!frame || frame.length === 0) return { protocol: PROTOCOL, error: 'quadro vazio', errorCode: 'EMPTY' };
    if (frame.length > MAX_FRAME) return { protocol: PROTOCOL, error: 'quadro grande demais', errorCode: 'OVERSIZE' };
    for (const b of frame) {
      if (b < 0x20 || b > 0x7e) return { protocol: PROTOCOL, error: 'byte não ASCII no quadro', errorCode: 'MALFORMED' };
    }
    let text = frame.toString('ascii');
    if (!text.endsWith('$')) return { protocol: PROTOCOL, error: "quadro sem '$' final", errorCode: 'TRUNCATED' };
    const parts = text.split(',', 3);
    type = /:(GT[A-Z0-9]{3})$/.exec(parts[0] ?? '')?.[1];
    if (parts[2] && IMEI.test(parts[2])) deviceId = parts[2];
    text = text.trim();
    return decodeText(text, opts);
  } catch (e) {
    const err: DecodeError = e instanceof Malformed
      ? { protocol: PROTOCOL, error: e.message, errorCode: e.code }
      : e instanceof FieldError
        ? { protocol: PROTOCOL, error: e.message, errorCode: 'MALFORMED' }
        : { protocol: PROTOCOL, error: `erro interno: ${(e as Error)?.message ?? String(e)}`, errorCode: 'INTERNAL' };
    if (deviceId) err.deviceId = deviceId;
    if (type) err.type = type;
    return err;
  }
}
