// Reviewed migrations (issue 6 §4): the metadata (generated entities) is compared with the committed
// snapshot; a migration file is written only on request (`npm run migration:create`), never at start.
// Drops of tables or columns need an explicit flag. `npm run migration:check` proves the committed
// migrations, applied to an empty database, give exactly the schema the metadata describes.
import fs from 'node:fs';
import path from 'node:path';
import type { EntitySchema } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { DatabaseSchema, SchemaComparator, type SchemaDifference } from '@mikro-orm/sql';
import pg from 'pg';
import type { TelemetryTableMeta } from '../../shared/model.ts';
import { TELEMETRY_TABLES } from '../generated/telemetry.ts';
import { createOrm, IGNORED_SCHEMAS, MIGRATIONS_DIR } from './orm.ts';
import { diffTelemetry, partitionSql, readTelemetrySnapshot, readTelemetryState, stateOf, TELEMETRY_SNAPSHOT, writeTelemetrySnapshot, type TelemetryDiff } from './telemetry-schema.ts';

/** Tables and columns a diff would drop, as `tabela` / `tabela.coluna`. */
export interface Drops { tables: string[]; columns: string[] }

export interface PendingDiff {
  /** SQL the next migration would run (drops included). */
  sql: string[];
  drops: Drops;
}

const strip = (name: string) => name.replace(/^public\./, '');

function dropsOf(diff: SchemaDifference): Drops {
  const tables = Object.values(diff.removedTables)
    .filter((t) => !IGNORED_SCHEMAS.includes(t.schema ?? ''))
    .map((t) => strip(t.getShortestName()));
  const columns: string[] = [];
  for (const t of Object.values(diff.changedTables)) {
    for (const c of Object.keys(t.removedColumns)) columns.push(`${strip(t.name)}.${c}`);
  }
  return { tables: tables.sort(), columns: columns.sort() };
}

export class MigrationError extends Error {}

/** Advisory lock key held while migrations are applied. */
const MIGRATION_LOCK = 7_421_001;

function splitSql(sql: string): string[] {
  return sql.split(/;\n/).map((s) => s.trim()).filter(Boolean).map((s) => (s.endsWith(';') ? s : `${s};`));
}

function schemaGenerator(orm: MikroORM) {
  return orm.schema as unknown as {
    getTargetSchema(): DatabaseSchema;
    diffToSQL(diff: SchemaDifference, o: { wrap?: boolean; safe?: boolean; dropTables?: boolean }): string;
  };
}

async function snapshotOf(orm: MikroORM): Promise<DatabaseSchema | undefined> {
  // Protected in the typings; the same reader the migrator uses for `create`.
  return (orm.migrator as unknown as { getSchemaFromSnapshot(): Promise<DatabaseSchema | undefined> }).getSchemaFromSnapshot();
}

function compare(orm: MikroORM, from: DatabaseSchema, to: DatabaseSchema): PendingDiff {
  const diff = new SchemaComparator(orm.em.getPlatform()).compare(from, to);
  const sql = splitSql(schemaGenerator(orm).diffToSQL(diff, { wrap: false, safe: false, dropTables: true }));
  return { sql, drops: dropsOf(diff) };
}

/** Difference between the committed snapshot and the metadata; throws when there is no snapshot. */
export async function snapshotDiff(orm: MikroORM): Promise<PendingDiff> {
  const snap = await snapshotOf(orm);
  if (!snap) throw new MigrationError('Não há snapshot de migrações (.snapshot-rastro.json) na pasta de migrações.');
  return compare(orm, snap, schemaGenerator(orm).getTargetSchema());
}


/** Difference between the committed telemetry snapshot and the telemetry metadata (schema telemetria). */
export function telemetrySnapshotDiff(migrationsPath: string, tables: TelemetryTableMeta[] = TELEMETRY_TABLES): TelemetryDiff {
  return diffTelemetry(readTelemetrySnapshot(migrationsPath), tables.map(stateOf));
}

const stamp = (d = new Date()) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

/** A migration file of SQL statements (MikroORM class, applied by the same migrator as the ORM's). */
function writeSqlMigration(dir: string, className: string, header: string[], sql: string[]): string {
  const lit = (x: string) => `\`${x.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;
  const body = [
    ...header.map((l) => `// ${l}`),
    "import { Migration } from '@mikro-orm/migrations';",
    '',
    `export class ${className} extends Migration {`,
    '',
    `  override name = '${className}';`,
    '',
    '  override up(): void | Promise<void> {',
    ...sql.map((x) => `    this.addSql(${lit(x)});`),
    '  }',
    '',
    '}',
    '',
  ].join('\n');
  const file = path.join(dir, `${className}.ts`);
  fs.writeFileSync(file, body);
  return file;
}

export const ALLOW_DROP_HEADER = '// ATENÇÃO: esta migração REMOVE tabelas ou colunas (criada com --allow-drop). Revise antes de versionar.';

function describeDrops(d: Drops): string[] {
  return [...d.tables.map((t) => `  - tabela ${t}`), ...d.columns.map((c) => `  - coluna ${c}`)];
}

export interface CreateResult {
  fileName?: string; path?: string; sql: string[]; drops: Drops;
  /** The telemetry migration (schema telemetria), when the telemetry metadata changed; written after the ORM's. */
  telemetry?: { fileName: string; path: string; sql: string[]; unsupported: string[] };
}

/**
 * Writes the next migration (and the snapshot) into `migrationsPath` from the given entities.
 * Refuses, writing nothing, when the migration would drop tables or columns and `allowDrop` is not set.
 */
export async function createMigration(o: { entities: EntitySchema[]; migrationsPath?: string; allowDrop?: boolean; name?: string; telemetry?: TelemetryTableMeta[] }): Promise<CreateResult> {
  const migrationsPath = o.migrationsPath ?? MIGRATIONS_DIR;
  fs.mkdirSync(migrationsPath, { recursive: true });
  const tables = o.telemetry ?? TELEMETRY_TABLES;
  const tel = telemetrySnapshotDiff(migrationsPath, tables);
  // With a snapshot the migrator works offline: the URL is never connected to.
  const orm = await createOrm({ url: 'postgres://offline@127.0.0.1:1/offline', entities: o.entities, migrationsPath, allowDrop: !!o.allowDrop });
  try {
    const orm0 = await snapshotDiff(orm);
    const pending = { sql: orm0.sql, drops: { tables: [...orm0.drops.tables, ...tel.drops.tables], columns: [...orm0.drops.columns, ...tel.drops.columns] } };
    if (!pending.sql.length && !tel.sql.length) return { sql: [], drops: pending.drops };
    const dropping = pending.drops.tables.length + pending.drops.columns.length > 0;
    if (dropping && !o.allowDrop) {
      throw new MigrationError([
        'A migração removeria dados e não foi criada:',
        ...describeDrops(pending.drops),
        'Se a remoção é intencional, rode `npm run migration:create -- --allow-drop` e revise o arquivo gerado.',
      ].join('\n'));
    }
    const out: CreateResult = { sql: pending.sql, drops: pending.drops };
    let base = `Migration${stamp()}${o.name ? `_${o.name}` : ''}`;
    if (pending.sql.length) {
      const res = await orm.migrator.create(migrationsPath, false, false, o.name);
      if (res.fileName) {
        const file = path.join(migrationsPath, res.fileName.endsWith('.ts') ? res.fileName : `${res.fileName}.ts`);
        if (orm0.drops.tables.length + orm0.drops.columns.length > 0 && fs.existsSync(file)) {
          fs.writeFileSync(file, `${ALLOW_DROP_HEADER}\n${describeDrops(orm0.drops).map((l) => `//${l}`).join('\n')}\n${fs.readFileSync(file, 'utf8')}`);
        }
        Object.assign(out, { fileName: path.basename(file), path: file });
        base = path.basename(file, '.ts');
      }
    }
    if (tel.sql.length || tel.unsupported.length) {
      // Named after the ORM's file of the same run (sorts right after it), else on its own.
      const className = out.fileName ? `${base}_telemetria` : (o.name ? base : `${base}_telemetria`);
      const header = [
        ...(tel.drops.tables.length + tel.drops.columns.length ? [ALLOW_DROP_HEADER.replace(/^\/\/ /, ''), ...describeDrops(tel.drops)] : []),
        `Schema telemetria (metadata/telemetria), written by \`npm run migration:create\` with ${TELEMETRY_SNAPSHOT}:`,
        ...tel.changes.map((c) => `  ${c}`),
        ...(tel.unsupported.length ? ['COMPLETE À MÃO (a diferença não se traduz em SQL gerado):', ...tel.unsupported.map((c) => `  ${c}`)] : []),
      ];
      const file = writeSqlMigration(migrationsPath, className, header, tel.sql);
      writeTelemetrySnapshot(migrationsPath, tables.map(stateOf));
      out.telemetry = { fileName: path.basename(file), path: file, sql: tel.sql, unsupported: tel.unsupported };
      if (!out.fileName) Object.assign(out, { fileName: path.basename(file), path: file, sql: tel.sql });
    }
    return out;
  } finally {
    await orm.close(true);
  }
}

export interface CheckProblem { kind: 'snapshot' | 'database'; sql: string[]; schema?: 'telemetria'; changes?: string[] }

/**
 * Applies the committed migrations to the empty database `url` and compares the resulting schema, and the
 * committed snapshot, with the metadata. Answers the differences (none: they agree).
 */
export async function checkMigrations(o: { url: string; entities: EntitySchema[]; migrationsPath?: string; telemetry?: TelemetryTableMeta[] }): Promise<CheckProblem[]> {
  const migrationsPath = o.migrationsPath ?? MIGRATIONS_DIR;
  const tables = o.telemetry ?? TELEMETRY_TABLES;
  const orm = await createOrm({ url: o.url, entities: o.entities, migrationsPath, poolMax: 2 });
  try {
    const problems: CheckProblem[] = [];
    const snap = await snapshotDiff(orm);
    if (snap.sql.length) problems.push({ kind: 'snapshot', sql: snap.sql });
    const telSnap = telemetrySnapshotDiff(migrationsPath, tables);
    if (telSnap.changes.length) problems.push({ kind: 'snapshot', schema: 'telemetria', sql: telSnap.sql, changes: telSnap.changes });
    await migrate(orm, undefined, { verify: false, telemetry: tables });
    const c = new pg.Client({ connectionString: o.url });
    await c.connect();
    try {
      const live = diffTelemetry(await readTelemetryState(c), tables.map(stateOf));
      if (live.changes.length) problems.push({ kind: 'database', schema: 'telemetria', sql: live.sql, changes: live.changes });
    } finally { await c.end(); }
    const { skipTables, skipViews } = orm.config.get('schemaGenerator');
    const db = await DatabaseSchema.create(orm.em.getConnection(), orm.em.getPlatform(), orm.config, undefined, undefined, undefined, skipTables, skipViews);
    const live = compare(orm, db, schemaGenerator(orm).getTargetSchema());
    if (live.sql.length) problems.push({ kind: 'database', sql: live.sql });
    return problems;
  } finally {
    await orm.close(true);
  }
}

/** pt-BR report of check problems. */
export function describeProblems(problems: CheckProblem[]): string {
  const out = ['Os metadados e as migrações versionadas (server/migrations) não conferem.'];
  for (const p of problems) {
    if (p.schema === 'telemetria') {
      out.push(p.kind === 'snapshot'
        ? `Diferença entre os metadados de telemetria (metadata/telemetria) e o snapshot (${TELEMETRY_SNAPSHOT}) — falta criar a migração:`
        : 'Diferença entre os metadados de telemetria e o schema telemetria obtido aplicando as migrações versionadas a um banco vazio:');
      out.push(...(p.changes ?? []).map((s) => `  ${s}`));
      continue;
    }
    out.push(p.kind === 'snapshot'
      ? 'Diferença entre os metadados e o snapshot (.snapshot-rastro.json) — falta criar a migração:'
      : 'Diferença entre os metadados e o banco obtido aplicando as migrações versionadas a um banco vazio:');
    out.push(...p.sql.map((s) => `  ${s}`));
  }
  out.push('Rode `npm run migration:create`, revise o arquivo gerado e versione-o junto com o snapshot.');
  return out.join('\n');
}

/**
 * Start-up: applies the committed migrations that are pending. With `verify` (default), refuses to go on when
 * the metadata differs from the committed snapshot: a migration is missing and the app would run on tables
 * that do not match its entities.
 */
export async function migrate(orm: MikroORM, log?: Logger, o: { verify?: boolean; telemetry?: TelemetryTableMeta[] } = {}): Promise<{ applied: string[] }> {
  const tables = o.telemetry ?? TELEMETRY_TABLES;
  // Quick-search trigram indexes need pg_trgm before any migration (also declared in the migration that first used it).
  await orm.em.getConnection().execute('create extension if not exists pg_trgm').catch((err) => {
    log?.warn({ err: String(err) }, 'não foi possível criar a extensão pg_trgm (busca rápida sem índice trigram)');
  });
  // One migrator at a time per database: the app and a separate gateway may start together.
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  let applied: string[];
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    applied = (await orm.migrator.up()).map((m) => m.name);
    // The telemetry tables' monthly partitions, from last month to a few months ahead (the writer adds others).
    for (const sql of partitionSql(tables)) await orm.em.getConnection().execute(sql);
  } finally {
    await lock.end();
  }
  if (applied.length) log?.info({ applied }, 'migrações aplicadas');
  if (o.verify ?? true) {
    const pending = await snapshotDiff(orm);
    const migrationsPath = orm.config.get('migrations').path ?? MIGRATIONS_DIR;
    pending.sql.push(...telemetrySnapshotDiff(migrationsPath, tables).sql);
    if (pending.sql.length) {
      throw new MigrationError([
        'Os metadados mudaram e não há migração versionada para a mudança; o servidor não altera o banco sozinho.',
        ...pending.sql.slice(0, 20).map((s) => `  ${s}`),
        ...(pending.sql.length > 20 ? [`  … e mais ${pending.sql.length - 20} instruções`] : []),
        'Rode `npm run migration:create`, revise e versione o arquivo gerado em server/migrations, e reinicie.',
      ].join('\n'));
    }
  }
  return { applied };
}
