// Versioned, hand-written SQL migrations of the schema telemetria (files migrations/NNN_*.sql).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 7_421_001; // advisory lock: one migrator at a time

export function listMigrations(): { version: string; sql: string }[] {
  return readdirSync(DIR)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(DIR, f), 'utf8') }));
}

/** Applies pending migrations and creates the partitions around now; idempotent. Returns applied versions. */
export async function migrateTelemetria(pool: pg.Pool, monthsAhead = 2): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query('CREATE SCHEMA IF NOT EXISTS telemetria');
    await client.query(`CREATE TABLE IF NOT EXISTS telemetria.schema_migrations (
      version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: string }>('SELECT version FROM telemetria.schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    for (const m of listMigrations()) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO telemetria.schema_migrations (version) VALUES ($1)', [m.version]);
        await client.query('COMMIT');
        applied.push(m.version);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`Falha na migração ${m.version}: ${(err as Error).message}`, { cause: err });
      }
    }
    await ensurePartitionsAround(client, new Date(), monthsAhead);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    client.release();
  }
  return applied;
}

/** First instant (UTC) of the month of d, as a key like 2026-11. */
export function monthKey(d: Date): string {
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Creates partitions from last month up to monthsAhead months after now. */
export async function ensurePartitionsAround(client: pg.ClientBase, now: Date, monthsAhead: number): Promise<void> {
  const months: string[] = [];
  for (let i = -1; i <= monthsAhead; i++) {
    months.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)).toISOString());
  }
  await client.query('SELECT telemetria.garante_particao(t) FROM unnest($1::timestamptz[]) t', [months]);
}
