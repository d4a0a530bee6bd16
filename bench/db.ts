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
