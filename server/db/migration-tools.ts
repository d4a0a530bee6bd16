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
import { createOrm, IGNORED_SCHEMAS, MIGRATIONS_DIR } from './orm.ts';

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


export const ALLOW_DROP_HEADER = '// ATENÇÃO: esta migração REMOVE tabelas ou colunas (criada com --allow-drop). Revise antes de versionar.';

function describeDrops(d: Drops): string[] {
  return [...d.tables.map((t) => `  - tabela ${t}`), ...d.columns.map((c) => `  - coluna ${c}`)];
}

export interface CreateResult { fileName?: string; path?: string; sql: string[]; drops: Drops }

/**
 * Writes the next migration (and the snapshot) into `migrationsPath` from the given entities.
 * Refuses, writing nothing, when the migration would drop tables or columns and `allowDrop` is not set.
 */
export async function createMigration(o: { entities: EntitySchema[]; migrationsPath?: string; allowDrop?: boolean; name?: string }): Promise<CreateResult> {
  const migrationsPath = o.migrationsPath ?? MIGRATIONS_DIR;
  fs.mkdirSync(migrationsPath, { recursive: true });
  // With a snapshot the migrator works offline: the URL is never connected to.
  const orm = await createOrm({ url: 'postgres://offline@127.0.0.1:1/offline', entities: o.entities, migrationsPath, allowDrop: !!o.allowDrop });
  try {
    const pending = await snapshotDiff(orm);
    if (!pending.sql.length) return { sql: [], drops: pending.drops };
    const dropping = pending.drops.tables.length + pending.drops.columns.length > 0;
    if (dropping && !o.allowDrop) {
      throw new MigrationError([
        'A migração removeria dados e não foi criada:',
        ...describeDrops(pending.drops),
        'Se a remoção é intencional, rode `npm run migration:create -- --allow-drop` e revise o arquivo gerado.',
      ].join('\n'));
    }
    const res = await orm.migrator.create(migrationsPath, false, false, o.name);
    if (!res.fileName) return { sql: [], drops: pending.drops };
    const file = path.join(migrationsPath, res.fileName.endsWith('.ts') ? res.fileName : `${res.fileName}.ts`);
    if (dropping && fs.existsSync(file)) {
      fs.writeFileSync(file, `${ALLOW_DROP_HEADER}\n${describeDrops(pending.drops).map((l) => `//${l}`).join('\n')}\n${fs.readFileSync(file, 'utf8')}`);
    }
    return { fileName: path.basename(file), path: file, sql: pending.sql, drops: pending.drops };
  } finally {
    await orm.close(true);
  }
}

export interface CheckProblem { kind: 'snapshot' | 'database'; sql: string[] }

/**
 * Applies the committed migrations to the empty database `url` and compares the resulting schema, and the
 * committed snapshot, with the metadata. Answers the differences (none: they agree).
 */
export async function checkMigrations(o: { url: string; entities: EntitySchema[]; migrationsPath?: string }): Promise<CheckProblem[]> {
  const orm = await createOrm({ url: o.url, entities: o.entities, migrationsPath: o.migrationsPath ?? MIGRATIONS_DIR, poolMax: 2 });
  try {
    const problems: CheckProblem[] = [];
    const snap = await snapshotDiff(orm);
    if (snap.sql.length) problems.push({ kind: 'snapshot', sql: snap.sql });
    await migrate(orm, undefined, { verify: false });
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
export async function migrate(orm: MikroORM, log?: Logger, o: { verify?: boolean } = {}): Promise<{ applied: string[] }> {
  // Quick-search trigram indexes need pg_trgm before any migration (also declared in the migration that first used it).
  await orm.em.getConnection().execute('create extension if not exists pg_trgm').catch((err) => {
    log?.warn({ err: String(err) }, 'não foi possível criar a extensão pg_trgm (busca rápida sem índice trigram)');
  });
  const applied = (await orm.migrator.up()).map((m) => m.name);
  if (applied.length) log?.info({ applied }, 'migrações aplicadas');
  if (o.verify ?? true) {
    const pending = await snapshotDiff(orm);
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
