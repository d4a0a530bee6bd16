// The gateway as `npm run gateway` runs it: a cluster of 2 processes on one TCP port, against a real PostgreSQL.
// Both processes take devices (the kernel spreads connections: SO_REUSEPORT), every report is stored once and
// answered by the process holding its connection.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../db/embedded.ts';
import { startGatewayCluster, type ClusterHandle } from './cluster.ts';
import { createDatabase, defaultDatabaseUrl } from './testing/db.ts';
import { FakeDevice } from './testing/device.ts';
import { QueclinkVehicle } from './simulator.ts';

const DEVICES = 200;
const SERIAL_BASE = 865300000000000;
let db: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;
let cl: ClusterHandle;
let port: number;

beforeAll(async () => {
  db = await createDatabase(inject('databaseUrl') ?? defaultDatabaseUrl(), `ingest_cluster_${process.pid}`);
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query(`INSERT INTO equipamento (empresa_id, serial, modelo, tecnologia, ativado, created_at, updated_at)
    SELECT 1, ($1::bigint + g)::text, 'gv58cg', 'queclink', true, now(), now() FROM generate_series(0, $2 - 1) g`, [SERIAL_BASE, DEVICES]);
  port = await freePort();
  cl = await startGatewayCluster({ databaseUrl: db.url, host: '127.0.0.1', ports: { queclinkTcp: port }, workers: 2, env: { GATEWAY_MAX_CONN_PER_IP: '0' } });
}, 60_000);

afterAll(async () => {
  await cl?.stop();
  await pool?.end();
  await db?.drop();
});

/** Listening TCP sockets on a port (IPv4), from /proc/net/tcp. */
const listeners = (p: number) => readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)
  .filter((l) => { const f = l.trim().split(/\s+/); return f[3] === '0A' && parseInt(f[1]!.split(':')[1]!, 16) === p; }).length;

describe('gateway cluster', () => {
  it('each process listens on its own socket (SO_REUSEPORT): the kernel, not the first free process, picks', () => {
    // Node's shared handle (one socket in the primary) hands each connection to the first free worker: under load
    // the busier worker ended with 605 of 1,000 devices and set the pace alone (npm run bench:ingest).
    expect(listeners(port)).toBe(2);
  });

  it('spreads the devices over both processes; each report is stored once and acknowledged', async () => {
    const start = Date.now() - 3_600_000;
    const devices = await Promise.all(Array.from({ length: DEVICES }, () => FakeDevice.connect(port)));
    // Each device's first position report (GTFRI, not a heartbeat).
    const frames = devices.map((_, d) => {
      const v = new QueclinkVehicle(String(SERIAL_BASE + d), 'gv58cg', d, start);
      for (let s = 1; ; s++) { const f = v.step(start + s * 1000).find((x) => x.startsWith('+RESP:GTFRI')); if (f) return f; }
    });
    await Promise.all(devices.map((dev, d) => dev.send(frames[d]!)));
    await Promise.all(devices.map((dev) => dev.waitFor(/\+SACK:[0-9A-F]{4}\$/, 20_000)));
    const metrics = await cl.metrics();
    expect(metrics.map((m) => m.connections).reduce((a, b) => a + b)).toBe(DEVICES);
    // Expected 100 each (standard deviation ~7 for an even hash): a worker with under 60 means no spreading.
    for (const m of metrics) expect(m.connections).toBeGreaterThanOrEqual(60);
    expect(metrics.map((m) => m.positions).reduce((a, b) => a + b)).toBe(DEVICES);
    const { rows } = await pool.query(`SELECT count(*)::int n, count(DISTINCT serial)::int serials FROM telemetria.posicao`);
    expect(rows[0]).toEqual({ n: DEVICES, serials: DEVICES });
    for (const d of devices) d.close();
  }, 60_000);

  it('a second gateway on the same port is refused, not let in to take half of the devices', async () => {
    await expect(startGatewayCluster({ databaseUrl: db.url, host: '127.0.0.1', ports: { queclinkTcp: port }, workers: 2 }))
      .rejects.toThrow(`porta ${port} já em uso`);
    expect(listeners(port)).toBe(2);
  });
});
