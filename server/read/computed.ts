// Computed (virtual) columns declared with `sql` in metadata (e.g. the asset list's motorista and equipamentosList):
// inlined by the read engine as scalar subselects of the same statement, `{this}` = the row's alias. Expressions
// carry their own company condition ({this}.empresa_id).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ColumnMeta, EntityMeta, FieldMeta } from '../../shared/model.ts';
import { TELEMETRY_TABLES } from '../generated/telemetry.ts';

export type Computed = ColumnMeta & { sql: string };

export const computedColumns = (e: EntityMeta): Computed[] =>
  e.columns.filter((c): c is Computed => !!c.virtual && !!c.sql);

// Tables an expression may read that the application's migrations do not create, checked at most once a minute:
// while one is missing its columns stay empty instead of failing the request's transaction. The telemetry tables
// (metadata/telemetria) are created by the migrations: never asked about.
const DESCRIBED = new Set(TELEMETRY_TABLES.map((t) => t.table));
const seen = new Map<string, { ok: boolean; at: number }>();
/** Whether the table exists, when known without asking the database. */
function known(t: string): boolean | undefined {
  if (DESCRIBED.has(t)) return true;
  const hit = seen.get(t);
  return hit && (hit.ok || Date.now() - hit.at < 60_000) ? hit.ok : undefined;
}
async function present(em: EntityManager, tables: string[]): Promise<boolean> {
  for (const t of tables) {
    const k = known(t);
    if (k !== undefined) { if (!k) return false; continue; }
    const r = (await em.getConnection().execute('SELECT to_regclass(?) IS NOT NULL AS ok', [t])) as { ok: boolean }[];
    seen.set(t, { ok: !!r[0]?.ok, at: Date.now() });
    if (!r[0]?.ok) return false;
  }
  return true;
}

/** usableComputed without a database round trip (the hot path: no awaits), or undefined when it needs one. */
export function usableComputedNow(e: EntityMeta): Computed[] | undefined {
  const usable: Computed[] = [];
  for (const c of computedColumns(e)) {
    const ks = (c.tables ?? []).map(known);
    if (ks.includes(undefined)) return undefined;
    if (ks.every(Boolean)) usable.push(c);
  }
  return usable;
}

/** The computed columns of `e` whose tables exist now (the others answer null). */
export async function usableComputed(em: EntityManager, e: EntityMeta): Promise<Computed[]> {
  const now = usableComputedNow(e);
  if (now) return now;
  const usable: Computed[] = [];
  for (const c of computedColumns(e)) if (await present(em, c.tables ?? [])) usable.push(c);
  return usable;
}

/** A computed column as an export column (text). */
export const computedField = (c: ColumnMeta): FieldMeta => ({
  name: c.source, column: c.source, type: 'string', label: c.label, required: false, unique: false, upperCase: false,
  readOnly: true, hidden: false, writeOnly: false, system: false,
});
