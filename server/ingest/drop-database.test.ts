// The test databases' drop (testing/db.ts) right after a pool's end(): the pool's connections leave on their own
// (no 'terminating connection due to administrator command' from a pool nobody listens to); a leaked session is
// still terminated after the wait.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defaultDatabaseUrl, dropDatabase } from './testing/db.ts';

const NAME = `ingest_dropdb_${process.pid}`;
let admin: pg.Client;
const urlOf = () => { const u = new URL(inject('databaseUrl') ?? defaultDatabaseUrl()); u.pathname = `/${NAME}`; return u.toString(); };
const exists = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [NAME])).rowCount;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('databaseUrl') ?? defaultDatabaseUrl() });
  await admin.connect();
});
afterAll(async () => {
  await admin?.query(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
  await admin?.end();
});

describe('dropDatabase', () => {
  it('right after pool.end(): no pool error, the database is gone', async () => {
    const errors: string[] = [];
    for (let i = 0; i < 15; i++) {
      await admin.query(`CREATE DATABASE "${NAME}"`);
      const pool = new pg.Pool({ connectionString: urlOf(), max: 3 });
      pool.on('error', (e) => errors.push(e.message));
      const r = await Promise.all([1, 2, 3].map((n) => pool.query('SELECT $1::int n, pg_sleep(0.01)', [n])));
      expect(r.map((x) => x.rows[0].n)).toEqual([1, 2, 3]);
      await pool.end();
      await dropDatabase(admin, NAME);
      expect(await exists()).toBe(0);
    }
    await new Promise((r) => setTimeout(r, 200)); // a late error would arrive by now
    expect(errors).toEqual([]);
  });

  it('a session that never leaves is terminated once the wait is over', async () => {
    await admin.query(`CREATE DATABASE "${NAME}"`);
    const leaked = new pg.Client({ connectionString: urlOf() });
    const lost = new Promise<string>((resolve) => leaked.on('error', (e) => resolve((e as { code?: string }).code ?? e.message)));
    await leaked.connect();
    const t = Date.now();
    await dropDatabase(admin, NAME, 300);
    expect(Date.now() - t).toBeGreaterThanOrEqual(300);
    expect(await exists()).toBe(0);
    expect(await lost).toBe('57P01');
  });
});
