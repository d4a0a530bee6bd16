// Providers: read-only resources whose rows come from code (metadata `kind: provider`, model.providers).
// The core gives each one the pipeline (session → permission key → company scope → handler, server/core/pipeline.ts),
// the ra-data-simple-rest protocol (filter/sort/range checked against the declared filters and columns,
// Content-Range) and its named calls in the spec's envelope. An implementation is one small object:
// list (a page and the total) and, optionally, one (a row by id). Helpers below page, sort and filter
// in SQL (sqlPage, which adds the company condition itself) or in memory (memoryPage).
import type { Context, Hono } from 'hono';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta, ProviderColumn, ProviderFilter, ProviderMeta } from '../../shared/model.ts';
import type { AppEnv, Session } from '../app/env.ts';
import { HttpError, badRequest, ok } from '../http/envelope.ts';
import { columnsParam, exportParams, listFilter, parseRange, parseSort, sendPage } from './protocol.ts';
import { route } from '../core/pipeline.ts';
import { companySql, qParams, scopeWhere } from '../tenancy/scope.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { exportResponse } from './export.ts';
import { declaredNames, providerSql, readDeclared, readDeclaredColumns } from '../read/provider.ts';
import { readSnapshotJson } from '../read/snapshot.ts';
import { tabelaDe } from '../../shared/tabela.ts';
import { knownTecnologia } from './params.ts';
import type { PermissionKey } from '../generated/permissions.ts';
import { requestEm } from '../db/context.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProviderRow = Record<string, any>;

export interface ProviderQuery {
  /** Route parameters, checked against the declared params (integer params are numbers). */
  params: Record<string, string | number>;
  /** Declared filters only, values coerced to their type (a list when several values were sent). */
  filter: Record<string, unknown>;
  /** A sortable column's name (its sortKey alias resolved). */
  sort: { field: string; order: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

export interface ProviderContext {
  session: Session;
  em: EntityManager;
  /** The session's active company for scope empresa; null for scope global. */
  empresaId: number | null;
  meta: ProviderMeta;
}

export interface Provider {
  list(q: ProviderQuery, ctx: ProviderContext): Promise<{ rows: ProviderRow[]; total: number }> | { rows: ProviderRow[]; total: number };
  one?(id: string, q: ProviderQuery, ctx: ProviderContext): Promise<ProviderRow | null> | ProviderRow | null;
  /** Every row (at most `limit`), without the total a page needs: the named calls' lists (the live map's 10,000 states);
   *  with `columns`, only those (in that order). */
  all?(q: Omit<ProviderQuery, 'offset' | 'limit'>, ctx: ProviderContext, limit: number, columns?: string[]): Promise<ProviderRow[]>;
  /** Export cell of a column whose list value is structured (e.g. a unit object → its short form). */
  cell?: Record<string, (row: ProviderRow) => unknown>;
}

// ---------- parsing against the declaration ----------

function coerceFilter(f: ProviderFilter, v: unknown): unknown {
  const bad = () => badRequest(`Valor inválido no filtro ${f.label}`);
  switch (f.type) {
    case 'integer': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n)) throw bad();
      return n;
    }
    case 'boolean':
      if (v === true || v === 'true' || v === '1' || v === 1) return true;
      if (v === false || v === 'false' || v === '0' || v === 0) return false;
      throw badRequest(`O filtro ${f.name} deve ser true ou false`);
    case 'date': case 'datetime':
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw bad();
      return v;
    case 'search':
      if (typeof v !== 'string' && typeof v !== 'number') throw badRequest(`O filtro ${f.name} deve ser um texto`);
      return String(v).trim();
    default:
      if (typeof v !== 'string' && typeof v !== 'number') throw badRequest(`O filtro ${f.name} deve ser um texto${f.multiple ? ' ou uma lista de textos' : ''}`);
      return String(v);
  }
}

/** Checks and coerces ra's filter object against the declared filters (unknown keys are 400). */
export function parseProviderFilter(meta: ProviderMeta, raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('Parâmetro filter inválido');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const f = meta.filters.find((x) => x.name === k);
    if (!f) throw badRequest(`Filtro desconhecido: ${k}`);
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      if (!f.multiple) throw badRequest(`O filtro ${k} aceita um só valor`);
      if (v.length > 5000) throw badRequest('Filtro com valores demais');
      out[k] = v.map((x) => coerceFilter(f, x));
    } else {
      const c = coerceFilter(f, v);
      if (f.type === 'search' && c === '') continue;
      out[k] = f.multiple ? [c] : c;
    }
  }
  return out;
}

export function parseProviderSort(meta: ProviderMeta, raw: string | undefined): ProviderQuery['sort'] {
  const s = parseSort(raw) ?? meta.sort;
  const col = meta.columns.find((c) => c.sortable && (c.name === s.field || c.sortKey === s.field));
  if (!col) throw badRequest(`Campo de ordenação desconhecido: ${s.field}`);
  return { field: col.name, order: s.order };
}

async function parseParams(meta: ProviderMeta, c: Context): Promise<Record<string, string | number>> {
  const out: Record<string, string | number> = {};
  for (const p of meta.params) {
    const v = c.req.param(p.name);
    if (v === undefined) continue;
    if (p.type === 'integer') {
      if (!/^\d{1,15}$/.test(v) || Number(v) <= 0) throw badRequest(`Valor inválido para ${p.label}: ${v}`);
      out[p.name] = Number(v);
    } else if (p.type === 'date') {
      // a calendar date (AAAA-MM-DD) that exists: the text compares with dates kept as text (e.g. total_diario.data)
      const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : null;
      if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) throw badRequest(`Data inválida para ${p.label}: ${v}. Use AAAA-MM-DD.`);
      out[p.name] = v;
    } else {
      if (p.enum && !p.enum.includes(v)) throw new HttpError(404, `Valor desconhecido para ${p.label}: ${v}. Use ${p.enum.join(', ')}.`);
      // Known technologies and models (metadata and the modelo register): the one before names the technology.
      if (p.values === 'tecnologias') await knownTecnologia(v);
      if (p.values === 'modelos') await knownTecnologia(String(out[meta.params.find((x) => x.values === 'tecnologias')!.name]), v);
      out[p.name] = v;
    }
  }
  return out;
}

/** Params naming a row of a register (metadata row): the row must be one the caller's company scope sees, else 404. */
async function parentRows(meta: ProviderMeta, params: Record<string, string | number>, c: Context<AppEnv>): Promise<Record<string, string | number>> {
  for (const p of meta.params) {
    if (!p.row || params[p.name] === undefined) continue;
    const e = entityByKey(p.row.entity)!;
    const em = requestEm(c);
    const seen = await em.count(ormName(em, e), { $and: [{ [p.row.by ?? 'id']: params[p.name] }, scopeWhere(e, c.get('session'))] } as never);
    if (!seen) throw new HttpError(404, p.row.notFound ?? `${e.label.singular} não encontrado`);
  }
  return params;
}

/** The Hono path of a declared path: {name} → :name. */
export const honoPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

// ---------- helpers for implementations ----------

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('pt-BR');
const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });
type Key = string | number | boolean | null;

function compare(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === null) return 1; // empty values last (ascending)
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** Filters (declared filters: search = folded contains over `search`, others = equality / membership),
 *  sorts (pt-BR collation, numeric, empty values last, input order as tie-break) and pages rows held in memory. */
export function memoryPage<T extends ProviderRow>(rows: T[], q: ProviderQuery, meta: ProviderMeta, o: {
  search?: (r: T) => (string | number | null | undefined)[];
  sortKeys?: Record<string, (r: T) => Key>;
} = {}): { rows: T[]; total: number } {
  let out = rows.map((r, i) => ({ r, i }));
  for (const [k, v] of Object.entries(q.filter)) {
    const f = meta.filters.find((x) => x.name === k)!;
    if (f.type === 'search') {
      const needle = fold(String(v));
      const hay = o.search ?? ((r: T) => meta.columns.filter((c) => c.type === 'string').map((c) => r[c.name]));
      out = out.filter(({ r }) => hay(r).some((s) => s != null && fold(String(s)).includes(needle)));
    } else if (Array.isArray(v)) {
      const set = new Set(v);
      out = out.filter(({ r }) => set.has(r[k]));
    } else {
      out = out.filter(({ r }) => r[k] === v);
    }
  }
  const key = o.sortKeys?.[q.sort.field] ?? ((r: T) => { const v = r[q.sort.field]; return v === '' || v === undefined ? null : v as Key; });
  const sign = q.sort.order === 'ASC' ? 1 : -1;
  out.sort((a, b) => sign * compare(key(a.r), key(b.r)) || a.i - b.i);
  return { rows: out.slice(q.offset, q.offset + q.limit).map((x) => x.r), total: out.length };
}

/** One page in SQL: `SELECT {select} FROM {from} WHERE {company of alias scope} AND {where} ORDER BY {sort expr} LIMIT/OFFSET`,
 *  with the total. For scope empresa the company condition is added here (companySql of the alias `scope`, whose
 *  rows carry empresa_id), from the session, never by the caller.
 *  `orderBy` maps each sortable column to its SQL expression; `tiebreak` keeps pages stable. */
export async function sqlPage(ctx: ProviderContext, q: ProviderQuery, o: {
  select: string; from: string; where?: string[]; params?: unknown[]; scope?: string;
  orderBy: Record<string, string>; tiebreak: string;
}): Promise<{ rows: ProviderRow[]; total: number }> {
  const where = [...(o.where ?? [])];
  const params = [...(o.params ?? [])];
  if (ctx.meta.scope === 'empresa') {
    if (!o.scope || ctx.empresaId == null) throw new Error(`provider ${ctx.meta.key}: scope empresa needs the company column (sqlPage scope)`);
    const company = qParams();
    where.unshift(companySql(o.scope, ctx.empresaId, company));
    params.unshift(...company.values);
  }
  const expr = o.orderBy[q.sort.field];
  if (!expr) throw badRequest(`Campo de ordenação desconhecido: ${q.sort.field}`);
  const dir = q.sort.order === 'ASC' ? 'ASC NULLS LAST' : 'DESC NULLS FIRST';
  const sql = `SELECT ${o.select}, count(*) OVER() AS "__total" FROM ${o.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}` +
    ` ORDER BY ${expr} ${dir}, ${o.tiebreak} LIMIT ? OFFSET ?`;
  const conn = ctx.em.getConnection();
  const rows = (await conn.execute(sql, [...params, q.limit, q.offset])) as ProviderRow[];
  let total = rows.length ? Number(rows[0].__total) : 0;
  if (!rows.length && q.offset > 0) {
    const n = (await conn.execute(`SELECT count(*)::int AS n FROM ${o.from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, params)) as { n: number }[];
    total = Number(n[0]?.n ?? 0);
  }
  for (const r of rows) delete r.__total;
  return { rows, total };
}

/** `%text%` for ILIKE with the wildcards of the text escaped. */
export { likeOf } from '../read/where.ts';

// ---------- export ----------

/** Rows a provider export may hold (its rows are paged from the implementation, 1000 at a time). */
export const MAX_PROVIDER_EXPORT = Number(process.env.PROVIDER_EXPORT_MAX ?? 100_000);

const fieldOfColumn = (c: ProviderColumn): FieldMeta => ({
  name: c.name, column: c.name, type: c.type, label: c.label, required: false, unique: false, upperCase: false,
  readOnly: true, hidden: false, writeOnly: false, system: false,
});

/** CSV/XLSX of the whole filtered, sorted result (?columns = column names, default the default ones), through the
 *  shared export writer (server/crud/export.ts: streamed, per-user limits, formula-injection guard). */
async function exportProvider(c: Context<AppEnv>, meta: ProviderMeta, impl: Provider, q: ProviderQuery, ctx: ProviderContext): Promise<Response> {
  const { format, columns: picked } = exportParams(c);
  const names = picked ?? meta.columns.filter((x) => x.default).map((x) => x.name);
  const columns = names.map((n) => {
    const col = meta.columns.find((x) => x.name === n);
    if (!col) throw badRequest(`Coluna desconhecida: ${n}`);
    return { field: fieldOfColumn(col), label: col.label };
  });
  const entity = { key: meta.key, label: { singular: meta.label, plural: meta.label }, fields: columns.map((x) => x.field) } as unknown as EntityMeta;
  async function* pages() {
    for (let offset = 0; offset < MAX_PROVIDER_EXPORT;) {
      const limit = Math.min(1000, MAX_PROVIDER_EXPORT - offset);
      const { rows } = await impl.list({ ...q, offset, limit }, ctx);
      if (!rows.length) return;
      const cell = impl.cell ?? {};
      yield Object.keys(cell).length ? rows.map((r) => { const o = { ...r }; for (const [k, f] of Object.entries(cell)) o[k] = f(r); return o; }) : rows;
      if (rows.length < limit) return;
      offset += rows.length;
    }
  }
  return exportResponse({ em: ctx.em, entity, session: ctx.session, columns, format, log: c.get('log') }, pages());
}

/** A named call's ?columns= checked against the provider's columns (and id). */
function listColumns(meta: ProviderMeta, names: string[] | undefined): string[] | undefined {
  if (!names) return undefined;
  for (const n of names) if (n !== 'id' && !meta.columns.some((x) => x.name === n)) throw badRequest(`Coluna desconhecida: ${n}`);
  return [...new Set(names)];
}

/** ?format=table: the list as a table (shared/tabela.ts); absent: as objects. */
function tableParam(c: Context): boolean {
  const f = c.req.query('format');
  if (f !== undefined && f !== 'table') throw badRequest('Formato inválido: use table');
  return f === 'table';
}

const pick = (rows: ProviderRow[], columns: string[] | undefined) => !columns ? rows : rows.map((r) => {
  const o: ProviderRow = {};
  for (const n of columns) o[n] = r[n];
  return o;
});

// ---------- registry and routes ----------

/** Mounts every provider of the model on `api` through the pipeline; each needs its implementation and vice versa. */
export function mountProviders(api: Hono<AppEnv>, metas: ProviderMeta[], impls: Record<string, Provider>): void {
  for (const key of Object.keys(impls)) if (!metas.some((m) => m.key === key)) throw new Error(`provider ${key} implementado sem metadata (kind: provider)`);
  for (const meta of metas) {
    for (const p of meta.params) if (p.row && !entityByKey(p.row.entity)) throw new Error(`provider ${meta.key}: params.${p.name}.row: entidade desconhecida ${p.row.entity}`);
    // A provider whose YAML declares its SQL (sql:) is read by the engine; code only for what SQL cannot say.
    const decl = providerSql(meta);
    const impl: Provider | undefined = impls[meta.key] ?? (decl && {
      list: (q: ProviderQuery, ctx: ProviderContext) => readDeclared(ctx.em, meta, decl, q, ctx.empresaId),
      all: (q: Omit<ProviderQuery, 'offset' | 'limit'>, ctx: ProviderContext, limit: number, columns?: string[]) => readDeclaredColumns(ctx.em, meta, decl, q, ctx.empresaId, columns, limit),
    });
    if (!impl) throw new Error(`provider ${meta.key} (${meta.file}) sem implementação (módulo) nem sql declarado`);
    const spec = { permission: meta.permission as PermissionKey[], scope: meta.scope === 'empresa' ? 'empresa' as const : 'global' as const };
    const ctxOf = (c: Context<AppEnv>): ProviderContext => {
      const session = c.get('session');
      return { session, em: requestEm(c), empresaId: meta.scope === 'empresa' ? session.empresaAtiva : null, meta };
    };
    if (meta.path) {
      const unit = (c: Context) => c.req.path.replace(/^\/api\//, '').replaceAll('/', '.');
      const query = async (c: Context<AppEnv>) => ({
        params: await parentRows(meta, await parseParams(meta, c), c),
        filter: parseProviderFilter(meta, listFilter(c)),
        sort: parseProviderSort(meta, c.req.query('sort')),
        ...parseRange(c.req.query('range')),
      });
      route(api, 'get', `${honoPath(meta.path)}/export`, spec, async (c) => exportProvider(c, meta, impl, await query(c), ctxOf(c)));
      route(api, 'get', honoPath(meta.path), spec, async (c) => {
        const q = await query(c);
        const { rows, total } = await impl.list(q, ctxOf(c));
        return sendPage(c, unit(c), q.offset, rows, total);
      });
      if (meta.one) {
        route(api, 'get', `${honoPath(meta.path)}/:id`, spec, async (c) => {
          const q = { params: await parseParams(meta, c), filter: {}, sort: meta.sort, offset: 0, limit: 1 };
          const row = impl.one ? await impl.one(c.req.param('id') ?? '', q, ctxOf(c)) : null;
          if (!row) throw new HttpError(404, 'Registro não encontrado');
          return c.json(row);
        });
      }
    }
    for (const call of meta.calls) {
      route(api, 'get', honoPath(call.path), spec, async (c) => {
        const params = await parseParams(meta, c);
        const raw: Record<string, unknown> = {};
        for (const name of call.query) { const v = c.req.query(name); if (v !== undefined) raw[name] = v; }
        const filter = parseProviderFilter(meta, raw);
        const columns = call.op === 'list' ? listColumns(meta, columnsParam(c)) : undefined;
        const table = call.op === 'list' && tableParam(c);
        const limit = call.op === 'one' ? 1 : 100_000;
        const q = { params, filter, sort: meta.sort };
        const ctx = ctxOf(c);
        // The whole list of a provider that declares its rows' versions: kept serialised (server/read/snapshot.ts).
        if (call.op === 'list' && decl?.versions && !impls[meta.key] && ctx.empresaId != null && !Object.keys(filter).length && !Object.keys(params).length) {
          const body = await readSnapshotJson(ctx.em, meta, decl, ctx.empresaId, columns ?? declaredNames(meta), limit,
            { table, before: '{"status":200,"msg":"OK","payload":', after: ',"errorMsg":null}' });
          if (body) return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, { 'Content-Type': 'application/json' });
        }
        const read = impl.all ? await impl.all(q, ctx, limit, columns) : (await impl.list({ ...q, offset: 0, limit }, ctx)).rows;
        // a declared provider reads only the columns asked for; code may answer more
        const rows = impls[meta.key] ? pick(read, columns) : read;
        if (call.op === 'one') {
          if (!rows.length) throw new HttpError(404, call.notFound ?? 'Registro não encontrado');
          return ok(c, rows[0]);
        }
        return ok(c, table ? tabelaDe(rows, columns ?? (impls[meta.key] ? meta.columns.map((x) => x.name) : declaredNames(meta))) : rows);
      });
    }
  }
}
