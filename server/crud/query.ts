// Query building for the entities of the model: serialization, company scope, WHERE and ORDER BY from ra's
// filter/sort (checked against the model), and the visible row by id.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { idOf, idsOf } from '../../shared/ids.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { ormName } from '../core/registry.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;
export type { Where } from '../tenancy/scope.ts';
import { scopeWhere, type Where } from '../tenancy/scope.ts';


export const SYSTEM = new Set(['id', 'empresaId', 'ambienteId', 'createdAt', 'updatedAt']);

export function fmt(f: FieldMeta, v: unknown): unknown {
  if (v == null) return null;
  switch (f.type) {
    case 'reference': return idOf(v);
    case 'referenceList': return idsOf(v);
    case 'datetime': return v instanceof Date ? v.toISOString() : v;
    case 'date': return v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
    case 'time': return String(v).slice(0, 5);
    default: return v;
  }
}

/** The JSON a client sees: hidden, write-only and password fields never leave the server. */
export function serialize(e: EntityMeta, row: Row): Row {
  const out: Row = {};
  for (const f of e.fields) {
    if (f.hidden || f.writeOnly || f.type === 'password') continue;
    out[f.name] = fmt(f, row[f.name]);
  }
  return out;
}

export const fieldOf = (e: EntityMeta, name: string) => e.fields.find((f) => f.name === name);
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => '\\' + m);
export const isText = (f: FieldMeta) => ['string', 'text', 'enum'].includes(f.type);

/** Coerces one filter value to the field's type; 400 when it cannot be. */
export function coerce(e: EntityMeta, f: FieldMeta, v: unknown): unknown {
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

/** Builds the WHERE of a list from ra's filter object (fields checked against the model). */
export function buildWhere(e: EntityMeta, filter: unknown, s: Session): Where {
  const and: Where[] = [scopeWhere(e, s)];
  if (filter != null && (typeof filter !== 'object' || Array.isArray(filter))) throw badRequest('Parâmetro filter inválido');
  for (const [k, raw] of Object.entries((filter ?? {}) as Record<string, unknown>)) {
    if (raw === undefined || raw === '') continue;
    if (k === 'q') {
      if (typeof raw !== 'string' && typeof raw !== 'number') throw badRequest('Parâmetro de busca inválido');
      const like = `%${escapeLike(String(raw))}%`;
      const or = e.search.map((n) => fieldOf(e, n)).filter((f): f is FieldMeta => !!f && isText(f)).map((f) => ({ [f.name]: { $ilike: like } }));
      and.push(or.length ? { $or: or } : { id: -1 });
      continue;
    }
    const m = /^(.+)_(gte|lte|gt|lt)$/.exec(k);
    const f = fieldOf(e, m && !fieldOf(e, k) ? m[1] : k);
    if (!f || f.hidden || f.writeOnly || f.type === 'password') throw badRequest(`Campo de filtro desconhecido: ${k}`);
    if (m && !fieldOf(e, k)) {
      if (!['date', 'datetime', 'integer', 'number', 'time'].includes(f.type)) throw badRequest(`O campo ${f.label} não aceita filtro por intervalo`);
      let v = coerce(e, f, raw);
      // An end date without time includes the whole day.
      if (f.type === 'datetime' && m[2] === 'lte' && typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(raw)) v = new Date(Date.parse(raw) + 86_399_999);
      and.push({ [f.name]: { [`$${m[2]}`]: v } });
      continue;
    }
    if (f.type === 'referenceList') {
      const ids = (Array.isArray(raw) ? raw : [raw]).map((x) => coerce(e, f, x));
      and.push({ [f.name]: { $contains: ids } });
      continue;
    }
    if (Array.isArray(raw)) {
      if (raw.length > 5000) throw badRequest('Filtro com valores demais');
      and.push({ [f.name]: { $in: raw.map((x) => coerce(e, f, x)) } });
    } else if (isText(f) && f.type !== 'enum' && !f.lookup && typeof raw === 'string') { // codes (enum, lookup): equality
      and.push({ [f.name]: { $ilike: `%${escapeLike(raw)}%` } });
    } else {
      and.push({ [f.name]: coerce(e, f, raw) });
    }
  }
  return and.length === 1 ? and[0] : { $and: and };
}

export function buildOrder(e: EntityMeta, sort: unknown): Record<string, 'ASC' | 'DESC'>[] {
  let field = e.sort.field, order: string = e.sort.order;
  if (sort !== undefined) {
    if (!Array.isArray(sort) || sort.length !== 2 || typeof sort[0] !== 'string' || typeof sort[1] !== 'string') throw badRequest('Parâmetro sort inválido');
    [field, order] = sort as [string, string];
  }
  const f = fieldOf(e, field);
  if (!f || f.hidden || f.writeOnly || ['json', 'geometry', 'referenceList', 'password'].includes(f.type)) throw badRequest(`Campo de ordenação desconhecido: ${field}`);
  order = order.toUpperCase();
  if (order !== 'ASC' && order !== 'DESC') throw badRequest('Direção de ordenação inválida: use ASC ou DESC');
  const out: Record<string, 'ASC' | 'DESC'>[] = [{ [f.name]: order as 'ASC' | 'DESC' }];
  if (f.name !== 'id') out.push({ id: 'ASC' });
  return out;
}

/** The row by id the session may see (and that meets `extra`, e.g. a nested route's parent); 404 otherwise. */
export async function findVisible(em: EntityManager, e: EntityMeta, s: Session, id: number, extra?: Where): Promise<Row> {
  const row = await em.findOne(ormName(em, e), { $and: [{ id }, scopeWhere(e, s), ...(extra ? [extra] : [])] } as never, { populate: relationFields(em, e) as never[] });
  if (!row) throw notFound();
  return row as Row;
}

export function relationFields(em: EntityManager, e: EntityMeta): string[] {
  const meta = em.getMetadata().find(ormName(em, e));
  return e.fields.filter((f) => f.type === 'referenceList' && meta?.properties[f.name as never]?.kind === 'm:n').map((f) => f.name);
}
