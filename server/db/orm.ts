// MikroORM bootstrap: connection, migrations applied on start, automatic migration on metadata drift.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntitySchema } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import { systemEntities } from './system-entities.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
/** PostgreSQL schemas the diff must never touch (hand-written ingest migrations). */
export const IGNORED_SCHEMAS = ['telemetria'];

export interface OrmOptions {
  url: string;
  entities: EntitySchema[];
  migrationsPath?: string;
  logger?: Logger;
  debug?: boolean;
  poolMax?: number;
}

export async function createOrm(o: OrmOptions): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: o.url,
    entities: [...o.entities, ...systemEntities],
    extensions: [Migrator],
    debug: o.debug ?? false,
    pool: { min: 0, max: o.poolMax ?? 20 },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // Tenancy is enforced by explicit conditions + filters on the queried entity; no extra joins.
    autoJoinRefsForFilters: false,
    schemaGenerator: { ignoreSchema: IGNORED_SCHEMAS },
    migrations: {
      path: o.migrationsPath ?? MIGRATIONS_DIR,
      pathTs: o.migrationsPath ?? MIGRATIONS_DIR,
      glob: '!(*.d).{js,ts}',
      emit: 'ts',
      snapshotName: '.snapshot-rastro',
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
  });
}

/** Applies pending migrations; when the entities differ from the snapshot, writes a new migration and applies it. */
export async function migrate(orm: MikroORM, log?: Logger): Promise<{ applied: string[]; created?: string }> {
  const migrator = orm.migrator;
  // Quick-search trigram indexes need pg_trgm before any migration (also declared in the migration
  // that first used it; automatic migrations of new YAML files rely on this).
  await orm.em.getConnection().execute('create extension if not exists pg_trgm').catch((err) => {
    log?.warn({ err: String(err) }, 'não foi possível criar a extensão pg_trgm (busca rápida sem índice trigram)');
  });
  const applied = (await migrator.up()).map((m) => m.name);
  const res = await migrator.create();
  let created: string | undefined;
  if (res.fileName) {
    created = res.fileName;
    log?.info({ migration: res.fileName }, 'metadados alterados: migração criada automaticamente');
    applied.push(...(await migrator.up()).map((m) => m.name));
  }
  if (applied.length) log?.info({ applied }, 'migrações aplicadas');
  return { applied, created };
}
