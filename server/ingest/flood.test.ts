// Connection floods and garbage (issue 18): idle connections from one address never lock out a genuine device behind
// the same address (carrier NAT), connections without a valid frame close within the first-message timeout, and a
// frame without its end marker is cut at a bound. Real TCP on 127.0.0.1 against the real gateway and decoders.
import dgram from 'node:dgram';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Decoder } from '../../protocol/types.ts';
import { limitsFromEnv, startGateway, type Gateway } from './index.ts';
import { QueclinkVehicle } from './simulator.ts';
import { createDatabase, defaultDatabaseUrl, registerDevice } from './testing/db.ts';
import { FakeDevice, sleep, until } from './testing/device.ts';
import { tinyDecoder, tinyFrame } from './testing/tiny-decoder.ts';

let db: { url: string; drop: () => Promise<void> };
let gw: Gateway;   // cap 200 unidentified per address, 60 s to identify: closures seen here are not the timeout's
let quick: Gateway; // 1 s to identify
let small: Gateway; // cap 3 unidentified per address, 60 s to identify, OsmAnd HTTP
let pool: pg.Pool;

const IMEI = '864000000000777';
const OTHER = '864000000000888'; // company 2's device
/** Every connection a test opens, closed after it (a failed test must not leave the address capped for the next). */
const opened: FakeDevice[] = [];
const connect = async (port: number) => {
  const d = await FakeDevice.connect(port);
  d.socket.on('error', () => {});
  opened.push(d);
  return d;
};
const closed = (d: FakeDevice) => new Promise<void>((r) => { if (d.socket.destroyed) r(); else d.socket.once('close', () => r()); });
/** p, or an error naming `what` after ms (the timer is cleared: no stray rejection later). */
const within = <T>(p: Promise<T>, ms: number, what: string) => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: não ocorreu em ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
};
/** A fix time `s` seconds ago, whole seconds (the @Track time has no milliseconds). */
const ago = (s: number) => new Date(Math.floor(Date.now() / 1000) * 1000 - s * 1000);
/** Positions of `serial` stored with fix time `d`. */
const stored = async (serial: string, d: Date) =>
  Number((await pool.query('SELECT count(*) n FROM telemetria.posicao WHERE serial = $1 AND fix_time = $2', [serial, d])).rows[0].n);
const sackOf = (frame: string) => `+SACK:${frame.slice(-5, -1)}$`;

/** A decoder that throws from frame() on 'F' and from decode() on 'D' (decoders must never stop the gateway). */
const boomDecoder: Decoder = {
  ...tinyDecoder,
  protocol: 'boom',
  frame(b) { if (b.includes('F!')) throw new Error('frame explodiu'); return tinyDecoder.frame(b); },
  decode(f, now) { if (f.includes('D!')) throw new Error('decode explodiu'); return tinyDecoder.decode(f, now); },
};

beforeAll(async () => {
  db = await createDatabase(inject('databaseUrl') ?? defaultDatabaseUrl(), `ingest_flood_${process.pid}`);
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const base = { databaseUrl: db.url, host: '127.0.0.1', writer: { lingerMs: 5 }, commands: { pollMs: 60_000 } };
  gw = await startGateway({
    ...base, ports: { queclinkTcp: 0, queclinkUdp: 0 }, decoders: { tiny: tinyDecoder, boom: boomDecoder },
    extra: { tiny: { tcp: 0 }, boom: { tcp: 0 } },
    limits: { idleTimeoutMs: 0, firstMessageTimeoutMs: 60_000, maxPerAddress: 200 },
  });
  quick = await startGateway({ ...base, migrate: false, ports: { queclinkTcp: 0 }, limits: { idleTimeoutMs: 0, firstMessageTimeoutMs: 1000, maxPerAddress: 200 } });
  small = await startGateway({
    ...base, migrate: false, ports: { osmandHttp: 0 }, decoders: { tiny: tinyDecoder }, extra: { tiny: { tcp: 0 } },
    limits: { idleTimeoutMs: 0, firstMessageTimeoutMs: 60_000, maxPerAddress: 3 },
  });
  await registerDevice(pool, IMEI, 1, 101, 'gv58cg', 'queclink');
  await registerDevice(pool, OTHER, 2, 202, 'gv58cg', 'queclink');
  await registerDevice(pool, '860000000000001', 1, 103, 'gv50cg', 'tiny');
});

afterEach(async () => {
  for (const d of opened.splice(0)) d.close();
  await until(() => gw.metrics.connections === 0 && quick.metrics.connections === 0 && small.metrics.connections === 0);
});

afterAll(async () => {
  await small?.stop();
  await quick?.stop();
  await gw?.stop();
  await pool?.end();
  await db?.drop();
});

describe('idle connections from one address (carrier NAT)', () => {
  it('defaults: 10 s to send a valid frame, 200 unidentified connections per address', () => {
    expect(limitsFromEnv()).toMatchObject({ firstMessageTimeoutMs: 10_000, maxPerAddress: 200 });
  });

  it('250 idle connections from 127.0.0.1 do not lock out a genuine device from it: the oldest idle ones make room', async () => {
    const evicted = gw.metrics.evictedConnections;
    const idle: FakeDevice[] = [];
    for (let i = 0; i < 250; i++) idle.push(await connect(gw.ports.queclinkTcp));
    await within(Promise.all(idle.slice(0, 50).map(closed)), 5000, 'as 50 conexões ociosas mais antigas fechadas');
    expect(idle.slice(50).filter((d) => d.socket.destroyed)).toHaveLength(0);
    expect(gw.metrics.evictedConnections).toBe(evicted + 50);

    // The genuine tracker, behind the same address: accepted (the oldest idle connection goes), stored, acknowledged.
    const v = new QueclinkVehicle(IMEI, 'gv58cg', 7, Date.now() - 3600_000);
    const tf = ago(1800);
    const f = v.fri(tf);
    const dev = await connect(gw.ports.queclinkTcp);
    await dev.send(f);
    await dev.waitFor(sackOf(f), 5000);
    expect(await stored(IMEI, tf)).toBe(1);
    await within(closed(idle[50]!), 5000, 'a conexão ociosa mais antiga fechada');
    expect(gw.metrics.evictedConnections).toBe(evicted + 51);

    // Identified, it no longer counts: 200 more idle connections evict idle ones only, never the device.
    const more: FakeDevice[] = [];
    for (let i = 0; i < 200; i++) more.push(await connect(gw.ports.queclinkTcp));
    // 199 idle + 200 new = 399 unidentified: the 199 older ones go, every one of them an idle one.
    await within(Promise.all(idle.map(closed)), 5000, 'todas as conexões ociosas anteriores fechadas');
    expect(gw.metrics.evictedConnections).toBe(evicted + 250);
    expect(more.filter((d) => d.socket.destroyed)).toHaveLength(0);
    expect(dev.socket.destroyed).toBe(false);
    const tg = ago(1700);
    const g = v.fri(tg);
    await dev.send(g);
    await dev.waitFor(sackOf(g), 5000);
    expect(await stored(IMEI, tg)).toBe(1);
    for (const d of [...idle, ...more, dev]) d.close();
    await until(() => gw.metrics.connections === 0);
  });

  it('closes connections that send no valid frame within the first-message timeout; an identified one stays', async () => {
    const idle: FakeDevice[] = [];
    for (let i = 0; i < 30; i++) idle.push(await connect(quick.ports.queclinkTcp));
    const v = new QueclinkVehicle(IMEI, 'gv58cg', 7, Date.now() - 3600_000);
    const f = v.fri(ago(1600));
    const dev = await connect(quick.ports.queclinkTcp);
    await dev.send(f);
    await dev.waitFor(sackOf(f), 5000);
    const t = Date.now();
    await within(Promise.all(idle.map(closed)), 3000, 'conexões ociosas fechadas pelo prazo da primeira mensagem');
    expect(Date.now() - t).toBeLessThan(3000);
    expect(quick.metrics.idleTimeouts).toBe(30);
    await sleep(1200);
    expect(dev.socket.destroyed).toBe(false);
    dev.close();
    await until(() => quick.metrics.connections === 0);
  });

  it('cap 3: caps unidentified connections per remote address (TCP and OsmAnd HTTP together): the oldest goes, identified ones are not counted', async () => {
    const port = small.ports.tinyTcp;
    const t0 = ago(3000).getTime();
    const iso = (s: number) => new Date(t0 + s * 1000).toISOString();
    const before = small.metrics.evictedConnections;
    const ds = [await connect(port), await connect(port), await connect(port)];
    for (const [i, d] of ds.entries()) await d.send(tinyFrame('860000000000001', 'FRI', iso(100 + i), -23.5, -46.6, 1));
    await until(() => ds.every((d) => d.count('+ACK:') === 1));
    const idle = [await connect(port), await connect(port), await connect(port)];
    await until(() => small.metrics.connections === 6); // 3 identified + 3 idle: all in
    expect(small.metrics.evictedConnections).toBe(before);
    const extra = await connect(port);
    await closed(idle[0]!); // the oldest idle one made room
    expect(small.metrics.evictedConnections).toBe(before + 1);
    // An OsmAnd request gets in too (one more idle TCP connection goes), and once decoded it no longer counts.
    const http = await fetch(`http://127.0.0.1:${small.ports.osmandHttp}/?id=x1&lat=1&lon=1`).then((r) => r.status, (e: Error) => e.message);
    expect(http).not.toBe('fetch failed');
    await closed(idle[1]!);
    expect(small.metrics.evictedConnections).toBe(before + 2);
    expect([idle[2]!.socket.destroyed, extra.socket.destroyed, ds.some((d) => d.socket.destroyed)]).toEqual([false, false, false]);
    await extra.send(tinyFrame('860000000000001', 'FRI', iso(110), -23.5, -46.6, 1));
    await extra.waitFor(`+ACK:860000000000001,${iso(110)}$`);
  });
});

describe('frames without an end marker are bounded', () => {
  it('a 100 KB run without $ from a connection with no valid frame closes it at once (not after the 60 s timeout)', async () => {
    const before = gw.metrics.garbageCloses;
    const d = await connect(gw.ports.queclinkTcp);
    void d.send(`+RESP:GTFRI,${'A'.repeat(100_000)}`);
    await within(closed(d), 3000, 'conexão com lixo fechada');
    expect(gw.metrics.garbageCloses).toBe(before + 1);
  });

  it('the same sent slowly, 1 KB at a time, to a decoder that keeps a partial frame: closed after a few KB', async () => {
    const d = await connect(gw.ports.tinyTcp);
    let sent = 0;
    await d.send('+T:860000000000001,FRI,');
    while (!d.socket.destroyed && sent < 100) { await d.send('9'.repeat(1024)); sent++; await sleep(5); }
    await within(closed(d), 3000, 'conexão com quadro sem fim fechada');
    expect(sent).toBeLessThanOrEqual(20); // cut at 16 KB, never 100 KB kept
  });

  it('an identified device: garbage between frames is dropped and the next frame decodes; 100 KB without $ closes it', async () => {
    const v = new QueclinkVehicle(IMEI, 'gv58cg', 7, Date.now() - 3600_000);
    const d = await connect(gw.ports.queclinkTcp);
    const ta = ago(1500);
    const a = v.fri(ta);
    await d.send(a);
    await d.waitFor(sackOf(a), 5000);
    const tb = ago(1400);
    const b = v.fri(tb);
    await d.send(`+RESP:GTFRI,${'B'.repeat(10_000)}`); // cut at the frame bound (4 KB), not kept
    await d.send(b);
    await d.waitFor(sackOf(b), 5000);
    const before = gw.metrics.garbageCloses;
    void d.send(`+RESP:GTFRI,${'C'.repeat(100_000)}`);
    await within(closed(d), 3000, 'conexão identificada com 100 KB de lixo fechada');
    expect(gw.metrics.garbageCloses).toBe(before + 1);
    expect([await stored(IMEI, ta), await stored(IMEI, tb)]).toEqual([1, 1]);
  });

  it('UDP: a 60 KB datagram without $ is dropped, the next datagram of the peer is stored', async () => {
    const v = new QueclinkVehicle(IMEI, 'gv58cg', 7, Date.now() - 3600_000);
    const tf = ago(1300);
    const f = v.fri(tf);
    const s = dgram.createSocket('udp4');
    const got: string[] = [];
    s.on('message', (m) => got.push(m.toString('latin1')));
    const send = (b: Buffer | string) => new Promise<void>((r, j) => s.send(b, gw.ports.queclinkUdp, '127.0.0.1', (e) => (e ? j(e) : r())));
    await send(Buffer.from(`+RESP:GTFRI,${'U'.repeat(60_000)}`));
    await send(f);
    await until(() => got.includes(sackOf(f)));
    s.close();
    expect(await stored(IMEI, tf)).toBe(1);
  });
});

describe('decoders and serials', () => {
  it('a decoder that throws never stops the gateway: the connection goes on and the next frame is stored', async () => {
    const d = await connect(gw.ports.boomTcp);
    const t = ago(900);
    const ok = tinyFrame('860000000000001', 'FRI', t.toISOString(), -23.5, -46.6, 1);
    await d.send('F!');
    await sleep(50);
    await d.send('+T:860000000000001,D!,x$');
    await sleep(50);
    await d.send(ok);
    await d.waitFor('+ACK:860000000000001', 5000);
    expect(await stored('860000000000001', t)).toBe(1);
    d.close();
  });

  it('a connection reports only for its own serial: a frame of another device on it is neither stored nor acknowledged', async () => {
    const mine = new QueclinkVehicle(IMEI, 'gv58cg', 7, Date.now() - 3600_000);
    const theirs = new QueclinkVehicle(OTHER, 'gv58cg', 8, Date.now() - 3600_000);
    const d = await connect(gw.ports.queclinkTcp);
    const [ta, tx, tb] = [ago(1200), ago(1100), ago(1000)];
    const a = mine.fri(ta);
    const x = theirs.fri(tx);
    const b = mine.fri(tb);
    await d.send(a);
    await d.waitFor(sackOf(a), 5000);
    await d.send(x + b);
    await d.waitFor(sackOf(b), 5000);
    await gw.drain();
    expect(d.count('+SACK:')).toBe(2); // a and b only
    expect(await stored(OTHER, tx)).toBe(0);
    expect(await stored(IMEI, tx)).toBe(0);
    expect([await stored(IMEI, ta), await stored(IMEI, tb)]).toEqual([1, 1]);
    d.close();
  });
});
