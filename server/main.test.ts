// SIGTERM stops the real server (`node --import tsx server/main.ts`, as npm start runs it) within a generous
// functional bound whatever state its database is in: embedded database killed, or a download stalled by its client.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDatabase } from './test/harness.ts';
import { cleanupMain, login, startMain, type Server } from './test/main-process.ts';

const BOUND_MS = 15_000; // "it exits", not a speed figure
afterEach(cleanupMain);

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
