// A throwaway database for a benchmark: a fresh database on BENCH_DATABASE_URL / DATABASE_URL when set, else an
// embedded PostgreSQL in a temp folder. `close()` drops or stops it.
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../server/db/embedded.ts';

export interface BenchDatabase { url: string; embedded: boolean; close(): Promise<void> }

export async function benchDatabase(name: string, tmp: string): Promise<BenchDatabase> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base) {
    const h = await startEmbeddedPostgres({ dir: path.join(tmp, 'pg'), database: 'rastro_bench' });
    return { url: h.url, embedded: true, close: () => h.stop().catch(() => undefined) };
  }
  const db = `rastro_bench_${name}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${db}`).finally(() => admin.end());
  const u = new URL(base);
  u.pathname = `/${db}`;
  return {
    url: u.toString(), embedded: false,
    close: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${db} with (force)`).finally(() => c.end()).catch((e) => console.error(String(e)));
    },
  };
}

/** The server a benchmark creates its database on: BENCH_DATABASE_URL / TEST_DATABASE_URL / DATABASE_URL, a local
 *  PostgreSQL on 5432, or an embedded one in a temp dir. */
export async function benchServer(): Promise<{ url: string; stop?: () => Promise<void>; label: string }> {
  const envUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (envUrl) return { url: envUrl, label: 'variável de ambiente' };
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: local, connectionTimeoutMillis: 2000 });
  try { await c.connect(); await c.end(); return { url: local, label: 'PostgreSQL local :5432' }; } catch { /* none */ }
  const fs = await import('node:fs');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-pg-'));
  const e = await startEmbeddedPostgres({ dir: path.join(dir, 'data'), database: 'postgres' });
  return { url: e.url, stop: e.stop, label: 'PostgreSQL embutido (fsync=off)' };
}

/** `n` Queclink devices (serials base … base+n-1), each linked to its own asset, spread over companies 1–5. */
export async function registerFleet(pool: pg.Pool, serialBase: number, n: number): Promise<void> {
  await pool.query(`INSERT INTO equipamento (empresa_id, serial, modelo, tecnologia, ativado, created_at, updated_at)
    SELECT 1 + (g % 5), ($1::bigint + g)::text, 'gv58cg', 'queclink', true, now(), now() FROM generate_series(0, $2 - 1) g`, [serialBase, n]);
  await pool.query(`INSERT INTO ativo (id, empresa_id, descricao, placa, created_at, updated_at)
    SELECT 1000 + g, 1 + (g % 5), 'Ativo ' || g, 'B' || g, now(), now() FROM generate_series(0, $1 - 1) g`, [n]);
  await pool.query(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at)
    SELECT 1 + (g % 5), ($1::bigint + g)::text, 1000 + g, now() - interval '1 day', now(), now() FROM generate_series(0, $2 - 1) g`, [serialBase, n]);
}
