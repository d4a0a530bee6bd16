// Gateway limits (issue 6 §3): idle device sockets time out, connections per address are capped, and messages of
// unknown devices are kept with bounds (per serial, in total, number of serials) and a retention period.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { limitsFromEnv, startGateway, type Gateway } from './index.ts';
import { createDatabase, defaultDatabaseUrl, registerDevice } from './testing/db.ts';
import { FakeDevice, sleep, until } from './testing/device.ts';
import { tinyDecoder, tinyFrame } from './testing/tiny-decoder.ts';

let db: { url: string; drop: () => Promise<void> };
let gw: Gateway;
let pool: pg.Pool;
let port: number;

const t0 = Date.now() - 3600_000;
const iso = (s: number) => new Date(t0 + s * 1000).toISOString();
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const closed = (d: FakeDevice) => new Promise<void>((r) => { if (d.socket.destroyed) r(); else d.socket.once('close', () => r()); });

beforeAll(async () => {
  db = await createDatabase(inject('databaseUrl') ?? defaultDatabaseUrl(), `ingest_limits_${process.pid}`);
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  gw = await startGateway({
    databaseUrl: db.url, host: '127.0.0.1', decoders: { tiny: tinyDecoder }, extra: { tiny: { tcp: 0 } }, ports: { osmandHttp: 0 },
    writer: { lingerMs: 5, pending: { perSerial: 3, total: 5, serials: 2, retentionDays: 1, maintenanceMs: 0 } },
    limits: { idleTimeoutMs: 1000, firstMessageTimeoutMs: 200, maxPerAddress: 3 },
    commands: { pollMs: 60_000 },
  });
  port = gw.ports.tinyTcp;
  await registerDevice(pool, '860000000000001', 1, 101);
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await db?.drop();
});

describe('connection limits', () => {
  it('defaults: 40 min idle (longer than a 30 min heartbeat), 10 s to identify, 200 unidentified per address; env overrides', () => {
    expect(limitsFromEnv()).toEqual({ idleTimeoutMs: 2_400_000, firstMessageTimeoutMs: 10_000, maxPerAddress: 200 });
    process.env.GATEWAY_IDLE_TIMEOUT_S = '90';
    process.env.GATEWAY_MAX_CONN_PER_IP = '0';
    try {
      expect(limitsFromEnv()).toMatchObject({ idleTimeoutMs: 90_000, maxPerAddress: 0 });
      process.env.GATEWAY_IDLE_TIMEOUT_S = 'x';
      expect(() => limitsFromEnv()).toThrow('GATEWAY_IDLE_TIMEOUT_S inválido: x');
    } finally {
      delete process.env.GATEWAY_IDLE_TIMEOUT_S;
      delete process.env.GATEWAY_MAX_CONN_PER_IP;
    }
  });

  it('closes a device socket silent for longer than the idle timeout; a talking device stays', async () => {
    const before = gw.metrics.idleTimeouts;
    const quiet = await FakeDevice.connect(port);
    const busy = await FakeDevice.connect(port);
    await quiet.send(tinyFrame('860000000000001', 'FRI', iso(1), -23.5, -46.6, 1));
    await quiet.waitFor(`+ACK:860000000000001,${iso(1)}$`);
    let closedAt = 0;
    quiet.socket.once('close', () => { closedAt = Date.now(); });
    const started = Date.now();
    for (let i = 0; i < 12; i++) {
      await busy.send(`+T:860000000000001,HBD,${iso(10 + i)}$`);
      await sleep(150);
    }
    // Closed during the ~1.8 s the busy device talked, and not before the 1 s idle timeout (no upper bound on the
    // time: a loaded machine only makes it later).
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - started).toBeGreaterThan(800);
    expect(busy.socket.destroyed).toBe(false);
    expect(busy.count('+SACK:HBD')).toBe(12);
    expect(gw.metrics.idleTimeouts).toBe(before + 1);
    busy.close();
    await until(() => gw.metrics.connections === 0);
  });

  it('closes a connection that never identifies itself', async () => {
    const before = gw.metrics.idleTimeouts;
    const d = await FakeDevice.connect(port);
    await d.send('lixo sem quadro válido');
    const t = Date.now();
    await closed(d);
    expect(Date.now() - t).toBeLessThan(800); // the first-message timeout (200 ms), not the idle one (1 s)
    expect(gw.metrics.idleTimeouts).toBe(before + 1);
    await until(() => gw.metrics.connections === 0);
  });
  it("does not close an unidentified connection while the gateway itself holds the reading (write queue full)", async () => {
    // Its own gateway: a write queue of 1 message, 200 ms to identify; the database held by a lock on the
    // positions table, so the first device's message stays queued and every connection is paused.
    const held = await startGateway({
      databaseUrl: db.url, host: '127.0.0.1', decoders: { tiny: tinyDecoder }, extra: { tiny: { tcp: 0 } }, ports: { osmandHttp: 0 },
      writer: { lingerMs: 5, maxQueued: 1, maxBatch: 1 }, limits: { idleTimeoutMs: 0, firstMessageTimeoutMs: 200, maxPerAddress: 10 },
      commands: { pollMs: 60_000 }, migrate: false,
    });
    const lock = await pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE telemetria.posicao IN ACCESS EXCLUSIVE MODE');
      const a = await FakeDevice.connect(held.ports.tinyTcp);
      await a.send(tinyFrame('860000000000001', 'FRI', iso(100), -23.5, -46.6, 1));
      await until(() => held.metrics.readPauses === 1);
      const before = held.metrics.idleTimeouts;
      const b = await FakeDevice.connect(held.ports.tinyTcp);
      await b.send(tinyFrame('860000000000001', 'FRI', iso(101), -23.5, -46.6, 1)); // unread: reading is held
      await sleep(900); // 4.5 × the time to identify
      expect(b.socket.destroyed).toBe(false);
      expect(held.metrics.idleTimeouts).toBe(before);
      await lock.query('ROLLBACK');
      // reading resumes: the held frame identifies the connection and is stored and acknowledged
      await b.waitFor(`+ACK:860000000000001,${iso(101)}$`);
      await a.waitFor(`+ACK:860000000000001,${iso(100)}$`);
      expect(b.socket.destroyed).toBe(false);
      expect(held.metrics.idleTimeouts).toBe(before);
      a.close();
      b.close();
    } finally {
      await lock.query('ROLLBACK').catch(() => undefined);
      lock.release();
      await held.stop();
    }
  });
  // The per-address cap (unidentified connections only, the oldest goes): flood.test.ts.
});

describe('pending list bounds (3 per serial, 5 in total, 2 serials, 1 day)', () => {
  const pend = async (serial: string) => (await q('SELECT quantidade, descartadas FROM equipamento_pendente WHERE serial = $1', [serial]))[0] ?? null;
  const raws = async (serial: string) => (await q<{ raw: string }>('SELECT raw FROM telemetria.mensagem_pendente WHERE serial = $1 ORDER BY id', [serial])).map((r) => r.raw);
  const send = async (serial: string, from: number, n: number) => {
    const d = await FakeDevice.connect(port);
    let frames = '';
    for (let i = 0; i < n; i++) frames += tinyFrame(serial, 'FRI', iso(from + i), -23.4, -46.5, 5);
    await d.send(frames);
    await until(() => d.count('+ACK:') === n);
    d.close();
  };

  it('keeps the newest messages of a serial, counting the others as dropped', async () => {
    await send('900000000000001', 1000, 5);
    expect(await pend('900000000000001')).toEqual({ quantidade: 5, descartadas: 2 });
    expect(await raws('900000000000001')).toEqual([1002, 1003, 1004].map((s) => tinyFrame('900000000000001', 'FRI', iso(s), -23.4, -46.5, 5)));
  });

  it('lists at most 2 serials: a third new serial keeps nothing (counted in the metrics)', async () => {
    await send('900000000000002', 2000, 1);
    const dropped = gw.metrics.pendingDropped;
    await send('900000000000003', 3000, 2);
    expect(await pend('900000000000003')).toBeNull();
    expect(await raws('900000000000003')).toEqual([]);
    expect(gw.metrics.pendingDropped).toBe(dropped + 2);
    // known serials are still updated
    await send('900000000000002', 2001, 1);
    expect(await pend('900000000000002')).toEqual({ quantidade: 2, descartadas: 0 });
  });

  it('keeps at most 5 messages in total (the oldest go, counted per serial)', async () => {
    await send('900000000000002', 2002, 1); // 3 + 3 = 6 kept
    expect((await q('SELECT count(*)::int n FROM telemetria.mensagem_pendente'))[0].n).toBe(6);
    await gw.writer.maintainPending();
    expect((await q('SELECT count(*)::int n FROM telemetria.mensagem_pendente'))[0].n).toBe(5);
    expect(await pend('900000000000001')).toEqual({ quantidade: 5, descartadas: 3 });
    expect((await raws('900000000000001')).length).toBe(2);
    expect(await pend('900000000000002')).toEqual({ quantidade: 3, descartadas: 0 });
  });

  it('deletes messages and silent serials older than the retention', async () => {
    await pool.query(`UPDATE telemetria.mensagem_pendente SET received_at = now() - interval '25 hours' WHERE serial = '900000000000001'`);
    await pool.query(`UPDATE equipamento_pendente SET ultima_mensagem = now() - interval '25 hours' WHERE serial = '900000000000001'`);
    await pool.query(`UPDATE telemetria.mensagem_pendente SET received_at = now() - interval '25 hours'
                       WHERE id = (SELECT min(id) FROM telemetria.mensagem_pendente WHERE serial = '900000000000002')`);
    await gw.writer.maintainPending();
    expect(await pend('900000000000001')).toBeNull();
    expect(await raws('900000000000001')).toEqual([]);
    expect(await pend('900000000000002')).toEqual({ quantidade: 3, descartadas: 0 });
    expect((await raws('900000000000002')).length).toBe(2);
    // with a free slot, a new serial is listed again
    await send('900000000000003', 3100, 1);
    expect(await pend('900000000000003')).toEqual({ quantidade: 1, descartadas: 0 });
  });
});
