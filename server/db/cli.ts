// `npm run migration:create [-- --allow-drop] [-- --name texto]` and `npm run migration:check`
// (both run `npm run generate` first: the metadata is the source of truth).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { loadBundle } from '../app/bundle.ts';
import { startEmbeddedPostgres, type EmbeddedHandle } from './embedded.ts';
import { checkMigrations, createMigration, describeProblems, MigrationError } from './migration-tools.ts';
import { MIGRATIONS_DIR } from './orm.ts';
import type { TelemetryTableMeta } from '../../shared/model.ts';

const args = process.argv.slice(2);
const cmd = args[0];
const flag = (f: string) => args.includes(f);
const opt = (f: string) => { const i = args.indexOf(f); return i >= 0 ? args[i + 1] : undefined; };
const migrationsPath = path.resolve(opt('--dir') ?? process.env.MIGRATIONS_PATH ?? MIGRATIONS_DIR);
const rel = (p: string) => path.relative(process.cwd(), p) || p;

/** The telemetry tables of the generated dir (--generated) or of server/generated. */
async function telemetryOf(dir = opt('--generated')): Promise<TelemetryTableMeta[]> {
  const file = path.resolve(dir ?? path.join(import.meta.dirname, '../generated'), 'telemetry.ts');
  return ((await import(pathToFileURL(file).href)) as { TELEMETRY_TABLES: TelemetryTableMeta[] }).TELEMETRY_TABLES;
}

async function create(): Promise<number> {
  const { entities } = await loadBundle(opt('--generated'));
  const res = await createMigration({ entities, migrationsPath, allowDrop: flag('--allow-drop'), name: opt('--name'), telemetry: await telemetryOf() });
  if (!res.fileName) {
    console.log('Nenhuma diferença entre os metadados e as migrações: nada a criar.');
    return 0;
  }
  console.log(`Migração criada: ${rel(res.path!)} (${res.sql.length} instruções)`);
  if (res.telemetry && res.telemetry.path !== res.path) console.log(`Migração do schema telemetria criada: ${rel(res.telemetry.path)} (${res.telemetry.sql.length} instruções)`);
  if (res.telemetry?.unsupported.length) {
    console.log(`ATENÇÃO: complete à mão ${rel(res.telemetry.path)}: ${res.telemetry.unsupported.join('; ')}.`);
  }
  if (res.drops.tables.length || res.drops.columns.length) {
    console.log(`ATENÇÃO: remove ${[...res.drops.tables.map((t) => `a tabela ${t}`), ...res.drops.columns.map((c) => `a coluna ${c}`)].join(', ')}.`);
  }
  console.log('Revise o arquivo e versione-o junto com os snapshots (server/migrations/.snapshot-rastro.json, .snapshot-telemetria.json); o servidor aplica na próxima partida.');
  return 0;
}

/** An empty database for the check: on TEST_DATABASE_URL's server when set, else an embedded cluster in a temp dir. */
async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  let pgh: EmbeddedHandle | undefined;
  let tmp: string | undefined;
  let admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-migcheck-'));
    fs.chmodSync(tmp, 0o755);
    pgh = await startEmbeddedPostgres({ dir: path.join(tmp, 'data'), database: 'postgres' });
    admin = pgh.url;
  }
  const name = `rastro_check_${crypto.randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try { await c.query(`create database ${name}`); } finally { await c.end(); }
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      if (pgh) {
        await pgh.stop();
        fs.rmSync(tmp!, { recursive: true, force: true });
        return;
      }
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      try { await d.query(`drop database if exists ${name} with (force)`); } finally { await d.end(); }
    },
  };
}

async function check(): Promise<number> {
  const { entities } = await loadBundle(opt('--generated'));
  const db = await scratchDatabase();
  try {
    const problems = await checkMigrations({ url: db.url, entities, migrationsPath, telemetry: await telemetryOf() });
    if (problems.length) {
      console.error(describeProblems(problems));
      return 1;
    }
    console.log('Migrações conferem com os metadados.');
    return 0;
  } finally {
    await db.drop();
  }
}

let code: number;
try {
  if (cmd === 'create') code = await create();
  else if (cmd === 'check') code = await check();
  else {
    console.error('Uso: tsx server/db/cli.ts create [--allow-drop] [--name texto] | check');
    code = 2;
  }
} catch (e) {
  console.error(e instanceof MigrationError ? e.message : e);
  code = 1;
}
process.exit(code);
