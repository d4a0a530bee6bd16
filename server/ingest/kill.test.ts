// A gateway process killed mid-batch (kill -9, issue 24) loses nothing the devices were told was stored: a report is
// acknowledged only after its COMMIT, so every report acknowledged before the kill is in the database; the devices
// reconnect to a new process, replay what was never acknowledged (+BUFF), and in the end each report is stored once.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, defaultDatabaseUrl, registerDevice } from './testing/db.ts';
import { sleep, until } from './testing/device.ts';
import { QueclinkTestDevice } from './testing/queclink-device.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const imeis = Array.from({ length: 20 }, (_, i) => `86432000000${String(i + 1).padStart(4, '0')}`);
const start = Math.floor(Date.now() / 1000) * 1000 - 3 * 3600_000;
let db: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;
let port: number;
const procs: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); }); });
}

/** `npm run gateway` as one process on `port`, its other listeners off; resolves once it listens. */
async function gateway(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/ingest/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: db.url, GATEWAY_WORKERS: '1', GATEWAY_HOST: '127.0.0.1', QUECLINK_TCP_PORT: String(port), QUECLINK_UDP_PORT: 'off', LEGACY_TCP_PORT: 'off', LEGACY_UDP_PORT: 'off', OSMAND_HTTP_PORT: 'off', LOG_LEVEL: 'info' },
  });
  procs.push(child);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`gateway não iniciou: ${out.slice(-1500)}`)), 60_000);
    const look = (d: Buffer) => { out += d; if (out.includes('gateway de equipamentos iniciado')) { clearTimeout(t); resolve(); } };
    child.stdout!.on('data', look);
    child.stderr!.on('data', (d) => { out += d; });
    child.once('exit', () => { clearTimeout(t); reject(new Error(`gateway saiu: ${out.slice(-1500)}`)); });
  });
  child.removeAllListeners('exit');
  return child;
}

beforeAll(async () => {
  db = await createDatabase(inject('databaseUrl') ?? defaultDatabaseUrl(), `ingest_kill_${process.pid}`);
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  for (const [i, s] of imeis.entries()) await registerDevice(pool, s, 1 + (i % 3), 300 + i, 'gv58cg');
  port = await freePort();
}, 300_000);
afterAll(async () => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await pool?.end();
  await db?.drop();
});

describe('kill -9 of a gateway process mid-batch', () => {
  it('every report acknowledged before the kill is stored; after reconnecting and replaying, each report once', async () => {
    const first = await gateway();
    let devices = await Promise.all(imeis.map((s) => QueclinkTestDevice.connect(port, s, start)));
    let clock = start;
    const tick = () => { clock += 1000; let n = 0; for (const d of devices) n += d.step(clock); return n; };
    // Streaming: a report per device every few ms, so that the kill lands while batches are in flight.
    let sent = 0;
    for (let i = 0; i < 30; i++) { sent += tick(); await sleep(5); }
    await until(() => devices.every((d) => d.unacked.size === 0), 30_000);
    for (let i = 0; i < 20; i++) { sent += tick(); await sleep(2); }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const ackedAtKill = devices.map((d) => new Set(d.acks));
    const unackedAtKill = devices.reduce((n, d) => n + d.unacked.size, 0);
    // Everything acknowledged is in the database, the moment the process is gone.
    const stored = async () => (await pool.query(`SELECT serial, count(*)::int AS n, count(DISTINCT fix_time)::int AS f FROM telemetria.posicao
      WHERE serial = ANY($1) GROUP BY serial ORDER BY serial`, [imeis])).rows as { serial: string; n: number; f: number }[];
    const fixOf = (f: string) => { const t = f.split(',').at(-2)!; return `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(8, 10)}:${t.slice(10, 12)}:${t.slice(12, 14)}.000Z`; };
    for (const [i, d] of devices.entries()) {
      const times = new Set((await pool.query('SELECT fix_time FROM telemetria.posicao WHERE serial = $1', [d.imei])).rows.map((r) => (r.fix_time as Date).toISOString()));
      for (const count of ackedAtKill[i]!) expect(times.has(fixOf(d.sent.get(count)!)), `${d.imei} ${count}`).toBe(true);
    }
    expect(devices.every((d) => d.closed)).toBe(true);

    // A new process; the devices reconnect and replay their buffers (the device keeps its counts and clock).
    await gateway();
    const old = devices;
    devices = await Promise.all(old.map(async (d) => {
      const n = await QueclinkTestDevice.connect(port, d.imei, start);
      for (const [k, v] of d.sent) n.sent.set(k, v);
      for (const [k, v] of d.unacked) n.unacked.set(k, v);
      (n as unknown as { vehicle: unknown }).vehicle = d.vehicle;
      return n;
    }));
    const replayed = devices.reduce((n, d) => n + d.replay(), 0);
    expect(replayed).toBe(unackedAtKill);
    for (let i = 0; i < 10; i++) { sent += tick(); await sleep(5); }
    await until(() => devices.every((d) => d.unacked.size === 0), 30_000);

    // Each report stored exactly once, nothing missing.
    const rows = await stored();
    expect(rows.map((r) => r.serial)).toEqual(imeis);
    for (const [i, r] of rows.entries()) {
      expect(r.n, imeis[i]).toBe(devices[i]!.sent.size);
      expect(r.f, imeis[i]).toBe(r.n);
    }
    expect(rows.reduce((n, r) => n + r.n, 0)).toBe(sent);
  }, 180_000);
});
