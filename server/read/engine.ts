// The read engine: every row a client reads (list pages with their total, by id, nested lists, exports, lookup
// choices) comes from ONE SQL statement planned here from the metadata — the fields' columns, the computed columns
// inlined as subselects, the filter, the company scope and the order with id as tiebreak — and leaves as the JSON
// the API has always answered (jsonValue). Writes stay on MikroORM (server/crud/write.ts, findVisible).
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { idOf, idsOf } from '../../shared/ids.ts';
import { ident } from '../db/sql.ts';
import { isoTimestamp, pgTimestampIso } from './values.ts';
import { scopeTransaction } from '../db/rls.ts';
import { VERSION_SQL, type SessionCheck } from '../auth/session-cache.ts';
import { staleSession } from '../auth/middleware.ts';
import { computedColumns, type Computed } from './computed.ts';
import { orderSql, parseFilter, parseSort, pgParams, scopeSql, whereSql, type Order, type Params, type Where } from './where.ts';
import { snippetSql } from '../tenancy/scope.ts';
import { entityByKey } from '../core/registry.ts';
import { perOrm } from '../db/per-orm.ts';
import { ownPool, readRows } from '../db/read-pool.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

/** A field's value as the API's JSON (from a raw column value or an ORM entity's property). */
export function jsonValue(f: FieldMeta, v: unknown): unknown {
  if (v == null) return null;
  switch (f.type) {
    case 'reference': return idOf(v);
    case 'referenceList': return idsOf(v);
    case 'integer': case 'number': return typeof v === 'string' || typeof v === 'bigint' ? Number(v) : v;
    case 'datetime': return typeof v === 'string' ? pgTimestampIso(v) : (v instanceof Date ? v : new Date(v as string)).toISOString();
    case 'date': return v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
    case 'time': return String(v).slice(0, 5);
    default: return v;
  }
}

/** Fields a client sees: hidden, write-only and password fields never leave the server. */
export const visibleFields = (e: EntityMeta) => e.fields.filter((f) => !(f.hidden || f.writeOnly || f.type === 'password'));

/** A reference's label subselect around its scope condition: `head` + scopeSql(target, 'lbl') + ')'. */
interface LabelPart { head: string; target: EntityMeta }
interface Plan {
  out: FieldMeta[]; select: string; cols: Computed[]; refs: FieldMeta[]; inner: string;
  /** Answer keys and their converters (jsonValue by type), in the order of out. */
  names: string[]; convert: ((v: unknown) => unknown)[]; labels: LabelPart[];
  /** toJson's compiled writer (rowWriter), made on first use. */
  json?: (r: Row) => Row;
}

/** The types jsonValue converts (its cases); the others it answers as they come. */
const CONVERTED = new Set(['reference', 'referenceList', 'integer', 'number', 'datetime', 'date', 'time']);
/** jsonValue of one field, chosen once per field (a list page converts every cell). */
const converter = (f: FieldMeta): ((v: unknown) => unknown) => (CONVERTED.has(f.type) ? (v) => jsonValue(f, v) : (v) => v ?? null);
const plans = new WeakMap<EntityMeta, Plan>();
function planOf(e: EntityMeta): Plan {
  let p = plans.get(e);
  if (!p) {
    const out = visibleFields(e);
    // date as text: the driver would make a local-time Date of it.
    const expr = (f: FieldMeta) => `t.${ident(f.column)}${f.type === 'date' ? '::text' : ''}`;
    const refs = out.filter((f) => !f.system && (f.type === 'reference' || f.type === 'referenceList') && !!f.reference && !!entityByKey(f.reference));
    // The inner page's columns (computed snippets may read any of them): all but credentials (password hashes,
    // secret tokens), which the app role may not select (column privileges, e.g. link_publico.token).
    const inner = e.fields.filter((f) => !(f.type === 'password' || f.secretToken)).map((f) => `t.${ident(f.column)}`).join(', ');
    const labels = refs.map((f) => {
      const target = entityByKey(f.reference!)!;
      const table = ident(target.table);
      const col = `t.${ident(f.column)}`;
      const name = `'${f.name.replace(/'/g, "''")}', `;
      return f.type === 'reference'
        ? { target, head: `${name}(SELECT ${labelExpr(target, 'lbl')} FROM ${table} lbl WHERE lbl.id = ${col} AND ` }
        : { target, head: `${name}(SELECT array_agg(${labelExpr(target, 'lbl')} ORDER BY u.n) FROM unnest(${col}) WITH ORDINALITY u(id, n) LEFT JOIN ${table} lbl ON lbl.id = u.id AND ` };
    });
    p = { out, select: out.map((f) => `${expr(f)} AS ${ident(f.name)}`).join(', '), cols: computedColumns(e), refs, inner, names: out.map((f) => f.name), convert: out.map(converter), labels };
    plans.set(e, p);
  }
  return p;
}

function toJson(p: Plan, r: Row): Row {
  return (p.json ??= rowWriter(p))(r);
}

/** The plan's row → JSON object as one object literal (fields, then computed columns, then `_labels`), compiled once
 *  per entity: every answer's objects share one shape, which JSON.stringify writes about three times faster than
 *  objects built key by key (a list page: ~50 µs less CPU). Keys are JSON string literals of the metadata's names. */
function rowWriter(p: Plan): (r: Row) => Row {
  const get = (k: string) => `r[${JSON.stringify(k)}]`;
  const items = [
    ...p.names.map((n, i) => `${JSON.stringify(n)}: c[${i}](${get(n)})`),
    ...p.cols.map((c) => `${JSON.stringify(c.source)}: iso(${get(c.source)})`),
    ...(p.refs.length ? [`${JSON.stringify(LABELS)}: ${get(LABELS)} ?? {}`] : []),
  ];
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('c', 'iso', `return (r) => ({ ${items.join(', ')} });`)(p.convert, isoTimestamp) as (r: Row) => Row;
}

// ---------- labels of references ----------

/** Key of the row's reference labels in the API's JSON (declared fields; not the system empresaId): `_labels: { field: label | null }` for a reference,
 *  `_labels: { field: (label | null)[] }` (in the order of the ids) for a referenceList. A label is the referenced
 *  row's recordRepresentation, read in the same statement and only from rows the caller's company scope admits
 *  (null when the row is not visible): the client shows it without reading the referenced register (whose keys the
 *  caller may not hold). */
export const LABELS = '_labels';
const LABELS_AS = ident(LABELS);

/** The label of the referenced row (alias `a`) as text. */
function labelExpr(target: EntityMeta, a: string): string {
  const rep = visibleFields(target).find((f) => f.name === target.recordRepresentation);
  return rep ? `${a}.${ident(rep.column)}::text` : `${a}.id::text`;
}

/** The label subselects' scope conditions (values added to `p`), one per reference: the only part of `_labels` that
 *  depends on the session. */
function labelScopes(plan: Plan, s: Session, p: Params): string[] {
  return plan.labels.map((l) => scopeSql(l.target, s, 'lbl', p));
}

/** The `_labels` select item over the rows `t` ('' when the entity shows no reference), around its scopes. */
function labelsSelect(plan: Plan, scopes: string[]): string {
  if (!plan.labels.length) return '';
  let items = '';
  plan.labels.forEach((l, i) => { items += `${items ? ', ' : ''}${l.head}${scopes[i]})`; });
  return `, json_build_object(${items}) AS ${LABELS_AS}`;
}

// A statement's text is written once per shape: the parts that vary between requests (the conditions with their
// placeholders, the order, the labels' scopes …) are short and make the key; the long select list and computed
// columns are joined only when a shape is new. The same text object each time also spares hashing it again when the
// prepared statement's name is looked up (V8 keeps a string's hash).
const texts = new WeakMap<EntityMeta, Map<string, string>>();
const MAX_SHAPES = 500;
function textOf(e: EntityMeta, key: string, build: () => string): string {
  let m = texts.get(e);
  if (!m) texts.set(e, (m = new Map()));
  let sql = m.get(key);
  if (sql === undefined) {
    if (m.size >= MAX_SHAPES) m.clear();
    sql = build();
    m.set(key, sql);
  }
  return sql;
}
const SEP = '\u0001';

/** The computed columns as select items over the rows `t`. */
const selects = new WeakMap<EntityMeta, string>();
function computedSelect(e: EntityMeta): string {
  let sql = selects.get(e);
  if (sql === undefined) {
    sql = computedColumns(e).map((c) => `, ${snippetSql(e, c.sql, 't')} AS ${ident(c.source)}`).join('');
    selects.set(e, sql);
  }
  return sql;
}

// ---------- running ----------

/** Runs SQL with bind parameters on the read pool (server/db/read-pool.ts: the request's company, as the ORM's
 *  connections), as a prepared statement. */
function run(em: EntityManager, sql: string, values: unknown[]): Promise<Row[]> {
  return readRows<Row>(em, statement(namesOf(em), sql, values));
}

// Named (prepared) statements: PostgreSQL parses and plans a statement once per pooled connection instead of on every
// request. The name comes from the text (lists of values are one array parameter, so the text does not vary with
// their length) and the names are bounded (per app: they bound what its pool's connections hold). Plans follow the
// role and the company setting (RLS): PostgreSQL re-plans when the role changes, and current_setting() is read at
// execution.
const namesOf = perOrm(() => new Map<string, string>());
const MAX_NAMED = 200;
function statement(names: Map<string, string>, text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (!name && names.size < MAX_NAMED) {
    name = `rastro_read_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name ? { text, name, values } : { text, values };
}

/** The session change counter as one more column, when the request's cached session still has to be checked. */
const VERSION_COLUMN = `, (${VERSION_SQL}) AS "__v"`;
const versionColumn = (check: SessionCheck | undefined) => (check?.pending ? VERSION_COLUMN : '');
/** Settles the request's session check from the counter its statement read; a stale session discards the answer. */
function settle(check: SessionCheck | undefined, rows: Row[]): void {
  if (check?.pending && rows.length && !check.settle(rows[0].__v)) throw staleSession();
}

// ---------- queries ----------

export interface ReadQuery {
  /** ra's ?filter (checked against the model). */
  filter?: unknown;
  /** A condition the rows must also meet (a nested route's parent, route parameters, ids). */
  narrow?: Where;
  /** ra's ?sort; default the entity's. */
  sort?: unknown;
  /** A parent row that must be visible to the caller (nested lists): checked in the same statement. */
  parent?: { entity: EntityMeta; where: Where };
}

/** WHERE of a query: the company scope (the scope module's one function), filter and narrowing, over alias t. */
function conditions(e: EntityMeta, s: Session, q: ReadQuery, p: Params): string {
  const parts = [scopeSql(e, s, 't', p)];
  if (q.filter !== undefined) parts.push(whereSql(e, parseFilter(e, q.filter), 't', p));
  if (q.narrow) parts.push(whereSql(e, q.narrow, 't', p));
  return parts.filter((x) => x !== 'TRUE').join(' AND ') || 'TRUE';
}

/** Checks ?filter and ?sort without reading (400 before anything else happens, e.g. before an export starts). */
export function checkQuery(e: EntityMeta, q: ReadQuery): Order[] {
  parseFilter(e, q.filter);
  return parseSort(e, q.sort);
}

/** The statement of a page and its total, with its bind parameters (readPage runs it; tests explain it). */
export function planPage(e: EntityMeta, s: Session, q: ReadQuery & { offset: number; limit: number }, check?: SessionCheck): { sql: string; params: unknown[] } {
  const plan = planOf(e);
  const p = pgParams();
  const w = conditions(e, s, q, p);
  const order = orderSql(parseSort(e, q.sort), 't');
  const scopes = labelScopes(plan, s, p);
  const lim = p.add(q.limit), off = p.add(q.offset);
  // The parent's visibility (nested lists) as one more column of the total's row.
  const parentWhere = q.parent ? [scopeSql(q.parent.entity, s, 'pp', p), whereSql(q.parent.entity, q.parent.where, 'pp', p)].join(' AND ') : '';
  const version = versionColumn(check);
  const key = `page${SEP}${w}${SEP}${order}${SEP}${scopes.join(SEP)}${SEP}${lim}${SEP}${off}${SEP}${q.parent ? q.parent.entity.key : ''}${SEP}${parentWhere}${SEP}${version ? 'v' : ''}`;
  const sql = textOf(e, key, () => {
    const computed = computedSelect(e);
    const labels = labelsSelect(plan, scopes);
    const table = ident(e.table);
    // Computed expressions run on the page's rows only (the inner query pages; its columns as snippets may read any).
    // Labels alone stay in the plain form (PostgreSQL evaluates such subselects after the sort and limit), which
    // reads only the visible columns (some registers grant the app role only some of their columns).
    const page = computed
      ? `SELECT ${plan.select}${computed}${labels} FROM (SELECT ${plan.inner} FROM ${table} t WHERE ${w} ORDER BY ${order} LIMIT ${lim} OFFSET ${off}) t ORDER BY ${order}`
      : `SELECT ${plan.select}${labels} FROM ${table} t WHERE ${w} ORDER BY ${order} LIMIT ${lim} OFFSET ${off}`;
    const parent = q.parent ? `, EXISTS (SELECT 1 FROM ${ident(q.parent.entity.table)} pp WHERE ${parentWhere}) AS "__parent"` : '';
    // The total's row always comes, with the page's rows (none: one row of nulls).
    return `SELECT c.n AS "__total"${version}${parent}, p.* FROM (SELECT count(*)::int AS n FROM ${table} t WHERE ${w}) c` +
      ` LEFT JOIN LATERAL (SELECT 1 AS "__row", q.* FROM (${page}) q) p ON TRUE`;
  });
  return { sql, params: p.values };
}

/** One page and the total in one statement. `check`: the request's unsettled session check, settled by it.
 *  With q.parent, `parentFound` says whether the parent is visible (when not, the rows must not be answered). */
export async function readPage(em: EntityManager, e: EntityMeta, s: Session, q: ReadQuery & { offset: number; limit: number }, check?: SessionCheck): Promise<{ rows: Row[]; total: number; parentFound: boolean }> {
  const { sql, params } = planPage(e, s, q, check);
  const rows = await run(em, sql, params);
  settle(check, rows);
  const parentFound = !q.parent || rows[0]?.__parent === true;
  if (!parentFound) return { rows: [], total: 0, parentFound };
  const plan = planOf(e);
  return { rows: rows[0]?.__row == null ? [] : rows.map((r) => toJson(plan, r)), total: Number(rows[0]?.__total ?? 0), parentFound };
}

/** The visible row by id (meeting `narrow`), with its computed columns; null when not visible. */
export async function readOne(em: EntityManager, e: EntityMeta, s: Session, id: number, narrow?: Where, check?: SessionCheck): Promise<Row | null> {
  const plan = planOf(e);
  const p = pgParams();
  const w = conditions(e, s, { narrow: narrow ? { $and: [{ id }, narrow] } : { id } }, p);
  const scopes = labelScopes(plan, s, p);
  const version = versionColumn(check);
  const sql = textOf(e, `one${SEP}${w}${SEP}${scopes.join(SEP)}${SEP}${version ? 'v' : ''}`, () => {
    const computed = computedSelect(e);
    const labels = labelsSelect(plan, scopes);
    const table = ident(e.table);
    return computed
      ? `SELECT ${plan.select}${computed}${labels}${version} FROM (SELECT ${plan.inner} FROM ${table} t WHERE ${w} LIMIT 1) t`
      : `SELECT ${plan.select}${labels}${version} FROM ${table} t WHERE ${w} LIMIT 1`;
  });
  const rows = await run(em, sql, p.values);
  settle(check, rows);
  return rows.length ? toJson(plan, rows[0]) : null;
}

/** Some fields (as JSON) of the first visible row of `e` meeting `where` (e.g. a nested route's parent); null when none. */
export async function readFields(em: EntityManager, e: EntityMeta, s: Session, where: Where, names: string[]): Promise<Row | null> {
  const p = pgParams();
  const fields = names.map((n) => e.fields.find((f) => f.name === n)!);
  const w = conditions(e, s, { narrow: where }, p);
  const rows = await run(em, `SELECT ${fields.map((f) => `t.${ident(f.column)} AS ${ident(f.name)}`).join(', ')} FROM ${ident(e.table)} t WHERE ${w} LIMIT 1`, p.values);
  if (!rows.length) return null;
  const o: Row = {};
  for (const f of fields) o[f.name] = jsonValue(f, rows[0][f.name]);
  return o;
}

/** Choices of a lookup: `value` and `label` fields of the visible rows of `t` meeting `narrow`, by label. */
export async function readOptions(em: EntityManager, t: EntityMeta, s: Session, value: string, label: string, narrow: Where | undefined, limit: number): Promise<{ value: unknown; label: unknown }[]> {
  const p = pgParams();
  const col = (n: string) => `t.${ident(t.fields.find((f) => f.name === n)!.column)}`;
  const w = conditions(t, s, { narrow }, p);
  return run(em, `SELECT ${col(value)} AS value, ${col(label)} AS label FROM ${ident(t.table)} t WHERE ${w} ORDER BY ${col(label)} asc LIMIT ${p.add(limit)}`, p.values) as Promise<{ value: unknown; label: unknown }[]>;
}

// ---------- streaming (exports) ----------

/** Rows per FETCH (memory per export is bounded by it). */
const BATCH = Number(process.env.EXPORT_BATCH ?? 250);
/** Concurrent cursors (the exports' pool size). */
export const MAX_CURSORS = () => Number(process.env.EXPORT_MAX_TOTAL ?? 6);

// Cursors read through a pool of their own (one connection per running export): a download its client stalls holds
// one of these, never a connection of the application's pool.
const cursorPool = ownPool(MAX_CURSORS, 5_000);

/** Cell value of a streamed row: as the JSON, except instants stay Dates (spreadsheets take them as dates). */
const cellValue = (f: FieldMeta, v: unknown) => (f.type === 'datetime' && v != null ? (v instanceof Date ? v : new Date(v as string)) : jsonValue(f, v));

/**
 * The whole result in batches (fields by name, references as ids, computed columns included) from a server-side
 * cursor (DECLARE/FETCH in a read-only transaction: one sort and one consistent snapshot). The query is planned and
 * checked before the first await that reads; a lost connection fails the next FETCH; returning early (client gone)
 * rolls back and frees the connection.
 */
export async function* readBatches(em: EntityManager, e: EntityMeta, s: Session, q: ReadQuery): AsyncGenerator<Row[]> {
  const plan = planOf(e);
  const p = pgParams();
  const w = conditions(e, s, q, p);
  const order = orderSql(parseSort(e, q.sort), 't');
  const computed = computedSelect(e) + labelsSelect(plan, labelScopes(plan, s, p));
  const sql = `SELECT ${plan.select}${computed} FROM ${ident(e.table)} t WHERE ${w} ORDER BY ${order}`;
  for await (const raw of readCursor(em, sql, p.values)) {
    yield raw.map((r) => {
      const o: Row = {};
      for (const f of plan.out) o[f.name] = cellValue(f, r[f.name]);
      for (const c of plan.cols) o[c.source] = r[c.source] ?? null;
      if (plan.refs.length) o[LABELS] = r[LABELS] ?? {};
      return o;
    });
  }
}

/**
 * Any planned statement's rows in batches of BATCH from a server-side cursor (DECLARE/FETCH in a read-only
 * transaction of the exports' pool, in the current context's company: RLS). A lost connection fails the next
 * FETCH; returning early (client gone) rolls back and frees the connection.
 */
export async function* readCursor(em: EntityManager, sql: string, params: unknown[]): AsyncGenerator<Row[]> {
  const client = await cursorPool(em).connect();
  let broken = false;
  const onError = () => { broken = true; };
  client.on('error', onError); // the server dropped the connection: the pending query rejects by itself
  let done = false;
  try {
    await client.query('begin read only');
    await scopeTransaction(client); // row-level security: the request's company, as the app role
    await client.query(`declare rastro_export no scroll cursor for ${sql}`, params);
    for (;;) {
      const raw = (await client.query(`fetch ${BATCH} from rastro_export`)).rows as Row[];
      if (raw.length) yield raw;
      if (raw.length < BATCH) break;
    }
    await client.query('commit');
    done = true;
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    if (!done && !broken) await client.query('rollback').catch(() => { broken = true; });
    client.off('error', onError);
    client.release(broken); // a broken connection is destroyed, not returned to the pool
  }
}
