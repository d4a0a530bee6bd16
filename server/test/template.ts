// Template database for the integration tests: the committed migrations applied and the harness's seed (demo data,
// known passwords) written once per run; each test file then gets `CREATE DATABASE … TEMPLATE` (a file copy,
// ~0.1-0.5 s) instead of migrating and seeding again (several seconds of DDL and argon2 hashes per file).
// Built lazily by the first file that needs it, under an advisory lock, so parallel workers build it once.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { SeedResult } from '../seed/index.ts';

export const ADMIN = { login: 'admin', senha: 'admin-senha-123' };
export const LEITOR = { login: 'leitor', senha: 'leitor-senha-123' };
/** The seed every test server gets unless a file asks for another. */
export const TEST_SEED = { adminPassword: ADMIN.senha, leitorPassword: LEITOR.senha, demo: true } as const;

const LOCK = 0x7261_7374; // 'rast'

export const withDatabase = (admin: string, name: string) => { const u = new URL(admin); u.pathname = `/${name}`; return u.toString(); };

async function onAdmin<T>(admin: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try { return await fn(c); } finally { await c.end(); }
}

/** Answers the seed result of the run's template `${prefix}tpl`, building it first when it does not exist yet. */
export async function ensureTemplate(admin: string, prefix: string): Promise<{ name: string; seed: SeedResult }> {
  const name = `${prefix}tpl`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    await c.query('select pg_advisory_lock($1)', [LOCK]);
    const found = async () => (await c.query(`select shobj_description(oid, 'pg_database') as seed from pg_database where datname = $1`, [name])).rows[0];
    let row = await found();
    if (!row) {
      // Imported here: global-setup imports this module for dropRunDatabases only.
      const [{ startServer }, { MIGRATIONS_DIR }] = await Promise.all([import('../app/start.ts'), import('../db/orm.ts')]);
      // Built under another name and renamed when complete: a failed build never leaves a half template behind.
      const building = `${prefix}tpl_b`;
      await c.query(`drop database if exists ${building}`);
      await c.query(`create database ${building}`);
      const tmp = path.resolve(path.dirname(MIGRATIONS_DIR), 'test/.tmp', `tpl-${crypto.randomBytes(4).toString('hex')}`);
      try {
        const r = await startServer({
          port: 0, host: '127.0.0.1', databaseUrl: withDatabase(admin, building), migrationsPath: MIGRATIONS_DIR,
          dataDir: path.join(tmp, 'data'), distDir: path.join(tmp, 'no-dist'), log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), seed: TEST_SEED,
        });
        const seed = r.seed ?? { seeded: false };
        await r.close();
        await c.query(`comment on database ${building} is ${pg.escapeLiteral(JSON.stringify(seed))}`);
        await c.query(`alter database ${building} rename to ${name}`);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
      row = await found();
    }
    return { name, seed: JSON.parse(row.seed) };
  } finally {
    await c.query('select pg_advisory_unlock($1)', [LOCK]).catch(() => undefined);
    await c.end();
  }
}

/** A new database copied from the template; answers its URL. */
export async function cloneTemplate(admin: string, template: string, name: string): Promise<string> {
  await onAdmin(admin, (c) => c.query(`create database ${name} template ${template}`));
  return withDatabase(admin, name);
}

/** Drops every database of the run (names starting with prefix): on a shared server (TEST_DATABASE_URL) nothing stays. */
export async function dropRunDatabases(admin: string, prefix: string): Promise<string[]> {
  return onAdmin(admin, async (c) => {
    const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, $1) order by datname`, [prefix]);
    for (const r of rows) await c.query(`drop database if exists ${r.datname} with (force)`);
    return rows.map((r) => r.datname);
  });
}
