// The real server as a child process (`node --import tsx server/main.ts`, as npm start runs it) for tests that
// signal or kill it: server/main.test.ts (SIGTERM), server/test/crash.test.ts (kill -9).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { serverNodeArgs } from '../app/node-flags.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const children: ChildProcess[] = [];
export const dirs: string[] = [];

/** Kills what a test left running and removes its folders (afterEach). */
export function cleanupMain(): void {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export interface Server { child: ChildProcess; url: string; dataDir: string; output: () => string; exited: Promise<{ code: number | null; signal: string | null }> }

export async function startMain(env: Record<string, string>, waitReady = true, dataDir?: string): Promise<Server> {
  if (!dataDir) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-main-'));
    fs.chmodSync(dataDir, 0o755); // the embedded cluster may run as another user when we are root
    dirs.push(dataDir);
  }
  const child = spawn(process.execPath, serverNodeArgs(), {
    cwd: ROOT,
    env: {
      ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist'),
      GATEWAY: 'off', DEMO_SIMULATION: 'off', ADMIN_PASSWORD: 'admin-senha-123', LOG_LEVEL: 'info', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  if (!waitReady) return { child, url: '', dataDir, output: () => out, exited };
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`servidor não iniciou: ${out.slice(-2000)}`)), 90_000);
    const look = () => {
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) { clearTimeout(t); child.stdout!.off('data', look); resolve(m[1].replace('localhost', '127.0.0.1')); }
    };
    child.stdout!.on('data', look);
    void exited.then(() => { clearTimeout(t); reject(new Error(`servidor saiu: ${out.slice(-2000)}`)); });
  });
  return { child, url, dataDir, output: () => out, exited };
}

export async function login(url: string): Promise<string> {
  const r = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: 'admin-senha-123' }) });
  expect(r.status).toBe(200);
  return (await r.json()).payload.token;
}

