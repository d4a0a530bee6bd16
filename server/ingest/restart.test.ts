// A real PostgreSQL stop (fast shutdown) and restart on the same port while Queclink devices keep reporting
// over TCP (issue 3: "a database stop and restart mid-stream loses nothing"). The test owns its embedded
// PostgreSQL (temp dir), migrated with the app's migrations (harness) and the telemetria migrations (gateway).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedHandle } from '../db/embedded.ts';
import { ADMIN, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { DATABASE_UNAVAILABLE } from '../db/unavailable.ts';
import { startGateway, type Gateway } from './index.ts';
import { registerDevice } from './testing/db.ts';
import { sleep, until } from './testing/device.ts';
import { QueclinkTestDevice } from './testing/queclink-device.ts';

const DEVICES = 6;
const imeis = Array.from({ length: DEVICES }, (_, i) => `86431000000${String(i + 1).padStart(4, '0')}`);
const start = Math.floor(Date.now() / 1000) * 1000 - 3 * 3600_000; // simulated clocks, 3 h ago, 1 s per report

let dir: string;
let pgh: EmbeddedHandle | undefined;
let gw: Gateway | undefined;
let app: TestServer | undefined;
let admin: Api;
const devices: QueclinkTestDevice[] = [];
let clock = start;
let crashed: unknown[] = [];
const onCrash = (err: unknown) => { crashed.push(err); };

/** Every device reports once (next simulated second). */
function tick(): number {
  clock += 1000;
  let n = 0;
  for (const d of devices) n += d.step(clock);
  return n;
}
const acked = () => devices.reduce((n, d) => n + d.acks.length, 0);
const pending = () => devices.reduce((n, d) => n + d.unacked.size, 0);

async function query<T = any>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return (await c.query(sql, params)).rows as T[]; } finally { await c.end(); }
}

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-restart-'));
  fs.chmodSync(dir, 0o755);
  pgh = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), database: 'rastro' });
  // App schema + seed through the harness (the real server start-up); the API keeps running beside the gateway.
  app = await startTestServer({ databaseUrl: pgh.url });
  admin = await app.login(ADMIN.login, ADMIN.senha);
  const [{ empresa_id: empresa, id: ativo }] = await query(pgh.url, 'SELECT id, empresa_id FROM ativo ORDER BY id LIMIT 1');
  const pool = new pg.Pool({ connectionString: pgh.url, max: 1 });
  try { for (const s of imeis) await registerDevice(pool, s, empresa, ativo, 'gv58cg'); } finally { await pool.end(); }
  gw = await startGateway({
    databaseUrl: pgh.url, host: '127.0.0.1', ports: { queclinkTcp: 0 },
    writer: { lingerMs: 5, retryMinMs: 50, retryMaxMs: 400 }, commands: { pollMs: 200 },
  });
  for (const s of imeis) devices.push(await QueclinkTestDevice.connect(gw.ports.queclinkTcp, s, start));
});

afterAll(async () => {
  for (const d of devices) d.close();
  await gw?.stop();
  await app?.stop();
  await pgh?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

describe('database stop and restart mid-stream', () => {
  it('keeps the connections, acks nothing uncommitted, stores every report once and acks all after recovery; the API answers 503 meanwhile and recovers by itself', async () => {
    const url = pgh!.url;
    const port = pgh!.port;
    // 1. Streaming normally.
    let sent = 0;
    for (let i = 0; i < 20; i++) { sent += tick(); await sleep(5); }
    await until(() => pending() === 0, 10_000);
    expect(acked()).toBe(sent);

    // 2. PostgreSQL stops (fast shutdown) while the devices keep sending.
    // (a report every few ms until the shutdown is over, so that it hits transactions in flight)
    let stopped = false;
    const streaming = (async () => { while (!stopped) { sent += tick(); await sleep(3); } })();
    await sleep(20);
    await pgh!.stop();
    stopped = true;
    await streaming;
    await sleep(300); // replies of a batch committed just before the shutdown may still be on the wire
    const ackedAtStop = acked();
    const failuresAtStop = gw!.metrics.batchFailures;
    for (let i = 0; i < 30; i++) { sent += tick(); await sleep(20); }
    // Devices that got no answer replay their buffer (+BUFF) on the same connection, twice.
    let replayed = 0;
    for (const d of devices) replayed += d.replay();
    await sleep(300);
    for (const d of devices) replayed += d.replay();
    await sleep(500);
    expect(replayed).toBeGreaterThan(0);
    expect(acked()).toBe(ackedAtStop); // the database is down: not a single ack
    expect(gw!.metrics.batchFailures).toBeGreaterThan(failuresAtStop);
    expect(devices.every((d) => !d.closed)).toBe(true);
    expect(gw!.metrics.connections).toBe(DEVICES);
    // Whatever was acknowledged before the stop is in the database (checked after the restart below).
    const ackedBefore = devices.map((d) => new Set(d.acks));

    // The API, for 20 s of outage: reads and writes answer 503 with a pt-BR message (never 401: the front end would
    // drop the session; never 500), while the devices keep reporting.
    const outage = performance.now();
    const answers = new Map<string, number>();
    while (performance.now() - outage < 20_000) {
      for (const res of [await admin.get('/api/ativo?range=[0,9]'), await admin.post('/api/garagem', { nome: `Na queda ${answers.size}` })]) {
        const body = await res.json();
        const k = `${res.status} ${body.msg}`;
        answers.set(k, (answers.get(k) ?? 0) + 1);
      }
      sent += tick();
      await sleep(500);
    }
    expect([...answers.keys()]).toEqual([`503 ${DATABASE_UNAVAILABLE}`]);
    expect(acked()).toBe(ackedAtStop);

    // 3. PostgreSQL comes back on the same port; the devices keep reporting meanwhile.
    pgh = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port, database: 'rastro' });
    expect(pgh.url).toBe(url);
    for (let i = 0; i < 10; i++) { sent += tick(); await sleep(20); }
    await until(() => pending() === 0, 30_000);
    // The API recovers by itself (same session, no restart): reads, a write, and a session ended after the outage
    // is refused at once (the invalidation channel came back too).
    let status = 0;
    for (let i = 0; i < 60 && status !== 200; i++) { status = (await admin.get('/api/ativo?range=[0,9]')).status; if (status !== 200) await sleep(500); }
    expect(status).toBe(200);
    const created = await admin.post('/api/garagem', { nome: 'Depois da queda' });
    expect(created.status).toBe(201);
    expect((await query(url, "SELECT count(*)::int n FROM garagem WHERE nome LIKE 'Na queda%'"))[0].n).toBe(0);
    const other = await app!.login(ADMIN.login, ADMIN.senha);
    expect((await other.get('/api/ativo?range=[0,0]')).status).toBe(200);
    // ended by another process (its trigger notifies every API process): refused at once
    await query(url, 'UPDATE sessao SET ativa = false, data_fim = now() WHERE id = $1', [other.user.sessaoId]);
    expect((await other.get('/api/ativo?range=[0,0]')).status).toBe(401);

    // Every report acknowledged (replays too), connections never dropped, the process never crashed.
    expect(devices.every((d) => !d.closed)).toBe(true);
    expect(crashed).toEqual([]);
    for (const d of devices) {
      expect(d.unacked.size).toBe(0);
      expect(new Set(d.acks)).toEqual(new Set(d.sent.keys()));
    }
    // Stored exactly once per device + fix time (the +BUFF replays deduplicated), nothing missing.
    const rows = await query(url, `SELECT serial, count(*)::int n, count(DISTINCT fix_time)::int f FROM telemetria.posicao
      WHERE serial = ANY($1) GROUP BY serial ORDER BY serial`, [imeis]);
    expect(rows.map((r) => r.serial)).toEqual(imeis);
    for (const [i, r] of rows.entries()) {
      expect(r.n).toBe(devices[i]!.sent.size);
      expect(r.f).toBe(r.n);
    }
    expect(rows.reduce((n, r) => n + r.n, 0)).toBe(sent);
    const dup = await query(url, `SELECT count(*)::int n FROM (SELECT serial, fix_time FROM telemetria.posicao WHERE serial = ANY($1)
      GROUP BY serial, fix_time HAVING count(*) > 1) x`, [imeis]);
    expect(dup[0].n).toBe(0);
    // Each stored report is the one the device sent (fix time of its frame), acked before the stop or after.
    for (const [i, d] of devices.entries()) {
      const times = new Set((await query(url, 'SELECT fix_time FROM telemetria.posicao WHERE serial = $1', [d.imei])).map((r) => r.fix_time.toISOString()));
      for (const [count, f] of d.sent) {
        const t = f.split(',').at(-2)!; // send time = fix time of the simulated report
        const iso = `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(8, 10)}:${t.slice(10, 12)}:${t.slice(12, 14)}.000Z`;
        expect(times.has(iso), `${d.imei} ${count} ${ackedBefore[i]!.has(count) ? 'acked before the stop' : ''}`).toBe(true);
      }
    }
    // Events (ignition, speeding...) once each as well; the latest state follows the newest report.
    const ev = await query(url, `SELECT count(*)::int n FROM (SELECT 1 FROM telemetria.evento WHERE serial = ANY($1)
      GROUP BY serial, fix_time, code HAVING count(*) > 1) x`, [imeis]);
    expect(ev[0].n).toBe(0);
    const ue = await query(url, `SELECT u.fix_time = (SELECT max(p.fix_time) FROM telemetria.posicao p WHERE p.serial = u.serial) AS newest
      FROM telemetria.ultimo_estado u WHERE u.serial = ANY($1)`, [imeis]);
    expect(ue.map((r) => r.newest)).toEqual(imeis.map(() => true));
    expect(gw!.metrics.connections).toBe(DEVICES);
  });
});
