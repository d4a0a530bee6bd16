// Runs `server/db/cli.ts` (what `npm run migration:check` runs) as its own process, on the test run's database
// server. Asynchronous: the integration files share one process, whose event loop (and vitest's timeout) a
// synchronous spawn would block for the child's whole start on a loaded machine.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../../..');

export function runDbCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, TEST_DATABASE_URL: inject('databaseUrl') };
  const tsx = path.join(REPO, 'node_modules/tsx/dist/cli.mjs');
  return new Promise((resolve) => {
    execFile(process.execPath, [tsx, 'server/db/cli.ts', ...args], { cwd: REPO, env, encoding: 'utf8', maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}
