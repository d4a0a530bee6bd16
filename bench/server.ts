// The app for a browser benchmark: `tsx server/main.ts` in its own process (as `npm start` runs it, without the
// device gateway nor the demo trackers) on a benchmark database, serving the built dist/; and the sign-in of a page.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { freePort } from '../server/db/embedded.ts';
import { serverNodeArgs } from '../server/app/node-flags.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `npm run build` unless BENCH_NO_BUILD=1. */
export function buildFrontEnd(): void {
  if (process.env.BENCH_NO_BUILD === '1') return;
  const b = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (b.status !== 0) throw new Error('npm run build falhou');
}

export interface BenchServer { base: string; proc: ChildProcess; stop(): Promise<void> }

/** PROFDIR=dir: the server writes its CPU profile there when it stops (--cpu-prof). */
export async function startServer(o: { url: string; dataDir: string; adminPassword: string; env?: Record<string, string> }): Promise<BenchServer> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...(process.env.PROFDIR ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.PROFDIR] : []), ...serverNodeArgs()], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: o.url, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: o.adminPassword, DATA_DIR: o.dataDir,
      DIST_DIR: path.join(ROOT, 'dist'), LOG_LEVEL: 'warn', GATEWAY: 'off', DEMO_SIMULATION: 'off', ...o.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const r = await fetch(`${base}/api/openapi.json`).catch(() => null);
    if (r) { await r.arrayBuffer(); break; }
    if (proc.exitCode !== null || i > 2400) throw new Error('servidor não respondeu');
    await new Promise((res) => setTimeout(res, 25));
  }
  const stop = async () => {
    if (proc.exitCode !== null) return;
    await new Promise<void>((res) => { proc.once('exit', () => res()); proc.kill('SIGTERM'); });
  };
  return { base, proc, stop };
}

/** Signs in on /login as admin and waits for the home page. */
export async function signIn(page: Page, base: string, password: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel('Usuário').fill('admin');
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${base}/home`);
}
