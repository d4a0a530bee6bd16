// Declared providers: a provider whose rows SQL can say declares its source and its columns' SQL in its YAML
// (`sql:` of kind provider); the read engine builds WHERE (company scope, the declared filters, the search box) and
// ORDER BY (the sort column's expression, empty values last ascending, then the tiebreak) and pages it with the total
// in one statement. Code remains only for what SQL cannot say (a provider implementation in its module).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProviderMeta, ProviderSql } from '../../shared/model.ts';

export type { ProviderSql };
import { badRequest } from '../http/envelope.ts';
import { companySql, expandScope, pgParams, type Params } from '../tenancy/scope.ts';
import { likeOf } from './where.ts';
import { isoTimestamp } from './values.ts';
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
function declaredParts(meta: ProviderMeta, decl: ProviderSql, q: Omit<DeclaredQuery, 'offset' | 'limit'>, empresaId: number | null, p: Params, only?: string[]) {
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
  const names = only ?? (meta.columns.some((c) => c.name === 'id') ? meta.columns.map((c) => c.name) : ['id', ...meta.columns.map((c) => c.name)]);
  const select = names.map((n) => `${expr(n)} AS "${n}"`).join(', ');
  const w = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  return { from, w, order, select };
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

/** One page of a declared provider and its total, in one statement. */
export async function readDeclared(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, q: DeclaredQuery, empresaId: number | null): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const { sql, params } = planDeclared(meta, decl, q, empresaId);
  const client = (em.getConnection() as unknown as { getClient(): { executeQuery(q: unknown): Promise<{ rows: Record<string, unknown>[] }> } }).getClient();
  const { rows } = await client.executeQuery({ sql, parameters: params, query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] } });
  const total = Number(rows[0]?.__total ?? 0);
  if (rows[0]?.__row == null) return { rows: [], total };
  const times = meta.columns.filter((c) => c.type === 'datetime').map((c) => c.name);
  return { rows: rows.map(({ __total, __row, ...r }) => { for (const n of times) r[n] = isoTimestamp(r[n]); return r; }), total };
}

/**
 * Every row of a declared provider, sorted, with only the `columns` named (all when undefined; no page, no total; at
 * most `limit` rows): a bulk read such as a replay's positions, where each column more is a value more to parse on each
 * of 250,000 rows, or a named call's list. Datetimes come as ISO 8601, or with `pgTimes` as PostgreSQL's text.
 */
export async function readDeclaredColumns(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, q: Omit<DeclaredQuery, 'offset' | 'limit'>, empresaId: number | null,
  columns: string[] | undefined, limit: number, o: { pgTimes?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const p = pgParams();
  const { from, w, order, select } = declaredParts(meta, decl, q, empresaId, p, columns);
  const sql = `SELECT ${select} FROM ${from}${w} ORDER BY ${order} LIMIT ${p.add(limit)}`;
  const client = (em.getConnection() as unknown as { getClient(): { executeQuery(q: unknown): Promise<{ rows: Record<string, unknown>[] }> } }).getClient();
  const { rows } = await client.executeQuery({ sql, parameters: p.values, query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] } });
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
