// Proves that the test command fails when a test fails (issue 6 §1): runs deliberately failing fixtures
// under the real vitest configuration (unit; integration with the embedded PostgreSQL global setup; e2e with
// the real server) and a failing global setup, each must exit non-zero; the passing control must exit 0.
// Run by `npm test` (after the suite) and by .ci/run. `-- --no-e2e` leaves the slow e2e case out.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const fx = 'tests/self-check/fixtures';

interface Case { name: string; args: string[]; env: string; expect: 'fail' | 'pass'; output?: RegExp }
const cases: Case[] = [
  { name: 'unit: failing test', args: ['--project', 'unit', `${fx}/unit/fail.fixture.ts`], env: '1', expect: 'fail', output: /1 failed/ },
  { name: 'integration: failing test (embedded PostgreSQL)', args: ['--project', 'integration', `${fx}/integration/fail.fixture.ts`], env: '1', expect: 'fail', output: /1 failed/ },
  { name: 'integration: passing control', args: ['--project', 'integration', `${fx}/integration/pass.fixture.ts`], env: '1', expect: 'pass', output: /2 passed/ },
  { name: 'integration: failing suite (error while loading the file)', args: ['--project', 'integration', `${fx}/integration/broken.fixture.ts`], env: '1', expect: 'fail', output: /falha proposital ao carregar/ },
  { name: 'integration: failing global setup', args: ['--project', 'integration', `${fx}/integration/pass.fixture.ts`], env: 'setup-fail', expect: 'fail', output: /falha proposital do global setup/ },
  // its own assertion failed (the server answered), not the wait for the server
  { name: 'e2e: failing test (real server)', args: ['--project', 'e2e', `${fx}/e2e/fail.fixture.ts`], env: '1', expect: 'fail', output: /1 failed[\s\S]*expected \d+ to be 418|expected \d+ to be 418[\s\S]*1 failed/ },
  // The e2e server starts in the background of the global setup; each file waits for it: one that never answers fails.
  { name: 'e2e: server that never answers', args: ['--project', 'e2e', `${fx}/e2e/pass.fixture.ts`], env: 'e2e-server-fail', expect: 'fail', output: /o servidor dos testes de navegador não iniciou/ },
  { name: 'integration + e2e: failing tests together', args: ['--project', 'integration', '--project', 'e2e', `${fx}/integration/fail.fixture.ts`, `${fx}/e2e/fail.fixture.ts`], env: '1', expect: 'fail', output: /2 failed/ },
];
const noE2e = process.argv.includes('--no-e2e');

let bad = 0;
// The fixtures exist only for this check: the normal run must not pick them up.
{
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  delete env.RASTRO_SELF_CHECK;
  const r = spawnSync(process.execPath, [vitest, 'list', '--filesOnly'], { cwd: root, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const files = r.stdout.split('\n').filter((l) => l.startsWith('['));
  const leaked = files.filter((l) => l.includes('tests/self-check/'));
  const ok = r.status === 0 && files.length > 0 && leaked.length === 0;
  console.log(`${ok ? 'ok  ' : 'FALHOU'} execução normal: ${files.length} arquivos de teste, ${leaked.length} fixture(s) de self-check entre eles`);
  if (!ok) bad++;
}
for (const c of cases) {
  if (noE2e && c.args.includes('e2e')) continue;
  const t0 = Date.now();
  const env = { ...process.env, RASTRO_SELF_CHECK: c.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  const r = spawnSync(process.execPath, [vitest, 'run', ...c.args], { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = `${r.stdout}\n${r.stderr}`;
  const ok = (c.expect === 'fail' ? r.status !== 0 && r.status !== null : r.status === 0) && (!c.output || c.output.test(out));
  console.log(`${ok ? 'ok  ' : 'FALHOU'} ${c.name}: código de saída ${r.status ?? r.signal} (esperado ${c.expect === 'fail' ? '≠ 0' : '0'}) em ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!ok) {
    bad++;
    console.log(out.split('\n').slice(-60).join('\n'));
  }
}
if (bad) {
  console.error(`self-check: ${bad} caso(s) errado(s): o comando de testes não reflete as falhas.`);
  process.exit(1);
}
console.log('self-check: falhas de teste saem com código diferente de zero.');
