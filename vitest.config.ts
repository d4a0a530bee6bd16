import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The every-screen browser test opens all screens and adds sample rows where a register has none: it runs after the
// focused browser tests, whose counts it would otherwise change.
class EveryScreenLast extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const last = (f: TestSpecification) => f.moduleId.endsWith('/tests/e2e/telas.test.ts');
    return [...sorted.filter((f) => !last(f)), ...sorted.filter(last)];
  }
}

// Three projects: pure unit tests, server integration tests over real HTTP and a real database,
// and browser tests in headless Chromium. `npm test` runs all three.
// One after another (sequence.groupOrder), so they never compete for the cores: unit tests first, then the
// integration files (each starts the app on its own copy of the run's template database), unit in up to 2
// workers, integration one file at a time (beside them the main process and the e2e app); then the browser tests one
// file at a time (one shared server and database whose rows the files count; the app, Chromium and the test share
// the machine). Budgets leave room for a loaded 2-core machine.
// (Vitest runs every project's global setup before the first group. The e2e app's cold start is not awaited there:
// it overlaps the unit and integration groups, and each browser file waits for it (tests/e2e/server-ready.ts); then
// it idles, with its demo trackers, at ~9% of a core.)
// RASTRO_SELF_CHECK (set only by tests/self-check/run.ts) adds the deliberately failing fixtures of
// tests/self-check/fixtures to each project, to prove a failure exits non-zero under the real configuration.
// Measured on this 2-core machine: two integration files at a time made the whole run slower (3,826 s against
// 3,195 s; each file starts an app), so integration stays one file at a time.
// Unit files in up to 2 workers: on this 2-core machine the project took 241 s in one worker and 145 s in two (the
// e2e app's cold start, which overlaps the group, then shares the cores with them).
const WORKERS = Math.min(2, availableParallelism());
const selfCheck = (project: string) => (process.env.RASTRO_SELF_CHECK ? [`tests/self-check/fixtures/${project}/*.fixture.ts`] : []);

export default defineConfig({
  test: {
    sequence: { sequencer: EveryScreenLast },
    // The recap repeats, after the summary, which tests failed and the unhandled errors with where they came from.
    reporters: ['default', './tests/tools/recap-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 1 }, // not 0: vitest runs single-worker projects of group 0 last
          maxWorkers: WORKERS,
          // Each worker imports the module graph once for all its files (generator, runtime, protocol): in one
          // worker the project took 360 s isolated, 237–261 s so (also with its files shuffled). Stubbed globals and timers are
          // restored in afterEach; the one vi.mock (runtime tabs) mocks an alias no other unit file imports.
          isolate: false,
          // Generator tests build whole temp projects (40+ entities): slow on a shared, loaded machine (the slowest took
          // 13–18 s here), so the bound is wide.
          testTimeout: 60_000,
          include: ['generator/**/*.test.ts', 'shared/**/*.test.ts', 'protocol/**/*.test.ts', 'runtime/**/*.test.{ts,tsx}', 'server/**/*.unit.test.ts', 'tests/tools/**/*.unit.test.ts',
            // module folders: their screens' tests and pure server tests are unit tests
            'modules/*/screens/**/*.test.{ts,tsx}', 'modules/**/*.unit.test.ts', ...selfCheck('unit')],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          // One process for every file (the server's module graph imported once: ~2 s a file); each file still starts
          // its own app on its own database. App state lives per ORM (server/db/per-orm.ts); process.env is restored
          // after each file (server/test/file-setup.ts).
          isolate: false,
          sequence: { groupOrder: 2 },
          include: ['server/**/*.test.ts', 'modules/*/server/**/*.test.ts', ...selfCheck('integration')],
          exclude: ['server/**/*.unit.test.ts', 'modules/**/*.unit.test.ts', '**/node_modules/**'],
          globalSetup: ['server/test/global-setup.ts'],
          setupFiles: ['server/test/file-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Files could run side by side (each its database, its app on a random port; Redis keys and channels carry
          // the database's name; second processes run no device gateway on the fixed ports), but here it was slower.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 3 },
          // One process for the browser files, one after another (they change no process state; each launches its
          // own Chromium): ~2.6 s a file less than a fresh worker each (8 files: 128 → 107 s).
          isolate: false,
          // expect.poll waits for a condition in the page: 1 s by default, far too tight when the machine is loaded
          expect: { poll: { timeout: 15_000 } },
          include: ['tests/e2e/**/*.test.ts', ...selfCheck('e2e')],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/server-ready.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
