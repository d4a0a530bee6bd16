// A declared provider's whole list kept serialised (`sql.versions`): the unfiltered named-call list, e.g. the live
// map's 10,000 latest states, per company, column set and shape, answered byte for byte as a full read would, without
// reading, parsing and serialising again the rows that did not change. The database decides at each request, whoever
// wrote the rows (gateway, registers, psql):
//  - a full check reads every row's key and version (the xmin of each table the row is read from) in the list's
//    order, with the statement's snapshot, and reads again the rows whose version changed;
//  - later requests ask only what was written after that snapshot, without the joins: the first table's rows of the
//    company (their count, and the keys and xmin of the rows written since) and, for each joined register, its row
//    count and rows written since. The same rows with no register written: only the first table's written rows are
//    read again — a vehicle reporting moves nothing in the list. Anything else (a row more or less, a register
//    written, a written row with new sort values) takes the full check.
// The live pushes (server/realtime/live.ts) refresh the kept rows between requests (`feedSnapshots`), so a fleet
// reporting every few seconds finds them current and a request reads again only what changed in the last push window.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProviderMeta, ProviderSql } from '../../shared/model.ts';
import { planChanges, planVersions, rawRows, readDeclaredColumns, sinceOf, VERSION, VERSION_ROW, VERSION_SEP, type Since } from './provider.ts';

// json: the row's JSON as UTF-8 after a comma (the answer is the kept bytes concatenated, nothing encoded again);
// v: its version (xmins joined by ':', the first table's first); sort: its sort column's and tiebreak's values.
interface Kept { v: string; json: Buffer; sort: string; at: number }
interface Snapshot {
  provider: string; empresa: number; columns: string[]; table: boolean; rows: Map<string, Kept>;
  /** The keys in the list's order, null until a full check. */
  order: string[] | null;
  /** The snapshot of the last check, when it was taken, and the joined registers' row counts then. */
  since: Since | null; sinceAt: number; registers: number[];
  /** The check running and the one after it, shared by the requests that came meanwhile (one check at a time). */
  running: Promise<Buffer | null> | null; next: Promise<Buffer | null> | null;
  usedAt: number;
}
// checks of a provider and company: started so far and running now (the live push's feed must not cross one)
interface Store { snaps: Map<string, Snapshot>; checks: Map<string, { started: number; active: number }> }

/** Snapshots kept per database (least recently used dropped first). */
const MAX_SNAPSHOTS = Number(process.env.SNAPSHOT_MAX ?? 64);
/** xmin values wrap around (2^32 transactions): a row kept, or a check's snapshot, older than this is read again. */
const MAX_AGE_MS = 3_600_000;
/** Above this share of changed rows, one read of the whole list costs less than the list of keys. */
const REREAD_ALL = 0.5;

// Per database (the ORM's driver: two apps of one process never share rows).
const stores = new WeakMap<object, Store>();
const storeOf = (em: EntityManager): Store => {
  const k = em.getDriver() as object;
  let s = stores.get(k);
  if (!s) { s = { snaps: new Map(), checks: new Map() }; stores.set(k, s); }
  return s;
};
const checkKey = (provider: string, empresa: number) => `${provider}|${empresa}`;

/** The provider with its row id as an internal list filter (= ANY), whatever its YAML's filters. */
export function withIdFilter(meta: ProviderMeta, key = 'id'): ProviderMeta {
  return meta.filters.some((f) => f.name === key) ? meta : { ...meta, filters: [...meta.filters, { name: key, label: key, type: 'string', multiple: true }] };
}

const sortNames = (meta: ProviderMeta, decl: ProviderSql) => [meta.sort.field, ...decl.tiebreak];
const baseXmin = (v: string) => { const i = v.indexOf(':'); return i < 0 ? v : v.slice(0, i); };

function keptOf(row: Record<string, unknown>, snap: Snapshot, sort: string[], at: number): Kept {
  let json: string;
  if (snap.table) json = JSON.stringify(snap.columns.map((c) => row[c] ?? null));
  else {
    const o: Record<string, unknown> = {};
    for (const c of snap.columns) o[c] = row[c];
    json = JSON.stringify(o);
  }
  return { v: String(row[VERSION]), json: Buffer.from(`,${json}`), sort: JSON.stringify(sort.map((n) => row[n] ?? null)), at };
}

/** `id\x01version` joined by \x02; null when a key holds a separator (the keys cannot be told apart). */
function entries(text: string | null, limit?: number): { id: string; v: string }[] | null {
  const out: { id: string; v: string }[] = [];
  if (!text) return out;
  for (const row of text.split(VERSION_ROW, limit)) {
    const i = row.lastIndexOf(VERSION_SEP);
    if (i < 0) return null;
    out.push({ id: row.slice(0, i), v: row.slice(i + 1) });
  }
  return out;
}

/** Reads the rows `ids` (all when null) again with their versions into the kept ones; the ids read, and whether one
 *  of them has new sort values (it may have moved in the list). */
async function reread(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, empresa: number, snap: Snapshot, ids: string[] | null, limit: number) {
  const sort = sortNames(meta, decl);
  const names = [...new Set([...snap.columns, 'id', ...sort])];
  const q = { params: {}, filter: ids ? { id: ids } : {}, sort: meta.sort };
  const rows = await readDeclaredColumns(em, ids ? withIdFilter(meta) : meta, decl, q, empresa, names, limit, { version: true });
  const now = Date.now();
  const read = new Set<string>();
  let moved = false;
  for (const r of rows) {
    const id = String(r.id);
    const k = keptOf(r, snap, sort, now);
    if (snap.rows.get(id)?.sort !== k.sort) moved = true;
    snap.rows.set(id, k);
    read.add(id);
  }
  return { read, moved };
}

function answer(snap: Snapshot, order: string[], before: string, after: string): Buffer {
  const head = snap.table ? `{"columns":${JSON.stringify(snap.columns)},"rows":[` : '[';
  const parts: Buffer[] = [Buffer.from(`${before}${head}`)];
  for (const id of order) {
    const json = snap.rows.get(id)?.json;
    if (json !== undefined) parts.push(parts.length === 1 ? json.subarray(1) : json);
  }
  parts.push(Buffer.from(`]${snap.table ? '}' : ''}${after}`));
  return Buffer.concat(parts);
}

const counts = (row: Record<string, unknown>, prefix: string, n: number) => Array.from({ length: n }, (_, i) => Number(row[`${prefix}${i + 1}`]));

/** Only what was written since the last check; null when the list may have changed otherwise (a full check). */
async function quickCheck(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, empresa: number, snap: Snapshot, limit: number): Promise<string[] | null> {
  const order = snap.order!;
  const { sql, params } = planChanges(meta, decl, empresa, snap.since!);
  const row = (await rawRows(em, sql, params))[0]!;
  const n = snap.registers.length;
  if (Number(row.n) !== order.length || counts(row, 'n', n).some((c, i) => c !== snap.registers[i]) || counts(row, 'c', n).some((c) => c > 0)) return null;
  const written = entries(row.v as string | null);
  if (!written) return null;
  const now = Date.now();
  const stale: string[] = [];
  for (const w of written) {
    const k = snap.rows.get(w.id);
    if (!k) return null; // a new row
    if (baseXmin(k.v) !== w.v || now - k.at > MAX_AGE_MS) stale.push(w.id);
  }
  if (stale.length) {
    const { read, moved } = await reread(em, meta, decl, empresa, snap, stale, limit);
    if (moved || read.size !== stale.length || snap.order !== order) return null;
  }
  snap.since = sinceOf(String(row.s));
  snap.sinceAt = now;
  return order;
}

/** Every key and version in the list's order; the rows whose version changed read again. */
async function fullCheck(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, empresa: number, snap: Snapshot, limit: number): Promise<string[] | null> {
  const { sql, params } = planVersions(meta, decl, empresa);
  const row = (await rawRows(em, sql, params))[0]!;
  const versions = entries(row.v as string | null, limit);
  if (!versions) return null;
  const now = Date.now();
  const stale: string[] = [];
  for (const r of versions) {
    const k = snap.rows.get(r.id);
    if (!k || k.v !== r.v || now - k.at > MAX_AGE_MS) stale.push(r.id);
  }
  if (stale.length) await reread(em, meta, decl, empresa, snap, stale.length > versions.length * REREAD_ALL ? null : stale, limit);
  const order = versions.map((r) => r.id);
  const present = new Set(order);
  if (snap.rows.size > present.size) for (const id of snap.rows.keys()) if (!present.has(id)) snap.rows.delete(id);
  snap.order = order;
  // the list's order as of this check: a later quick check holds it while nothing moves (full with `limit` rows:
  // rows past the limit are not seen by a quick check, so it never runs)
  snap.since = versions.length < limit ? sinceOf(String(row.s)) : null;
  snap.sinceAt = now;
  snap.registers = counts(row, 'n', (decl.versions?.length ?? 1) - 1);
  return order;
}

/**
 * The UTF-8 JSON `${before}[rows]${after}` of the provider's whole list for the company with `columns` (in that order),
 * at most `limit` rows — the array is what JSON.stringify of readDeclaredColumns' rows gives; with `table`, what
 * JSON.stringify of their tabelaDe (shared/tabela.ts) gives —, from the kept rows and the changed ones; null when the
 * keys cannot be told apart in the versions' text (the caller reads the list itself).
 */
export async function readSnapshotJson(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, empresa: number, columns: string[], limit: number,
  o: { table?: boolean; before?: string; after?: string } = {}): Promise<Buffer | null> {
  const { before = '', after = '' } = o;
  const table = o.table ?? false;
  const store = storeOf(em);
  const name = `${meta.key}|${empresa}|${table ? 'table' : 'list'}|${columns.join(',')}`;
  let snap = store.snaps.get(name);
  if (snap) store.snaps.delete(name); // re-inserted: the most recently used last
  else snap = { provider: meta.key, empresa, columns, table, rows: new Map(), order: null, since: null, sinceAt: 0, registers: [], running: null, next: null, usedAt: 0 };
  snap.usedAt = Date.now();
  store.snaps.set(name, snap);
  // the least recently used first: beyond the count, or unused for an hour (a company whose map nobody opens)
  for (const [n, x] of store.snaps) {
    if (store.snaps.size <= MAX_SNAPSHOTS && snap.usedAt - x.usedAt < MAX_AGE_MS) break;
    store.snaps.delete(n);
  }

  const s = snap;
  const run = async () => {
    const k = checkKey(meta.key, empresa);
    const c = store.checks.get(k) ?? { started: 0, active: 0 };
    store.checks.set(k, c);
    c.started++;
    c.active++;
    try {
      const quick = s.order && s.since && Date.now() - s.sinceAt < MAX_AGE_MS;
      const order = (quick && await quickCheck(em, meta, decl, empresa, s, limit)) || await fullCheck(em, meta, decl, empresa, s, limit);
      return order && answer(s, order, before, after);
    } finally { c.active--; }
  };
  return checked(s, run);
}

/** One check at a time per kept list: a request that comes while one runs (which may have read before it came) waits
 *  for the next one, shared by all that came meanwhile. */
function checked(snap: Snapshot, run: () => Promise<Buffer | null>): Promise<Buffer | null> {
  if (!snap.running) {
    snap.running = run().finally(() => { snap.running = null; });
    return snap.running;
  }
  snap.next ??= snap.running.catch(() => undefined).then(() => { snap.next = null; return checked(snap, run); });
  return snap.next;
}

/** Taken before the live push reads its rows (-1: a check is running): feedSnapshots drops the rows if a check ran
 *  meanwhile — it may have kept rows newer than the push read, and taken a snapshot after them. */
export function feedToken(em: EntityManager, provider: string, empresa: number): number {
  const c = stores.get(em.getDriver() as object)?.checks.get(checkKey(provider, empresa));
  return !c ? 0 : c.active ? -1 : c.started;
}

/** Rows of the provider just read with their versions and every column (the live push's read): the company's kept
 *  lists take them; one whose sort values changed, or a new one, has the list's order read again. */
export function feedSnapshots(em: EntityManager, meta: ProviderMeta, decl: ProviderSql, empresa: number, rows: Record<string, unknown>[], token: number): void {
  const store = stores.get(em.getDriver() as object);
  const c = store?.checks.get(checkKey(meta.key, empresa)) ?? { started: 0, active: 0 };
  if (!store || token < 0 || c.active || c.started !== token) return;
  const now = Date.now();
  const sort = sortNames(meta, decl);
  for (const snap of store.snaps.values()) {
    if (snap.provider !== meta.key || snap.empresa !== empresa) continue;
    for (const r of rows) {
      if (r[VERSION] == null) continue;
      const id = String(r.id);
      const k = keptOf(r, snap, sort, now);
      if (snap.rows.get(id)?.sort !== k.sort) snap.order = null;
      snap.rows.set(id, k);
    }
  }
}
