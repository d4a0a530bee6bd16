// The gateway's database set-up: the app's committed migrations (server/migrations, the schema telemetria
// included: metadata/telemetria/*.yaml) applied by the same migrator as the app's start, then the partitions.
import type pg from 'pg';
import { TELEMETRY_TABLES } from '../generated/telemetry.ts';
import { partitionSql } from '../db/telemetry-schema.ts';

/** Applies the pending committed migrations and creates the partitions around now; idempotent. Returns applied names. */
export async function migrateTelemetria(pool: pg.Pool): Promise<string[]> {
  const url = (pool as unknown as { options: { connectionString?: string } }).options.connectionString;
  if (!url) throw new Error('migrateTelemetria: o pool precisa de connectionString');
  // Loaded here only: the gateway's workers never migrate and need neither the ORM nor the entities.
  const [{ entities }, { createOrm }, { migrate }] = await Promise.all([
    import('../generated/entities/index.ts'), import('../db/orm.ts'), import('../db/migration-tools.ts'),
  ]);
  const orm = await createOrm({ url, entities, poolMax: 2 });
  try {
    return (await migrate(orm, undefined, { verify: false })).applied;
  } finally {
    await orm.close(true);
  }
}

/** First instant (UTC) of the month of d, as a key like 2026-11. */
export function monthKey(d: Date): string {
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Creates the partitions of the partitioned telemetry tables around now (metadata partition.monthsBehind/Ahead). */
export async function ensurePartitionsAround(client: pg.ClientBase, now: Date): Promise<void> {
  for (const sql of partitionSql(TELEMETRY_TABLES, now)) await client.query(sql);
}
