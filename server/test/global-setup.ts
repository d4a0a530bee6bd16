// vitest globalSetup (project 'integration'): provides `databaseUrl`, an admin URL of a PostgreSQL
// server where each test file creates its own database. Embedded PostgreSQL in a temp dir, or TEST_DATABASE_URL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedHandle } from '../db/embedded.ts';
import { hasGenerated } from '../app/bundle.ts';

let pg: EmbeddedHandle | undefined;
let dir: string | undefined;

export async function setup(project: TestProject) {
  if (!hasGenerated()) {
    // The server runs on generated entities and routes (npm run generate).
    execFileSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'generator/cli.ts'], { stdio: 'inherit' });
  }
  let url = process.env.TEST_DATABASE_URL;
  try {
    if (!url) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-pg-'));
      fs.chmodSync(dir, 0o755);
      pg = await startEmbeddedPostgres({ dir: path.join(dir, 'data'), database: 'postgres' });
      url = pg.url;
    }
    // tests/self-check/run.ts proves a failed global setup exits non-zero.
    if (process.env.RASTRO_SELF_CHECK === 'setup-fail') throw new Error('falha proposital do global setup (self-check)');
  } catch (e) {
    await teardown(); // vitest does not call teardown when setup throws
    throw e;
  }
  project.provide('databaseUrl', url);
}

export async function teardown() {
  await pg?.stop();
  pg = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

declare module 'vitest' {
  export interface ProvidedContext { databaseUrl: string }
}
