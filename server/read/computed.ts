// Computed (virtual) columns declared with `sql` in metadata (e.g. the asset list's motorista and equipamentosList):
// one query per page for all of them, `SELECT t.id, (expr) ... FROM {table} t WHERE t.id = ANY(ids)`, added to the
// serialized rows of list, show and export. Expressions carry their own company condition ({this}.empresa_id).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ColumnMeta, EntityMeta, FieldMeta } from '../../shared/model.ts';
import { ident } from '../db/sql.ts';
import { type Row } from './query.ts';


export const computedColumns = (e: EntityMeta): (ColumnMeta & { sql: string })[] =>
  e.columns.filter((c): c is ColumnMeta & { sql: string } => !!c.virtual && !!c.sql);

// Tables an expression may read that the application does not create (telemetria: the gateway's), checked at most
// once a minute: while one is missing its columns stay empty instead of failing the request's transaction.
const seen = new Map<string, { ok: boolean; at: number }>();
/** Whether the table exists, when known without asking the database. */
function known(t: string): boolean | undefined {
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
export function usableComputedNow(e: EntityMeta): (ColumnMeta & { sql: string })[] | undefined {
  const usable: (ColumnMeta & { sql: string })[] = [];
  for (const c of computedColumns(e)) {
    const ks = (c.tables ?? []).map(known);
    if (ks.includes(undefined)) return undefined;
    if (ks.every(Boolean)) usable.push(c);
  }
  return usable;
}

/** The computed columns of `e` whose tables exist now (the others answer null). */
export async function usableComputed(em: EntityManager, e: EntityMeta): Promise<(ColumnMeta & { sql: string })[]> {
  const now = usableComputedNow(e);
  if (now) return now;
  const usable: (ColumnMeta & { sql: string })[] = [];
  for (const c of computedColumns(e)) if (await present(em, c.tables ?? [])) usable.push(c);
  return usable;
}

/** Sets the computed columns of `rows` (serialized rows with id), in place. */
export async function addComputed(em: EntityManager, e: EntityMeta, rows: Row[]): Promise<void> {
  const cols = computedColumns(e);
  const ids = rows.map((r) => Number(r.id)).filter(Number.isSafeInteger);
  if (!cols.length || !ids.length) return;
  const usable = await usableComputed(em, e);
  for (const r of rows) for (const c of cols) r[c.source] = null;
  if (!usable.length) return;
  const select = usable.map((c) => `${c.sql.replaceAll('{this}', 't')} AS ${ident(c.source)}`).join(', ');
  const out = (await em.getConnection().execute(
    `SELECT t.id, ${select} FROM ${ident(e.table)} t WHERE t.id = ANY(?::bigint[])`, [`{${ids.join(',')}}`])) as Row[];
  const byId = new Map(out.map((r) => [Number(r.id), r]));
  for (const r of rows) {
    const v = byId.get(Number(r.id));
    if (v) for (const c of usable) r[c.source] = v[c.source] ?? null;
  }
}

/** A computed column as an export column (text). */
export const computedField = (c: ColumnMeta): FieldMeta => ({
  name: c.source, column: c.source, type: 'string', label: c.label, required: false, unique: false, upperCase: false,
  readOnly: true, hidden: false, writeOnly: false, system: false,
});
