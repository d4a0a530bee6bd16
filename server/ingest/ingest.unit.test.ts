// Pure unit tests of the gateway pieces (no database).
import net from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queclinkDecoder } from '../../protocol/queclink/index.ts';
import { isDecodeError } from '../../protocol/types.ts';
import { DeviceDirectory, protocolAllowed } from './devices.ts';
import { envNumber, envPort } from './env.ts';
import { limitsFromEnv, portsFromEnv } from './index.ts';
import { AddressLimiter, handleFrames, listening, rawText } from './listeners.ts';
import { newMetrics } from './metrics.ts';
import { decodeOsmand } from './osmand.ts';
import { QueclinkVehicle, qTime } from './simulator.ts';
import { tinyDecoder } from './testing/tiny-decoder.ts';
import { log } from './log.ts';
import { BatchWriter, buildRows, copyNum, copyText, isoMs, isTransient, pendingLimitsFromEnv, POSICAO_COLS, prepare, ULTIMO_COLS, writerOptionsFromEnv } from './writer.ts';

describe('OsmAnd', () => {
  it('decodes the Traccar Client query (speed in knots → km/h)', () => {
    const r = decodeOsmand('id=123456&timestamp=1795430000&lat=-23.561414&lon=-46.655881&speed=10&bearing=87.5&altitude=780&batt=64&accuracy=5');
    expect(isDecodeError(r)).toBe(false);
    if (isDecodeError(r)) return;
    expect(r.deviceId).toBe('123456');
    expect(r.positions[0]).toMatchObject({ latitude: -23.561414, longitude: -46.655881, speedKmh: 18.52, course: 87.5, altitude: 780, valid: true, fixTime: new Date(1795430000 * 1000).toISOString() });
    expect(r.attributes).toMatchObject({ batteryLevel: 64, accuracy: 5 });
  });
  it('decodes the JSON body of newer Traccar Client versions (speed in m/s)', () => {
    const r = decodeOsmand(JSON.stringify({ device_id: 'cel01', location: { timestamp: '2026-11-23T12:00:00.000Z', coords: { latitude: -23.5, longitude: -46.6, speed: 10, heading: 90, altitude: 700 }, battery: { level: 0.42, is_charging: true }, is_moving: true } }));
    if (isDecodeError(r)) throw new Error(r.error);
    expect(r.positions[0]).toMatchObject({ speedKmh: 36, course: 90, fixTime: '2026-11-23T12:00:00.000Z' });
    expect(r.attributes).toMatchObject({ batteryLevel: 42, charge: true, motion: true });
  });
  it('rejects bad input with an error, never throws', () => {
    expect(isDecodeError(decodeOsmand('id=1&lat=95&lon=0'))).toBe(true);
    expect(isDecodeError(decodeOsmand('lat=1&lon=2'))).toBe(true);
    expect(isDecodeError(decodeOsmand('{bad json'))).toBe(true);
    fc.assert(fc.property(fc.string(), (s) => { decodeOsmand(s); }));
  });
});

describe('simulator', () => {
  it('produces @Track frames the Queclink decoder reads with concrete values', () => {
    const start = Date.UTC(2026, 10, 23, 12);
    const v = new QueclinkVehicle('864000000000001', 'gv58cg', 1, start);
    const seen = new Set<string>();
    for (let i = 1; i <= 3000; i++) {
      for (const f of v.step(start + i * 2000)) {
        const r = queclinkDecoder.decode(Buffer.from(f));
        if (isDecodeError(r)) throw new Error(`${r.error}: ${f}`);
        seen.add(r.type);
        expect(r.deviceId).toBe('864000000000001');
        expect(r.model).toBe('gv58cg');
        for (const p of r.positions) {
          expect(p.latitude).toBeGreaterThan(-23.7); expect(p.latitude).toBeLessThan(-23.4);
          expect(p.longitude).toBeGreaterThan(-46.8); expect(p.longitude).toBeLessThan(-46.5);
        }
      }
    }
    for (const t of ['GTFRI', 'GTIGN', 'GTIGF', 'GTSPD', 'GTHBM', 'GTHBD']) expect(seen).toContain(t);
    const buff = queclinkDecoder.decode(Buffer.from(v.fri(new Date(start), 'BUFF')));
    expect(!isDecodeError(buff) && buff.buffered).toBe(true);
    const ack = queclinkDecoder.decode(Buffer.from(v.ackFor('AT+GTRTO=gv58cg,3,,,,,,0A1F$')!));
    expect(!isDecodeError(ack) && ack.ack).toMatchObject({ command: 'GTRTO', serial: '0A1F', success: true });
  });
  it('formats Queclink times', () => {
    expect(qTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('20260102030405');
  });
});

describe('writer helpers', () => {
  it('escapes COPY text', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText('a\tb\\c\nd')).toBe('a\\tb\\\\c\\nd');
    expect(copyText({ x: 'a"b\\' })).toBe('{"x":"a\\\\"b\\\\\\\\"}');
    expect(copyText(true)).toBe('t');
    expect(copyText(1.5)).toBe('1.5');
    expect(copyText(Number.NaN)).toBe('\\N');
  });
  it('classifies database errors', () => {
    expect(isTransient(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransient(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    expect(isTransient(Object.assign(new Error('x'), { code: '22P02' }))).toBe(false);
    expect(isTransient(Object.assign(new Error('x'), { code: '42P01' }))).toBe(true);
    expect(isTransient(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransient(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isTransient(new TypeError('x is not a function'))).toBe(false);
  });
  it('keeps binary frames as hex and ASCII as text', () => {
    expect(rawText(Buffer.from('+RESP:GTFRI$'))).toBe('+RESP:GTFRI$');
    expect(rawText(Buffer.from([0x01, 0xff]))).toBe('01ff');
  });
});

describe('tiny test protocol framing', () => {
  it('never loses a frame whatever the packet boundaries and garbage', () => {
    const frames = ['+T:1,FRI,2026-01-01T00:00:00Z,1,2,3,1,1$', '+T:2,HBD,2026-01-01T00:00:01Z$', '+T:3,IGN,2026-01-01T00:00:02Z,1,2,0,1,0$'];
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 30 }), fc.string({ maxLength: 5 }), (cuts, junk) => {
      const clean = junk.replace(/[+$]/g, '');
      const stream = Buffer.from(clean + frames.join(clean));
      let pending = Buffer.alloc(0);
      const got: string[] = [];
      let i = 0, k = 0;
      while (i < stream.length) {
        const n = cuts[k++ % cuts.length]!;
        const r = tinyDecoder.frame(Buffer.concat([pending, stream.subarray(i, i + n)]));
        got.push(...r.frames.map((f) => f.toString()));
        pending = Buffer.from(r.rest);
        i += n;
      }
      expect(got).toEqual(frames);
    }));
  });
});

describe('writer rows', () => {
  it('writes numbers in COPY text exactly as String() does (fast path for up to 6 decimals)', () => {
    const ref = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '\\N');
    expect([-23.561414, -46.6, 0.000001, -0.5, 760.5, 1073.741823, 1073.741824, 1e-7, -0, 2 ** 31, NaN, Infinity, undefined, null].map(copyNum))
      .toEqual(['-23.561414', '-46.6', '0.000001', '-0.5', '760.5', '1073.741823', '1073.741824', '1e-7', '0', '2147483648', '\\N', '\\N', '\\N', '\\N']);
    fc.assert(fc.property(fc.integer({ min: -2e9, max: 2e9 }), fc.integer({ min: 0, max: 7 }), (k, d) => copyNum(k / 10 ** d) === ref(k / 10 ** d)), { numRuns: 20_000 });
    fc.assert(fc.property(fc.double(), (v) => copyNum(v) === ref(v)), { numRuns: 20_000 });
  });

  it('reads decoder times by arithmetic and anything else like Date.parse', () => {
    for (const t of ['2026-11-23T12:34:56.789Z', '2026-11-23T00:00:00.000Z', '2026-11-23T23:59:59.999Z', '2024-02-29T23:59:59.000Z',
      '2023-02-31T00:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-11-23T24:00:00.000Z', '2026-11-23T12:34:56Z', '2026-11-22T12:34:56.789Z', 'x']) {
      expect(isoMs(t), t).toEqual(Date.parse(t));
    }
    // any time, in any order (the day of the last one is remembered)
    fc.assert(fc.property(fc.date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }), (d) => isoMs(d.toISOString()) === d.getTime()), { numRuns: 20_000 });
  });

  it('keeps every message\'s rows intact across the shared slabs (3 MB of messages, non-ASCII text)', () => {
    const receivedAt = new Date('2026-11-23T12:00:00.000Z');
    const link = { id: 't', protocol: 'x', stream: true, alive: true, send: () => true };
    const dev = { equipamentoId: 1, serial: '860000000000001', empresaId: 3, ativoId: null, motoristaId: null, modelo: null, tecnologia: null };
    const made = Array.from({ length: 6000 }, (_, i) => prepare({ link, raw: 'raw', receivedAt, result: {
      protocol: 'x', deviceId: dev.serial, type: 'FRI', attributes: { n: i, local: `Região ${'ç'.repeat(i % 200)}` }, events: [],
      positions: [{ fixTime: '2026-11-23T11:59:00.000Z', latitude: -23.5, longitude: -46.6, speedKmh: i, course: 90, valid: true }],
    } } as never));
    const lines = buildRows(made, new Map([[dev.serial, dev]]), () => false).posicao.toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(6000);
    lines.forEach((l, i) => {
      const cols = l.split('\t');
      expect(cols[POSICAO_COLS.indexOf('speed')], `row ${i}`).toBe(String(i));
      expect(JSON.parse(cols[POSICAO_COLS.indexOf('attributes')]!), `row ${i}`).toEqual({ n: i, local: `Região ${'ç'.repeat(i % 200)}` });
    });
  });

  it('folds a message into COPY lines with the device columns in front, drops impossible fix times', () => {
    const receivedAt = new Date('2026-11-23T12:00:00.000Z');
    const link = { id: 't', protocol: 'x', stream: true, alive: true, send: () => true };
    const p = prepare({ link, raw: 'raw', receivedAt, result: {
      protocol: 'x', deviceId: '860000000000009', type: 'FRI', reply: '+A$', attributes: { ignition: true, note: 'a\\b', local: 'São Paulo', engine_speed_can: 1266 },
      events: [{ code: 'SOS', key: 'panic', description: 'Pânico' }],
      positions: [
        { fixTime: '2026-11-23T11:59:00.000Z', latitude: -23.5, longitude: -46.6, speedKmh: 10, course: 90, valid: true, satellites: 9 },
        { fixTime: '2090-01-01T00:00:00.000Z', latitude: 1, longitude: 1, speedKmh: 0, course: 0, valid: true },
        { fixTime: '2026-11-23T11:59:30.000Z', latitude: -23.6, longitude: -46.7, speedKmh: 12, course: 91, altitude: 700, valid: false, hdop: 1.2 },
      ] } });
    const dev = { equipamentoId: 1, serial: '860000000000009', empresaId: 3, ativoId: 7, motoristaId: null, modelo: null, tecnologia: null };
    const rows = buildRows([p], new Map([[dev.serial, dev]]), () => true);
    expect(rows.posicaoCount).toBe(2);
    expect(rows.implausible).toBe(1);
    // One field per column of metadata/telemetria/posicao.yaml: a column added there must be written here too.
    expect(rows.posicao.toString().trimEnd().split('\n').map((l) => l.split('\t').length)).toEqual([POSICAO_COLS.length, POSICAO_COLS.length]);
    expect(POSICAO_COLS.length).toBe(19);
    const lines = rows.posicao.toString().trimEnd().split('\n').map((l) => Object.fromEntries(l.split('\t').map((v, i) => [POSICAO_COLS[i], v])));
    expect(lines[0]).toMatchObject({ empresa_id: '3', ativo_id: '7', motorista_id: '\\N', serial: dev.serial, fix_time: '2026-11-23T11:59:00.000Z', tipo: 'FRI',
      received_at: '2026-11-23T12:00:00.000Z', lat: '-23.5', altitude: '\\N', valid: 't', satellites: '9', ignition: 't', buffered: 'f', rpm: '1266',
      // keys in jsonb order (see jsonb-order.ts)
      attributes: '{"note":"a\\\\\\\\b","local":"São Paulo","ignition":true,"engine_speed_can":1266}' });
    expect(lines[1]).toMatchObject({ empresa_id: '3', fix_time: '2026-11-23T11:59:30.000Z', altitude: '700', valid: 'f', hdop: '1.2' });
    expect(rows.ultimoCount).toBe(1);
    const u = Object.fromEntries(ULTIMO_COLS.map(([c], i) => [c, rows.ultimos[i]![0]]));
    u.attributes = JSON.parse(u.attributes as string);
    expect(u).toMatchObject({ serial: dev.serial, empresa_id: 3, ativo_id: 7, fix_time: '2026-11-23T11:59:30.000Z', lat: -23.6, ignition: true,
      ultimo_evento: 'panic', attributes: { ignition: true, note: 'a\\b', local: 'São Paulo' } });
    const [e] = JSON.parse(rows.eventos);
    expect(e).toMatchObject({ key: 'panic', fix_time: '2026-11-23T11:59:30.000Z', lat: -23.6, attributes: { note: 'a\\b', local: 'São Paulo' } });
    expect([...rows.months]).toEqual(['2026-11']);
  });

  it('leaves out messages of a protocol other than the registration’s tecnologia (not stored, not pending)', () => {
    const dev = (tecnologia: string | null) => ({ equipamentoId: 1, serial: 'S1', empresaId: 3, ativoId: 7, motoristaId: null, modelo: null, tecnologia });
    expect(protocolAllowed(dev('queclink'), 'osmand')).toBe(false);
    expect(protocolAllowed(dev('osmand'), 'queclink')).toBe(false);
    expect(protocolAllowed(dev('legacy'), 'legacy')).toBe(true);
    expect(protocolAllowed(dev('vdo'), 'queclink')).toBe(false); // cameras report to the video service, never here
    expect(protocolAllowed(dev('queclink'), 'tiny')).toBe(true); // protocols outside the catalogue are not checked
    const link = { id: 't', protocol: 'osmand', alive: true, send: () => true };
    const msg = (protocol: string) => prepare({ link, raw: 'raw', receivedAt: new Date('2026-11-23T12:00:00.000Z'), result: {
      protocol, deviceId: 'S1', type: 'position', attributes: {}, events: [],
      positions: [{ fixTime: '2026-11-23T11:59:00.000Z', latitude: -23.5, longitude: -46.6, speedKmh: 1, course: 0, valid: true }] } });
    const a = msg('osmand'), b = msg('queclink');
    const rows = buildRows([a, b], new Map([['S1', dev('queclink')]]), () => true);
    expect([a.refused, b.refused]).toEqual([true, false]);
    expect([rows.refused, rows.posicaoCount, rows.pendentes.length, rows.mensagensPendentes.length]).toEqual([1, 1, 0, 0]);
  });

  it('counts unidentified connections per address; over the cap the oldest is closed (0 = no cap)', () => {
    const m = newMetrics();
    const l = new AddressLimiter(2, m);
    const closed: string[] = [];
    const take = (addr: string, name: string) => l.acquire(addr, () => closed.push(name));
    const a = take('1.1.1.1', 'a'), b = take('1.1.1.1', 'b');
    take('2.2.2.2', 'x');
    expect([closed, l.count('1.1.1.1')]).toEqual([[], 2]);
    take('1.1.1.1', 'c'); // full: a, the oldest, goes
    expect([closed, l.count('1.1.1.1'), m.evictedConnections]).toEqual([['a'], 2, 1]);
    l.release(a); // its close arrives later: nothing more happens
    l.release(b); // b identified itself: it leaves the count
    take('1.1.1.1', 'd');
    expect([closed, l.count('1.1.1.1'), l.count('2.2.2.2')]).toEqual([['a'], 2, 1]);
    const off = new AddressLimiter(0, m);
    for (let i = 0; i < 500; i++) off.acquire('3.3.3.3', () => closed.push('off'));
    expect([closed.length, off.count('3.3.3.3')]).toEqual([1, 0]);
  });
});

describe('backpressure in the log', () => {
  afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks(); });

  it('logs one line when reading first pauses and one when the episode ends, with the count, not one per pause', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const info = vi.spyOn(log, 'info').mockImplementation(() => undefined);
    const metrics = newMetrics();
    const w = new BatchWriter({} as never, metrics, { maxQueued: 10, maxBatch: 5, maxInFlight: 1, lingerMs: 0, pending: { maintenanceMs: 0 } });
    let written = 0;
    // Each batch takes 1 ms to write.
    (w as unknown as { write: (b: unknown[]) => Promise<void> }).write = async (b) => { await new Promise((r) => setTimeout(r, 1)); written += b.length; };
    let pauses = 0, resumes = 0;
    w.register({ pause: () => pauses++, resume: () => resumes++ });
    const link = { id: 't', protocol: 'x', stream: true, alive: true, send: () => true };
    const msg = () => ({ link, raw: 'r', receivedAt: new Date(), result: { protocol: 'x', deviceId: 'S1', type: 'HBD', attributes: {}, events: [], positions: [] } });
    // One batch being written; then 40 cycles of: 5 more fill the queue (10: reading pauses), the batch is
    // written (5 left: reading resumes, the next batch goes).
    for (let i = 0; i < 5; i++) w.enqueue(msg());
    for (let c = 0; c < 40; c++) {
      for (let i = 0; i < 5; i++) w.enqueue(msg());
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(pauses).toBe(40);
    expect(resumes).toBe(40);
    expect(metrics.readPauses).toBe(40);
    const full = warn.mock.calls.filter((c) => String(c[1]).startsWith('fila de gravação cheia'));
    expect(full).toHaveLength(1);
    expect(full[0]![0]).toEqual({ queued: 10 });
    expect(info.mock.calls.filter((c) => String(c[1]).startsWith('fila de gravação normalizada'))).toHaveLength(0); // still going
    await vi.advanceTimersByTimeAsync(1000); // no pause for a second: the episode ends
    const end = info.mock.calls.filter((c) => String(c[1]).startsWith('fila de gravação normalizada'));
    expect(end).toHaveLength(1);
    // the 10th message started the episode; the 39 later cycles brought 195 more
    expect(end[0]![0]).toMatchObject({ pausas: 40, mensagens: 195, maiorFila: 10 });
    expect(end[0]![1]).toBe('fila de gravação normalizada: leitura pausada 40 vez(es), 195 mensagens recebidas durante o episódio');
    // a new episode later logs its own start
    for (let i = 0; i < 10; i++) w.enqueue(msg());
    expect(warn.mock.calls.filter((c) => String(c[1]).startsWith('fila de gravação cheia'))).toHaveLength(2);
    const stopping = w.stop(10);
    await vi.advanceTimersByTimeAsync(20);
    await stopping;
    expect(info.mock.calls.filter((c) => String(c[1]).startsWith('fila de gravação normalizada'))).toHaveLength(2);
    expect(written).toBe(215);
  });
});

describe('device servers after they listen', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('a port already taken rejects the start; once listening, a server error (accept out of descriptors) is logged, not thrown', async () => {
    const errors = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const a0 = net.createServer();
    expect(await listening(a0, 'x', (done) => a0.listen(0, '127.0.0.1', done))).toBe(a0);
    const port = (a0.address() as net.AddressInfo).port;
    const b = net.createServer();
    await expect(listening(b, 'x', (done) => b.listen(port, '127.0.0.1', done))).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const emfile = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' });
    expect(() => a0.emit('error', emfile)).not.toThrow();
    expect(errors).toHaveBeenCalledWith({ err: 'accept EMFILE', code: 'EMFILE', what: 'x' }, 'erro no servidor de equipamentos');
    // a flood of failed accepts: counted, not one line each
    a0.emit('error', emfile);
    a0.emit('error', emfile);
    expect(errors).toHaveBeenCalledTimes(1);
    // still accepting
    const c = net.connect(port, '127.0.0.1');
    await new Promise<void>((r, j) => { c.once('connect', () => r()); c.once('error', j); });
    c.destroy();
    await new Promise<void>((r) => a0.close(() => r()));
  });
});

describe('device model on the link', () => {
  // A real GV350M-family report (known type) and the same frame with an unknown device type (99).
  const known = '+RESP:GTFRI,6E0C03,860201061234567,,0,0,1,1,0.0,0,99.9,-46.633308,-23.550520,20260101120000,0724,0005,2D06,0A3B,00,0.0,,,,100,110000,,,,20260101120001,0001$';
  const unknown = known.replace('6E0C03', '990C03');
  it('keeps a known model from the decoder and never lets an unknown type override it', () => {
    const link: import('./types.ts').Link = { id: 't', protocol: 'queclink', send: () => true, alive: true, model: 'gv58cg' };
    const queued: unknown[] = [];
    const sink = { enqueue: (m: unknown) => { queued.push(m); } } as unknown as import('./listeners.ts').IngestSink;
    const decoded = queclinkDecoder.decode(Buffer.from(unknown), new Date());
    expect(isDecodeError(decoded) ? decoded.error : decoded.model).toBe('desconhecido (99)');
    handleFrames([Buffer.from(unknown)], link, queclinkDecoder, sink, newMetrics(), {});
    expect(queued).toHaveLength(1);
    expect(link.model).toBe('gv58cg');
    const k = queclinkDecoder.decode(Buffer.from(known), new Date());
    expect(isDecodeError(k)).toBe(false);
    handleFrames([Buffer.from(known)], link, queclinkDecoder, sink, newMetrics(), {});
    expect(link.model).toBe(isDecodeError(k) ? undefined : k.model);
    expect(link.model).not.toMatch(/^desconhecido/);
  });
});

describe('a connection keeps its first serial', () => {
  it('drops a frame that claims another device on the same link (no takeover of its commands)', () => {
    const frame = (imei: string) => Buffer.from(`+RESP:GTFRI,6E0C03,${imei},,0,0,1,1,0.0,0,99.9,-46.633308,-23.550520,20260101120000,0724,0005,2D06,0A3B,00,0.0,,,,100,110000,,,,20260101120001,0001$`);
    const link: import('./types.ts').Link = { id: 't', protocol: 'queclink', send: () => true, alive: true };
    const queued: unknown[] = [];
    const linked: string[] = [];
    const sink = { enqueue: (m: unknown) => { queued.push(m); } } as unknown as import('./listeners.ts').IngestSink;
    const metrics = newMetrics();
    handleFrames([frame('860201061234567'), frame('860201069999999'), frame('860201061234567')], link, queclinkDecoder, sink, metrics, { onLink: (l) => { linked.push(l.serial!); } });
    expect(link.serial).toBe('860201061234567');
    expect(linked).toEqual(['860201061234567']);
    expect(queued).toHaveLength(2);
    expect(metrics.badFrames).toBe(1);
  });
});

describe('numbers from the environment', () => {
  const vars = ['X_TEST_N', 'X_TEST_PORT', 'INGEST_MAX_BATCH', 'INGEST_LINGER_MS', 'GATEWAY_PENDENTES_TOTAL', 'QUECLINK_TCP_PORT', 'GATEWAY_MAX_CONN_PER_IP'];
  afterEach(() => { for (const v of vars) delete process.env[v]; });

  it('unset or empty gives the default; a whole number within the rule is read; anything else is refused clearly', () => {
    expect(envNumber('X_TEST_N', 7)).toBe(7);
    process.env.X_TEST_N = '';
    expect(envNumber('X_TEST_N', 7)).toBe(7);
    process.env.X_TEST_N = ' 12 ';
    expect(envNumber('X_TEST_N', 7)).toBe(12);
    for (const bad of ['abc', '12abc', '-1', '1.5', 'Infinity']) {
      process.env.X_TEST_N = bad;
      expect(() => envNumber('X_TEST_N', 7)).toThrow(`X_TEST_N inválido: ${bad} (esperado um número inteiro ≥ 0)`);
    }
    process.env.X_TEST_N = '0';
    expect(() => envNumber('X_TEST_N', 7, { min: 1 })).toThrow('X_TEST_N inválido: 0 (esperado um número inteiro ≥ 1)');
    process.env.X_TEST_N = '0.25';
    expect(envNumber('X_TEST_N', 7, { integer: false })).toBe(0.25);
  });

  it('ports: "off"/"none" close one, 0–65535 otherwise', () => {
    expect(envPort('X_TEST_PORT', 5001)).toBe(5001);
    process.env.X_TEST_PORT = 'off';
    expect(envPort('X_TEST_PORT', 5001)).toBeNull();
    process.env.X_TEST_PORT = '6001';
    expect(envPort('X_TEST_PORT', 5001)).toBe(6001);
    process.env.X_TEST_PORT = '70000';
    expect(() => envPort('X_TEST_PORT', 5001)).toThrow('X_TEST_PORT inválido: 70000 (esperado um número inteiro entre 0 e 65535)');
    process.env.QUECLINK_TCP_PORT = 'cinco';
    expect(() => portsFromEnv()).toThrow('QUECLINK_TCP_PORT inválido: cinco');
  });

  it('batching, pending-list bounds and connection limits all go through the same check', () => {
    expect(writerOptionsFromEnv()).toEqual({ maxBatch: 10_000, maxInFlight: 2, lingerMs: 10, maxQueued: 40_000 });
    process.env.INGEST_MAX_BATCH = '8000';
    process.env.INGEST_LINGER_MS = '0';
    expect(writerOptionsFromEnv()).toMatchObject({ maxBatch: 8000, lingerMs: 0 });
    expect(new BatchWriter({} as never, newMetrics(), { pending: { maintenanceMs: 0 } }).opts.maxBatch).toBe(8000);
    process.env.INGEST_MAX_BATCH = '4k';
    expect(() => writerOptionsFromEnv()).toThrow('INGEST_MAX_BATCH inválido: 4k (esperado um número inteiro ≥ 1)');
    process.env.INGEST_MAX_BATCH = '0';
    expect(() => writerOptionsFromEnv()).toThrow('INGEST_MAX_BATCH inválido: 0');
    process.env.GATEWAY_PENDENTES_TOTAL = '-5';
    expect(() => pendingLimitsFromEnv()).toThrow('GATEWAY_PENDENTES_TOTAL inválido: -5');
    process.env.GATEWAY_MAX_CONN_PER_IP = 'muitas';
    expect(() => limitsFromEnv()).toThrow('GATEWAY_MAX_CONN_PER_IP inválido: muitas');
  });
});

describe('device directory cache after a register change', () => {
  const info = (serial: string, ativoId: number | null) => ({ id: Number(serial), serial, empresa_id: 1, modelo: 'gv58cg', tecnologia: 'queclink', ativado: true, ativo_id: ativoId, registros: 1 });
  /** A directory over a fake pool that answers the serials asked and counts them. */
  const directory = () => {
    const asked: string[] = [];
    const links: Record<string, number | null> = { S1: 10, S2: 20, S3: null, S4: 10 };
    const pool = { query: async (_sql: string, [serials]: [string[]]) => { asked.push(...serials); return { rows: serials.map((s) => info(s, links[s] ?? null)) }; } };
    return { dir: new DeviceDirectory(pool as never), asked };
  };
  const all = ['S1', 'S2', 'S3', 'S4'];

  it('an equipamento or equipamento_ativo change forgets its serial(s) only, before and after', async () => {
    const { dir, asked } = directory();
    await dir.resolve(all);
    asked.length = 0;
    dir.invalidateChange({ entity: 'equipamento', id: 1, before: { serial: 'S1' }, after: { serial: 'S1' } });
    await dir.resolve(all);
    expect(asked).toEqual(['S1']);
    asked.length = 0;
    dir.invalidateChange({ entity: 'equipamento_ativo', id: 9, before: { serial: 'S2' }, after: { serial: 'S3' } });
    await dir.resolve(all);
    expect(asked.sort()).toEqual(['S2', 'S3']);
    asked.length = 0;
    dir.invalidateChange({ entity: 'equipamento', id: 4, before: { serial: 'S4' }, after: null }); // deleted
    await dir.resolve(all);
    expect(asked).toEqual(['S4']);
  });

  it('an ativo change forgets the serials linked to it and the ones without an asset', async () => {
    const { dir, asked } = directory();
    await dir.resolve(all);
    asked.length = 0;
    dir.invalidateChange({ entity: 'ativo', id: 10, before: { empresaId: 1 }, after: { empresaId: 2 } });
    await dir.resolve(all);
    expect(asked.sort()).toEqual(['S1', 'S3', 'S4']);
  });
});
