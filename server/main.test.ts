// SIGTERM stops the real server (`node --import tsx server/main.ts`, as npm start runs it) within a generous
// functional bound whatever state its database is in: embedded database killed, or a download stalled by its client.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDatabase } from './test/harness.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BOUND_MS = 15_000; // "it exits", not a speed figure
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

interface Server { child: ChildProcess; url: string; dataDir: string; output: () => string; exited: Promise<{ code: number | null; signal: string | null }> }

async function startMain(env: Record<string, string>, waitReady = true): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-main-'));
  fs.chmodSync(dataDir, 0o755); // the embedded cluster may run as another user when we are root
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
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

async function login(url: string): Promise<string> {
  const r = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: 'admin-senha-123' }) });
  expect(r.status).toBe(200);
  return (await r.json()).payload.token;
}

/** Sends SIGTERM and answers how long the process took to exit (or null if it did not within the bound). */
async function term(s: Server): Promise<number | null> {
  const t0 = performance.now();
  s.child.kill('SIGTERM');
  const r = await Promise.race([s.exited, new Promise<null>((res) => setTimeout(() => res(null), BOUND_MS))]);
  return r ? performance.now() - t0 : null;
}

describe('SIGTERM', () => {
  it('stops a server whose embedded database died', async () => {
    const s = await startMain({ DATABASE_URL: '' });
    const token = await login(s.url);
    expect((await fetch(`${s.url}/api/ativo?range=[0,0]`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // Kill the embedded PostgreSQL outright.
    const pid = Number(fs.readFileSync(path.join(s.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100; i++) { try { process.kill(pid, 0); } catch { break; } await new Promise((r) => setTimeout(r, 50)); }
    // The API now fails (no database), and the process is still up.
    const r = await fetch(`${s.url}/api/ativo?range=[0,0]`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(s.child.exitCode).toBe(null);
    const ms = await term(s);
    expect(ms, s.output().slice(-3000)).not.toBe(null);
    expect(s.output()).toContain('encerrando (SIGTERM)');
  });

  it('stops during start-up while the database never answers', async () => {
    // A "database" that accepts connections and never says a word.
    const sockets: net.Socket[] = [];
    const mute = net.createServer((sock) => { sockets.push(sock); });
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (mute.address() as net.AddressInfo).port;
      const s = await startMain({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/rastro` }, false);
      for (let i = 0; i < 1200 && !sockets.length; i++) await new Promise((r) => setTimeout(r, 50)); // start-up under load can take a while
      expect(sockets.length).toBeGreaterThan(0); // it is waiting on the database
      expect(s.child.exitCode).toBe(null);
      const ms = await term(s);
      expect(ms, s.output().slice(-3000)).not.toBe(null);
    } finally {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => mute.close(r));
    }
  });

  it('stops while a client stalls a download (database alive)', async () => {
    const db = await createDatabase();
    const s = await startMain({ DATABASE_URL: db });
    const token = await login(s.url);
    // Enough rows that the export cannot fit in the socket buffers of a client that stops reading.
    const c = new pg.Client({ connectionString: db });
    await c.connect();
    await c.query(`insert into ativo (empresa_id, descricao, placa, created_at, updated_at)
      select (select min(id) from empresa), 'Carga ' || g || ' ' || repeat('x', 100), 'ZZ' || lpad(g::text, 6, '0'), now(), now()
      from generate_series(1, 80000) g`);
    await c.end();
    const stalled = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${s.url}/api/ativo/export?format=csv`, { headers: { authorization: `Bearer ${token}` } }, (res) => { res.pause(); resolve(res); }).on('error', reject);
    });
    expect(stalled.statusCode).toBe(200);
    const ms = await term(s);
    expect(ms, s.output().slice(-3000)).not.toBe(null);
    stalled.destroy();
  });
});
