// MikroORM bootstrap: connection and migration settings. Migrations are written only by
// `npm run migration:create` and applied at start (server/db/migration-tools.ts); never generated at start.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntitySchema } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from 'pino';
import { systemEntities } from './system-entities.ts';
import { declarePolicies, onReserveConnection } from './rls.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
/** PostgreSQL schemas the ORM's diff leaves alone: telemetria is diffed from metadata/telemetria (telemetry-schema.ts). */
export const IGNORED_SCHEMAS = ['telemetria'];
/** Hand-written tables outside the entity diff (session cache counter). */
export const SKIPPED_TABLES = ['rastro_sessao_versao'];

export interface OrmOptions {
  url: string;
  entities: EntitySchema[];
  migrationsPath?: string;
  logger?: Logger;
  debug?: boolean;
  poolMax?: number;
  /** Let the migrator generate DROP TABLE / DROP COLUMN (migration:create --allow-drop only). */
  allowDrop?: boolean;
}

export async function createOrm(o: OrmOptions): Promise<MikroORM> {
  // Row-level security (server/db/rls.ts): policies declared on company-scoped entities; each pooled connection
  // is switched to the request's company (app role) or back to the system role when reserved.
  declarePolicies(o.entities, systemEntities);
  return MikroORM.init({
    onReserveConnection,
    clientUrl: o.url,
    entities: [...o.entities, ...systemEntities],
    extensions: [Migrator],
    debug: o.debug ?? false,
    pool: { min: 0, max: o.poolMax ?? 20 },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // Tenancy is enforced by explicit conditions + filters on the queried entity; no extra joins.
    autoJoinRefsForFilters: false,
    // Triggers are hand-written in migrations (session cache notifications, *_sessao_notify): never dropped by the diff.
    schemaGenerator: { ignoreSchema: IGNORED_SCHEMAS, ignoreTriggers: true, skipTables: SKIPPED_TABLES },
    migrations: {
      path: o.migrationsPath ?? MIGRATIONS_DIR,
      pathTs: o.migrationsPath ?? MIGRATIONS_DIR,
      glob: '!(*.d).{js,ts}',
      emit: 'ts',
      snapshotName: '.snapshot-rastro',
      transactional: true,
      allOrNothing: true,
      silent: true,
      // The snapshot is what `migration:create` wrote and was reviewed; applying migrations never rewrites it.
      snapshotOnMigrate: false,
      // MikroORM's defaults drop tables and columns; only an explicit --allow-drop may.
      safe: !o.allowDrop,
      dropTables: !!o.allowDrop,
    },
  });
}
