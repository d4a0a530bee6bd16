// Start-up: database (DATABASE_URL or embedded), migrations, seed, HTTP server.
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { MikroORM } from '@mikro-orm/postgresql';
import pino, { type Logger } from 'pino';
import { createApp, securityHeadersListener, type AppOptions } from './index.ts';
import { loadBundle, type Bundle } from './bundle.ts';
import { startEmbeddedPostgres, type EmbeddedHandle } from '../db/embedded.ts';
import { createOrm } from '../db/orm.ts';
import { migrate } from '../db/migration-tools.ts';
import { rlsProblems } from '../db/rls.ts';
import { initSecret } from '../auth/tokens.ts';
import { demoMode, seedIfEmpty, type SeedOptions, type SeedResult } from '../seed/index.ts';
import { seedCatalogues } from '../seed/catalogos.ts';
import { attachRealtime, SOCKET_PATH, type Realtime } from '../realtime/index.ts';
import { storageFromEnv, type Storage } from '../uploads/storage.ts';
import { answerClientErrors } from '../http/client-error.ts';
import { attachUpgrades } from '../http/upgrade.ts';
import { modules } from '../calls/index.ts';
import { startJobs, type JobService } from '../jobs/index.ts';

export interface StartOptions {
  port?: number;
  host?: string;
  databaseUrl?: string;
  dataDir?: string;
  migrationsPath?: string;
  /** Generated dir to load (model, entities, routes, schemas); default server/generated. */
  generatedDir?: string;
  log?: Logger;
  bundle?: Bundle;
  /** First-start seed; `demo` (default: demoMode(), i.e. DEMO, else on without DATABASE_URL) adds the demo data. */
  seed?: SeedOptions | false;
  distDir?: string;
  auth?: AppOptions['auth'];
  /** Uploaded files; default storageFromEnv(dataDir): S3 when S3_BUCKET is set, else {dataDir}/uploads. */
  storage?: Storage;
  /** Compare the metadata with the committed migrations' snapshot before serving (default true). Only the test
   * harness turns it off, for copies of a template database this run already verified with the same metadata. */
  verifyMigrations?: boolean;
}

export interface Running {
  url: string; port: number; orm: MikroORM; databaseUrl: string; bundle: Bundle; seed?: SeedResult; log: Logger;
  /** Demo mode (README: the demo data at the first start, the demo trackers). */
  demo: boolean;
  app: ReturnType<typeof createApp>; close: () => Promise<void>; migrations: { applied: string[] };
  realtime: Realtime;
  /** Background jobs of this server (server/jobs). */
  tarefas: JobService;
}

/** stdout for the log, asynchronous and buffered: a write per request's log line cost more CPU than a read by id
 *  (bench:api). Lines leave in 4 KB writes, or within a second when fewer come; pino writes what is left
 *  synchronously when the process exits. */
function logDestination() {
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => { try { dest.flush(); } catch { /* ended at exit */ } }, 1000).unref();
  return dest;
}

export async function startServer(o: StartOptions = {}): Promise<Running> {
  const log = o.log ?? pino({ level: process.env.LOG_LEVEL ?? 'info' }, logDestination());
  const dataDir = path.resolve(o.dataDir ?? process.env.DATA_DIR ?? 'data');
  let pg: EmbeddedHandle | undefined;
  let url = o.databaseUrl ?? process.env.DATABASE_URL;
  const demo = (o.seed && o.seed.demo) ?? demoMode(url);
  if (!url) {
    pg = await startEmbeddedPostgres({ dir: path.join(dataDir, 'pg'), log: (m) => log.debug({ pg: m.trim() }, 'postgres') });
    url = pg.url;
    log.info({ port: pg.port }, 'PostgreSQL embutido iniciado');
  }
  initSecret(dataDir);
  const bundle = o.bundle ?? (await loadBundle(o.generatedDir));
  const orm = await createOrm({ url, entities: bundle.entities, migrationsPath: o.migrationsPath ?? process.env.MIGRATIONS_PATH, logger: log });
  let migrations: { applied: string[] };
  try {
    migrations = await migrate(orm, log, { verify: o.verifyMigrations ?? true });
    // Row-level security (server/db/rls.ts): refuse to serve when the app role could bypass it or is unreachable.
    const problems = await rlsProblems((sql) => orm.em.getConnection().execute(sql));
    if (problems.length) throw new Error(problems.join('\n'));
  } catch (e) {
    await orm.close(true).catch(() => undefined);
    await pg?.stop().catch(() => undefined);
    throw e;
  }
  const seed = o.seed === false ? undefined : await seedIfEmpty(orm, bundle.model, log, { ...o.seed, demo });
  // Catalogue data (países, UFs) also for databases seeded before it existed.
  if (o.seed !== false) await orm.em.fork().transactional((tx) => seedCatalogues(tx, bundle.model));
  const storage = o.storage ?? storageFromEnv(dataDir);
  const app = createApp({ orm, model: bundle.model, routes: bundle.routes, schemas: bundle.schemas, generatedDir: bundle.dir, log, distDir: o.distDir, auth: o.auth, storage });
  const port = o.port ?? Number(process.env.PORT ?? 3000);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port, hostname: o.host ?? process.env.HOST ?? '0.0.0.0' }, () => resolve(s));
    // The protective headers set on Node's response before the app's listener runs (server/http/security-headers.ts).
    const secure = securityHeadersListener(app);
    if (secure) s.prependListener('request', secure);
  });
  // Headers over Node's limit and malformed requests: the JSON envelope in pt-BR, not a bare status line.
  answerClientErrors(server as import('node:http').Server);
  const actual = (server.address() as AddressInfo).port;
  // socket.io at /socket_server on the same HTTP server.
  const realtime = attachRealtime(server as import('node:http').Server, { orm, log, live: modules.flatMap((m) => m.live ?? []) });
  // The other WebSocket upgrades (the video proxy) through the app's pipeline.
  const upgrades = attachUpgrades(server as import('node:http').Server, (req, env) => app.fetch(req, env), { skipPath: SOCKET_PATH });
  // The modules' background work (contract server/core/module.ts `start`), outside requests.
  const exec = (sql: string, params: unknown[]) => orm.em.getConnection().execute(sql, params) as Promise<Record<string, unknown>[]>;
  const jobs = modules.flatMap((m) => (m.start ? [m.start({ exec, log, onEstado: realtime.onEstado, io: realtime.io, storage, em: () => orm.em.fork() })] : []));
  // Background jobs (server/jobs): pg-boss on this database, a worker per declared kind.
  const tarefas: JobService = await startJobs({ orm, url, log, io: realtime.io, kinds: modules.flatMap((m) => m.jobs ?? []) });
  return {
    url: `http://localhost:${actual}`, port: actual, orm, databaseUrl: url, bundle, seed, log, app, migrations, realtime, demo, tarefas,
    close: async () => {
      await tarefas.stop();
      await Promise.all(jobs.map((j) => j.stop()));
      upgrades.close();
      await realtime.close(); // also closes the HTTP server
      await new Promise<void>((r) => server.close(() => r()));
      await orm.close(true);
      await pg?.stop();
    },
  };
}
