// Conditions of the read engine: ra's ?filter checked against the model (parseFilter), ?sort (parseSort, id as the
// tiebreak) and the one translator of a condition object (the shape scopeWhere and parseFilter give, MikroORM's
// operators) into SQL over an alias. Identifiers come only from metadata; values are always bind parameters.
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import { badRequest } from '../http/envelope.ts';
import { entityByKey } from '../core/registry.ts';
import { ident } from '../db/sql.ts';
import { pgParams, scopeSql, type Params, type Where } from '../tenancy/scope.ts';

export type { Params, Where };
export { pgParams, scopeSql };

export const fieldOf = (e: EntityMeta, name: string) => e.fields.find((f) => f.name === name);
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => '\\' + m);
/** The ILIKE pattern of "contains s" (the search box and text filters). */
export const likeOf = (s: string) => `%${escapeLike(s)}%`;
export const isText = (f: FieldMeta) => ['string', 'text', 'enum'].includes(f.type);
const secret = (f: FieldMeta) => f.hidden || f.writeOnly || f.type === 'password';

/** Coerces one filter value to the field's type; 400 when it cannot be. */
export function coerce(f: FieldMeta, v: unknown): unknown {
  if (v === null) return null;
  const bad = () => badRequest(`Valor inválido no filtro do campo ${f.label}`);
  switch (f.type) {
    case 'integer': case 'reference': case 'referenceList': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n)) throw bad();
      return n;
    }
    case 'number': { const n = Number(v); if (typeof v === 'boolean' || v === '' || !Number.isFinite(n)) throw bad(); return n; }
    case 'boolean': if (v === true || v === 'true') return true; if (v === false || v === 'false') return false; throw bad();
    case 'date': case 'datetime': {
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw bad();
      return f.type === 'datetime' ? new Date(v) : v.slice(0, 10);
    }
    case 'json': case 'geometry': throw badRequest(`O campo ${f.label} não pode ser usado como filtro`);
    default: if (typeof v !== 'string' && typeof v !== 'number') throw bad(); return String(v);
  }
}

/** The condition of ra's filter object (fields checked against the model), without the company scope. */
export function parseFilter(e: EntityMeta, filter: unknown): Where {
  const and: Where[] = [];
  if (filter != null && (typeof filter !== 'object' || Array.isArray(filter))) throw badRequest('Parâmetro filter inválido');
  for (const [k, raw] of Object.entries((filter ?? {}) as Record<string, unknown>)) {
    if (raw === undefined || raw === '') continue;
    if (k === 'q') {
      if (typeof raw !== 'string' && typeof raw !== 'number') throw badRequest('Parâmetro de busca inválido');
      const like = likeOf(String(raw));
      const or = e.search.map((n) => fieldOf(e, n)).filter((f): f is FieldMeta => !!f && isText(f)).map((f) => ({ [f.name]: { $ilike: like } }));
      and.push(or.length ? { $or: or } : { id: -1 });
      continue;
    }
    const m = /^(.+)_(gte|lte|gt|lt)$/.exec(k);
    const f = fieldOf(e, m && !fieldOf(e, k) ? m[1] : k);
    if (!f || secret(f)) throw badRequest(`Campo de filtro desconhecido: ${k}`);
    if (m && !fieldOf(e, k)) {
      if (!['date', 'datetime', 'integer', 'number', 'time'].includes(f.type)) throw badRequest(`O campo ${f.label} não aceita filtro por intervalo`);
      let v = coerce(f, raw);
      // An end date without time includes the whole day.
      if (f.type === 'datetime' && m[2] === 'lte' && typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(raw)) v = new Date(Date.parse(raw) + 86_399_999);
      and.push({ [f.name]: { [`$${m[2]}`]: v } });
      continue;
    }
    if (f.type === 'referenceList') {
      const ids = (Array.isArray(raw) ? raw : [raw]).map((x) => coerce(f, x));
      and.push({ [f.name]: { $contains: ids } });
      continue;
    }
    if (Array.isArray(raw)) {
      if (raw.length > 5000) throw badRequest('Filtro com valores demais');
      and.push({ [f.name]: { $in: raw.map((x) => coerce(f, x)) } });
    } else if (isText(f) && f.type !== 'enum' && !f.lookup && typeof raw === 'string') { // codes (enum, lookup): equality
      and.push({ [f.name]: { $ilike: likeOf(raw) } });
    } else {
      and.push({ [f.name]: coerce(f, raw) });
    }
  }
  return and.length === 1 ? and[0] : { $and: and };
}

/** The shape of ra's sort ([field, order]): 400 otherwise. */
export function sortPair(sort: unknown): [string, string] {
  if (!Array.isArray(sort) || sort.length !== 2 || typeof sort[0] !== 'string' || typeof sort[1] !== 'string') throw badRequest('Parâmetro sort inválido');
  return [sort[0], sort[1]];
}

/** The direction of a sort, upper-cased: 400 unless ASC or DESC. */
export function sortOrder(order: string): 'ASC' | 'DESC' {
  const o = order.toUpperCase();
  if (o !== 'ASC' && o !== 'DESC') throw badRequest('Direção de ordenação inválida: use ASC ou DESC');
  return o;
}

export interface Order { field: FieldMeta; dir: 'ASC' | 'DESC' }

/** ra's sort ([field, order], default the entity's) and id ascending as the tiebreak. */
export function parseSort(e: EntityMeta, sort: unknown): Order[] {
  const [field, order] = sort === undefined ? [e.sort.field, e.sort.order] : sortPair(sort);
  const f = fieldOf(e, field);
  if (!f || f.hidden || f.writeOnly || ['json', 'geometry', 'referenceList', 'password'].includes(f.type)) throw badRequest(`Campo de ordenação desconhecido: ${field}`);
  const out: Order[] = [{ field: f, dir: sortOrder(order) }];
  if (f.name !== 'id') out.push({ field: fieldOf(e, 'id')!, dir: 'ASC' });
  return out;
}

export const orderSql = (o: Order[], alias: string) => o.map((x) => `${alias}.${ident(x.field.column)} ${x.dir === 'ASC' ? 'asc' : 'desc'}`).join(', ');

const CMP: Record<string, string> = { $gte: '>=', $lte: '<=', $gt: '>', $lt: '<', $ilike: 'ILIKE', $eq: '=', $ne: '<>' };
const ARRAY: Record<string, string> = { $contains: '@>', $contained: '<@', $overlap: '&&' };
const isOps = (v: object) => Object.keys(v).every((k) => k.startsWith('$'));

/** SQL of a condition object over `alias` (a row of `e`); reference paths ({ ref: { field: … } }) become EXISTS. */
export function whereSql(e: EntityMeta, w: Where, alias: string, p: Params, depth = 0): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(w)) {
    if (k === '$and' || k === '$or') {
      const sub = (v as Where[]).map((x) => whereSql(e, x, alias, p, depth));
      parts.push(sub.length ? `(${sub.join(k === '$and' ? ' AND ' : ' OR ')})` : k === '$and' ? 'TRUE' : 'FALSE');
      continue;
    }
    const f = fieldOf(e, k);
    if (!f) throw new Error(`read engine: ${e.key} has no field ${k}`);
    const col = `${alias}.${ident(f.column)}`;
    if (v === null) { parts.push(`${col} IS NULL`); continue; }
    if (typeof v !== 'object' || v instanceof Date) { parts.push(`${col} = ${p.add(v)}`); continue; }
    if (Array.isArray(v)) throw new Error(`read engine: array value for ${e.key}.${k}`);
    if (f.type === 'reference' && !isOps(v)) {
      const t = entityByKey(f.reference!)!;
      const r = `r${depth + 1}`;
      parts.push(`EXISTS (SELECT 1 FROM ${ident(t.table)} ${r} WHERE ${r}.id = ${col} AND ${whereSql(t, v as Where, r, p, depth + 1)})`);
      continue;
    }
    for (const [op, x] of Object.entries(v as Record<string, unknown>)) {
      if (op === '$in') {
        const list = x as unknown[];
        const nonNull = list.filter((y) => y !== null);
        // One parameter for the whole list: the statement's text does not vary with its length.
        const any = nonNull.length ? `${col} = ANY(${p.add(nonNull)})` : '';
        parts.push(nonNull.length === list.length ? (any || 'FALSE') : `(${[any, `${col} IS NULL`].filter(Boolean).join(' OR ')})`);
      } else if (ARRAY[op]) {
        parts.push(`${col} ${ARRAY[op]} ${p.add(x)}::integer[]`);
      } else if (CMP[op] && x !== null && x !== undefined) {
        parts.push(`${col} ${CMP[op]} ${p.add(x)}`);
      } else {
        throw new Error(`read engine: operator ${op} on ${e.key}.${k}`);
      }
    }
  }
  return parts.length ? parts.join(' AND ') : 'TRUE';
}
