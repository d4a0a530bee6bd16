// Declared providers: a provider whose rows SQL can say declares its source and its columns' SQL in its YAML
// (`sql:` of kind provider); the read engine builds WHERE (company scope, the declared filters, the search box) and
// ORDER BY (the sort column's expression, empty values last ascending, then the tiebreak) and pages it with the total
// in one statement. Code remains only for what SQL cannot say (a provider implementation in its module).
import type { EntityManager } from '@mikro-orm/postgresql';
import { readRows } from '../db/read-pool.ts';
import type { ProviderMeta, ProviderSql } from '../../shared/model.ts';

export type { ProviderSql };
import { badRequest } from '../http/envelope.ts';
import { companySql, expandScope, pgParams, type Params } from '../tenancy/scope.ts';
import { likeOf } from './where.ts';
import { isoTimestamp } from './values.ts';
import { fromTables } from '../../shared/sql-from.ts';
import { readCursor } from './engine.ts';

export interface DeclaredQuery {
  params: Record<string, string | number>;
  filter: Record<string, unknown>;
  sort: { field: string; order: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

/** The provider's `sql` block (metadata), when it declares one. */
export const providerSql = (meta: ProviderMeta): ProviderSql | undefined => meta.sql;

const PARAM = /\{param:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The parts of a declared provider's statement for a query: FROM, WHERE (with the company), ORDER BY, SELECT. */
function declaredParts(meta: ProviderMeta, decl: ProviderSql, q: Omit<DeclaredQuery, 'offset' | 'limit'>, empresaId: number | null, p: Params, only?: string[], version = false) {
  const alias = decl.scope ?? 'x';
  const bind = (sql: string) => sql.replace(PARAM, (_, n: string) => {
    if (!(n in q.params)) throw new Error(`provider ${meta.key}: {param:${n}} is not a param of the request`);
    return p.add(q.params[n]);
  });
  // {scope:y}: y in the same company as the row (the scope module's rule, as in the entities' sql snippets) — in the
  // FROM and in a column's subselect alike.
  const scoped = (sql: string) => expandScope(sql, meta.scope === 'empresa' ? 'empresa' : 'global', decl.this ?? alias);
  // a column's SQL may name params too (e.g. a report's time zone)
  const expr = (name: string) => {
    if (name !== 'id' && !meta.columns.some((c) => c.name === name)) throw new Error(`provider ${meta.key}: sql names an unknown column ${name}`);
    const c = decl.columns?.[name];
    return bind(c ? scoped(c) : `${alias}."${name}"`);
  };
  const from = bind(scoped(decl.from));
  const where: string[] = [];
  if (meta.scope === 'empresa') {
    if (!decl.scope || empresaId == null) throw new Error(`provider ${meta.key}: scope empresa needs sql.scope (the alias of the company's rows)`);
    where.push(companySql(decl.scope, empresaId, p));
  }
  for (const [name, v] of Object.entries(q.filter)) {
    const f = meta.filters.find((x) => x.name === name)!;
    if (f.type === 'search') {
      const like = p.add(likeOf(String(v)));
      where.push(`(${(decl.search ?? []).map((c) => `${expr(c)} ILIKE ${like}`).join(' OR ') || 'FALSE'})`);
    } else if (decl.filters?.[name]) {
      where.push(`(${bind(decl.filters[name]).replaceAll('{value}', p.add(v))})`);
    } else if (Array.isArray(v)) {
      where.push(`${expr(name)} = ANY(${p.add(v)})`);
    } else {
      where.push(`${expr(name)} = ${p.add(v)}`);
    }
  }
  const col = meta.columns.find((c) => c.sortable && c.name === q.sort.field);
  if (!col) throw badRequest(`Campo de ordenação desconhecido: ${q.sort.field}`);
  const dir = q.sort.order === 'ASC' ? 'ASC NULLS LAST' : 'DESC NULLS FIRST';
  const order = [`${expr(col.name)} ${dir}`, ...decl.tiebreak.map((t) => `${expr(t)} ASC`)].join(', ');
  const names = only ?? declaredNames(meta);
  const select = names.map((n) => `${expr(n)} AS "${n}"`).join(', ') + (version ? `, ${versionSql(decl)} AS "${VERSION}"` : '');
  const w = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  return { from, w, order, select, expr };
}

/** A declared provider's row: its id, then its columns. */
export const declaredNames = (meta: ProviderMeta) => (meta.columns.some((c) => c.name === 'id') ? meta.columns.map((c) => c.name) : ['id', ...meta.columns.map((c) => c.name)]);

/** The name of the row's version in a read with `version` (readDeclaredColumns). */
export const VERSION = '__v';

/** A row's version: the xmin of each of its tables' rows (`sql.versions`; an absent joined row is empty). A row with
 *  the same version has the same text, as long as its columns read only those rows (generator/kinds/provider.ts). */
export const versionSql = (decl: ProviderSql) => `concat(${(decl.versions ?? []).map((a) => `${a}.xmin`).join(", ':', ")})`;

/** Separators of the versions' text (planVersions): a key, \x01, its version; rows joined by \x02. */
export const VERSION_SEP = '\x01', VERSION_ROW = '\x02';

/** A database snapshot's oldest transaction still running (pg_current_snapshot's xmin) as a 32-bit xid, as a row's
 *  xmin shows it: every xid below it had ended when the snapshot was taken, subtransactions included. */
export interface Since { xmin: string }

/** pg_current_snapshot()'s text ('xmin:xmax:xip,…', 64-bit) as a Since. */
export function sinceOf(text: string): Since {
  return { xmin: String(BigInt(text.split(':')[0] || '0') & 0xffffffffn) };
}

// A row version that may have been written after the snapshot `since`: its xmin is not older than the snapshot's
// oldest running transaction. (Not "invisible in the snapshot": the snapshot's running list holds no subtransaction,
// whose rows it would take for old.) A transaction that ended before the snapshot with an xid above that xmin is
// counted as written too: read again, never a changed row taken for an unchanged one. age() counts back from one
// stable xid of the statement; frozen xids are the oldest; a row older than 2^31 transactions counts as written.
const writtenSince = (alias: string, x: string) => `NOT (age(${alias}.xmin) > age(${x}::xid))`;

/** The tables of the versions' aliases after the first (the joined registers), as one-row FROM items: their row
 *  counts (n1, n2, …) and, with `since`, how many rows were written after it (c1, c2, …). Their company is the
 *  session's (row-level security): a register written elsewhere only costs a full check. */
function registerCounts(decl: ProviderSql, p: Params, since?: Since): { items: string[]; cols: string[] } {
  const tables = fromTables(decl.from);
  const items: string[] = [], cols: string[] = [];
  const x = since && p.add(since.xmin);
  (decl.versions ?? []).slice(1).forEach((alias, i) => {
    const t = tables.find((f) => f.alias === alias)!;
    const c = since ? `, count(*) FILTER (WHERE ${writtenSince(alias, x!)})::int AS c` : '';
    items.push(`(SELECT count(*)::int AS n${c} FROM ${t.table} ${alias}) r${i + 1}`);
    cols.push(`r${i + 1}.n AS "n${i + 1}"`, ...(since ? [`r${i + 1}.c AS "c${i + 1}"`] : []));
  });
  return { items, cols };
}

/** The keys (id as text) and versions of a declared provider's whole list in its order, as one text (one value to
 *  parse instead of a row per key): `id\x01version` joined by \x02 (v; null when there is no row), with the
 *  statement's snapshot (s) and the joined registers' row counts (n1, n2, …). */
export function planVersions(meta: ProviderMeta, decl: ProviderSql, empresaId: number | null, p: Params = pgParams()): { sql: string; params: unknown[] } {
  const { from, w, order, expr } = declaredParts(meta, decl, { params: {}, filter: {}, sort: meta.sort }, empresaId, p, ['id']);
  const r = registerCounts(decl, p);
  const sql = `SELECT (SELECT string_agg((${expr('id')})::text || chr(1) || ${versionSql(decl)}, chr(2) ORDER BY ${order}) FROM ${from}${w}) AS "v",`
    + ` pg_current_snapshot()::text AS "s"${r.cols.map((c) => `, ${c}`).join('')}${r.items.length ? ` FROM ${r.items.join(', ')}` : ''}`;
  return { sql, params: p.values };
}

/** What changed after `since` in a declared provider's whole list, without the joins: the first table's rows of the
 *  company (n) and the keys and xmin of those written after it (v: `id\x01xmin` joined by \x02, null when none),
 *  the joined registers' row counts and rows written after it (n1, c1, …), and the statement's snapshot (s). */
export function planChanges(meta: ProviderMeta, decl: ProviderSql, empresaId: number, since: Since, p: Params = pgParams()): { sql: string; params: unknown[] } {
  const base = decl.versions![0]!;
  const table = fromTables(decl.from)[0]!.table;
  const id = expandScope(decl.columns?.id ?? `${base}."id"`, 'empresa', base);
  const r = registerCounts(decl, p, since);
  const company = companySql(base, empresaId, p);
  const written = writtenSince(base, p.add(since.xmin));
  const sql = `SELECT b.n AS "n", b.v AS "v", pg_current_snapshot()::text AS "s"${r.cols.map((c) => `, ${c}`).join('')}`
    + ` FROM (SELECT count(*)::int AS n, string_agg((${id})::text || chr(1) || ${base}.xmin, chr(2)) FILTER (WHERE ${written}) AS v`
    + ` FROM ${table} ${base} WHERE ${company}) b${r.items.map((i) => `, ${i}`).join('')}`;
  return { sql, params: p.values };
}

/** The statement of one page of a declared provider and its total, with its parameters. */
export function planDeclared(meta: ProviderMeta, decl: ProviderSql, q: DeclaredQuery, empresaId: number | null, p: Params = pgParams()): { sql: string; params: unknown[] } {
  const { from, w, order, select } = declaredParts(meta, decl, q, empresaId, p);
  const lim = p.add(q.limit), off = p.add(q.offset);
  // The total's row always comes, with the page's rows (none: one row of nulls), as the entities' lists.
  const sql = `SELECT c.n AS "__total", r.* FROM (SELECT count(*)::int AS n FROM ${from}${w}) c` +
    ` LEFT JOIN LATERAL (SELECT 1 AS "__row", ${select} FROM ${from}${w} ORDER BY ${order} LIMIT ${lim} OFFSET ${off}) r ON TRUE`;
  return { sql, params: p.values };
}

/** The whole result of a declared provider, sorted, with no page and no total (a cursor reads it: exports). */
export function planDeclaredAll(meta: ProviderMeta, decl: ProviderSql, q: Omit<DeclaredQuery, 'offset' | 'limit'>, empresaId: number | null, p: Params = pgParams()): { sql: string; params: unknown[] } {
  const { from, w, order, select } = declaredParts(meta, decl, q, empresaId, p);
  return { sql: `SELECT ${select} FROM ${from}${w} ORDER BY ${order}`, params: p.values };
}

/** The rows of a statement on the read engine's pool, in the context's company (server/db/read-pool.ts). */
export function rawRows(em: EntityManager, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  return readRows(em, { text: sql, values: params });
}

/** One page of a declared provider and its total, in one statement. */
export async function readDeclared(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, q: DeclaredQuery, empresaId: number | null): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const { sql, params } = planDeclared(meta, decl, q, empresaId);
  const rows = await rawRows(em, sql, params);
  const total = Number(rows[0]?.__total ?? 0);
  if (rows[0]?.__row == null) return { rows: [], total };
  const times = meta.columns.filter((c) => c.type === 'datetime').map((c) => c.name);
  return { rows: rows.map(({ __total, __row, ...r }) => { for (const n of times) r[n] = isoTimestamp(r[n]); return r; }), total };
}

/**
 * Every row of a declared provider, sorted, with only the `columns` named (all when undefined; no page, no total; at
 * most `limit` rows): a bulk read such as a replay's positions, where each column more is a value more to parse on each
 * of 250,000 rows, or a named call's list. Datetimes come as ISO 8601, or with `pgTimes` as PostgreSQL's text; with
 * `version` each row has its version too (VERSION, `sql.versions`).
 */
export async function readDeclaredColumns(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, q: Omit<DeclaredQuery, 'offset' | 'limit'>, empresaId: number | null,
  columns: string[] | undefined, limit: number, o: { pgTimes?: boolean; version?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const p = pgParams();
  const { from, w, order, select } = declaredParts(meta, decl, q, empresaId, p, columns, o.version);
  const sql = `SELECT ${select} FROM ${from}${w} ORDER BY ${order} LIMIT ${p.add(limit)}`;
  const rows = await rawRows(em, sql, p.values);
  const times = meta.columns.filter((c) => c.type === 'datetime' && (!columns || columns.includes(c.name))).map((c) => c.name);
  // pgTimes: the caller reads the datetimes as PostgreSQL's text (values.ts pgTimestampMs), not as ISO
  if (times.length && !o.pgTimes) for (const r of rows) for (const n of times) r[n] = isoTimestamp(r[n]);
  return rows;
}

/** The whole result of a declared provider in batches, from a server-side cursor (one run of the statement, one
 *  snapshot; see readCursor): an export of 100,000 report rows is one query, not one per page. */
export async function* readDeclaredBatches(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, q: Omit<DeclaredQuery, 'offset' | 'limit'>, empresaId: number | null): AsyncGenerator<Record<string, unknown>[]> {
  const { sql, params } = planDeclaredAll(meta, decl, q, empresaId);
  const times = meta.columns.filter((c) => c.type === 'datetime').map((c) => c.name);
  for await (const raw of readCursor(em, sql, params)) {
    yield raw.map((r) => { for (const n of times) r[n] = isoTimestamp(r[n]); return r; });
  }
}
