// Crashes of the real processes (issue 24): `kill -9` of the API in the middle of writes leaves nothing half-written
// (each write and its change history commit together or not at all; every write answered 201 is there), and the
// embedded database comes back after the app is killed — with its PostgreSQL killed too, or left running orphaned.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from './harness.ts';
import { cleanupMain, login, startMain, type Server } from './main-process.ts';

afterEach(cleanupMain);

const killed = (s: Server) => s.exited.then((r) => r.signal);
const postmaster = (dataDir: string) => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
/** Running (a zombie left for a parent that does not reap it counts as gone). */
const alive = (pid: number) => {
  try { return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
};

async function post(url: string, token: string, p: string, body: unknown): Promise<number> {
  const r = await fetch(url + p, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return r.status;
}

describe('kill -9', () => {
  it('of the API mid-write: every answered write is stored with its history, nothing half-written', async () => {
    const db = await createDatabase();
    const s = await startMain({ DATABASE_URL: db });
    const token = await login(s.url);
    const answered: string[] = [];
    let inFlight = 0;
    let next = 0;
    // 40 writes in flight at a time; the process is killed after the 60th answer.
    await new Promise<void>((resolve) => {
      const launch = () => {
        while (inFlight < 40 && next < 400) {
          const nome = `Garagem da queda ${next++}`;
          inFlight++;
          post(s.url, token, '/api/garagem', { nome }).then((status) => {
            inFlight--;
            if (status === 201) answered.push(nome);
            if (answered.length === 60) { s.child.kill('SIGKILL'); resolve(); }
            else if (answered.length < 60) launch();
          }, () => { inFlight--; });
        }
      };
      launch();
    });
    expect(await killed(s)).toBe('SIGKILL');
    const c = new pg.Client({ connectionString: db });
    await c.connect();
    try {
      const rows = (await c.query(`SELECT g.nome, (SELECT count(*)::int FROM historico_alteracao h WHERE h.entidade = 'garagem' AND h.registro_id = g.id) AS historia
        FROM garagem g WHERE g.nome LIKE 'Garagem da queda %'`)).rows as { nome: string; historia: number }[];
      const stored = new Set(rows.map((r) => r.nome));
      // Every write the client was told about is there; some in flight may have committed too (never more than sent).
      expect(answered.filter((n) => !stored.has(n))).toEqual([]);
      expect(rows.length).toBeGreaterThanOrEqual(60);
      expect(rows.length).toBeLessThanOrEqual(next);
      // Each stored row has exactly its creation in the history, and no history names a row that is not there.
      expect(rows.filter((r) => r.historia !== 1)).toEqual([]);
      const orphans = (await c.query(`SELECT count(*)::int AS n FROM historico_alteracao h WHERE h.entidade = 'garagem'
        AND NOT EXISTS (SELECT 1 FROM garagem g WHERE g.id = h.registro_id)`)).rows[0].n;
      expect(orphans).toBe(0);
    } finally { await c.end(); }
  }, 180_000);
});

describe('the embedded database after a crash', () => {
  it('comes back when the app and its PostgreSQL were both killed, with the data written before', async () => {
    const s = await startMain({ DATABASE_URL: '' });
    const token = await login(s.url);
    expect(await post(s.url, token, '/api/garagem', { nome: 'Antes do crash' })).toBe(201);
    const pgPid = postmaster(s.dataDir);
    s.child.kill('SIGKILL');
    await killed(s);
    process.kill(pgPid, 'SIGKILL');
    for (let i = 0; i < 100 && alive(pgPid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pgPid)).toBe(false);
    expect(fs.existsSync(path.join(s.dataDir, 'pg', 'postmaster.pid'))).toBe(true); // stale
    const again = await startMain({ DATABASE_URL: '' }, true, s.dataDir);
    const t2 = await login(again.url);
    const r = await fetch(`${again.url}/api/garagem?filter=${encodeURIComponent(JSON.stringify({ q: 'Antes do crash' }))}`, { headers: { authorization: `Bearer ${t2}` } });
    expect(r.status).toBe(200);
    expect((await r.json()).map((g: { nome: string }) => g.nome)).toEqual(['Antes do crash']);
  }, 180_000);

  it('comes back when the app was killed and its PostgreSQL was left running orphaned', async () => {
    const s = await startMain({ DATABASE_URL: '' });
    const token = await login(s.url);
    expect(await post(s.url, token, '/api/garagem', { nome: 'Órfão' })).toBe(201);
    const pgPid = postmaster(s.dataDir);
    s.child.kill('SIGKILL');
    await killed(s);
    expect(alive(pgPid)).toBe(true);
    const again = await startMain({ DATABASE_URL: '' }, true, s.dataDir);
    const t2 = await login(again.url);
    const r = await fetch(`${again.url}/api/garagem?filter=${encodeURIComponent(JSON.stringify({ q: 'Órfão' }))}`, { headers: { authorization: `Bearer ${t2}` } });
    expect((await r.json()).map((g: { nome: string }) => g.nome)).toEqual(['Órfão']);
    expect(alive(pgPid)).toBe(false); // the orphan was shut down and a new server started
  }, 180_000);
});
