// The CRUD read path without the ORM's query building and hydration (issue 7, speed): list and get-by-id of an
// entity whose fields are plain columns run SQL built once per entity from the ORM metadata (identifiers only from
// metadata, values always as parameters) and turn the raw rows into the same JSON `serialize` gives. The WHERE is the
// one buildWhere makes (company condition included, explicit in the SQL); a shape this module does not know
// (m:n lists, nested company paths, unknown operators) answers undefined and the caller uses the ORM.
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import { ormName } from '../core/registry.ts';
import { computedColumns, usableComputed, usableComputedNow } from './computed.ts';
import { ident } from '../db/sql.ts';
import { type Row, type Where } from './query.ts';
import { VERSION_SQL, type SessionCheck } from '../auth/session-cache.ts';
import { staleSession } from '../auth/middleware.ts';


interface Plan {
  table: string;
  /** The select list: column AS "fieldName", only the fields a client sees. */
  select: string;
  /** Field name → quoted column (every field, for WHERE and ORDER BY). */
  col: Map<string, string>;
  out: FieldMeta[];
  convert: ((v: unknown) => unknown)[];
  /** Computed column names, in addComputed's order. */
  computed: string[];
}

const plans = new WeakMap<EntityMeta, Plan | null>();

const SIMPLE = new Set(['integer', 'string', 'text', 'enum', 'boolean', 'datetime', 'date', 'time', 'number', 'json', 'reference']);

function planOf(em: EntityManager, e: EntityMeta): Plan | null {
  const hit = plans.get(e);
  if (hit !== undefined) return hit;
  let plan: Plan | null = null;
  const meta = em.getMetadata().find(ormName(em, e));
  if (meta && e.fields.every((f) => SIMPLE.has(f.type) || f.type === 'password')) {
    const col = new Map<string, string>();
    let ok = true;
    for (const f of e.fields) {
      const p = meta.properties[f.name as never] as { kind?: string; fieldNames?: string[]; persist?: boolean; formula?: unknown } | undefined;
      const names = p?.fieldNames;
      if (!p || p.persist === false || p.formula || !names || names.length !== 1 || !['scalar', 'm:1'].includes(p.kind ?? '')) { ok = false; break; }
      if ((f.type === 'reference') !== (p.kind === 'm:1')) { ok = false; break; }
      col.set(f.name, ident(names[0]));
    }
    if (ok) {
      const out = e.fields.filter((f) => !(f.hidden || f.writeOnly || f.type === 'password'));
      // date as text: the driver would make a local-time Date of it.
      const expr = (f: FieldMeta) => (f.type === 'date' ? `${col.get(f.name)}::text` : col.get(f.name)!);
      plan = { table: ident(meta.tableName), col, out, convert: out.map((f) => CONVERT[f.type] ?? asIs), computed: computedColumns(e).map((c) => c.source), select: out.map((f) => `t.${expr(f)} AS ${ident(f.name)}`).join(', ') };
    }
  }
  plans.set(e, plan);
  return plan;
}

class Unsupported extends Error {}

interface Client { executeQuery(q: unknown): Promise<{ rows: Row[] }> }
let queryId = 0;
/** Runs SQL with bind parameters ($1…) on the ORM's pool (its connection hook sets the company role, see
 *  server/db/rls.ts), skipping the ORM's query formatting (which inlines values) and logging. */
async function run(em: EntityManager, sql: string, parameters: unknown[], nameable: boolean): Promise<Row[]> {
  const client = (em.getConnection() as unknown as { getClient(): Client }).getClient();
  const res = await client.executeQuery({ sql: statement(sql, nameable), parameters, queryId: { queryId: `fast${++queryId}` }, query: { kind: 'RawNode', sqlFragments: [sql], parameters: [] } });
  return res.rows;
}

// Named (prepared) statements: PostgreSQL parses and plans a fast-path query once per pooled connection instead of
// on every request (planning a by-id query with its computed columns costs more than running it). The name comes from
// the text (one name, one text), queries with a list of values stay unnamed (their text varies with the list's length)
// and the names are bounded (each pooled connection keeps what it prepared). Plans follow the role and the company
// setting (RLS): PostgreSQL re-plans when the role changes, and current_setting() is read at execution.
const names = new Map<string, string>();
const MAX_NAMED = 200;
/** Parameter arrays holding a list of values ($in). */
const lists = new WeakSet<unknown[]>();
function statement(sql: string, nameable: boolean): string {
  let name = names.get(sql);
  if (!name && nameable && names.size < MAX_NAMED) {
    name = `rastro_fast_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  // node-postgres takes a query config object where Kysely passes the text through.
  return name ? ({ text: sql, name, toString: () => sql } as unknown as string) : sql;
}

const OPS: Record<string, string> = { $gte: '>=', $lte: '<=', $gt: '>', $lt: '<', $ilike: 'ILIKE', $eq: '=', $ne: '<>' };

function param(v: unknown): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  throw new Unsupported();
}

/** SQL of a buildWhere/scopeWhere object; throws Unsupported for shapes it does not know. */
function cond(p: Plan, w: Where, params: unknown[]): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(w)) {
    if (k === '$and' || k === '$or') {
      if (!Array.isArray(v)) throw new Unsupported();
      const sub = v.map((x) => cond(p, x as Where, params));
      parts.push(sub.length ? `(${sub.join(k === '$and' ? ' AND ' : ' OR ')})` : k === '$and' ? 'TRUE' : 'FALSE');
      continue;
    }
    const c = p.col.get(k);
    if (!c) throw new Unsupported();
    const col = `t.${c}`;
    if (v === null) { parts.push(`${col} IS NULL`); continue; }
    if (typeof v !== 'object' || v instanceof Date) { params.push(param(v)); parts.push(`${col} = $${params.length}`); continue; }
    if (Array.isArray(v)) throw new Unsupported();
    for (const [op, x] of Object.entries(v as Record<string, unknown>)) {
      if (op === '$in') {
        if (!Array.isArray(x)) throw new Unsupported();
        if (!x.length) { parts.push('FALSE'); continue; }
        lists.add(params);
        const nonNull = x.filter((y) => y !== null);
        const inList = nonNull.length ? `${col} IN (${nonNull.map((y) => { params.push(param(y)); return `$${params.length}`; }).join(', ')})` : '';
        parts.push(nonNull.length === x.length ? inList : `(${[inList, `${col} IS NULL`].filter(Boolean).join(' OR ')})`);
        continue;
      }
      const sqlOp = OPS[op];
      if (!sqlOp || x === null || x === undefined) throw new Unsupported();
      params.push(param(x));
      parts.push(`${col} ${sqlOp} $${params.length}`);
    }
  }
  return parts.length ? parts.join(' AND ') : 'TRUE';
}

const asIs = (v: unknown) => v;
const CONVERT: Record<string, (v: unknown) => unknown> = {
  integer: (v) => (typeof v === 'number' ? v : Number(v)),
  datetime: (v) => (v instanceof Date ? v : new Date(v as string)).toISOString(),
  date: (v) => String(v).slice(0, 10),
  time: (v) => String(v).slice(0, 5),
};
CONVERT.reference = CONVERT.number = CONVERT.integer;

/** A raw row → the JSON serialize() gives for the same row (then addComputed's columns). */
function toJson(p: Plan, r: Row): Row {
  const o: Row = {};
  for (let i = 0; i < p.out.length; i++) {
    const name = p.out[i].name;
    const v = r[name];
    o[name] = v == null ? null : p.convert[i](v);
  }
  for (const c of p.computed) o[c] = r[c] ?? null;
  return o;
}

function orderSql(p: Plan, orderBy: Record<string, 'ASC' | 'DESC'>[]): string {
  return orderBy.map((o) => {
    const [[k, d]] = Object.entries(o);
    const c = p.col.get(k);
    if (!c || (d !== 'ASC' && d !== 'DESC')) throw new Unsupported();
    return `t.${c} ${d === 'ASC' ? 'asc' : 'desc'}`;
  }).join(', ');
}

/** The computed columns (server/crud/computed.ts) as select items over the page's rows `t`, in the order
 *  addComputed sets them; a column whose tables are missing is null. Built once per entity and set of usable columns. */
const selects = new WeakMap<EntityMeta, { usable: string; sql: string }>();
async function computedSelect(em: EntityManager, e: EntityMeta): Promise<string> {
  const cols = computedColumns(e);
  if (!cols.length) return '';
  const usable = (usableComputedNow(e) ?? (await usableComputed(em, e))).map((c) => c.source).join('\0');
  const hit = selects.get(e);
  if (hit?.usable === usable) return hit.sql;
  const on = new Set(usable.split('\0'));
  const sql = cols.map((c) => `, ${on.has(c.source) ? `${c.sql.replaceAll('{this}', 't')}` : 'NULL'} AS ${ident(c.source)}`).join('');
  selects.set(e, { usable, sql });
  return sql;
}

/** The session change counter as one more column, when the request's cached session still has to be checked. */
const versionColumn = (check: SessionCheck | undefined) => (check?.pending ? `, (${VERSION_SQL}) AS "__v"` : '');
/** Settles the request's session check from the counter its statement read; a stale session discards the answer. */
function settle(check: SessionCheck | undefined, rows: Row[]): void {
  if (check?.pending && rows.length && !check.settle(rows[0].__v)) throw staleSession();
}

/** One page and the total, with the computed columns, or undefined when the entity or the WHERE needs the ORM.
 *  `check`: the request's unsettled session check, settled by this statement. */
export async function fastPage(em: EntityManager, e: EntityMeta, where: Where, orderBy: Record<string, 'ASC' | 'DESC'>[], offset: number, limit: number, check?: SessionCheck): Promise<{ rows: Row[]; total: number } | undefined> {
  const p = planOf(em, e);
  if (!p) return undefined;
  const params: unknown[] = [];
  let w: string, order: string;
  try { w = cond(p, where, params); order = orderSql(p, orderBy); } catch (err) { if (err instanceof Unsupported) return undefined; throw err; }
  const computed = await computedSelect(em, e);
  // Computed expressions run on the page's rows only (the inner query pages).
  const page = computed
    ? `SELECT ${p.select}${computed} FROM (SELECT t.* FROM ${p.table} t WHERE ${w} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}) t ORDER BY ${order}`
    : `SELECT ${p.select} FROM ${p.table} t WHERE ${w} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  // Page and total in one round trip: the total's row always comes, with the page's rows (none: one row of nulls).
  const sql = `SELECT c.n AS "__total"${versionColumn(check)}, p.* FROM (SELECT count(*)::int AS n FROM ${p.table} t WHERE ${w}) c` +
    ` LEFT JOIN LATERAL (SELECT 1 AS "__row", q.* FROM (${page}) q) p ON TRUE`;
  const rows = await run(em, sql, [...params, limit, offset], !lists.has(params));
  settle(check, rows);
  const total = Number(rows[0]?.__total ?? 0);
  return { rows: rows[0]?.__row == null ? [] : rows.map((r) => toJson(p, r)), total };
}

/** The serialized visible row by id with its computed columns: null when not visible, undefined when the entity
 *  or the WHERE needs the ORM. `check` as in fastPage (no row: left unsettled). */
export async function fastOne(em: EntityManager, e: EntityMeta, where: Where, check?: SessionCheck): Promise<Row | null | undefined> {
  const p = planOf(em, e);
  if (!p) return undefined;
  const params: unknown[] = [];
  let w: string;
  try { w = cond(p, where, params); } catch (err) { if (err instanceof Unsupported) return undefined; throw err; }
  const computed = await computedSelect(em, e);
  const sql = computed
    ? `SELECT ${p.select}${computed}${versionColumn(check)} FROM (SELECT t.* FROM ${p.table} t WHERE ${w} LIMIT 1) t`
    : `SELECT ${p.select}${versionColumn(check)} FROM ${p.table} t WHERE ${w} LIMIT 1`;
  const rows = await run(em, sql, params, !lists.has(params));
  settle(check, rows);
  return rows.length ? toJson(p, rows[0]) : null;
}
