// vitest globalSetup (project 'integration'): provides `databaseUrl`, an admin URL of a PostgreSQL
// server where each test file creates its own database. Embedded PostgreSQL in a temp dir, or TEST_DATABASE_URL.
// Also `databasePrefix`, the run's prefix of database names (the template of ./template.ts and every test file's
// database): on TEST_DATABASE_URL, teardown drops them all.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedHandle } from '../db/embedded.ts';
import { hasGenerated } from '../app/bundle.ts';
import { dropRunDatabases, ensureTemplate } from './template.ts';

let pg: EmbeddedHandle | undefined;
let dir: string | undefined;
let shared: { url: string; prefix: string } | undefined;

export async function setup(project: TestProject) {
  if (!hasGenerated()) {
    // The server runs on generated entities and routes (npm run generate).
    execFileSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'generator/cli.ts'], { stdio: 'inherit' });
  }
  let url = process.env.TEST_DATABASE_URL;
  let prefix = '';
  try {
    if (!url) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-pg-'));
      fs.chmodSync(dir, 0o755);
      pg = await startEmbeddedPostgres({ dir: path.join(dir, 'data'), database: 'postgres' });
      url = pg.url;
    }
    // tests/self-check/run.ts proves a failed global setup exits non-zero.
    if (process.env.RASTRO_SELF_CHECK === 'setup-fail') throw new Error('falha proposital do global setup (self-check)');
    prefix = `rastro_t_${crypto.randomBytes(3).toString('hex')}_`;
    if (!pg) shared = { url, prefix };
    // Built here, before the workers start: the migrations create cluster-wide roles, which files migrating their
    // own databases in parallel would otherwise race to create. (The self-check's fixtures run one file per run:
    // the passing control builds it on first use, as the harness does whenever it is missing.)
    if (!process.env.RASTRO_SELF_CHECK) await ensureTemplate(url, prefix);
  } catch (e) {
    await teardown(); // vitest does not call teardown when setup throws
    throw e;
  }
  project.provide('databaseUrl', url);
  project.provide('databasePrefix', prefix);
}

export async function teardown() {
  if (shared) await dropRunDatabases(shared.url, shared.prefix).catch((e) => console.error(`databases of the run not dropped: ${e.message}`));
  shared = undefined;
  await pg?.stop();
  pg = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

declare module 'vitest' {
  export interface ProvidedContext { databaseUrl: string; databasePrefix: string }
}
