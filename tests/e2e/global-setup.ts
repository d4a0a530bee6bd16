// Starts the real server (embedded PostgreSQL in a temp DATA_DIR, random PORT, ADMIN_PASSWORD and
// LEITOR_PASSWORD for the seeded users, device gateway on a free port with the demo trackers)
// for the browser tests, provides its baseUrl, and stops it afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureChromium } from '../tools/ensure-chromium.ts';
import { SERVER_NODE_FLAGS } from '../../server/app/node-flags.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
    leitorPassword: string;
    gatewayPort: number;
    /** Where the video test starts its CMSV6 double (the server's CMSV6_URL points here). */
    cmsv6Port: number;
    /** The server's database (the embedded one on a known port, or E2E_DATABASE_URL): for data no screen can make
     *  (e.g. a company in a second ambiente). */
    e2eDatabaseUrl: string;
    /** JSON file with the server's start-up state (starting, ready, failed and its output): ./server-ready.ts. */
    e2eServerState: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.status === 200 || r.status === 401) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not answer ${url} within ${ms} ms`);
}

export default async function setup(project: TestProject) {
  // Browser tests are never skipped: Chromium is installed here when missing (Debian, root), or the run stops.
  ensureChromium();
  if (!existsSync(path.join(root, 'dist/index.html'))) {
    // `npm test` builds first; build here when the e2e project runs alone
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }); // generates first
    if (r.status !== 0) throw new Error('npm run build failed');
  }
  const port = await freePort();
  const gatewayPort = await freePort();
  const cmsv6Port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rastro-e2e-'));
  chmodSync(dataDir, 0o755); // as root, embedded PG runs as user postgres and must reach it
  const adminPassword = process.env.E2E_ADMIN_PASSWORD ?? 'Rastro-e2e-2024!';
  const leitorPassword = process.env.E2E_LEITOR_PASSWORD ?? 'Leitor-e2e-2024!';
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_PASSWORD: adminPassword, LEITOR_PASSWORD: leitorPassword, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  // Demo mode (demo data at the first start, also on E2E_DATABASE_URL), the device gateway and the demo trackers of
  // `npm start` (positions for the live map): Queclink TCP on a
  // free port, the other listeners off; the simulator reports often so the map fills quickly.
  Object.assign(env, { DEMO: 'on', QUECLINK_TCP_PORT: String(gatewayPort), QUECLINK_UDP_PORT: 'off', LEGACY_TCP_PORT: 'off', LEGACY_UDP_PORT: 'off', OSMAND_HTTP_PORT: 'off', DEMO_SIMULATION: 'on', DEMO_RATE: process.env.DEMO_RATE ?? '1' });
  // Video (modules/video): a CMSV6 server the video test starts as a local double on this port; alarms read every 2 s,
  // the cameras' online state every 1 s.
  Object.assign(env, { CMSV6_URL: `http://127.0.0.1:${cmsv6Port}`, CMSV6_STREAM_URL: `http://127.0.0.1:${cmsv6Port}`, CMSV6_ACCOUNT: 'rastro', CMSV6_PASSWORD: 'senha-cmsv6', CMSV6_ALARM_POLL_MS: '2000', CMSV6_STATUS_POLL_MS: '1000', CMSV6_CLIP_POLL_MS: '1000', CMSV6_CLIP_TIMEOUT_S: '12' });
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  else delete env.DATABASE_URL;
  const pgPort = await freePort();
  if (!env.DATABASE_URL) env.EMBEDDED_PG_PORT = String(pgPort);
  const e2eDatabaseUrl = env.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/rastro`;

  // tests/self-check/run.ts proves a server that never answers fails the run (a missing entry point exits at once).
  const entry = process.env.RASTRO_SELF_CHECK === 'e2e-server-fail' ? 'tests/self-check/fixtures/e2e/no-such-server.ts' : 'server/main.ts';
  const child = spawn('npm', ['exec', '--', 'tsx', ...SERVER_NODE_FLAGS, entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  child.stdout?.on('data', (d) => (log = (log + d).slice(-20_000)));
  child.stderr?.on('data', (d) => (log = (log + d).slice(-20_000)));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Not awaited: the server's cold start (embedded PostgreSQL, migrations, demo data) overlaps the other projects'
  // set-up and the unit and integration groups. Every browser test file waits for it first (./server-ready.ts), and
  // reads its outcome from this file: a server that never answered fails every file, with its output.
  const stateFile = path.join(dataDir, 'e2e-server.json');
  let stopped = false;
  const state = (s: object) => {
    if (stopped) return;
    writeFileSync(`${stateFile}.tmp`, JSON.stringify(s));
    renameSync(`${stateFile}.tmp`, stateFile); // readers never see half a file
  };
  state({ state: 'starting' });
  // Generous: the cold start competes with the unit and integration groups for the cores.
  void waitFor(`${baseUrl}/api/auth/get_session`, child, 900_000).then(
    () => state({ state: 'ready' }),
    (e) => {
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* gone */ }
      state({ state: 'failed', error: `${(e as Error).message}\n--- server output ---\n${log}` });
    },
  );
  project.provide('e2eServerState', stateFile);
  project.provide('baseUrl', baseUrl);
  project.provide('adminPassword', adminPassword);
  project.provide('leitorPassword', leitorPassword);
  project.provide('gatewayPort', gatewayPort);
  project.provide('cmsv6Port', cmsv6Port);
  project.provide('e2eDatabaseUrl', e2eDatabaseUrl);

  return async () => {
    stopped = true;
    const t0 = Date.now();
    const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
    try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* gone */ }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
    clearTimeout(timer);
    if (child.exitCode === null) try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.unref();
    if (process.env.E2E_DEBUG) console.log(`server stopped in ${Date.now() - t0} ms`);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
