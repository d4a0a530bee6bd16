// OsmAnd protocol (Traccar Client app): HTTP GET/POST with id, lat, lon, timestamp, speed (knots), bearing,
// altitude, batt; or the app's JSON body. The HTTP answer (200) is sent only after the commit.
import http from 'node:http';
import type net from 'node:net';
import type { DecodeError, DecodeResult, Decoder, FrameResult } from '../../protocol/types.ts';
import { protocolAllowed, type DeviceDirectory } from './devices.ts';
import { log } from './log.ts';
import type { GatewayMetrics } from './metrics.ts';
import { listening, type AddressLimiter, type AddressSlot, type IngestSink } from './listeners.ts';
import type { Link } from './types.ts';

const KNOTS_TO_KMH = 1.852;
const MPS_TO_KMH = 3.6;

function parseTime(v: string | number | undefined, now: Date): string | null {
  if (v === undefined || v === '') return now.toISOString();
  if (typeof v === 'number' || /^\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    const ms = n > 1e12 ? n : n * 1000;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  }
  const s = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(v) && !/[zZ+]/.test(v.slice(10)) ? v.replace(' ', 'T') + 'Z' : v;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const f = (v: unknown): number | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

function err(error: string, deviceId?: string): DecodeError {
  return { protocol: 'osmand', error, errorCode: 'MALFORMED', deviceId };
}

/** Decodes a query string / form body, or the JSON body of newer Traccar Client versions. */
export function decodeOsmand(input: string, now = new Date()): DecodeResult | DecodeError {
  const text = input.trim();
  if (!text) return { protocol: 'osmand', error: 'Mensagem vazia', errorCode: 'EMPTY' };
  let id: string | undefined, lat: number | undefined, lon: number | undefined, time: string | null;
  let speedKmh = 0, course = 0, altitude: number | undefined, hdop: number | undefined;
  const attributes: Record<string, string | number | boolean> = {};
  if (text.startsWith('{')) {
    let j: any;
    try { j = JSON.parse(text); } catch { return err('JSON inválido'); }
    const loc = j.location ?? j;
    const c = loc.coords ?? {};
    id = j.device_id ?? j.deviceId ?? j.id;
    lat = f(c.latitude); lon = f(c.longitude);
    time = parseTime(loc.timestamp, now);
    speedKmh = Math.max(0, (f(c.speed) ?? 0) * MPS_TO_KMH);
    course = Math.max(0, f(c.heading) ?? 0);
    altitude = f(c.altitude);
    if (f(c.accuracy) !== undefined) attributes.accuracy = f(c.accuracy)!;
    const lvl = f(loc.battery?.level);
    if (lvl !== undefined) attributes.batteryLevel = Math.round(lvl <= 1 ? lvl * 100 : lvl);
    if (typeof loc.battery?.is_charging === 'boolean') attributes.charge = loc.battery.is_charging;
    if (typeof loc.is_moving === 'boolean') attributes.motion = loc.is_moving;
    if (f(loc.odometer) !== undefined) attributes.odometer = f(loc.odometer)!;
  } else {
    const q = new URLSearchParams(text.startsWith('?') ? text.slice(1) : text);
    id = q.get('id') ?? q.get('deviceid') ?? undefined;
    lat = f(q.get('lat')); lon = f(q.get('lon'));
    const ll = q.get('location')?.split(',');
    if (ll && ll.length === 2) { lat = f(ll[0]); lon = f(ll[1]); }
    time = parseTime(q.get('timestamp') ?? undefined, now);
    speedKmh = (f(q.get('speed')) ?? 0) * KNOTS_TO_KMH;
    course = f(q.get('bearing') ?? q.get('heading')) ?? 0;
    altitude = f(q.get('altitude'));
    hdop = f(q.get('hdop'));
    const batt = f(q.get('batt'));
    if (batt !== undefined) attributes.batteryLevel = batt;
    const acc = f(q.get('accuracy'));
    if (acc !== undefined) attributes.accuracy = acc;
    const charge = q.get('charge');
    if (charge !== null) attributes.charge = charge === 'true';
    const ign = q.get('ignition');
    if (ign !== null) attributes.ignition = ign === 'true';
  }
  if (!id || !/^[\w.:-]{1,40}$/.test(id)) return err('Identificador (id) ausente ou inválido');
  if (lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) return err('Coordenadas inválidas', id);
  if (!time) return err('Data/hora inválida', id);
  return {
    protocol: 'osmand', deviceId: id, model: 'osmand', type: 'position', positions: [{
      fixTime: time, latitude: lat, longitude: lon, speedKmh: Math.round(speedKmh * 100) / 100, course,
      altitude, valid: true, hdop,
    }], events: [], attributes,
  };
}

/** Decoder facade so OsmAnd fits the same registry (one "frame" = one request payload). */
export const osmandDecoder: Decoder = {
  protocol: 'osmand',
  frame(buffer: Buffer): FrameResult { return { frames: buffer.length ? [buffer] : [], rest: Buffer.alloc(0) }; },
  decode(frame: Buffer, now?: Date) { return decodeOsmand(frame.toString('utf8'), now); },
  encode() { throw new Error('OsmAnd não aceita comandos'); },
};

const MAX_BODY = 64 * 1024;

export interface OsmandOptions {
  /** Answer 503 when the commit takes longer. */
  timeoutMs?: number;
  /** Serials registered with another tecnologia are refused (403). */
  directory?: DeviceDirectory;
  limiter?: AddressLimiter;
}

const NOT_OSMAND = 'Equipamento não registrado com o protocolo OsmAnd';

export function startOsmandHttp(port: number, host: string, sink: IngestSink, metrics: GatewayMetrics, opts: OsmandOptions = {}): Promise<http.Server> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const directory = opts.directory;
  /** The serial is registered, but not as an OsmAnd device (cached lookup). */
  const slots = new WeakMap<net.Socket, AddressSlot>();
  const foreign = (id: string) => { const d = directory?.get(id); return !!d && !protocolAllowed(d, 'osmand'); };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) { res.writeHead(413).end(); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => {
      metrics.bytesIn += size;
      const body = Buffer.concat(chunks).toString('utf8').trim();
      const payload = body && (req.method === 'POST' || req.method === 'PUT') ? (url.search && !body.startsWith('{') ? `${url.search.slice(1)}&${body}` : body) : url.search;
      metrics.frames++;
      const r = decodeOsmand(payload);
      if ('error' in r) {
        metrics.badFrames++;
        log.warn({ error: r.error, payload: payload.slice(0, 200) }, 'requisição OsmAnd inválida');
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(r.error);
        return;
      }
      metrics.messages++;
      const slot = slots.get(req.socket);
      if (slot) opts.limiter?.release(slot);
      const refuse = () => {
        metrics.refusedMessages++;
        log.warn({ serial: r.deviceId, address: req.socket.remoteAddress }, 'posição OsmAnd recusada: equipamento de outra tecnologia');
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(NOT_OSMAND);
      };
      // Known (cached) as another tecnologia: refused at once; otherwise the writer resolves and checks it (no
      // lookup per request here, so random ids cost no extra queries).
      if (foreign(r.deviceId)) { refuse(); return; }
      let answered = false;
      const answer = (status: number) => {
        if (answered) return;
        answered = true;
        if (status === 403) res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(NOT_OSMAND);
        else res.writeHead(status).end();
      };
      const timer = setTimeout(() => answer(503), timeoutMs);
      const link: Link = { id: `http-osmand-${req.socket.remoteAddress}`, protocol: 'osmand', alive: true, send: () => false, serial: r.deviceId, address: req.socket.remoteAddress };
      // The writer checks the registration again (refused → not stored, done(false)).
      sink.enqueue({ link, result: r, raw: payload.slice(0, 2000), receivedAt: new Date(), done: (ok) => { clearTimeout(timer); answer(ok ? 200 : foreign(r.deviceId) ? 403 : 400); } });
    });
  });
  server.requestTimeout = timeoutMs;
  server.headersTimeout = Math.min(server.headersTimeout, timeoutMs);
  if (opts.limiter) {
    const limiter = opts.limiter;
    server.on('connection', (socket) => {
      const addr = socket.remoteAddress ?? '';
      // An HTTP connection counts as unidentified until one of its requests decodes.
      const slot = limiter.acquire(addr, () => socket.destroy());
      slots.set(socket, slot);
      socket.once('close', () => limiter.release(slot));
    });
  }
  return listening(server, 'osmand', (done) => server.listen(port, host, done));
}
