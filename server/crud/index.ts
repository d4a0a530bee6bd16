// Generic CRUD for one entity of the model, in the ra-data-simple-rest convention.
// Generated route modules do: `export default crudRoutes(entityMeta)`.
import { Hono, type Context } from 'hono';
import { hash } from '@node-rs/argon2';
import {
  ForeignKeyConstraintViolationException, NotNullConstraintViolationException, UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../generator/model.ts';
import type { AppEnv, Session } from '../app/env.ts';
import { requirePermission, requireSession, tenant } from '../auth/middleware.ts';
import { idOf, idsOf } from '../auth/users.ts';
import { guardGrants, guardTarget } from '../auth/grants.ts';
import { companiesWhere } from '../auth/companies.ts';
import { NO_SESSIONS, endUserSessions } from '../auth/sessions.ts';
import { emitChange } from '../realtime/events.ts';
import { HistoricoAlteracaoSchema } from '../db/system-entities.ts';
import { HttpError, badRequest, notFound } from '../http/envelope.ts';
import { entityByKey, ormName, schemaFor } from './registry.ts';
import { compile, messages, type FieldError } from './validation.ts';
import { exportResponse } from './export.ts';

type Row = Record<string, any>;
type Where = Record<string, unknown>;

export const MAX_PAGE = 1000;
const SYSTEM = new Set(['id', 'empresaId', 'ambienteId', 'createdAt', 'updatedAt']);

/** Hash for password fields (argon2id is @node-rs/argon2's default algorithm). */
export const hashPassword = (s: string) => hash(s, { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 });

// ---------- reading ----------

function fmt(f: FieldMeta, v: unknown): unknown {
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

function parseJson(raw: string | undefined, what: string): unknown {
  if (raw == null || raw === '') return undefined;
  try { return JSON.parse(raw); } catch { throw badRequest(`Parâmetro ${what} inválido: JSON malformado`); }
}

const fieldOf = (e: EntityMeta, name: string) => e.fields.find((f) => f.name === name);
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => '\\' + m);
const isText = (f: FieldMeta) => ['string', 'text', 'enum'].includes(f.type);

/** Coerces one filter value to the field's type; 400 when it cannot be. */
function coerce(e: EntityMeta, f: FieldMeta, v: unknown): unknown {
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

/** The rows of `e` the session may see: its tenant, and for entities with `companies` only rows all of whose
 *  companies are the caller's (server/auth/companies.ts). */
export function scopeWhere(e: EntityMeta, s: Session): Where {
  const companies = companiesWhere(e, s);
  if (e.scope === 'empresa') return { empresaId: s.empresaAtiva };
  if (e.scope === 'ambiente') return { ambienteId: s.ambienteId, ...companies };
  return companies;
}

/** The tenant alone (uniqueness is per tenant, whatever the caller may see). */
function tenantOnly(e: EntityMeta, s: Session): Where {
  if (e.scope === 'empresa') return { empresaId: s.empresaAtiva };
  if (e.scope === 'ambiente') return { ambienteId: s.ambienteId };
  return {};
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
    } else if (isText(f) && f.type !== 'enum' && typeof raw === 'string') {
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

function parseRange(raw: string | undefined): { offset: number; limit: number } {
  const r = parseJson(raw, 'range');
  if (r === undefined) return { offset: 0, limit: 25 };
  if (!Array.isArray(r) || r.length !== 2 || !r.every((n) => Number.isSafeInteger(n) && n >= 0) || r[1] < r[0]) throw badRequest('Parâmetro range inválido');
  return { offset: r[0], limit: Math.min(r[1] - r[0] + 1, MAX_PAGE) };
}

function parseId(c: Context): number {
  const raw = c.req.param('id') ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

async function findVisible(em: EntityManager, e: EntityMeta, s: Session, id: number): Promise<Row> {
  const row = await em.findOne(ormName(em, e), { $and: [{ id }, scopeWhere(e, s)] } as never, { populate: relationFields(em, e) as never[] });
  if (!row) throw notFound();
  return row as Row;
}

function relationFields(em: EntityManager, e: EntityMeta): string[] {
  const meta = em.getMetadata().find(ormName(em, e));
  return e.fields.filter((f) => f.type === 'referenceList' && meta?.properties[f.name as never]?.kind === 'm:n').map((f) => f.name);
}

// ---------- writing ----------

function failValidation(errors: FieldError[]): never {
  throw new HttpError(400, errors.map((x) => x.message).join('; '), errors, 'Erro de validação');
}

/** Validates a request body against the entity's JSON Schema; answers the data to persist. */
async function prepare(em: EntityManager, e: EntityMeta, s: Session, body: unknown, existing: Row | null): Promise<Row> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Corpo da requisição inválido: esperado um objeto JSON');
  const schema = schemaFor(e.key);
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const errors: FieldError[] = [];
  const input: Row = {};
  for (const [k, v] of Object.entries(body as Row)) {
    const f = fieldOf(e, k);
    // System and read-only fields are the server's: ignored when sent (ra sends the whole record on update).
    if (SYSTEM.has(k) || (f && (f.readOnly || f.system) && !(k in props))) continue;
    if (!(k in props) && f?.hidden) continue;
    input[k] = v;
  }
  // Only wiki/dev may grant the special roles.
  if ('roles' in input && e.key === 'usuario' && !s.roles.some((r) => r === 'wiki' || r === 'dev')) {
    const before = existing ? JSON.stringify(existing.roles ?? null) : 'null';
    if (JSON.stringify(input.roles ?? null) !== before && !(Array.isArray(input.roles) && input.roles.length === 0 && !existing?.roles?.length)) {
      throw new HttpError(403, 'Somente perfis especiais podem conceder os perfis wiki e dev');
    }
  }
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  const candidate: Row = {};
  if (existing) {
    for (const f of e.fields) if (f.name in props && !(f.type === 'password' || f.writeOnly) && existing[f.name] !== undefined) candidate[f.name] = fmt(f, existing[f.name]);
  }
  for (const [k, v] of Object.entries(input)) {
    const f = fieldOf(e, k);
    if (typeof v === 'string' && f?.upperCase) input[k] = v.toUpperCase();
    candidate[k] = input[k];
  }
  // On create, an omitted field with a default takes it (a required enum with a default is not missing).
  if (!existing) {
    for (const f of e.fields) if (f.name in props && !(f.name in candidate) && f.default !== undefined && !f.system) candidate[f.name] = f.default;
  }
  // null / '' / [] count as missing ('false' counts as filled).
  for (const [k, v] of Object.entries(candidate)) {
    const f = fieldOf(e, k);
    const empty = v === null || v === '' || (Array.isArray(v) && v.length === 0 && f?.type === 'referenceList');
    if (!empty) continue;
    if (required.has(k) && !(existing && f && (f.type === 'password' || f.writeOnly))) {
      errors.push({ field: k, label: f?.label ?? k, message: `O campo ${f?.label ?? k} é obrigatório` });
    }
    delete candidate[k];
  }
  const reqForUpdate = existing ? [...required].filter((k) => { const f = fieldOf(e, k); return !(f && (f.type === 'password' || f.writeOnly)); }) : [...required];
  const validate = compile(`${e.key}:${existing ? 'u' : 'c'}`, existing ? { ...schema, required: reqForUpdate } : schema);
  if (!validate(candidate)) errors.push(...messages(validate.errors ?? [], schema, e).filter((x) => !errors.some((y) => y.field === x.field)));
  if (errors.length) failValidation(errors);
  if (existing) await keepHiddenReferences(em, e, s, input, existing);
  await guardGrants(em, e, s, input, existing);

  const data: Row = {};
  for (const [k, v] of Object.entries(input)) {
    const f = fieldOf(e, k);
    if (!f) continue;
    if (v === '' || v === null) {
      // An empty password on update keeps the current one.
      if (f.type === 'password' || f.writeOnly) { if (!existing) data[k] = null; continue; }
      data[k] = f.type === 'referenceList' ? [] : null;
      continue;
    }
    if (f.type === 'password' || (f.writeOnly && f.type === 'string')) data[k] = await hashPassword(String(v));
    else if (f.type === 'datetime') data[k] = new Date(String(v));
    else data[k] = v;
  }
  if (!existing) {
    for (const f of e.fields) if (!(f.name in data) && f.default !== undefined && !f.system) data[f.name] = f.default;
  }
  await checkReferences(em, e, s, data, existing);
  await checkUnique(em, e, s, data, existing ? Number(existing.id) : null);
  return data;
}

/** Reference lists keep the rows the caller cannot see (e.g. a user's roles of another company): a write
 *  changes only the references visible to the caller. */
async function keepHiddenReferences(em: EntityManager, e: EntityMeta, s: Session, input: Row, existing: Row): Promise<void> {
  for (const f of e.fields) {
    if (f.type !== 'referenceList' || !f.reference || !(f.name in input)) continue;
    const target = entityByKey(f.reference);
    const before = idsOf(existing[f.name]);
    if (!target || !before.length) continue;
    const visible = (await em.find(ormName(em, target), { $and: [{ id: { $in: before } }, scopeWhere(target, s)] } as never, { filters: false, fields: ['id'] as never })) as Row[];
    const seen = new Set(visible.map((r) => Number(r.id)));
    const hidden = before.filter((id) => !seen.has(id));
    if (!hidden.length) continue;
    const submitted = Array.isArray(input[f.name]) ? idsOf(input[f.name]) : [];
    input[f.name] = [...new Set([...submitted, ...hidden])];
  }
}

/** Referenced rows must exist and be visible to the caller; references already on the row are not re-checked. */
async function checkReferences(em: EntityManager, e: EntityMeta, s: Session, data: Row, existing: Row | null): Promise<void> {
  const errors: FieldError[] = [];
  for (const f of e.fields) {
    if (!(f.name in data) || data[f.name] == null || !f.reference) continue;
    if (f.type !== 'reference' && f.type !== 'referenceList') continue;
    const target = entityByKey(f.reference);
    if (!target) continue;
    const had = new Set(existing ? (f.type === 'reference' ? [idOf(existing[f.name])] : idsOf(existing[f.name])) : []);
    const ids = [...new Set(f.type === 'reference' ? [Number(data[f.name])] : idsOf(data[f.name]))].filter((id) => !had.has(id));
    if (!ids.length) continue;
    const n = await em.count(ormName(em, target), { $and: [{ id: { $in: ids } }, scopeWhere(target, s)] } as never, { filters: false });
    if (n !== ids.length) errors.push({ field: f.name, label: f.label, message: `O campo ${f.label} referencia um registro inexistente` });
  }
  if (errors.length) failValidation(errors);
}

async function checkUnique(em: EntityManager, e: EntityMeta, s: Session, data: Row, selfId: number | null): Promise<void> {
  for (const f of e.fields) {
    if (!f.unique || f.system || data[f.name] == null || data[f.name] === '') continue;
    const global = (f as FieldMeta & { uniqueGlobal?: boolean }).uniqueGlobal === true;
    const value = f.caseInsensitive && typeof data[f.name] === 'string' ? { $ilike: escapeLike(data[f.name]) } : data[f.name];
    const where: Where[] = [global ? {} : tenantOnly(e, s), { [f.name]: value }];
    if (selfId != null) where.push({ id: { $ne: selfId } });
    const n = await em.count(ormName(em, e), { $and: where } as never, { filters: false });
    if (n > 0) throw new HttpError(409, `Já existe um registro com este ${f.label}`, { field: f.name }, 'Registro duplicado');
  }
}

function plain(e: EntityMeta, row: Row): Row {
  const o: Row = {};
  for (const f of e.fields) {
    if (SYSTEM.has(f.name) && f.name !== 'id') continue;
    o[f.name] = f.type === 'password' || f.writeOnly || f.hidden ? (row[f.name] ? '***' : null) : fmt(f, row[f.name]);
  }
  return o;
}

function diff(before: Row | null, after: Row | null): Record<string, { antes: unknown; depois: unknown }> {
  const out: Record<string, { antes: unknown; depois: unknown }> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    const a = before?.[k] ?? null, b = after?.[k] ?? null;
    if (k === 'id' && before && after) continue;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = { antes: a, depois: b };
  }
  return out;
}

function history(em: EntityManager, e: EntityMeta, s: Session, id: number, operacao: string, before: Row | null, after: Row | null, passwordChanged = false) {
  if (!e.history) return;
  const alteracoes = diff(before, after);
  if (passwordChanged) for (const f of e.fields) if (f.type === 'password' && after) alteracoes[f.name] = { antes: '***', depois: '***' };
  if (operacao === 'update' && !Object.keys(alteracoes).length) return;
  em.create(HistoricoAlteracaoSchema, {
    usuarioId: s.usuarioId, login: s.login, empresaId: s.empresaAtiva, ambienteId: s.ambienteId,
    entidade: e.key, registroId: id, operacao, alteracoes, data: new Date(),
  } as never);
}

/** Maps driver exceptions of a failed write to pt-BR HTTP errors. */
export function mapDbError(e: EntityMeta, err: unknown): never {
  if (err instanceof UniqueConstraintViolationException) {
    const msg = String((err as Error).message);
    const f = e.fields.find((x) => x.unique && msg.includes(x.column));
    throw new HttpError(409, f ? `Já existe um registro com este ${f.label}` : 'Já existe um registro com estes dados', null, 'Registro duplicado');
  }
  if (err instanceof ForeignKeyConstraintViolationException) {
    throw new HttpError(409, 'Este registro está em uso por outros cadastros e não pode ser excluído ou alterado', null, 'Registro em uso');
  }
  if (err instanceof NotNullConstraintViolationException) throw badRequest('Campo obrigatório não informado');
  throw err;
}

async function readBody(c: Context): Promise<unknown> {
  try { return await c.req.json(); } catch { throw badRequest('Corpo da requisição inválido: JSON malformado'); }
}

function matches(row: Row, cond: Record<string, unknown>): boolean {
  return Object.entries(cond).every(([k, v]) => (Array.isArray(v) ? v.includes(row[k]) : row[k] === v));
}

// ---------- routes ----------

export function crudRoutes(entity: EntityMeta): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const P = entity.permission;
  const e = () => entityByKey(entity.key) ?? entity;

  app.use('*', requireSession(), tenant());

  app.get('/', async (c) => {
    const s = c.get('session');
    const filter = parseJson(c.req.query('filter'), 'filter') as Row | undefined;
    // getMany (filter {id:[...]}) is used to show references: any read permission of the entity will do.
    const isGetMany = !!filter && Object.keys(filter).length === 1 && 'id' in filter;
    const perms = isGetMany ? [`${P}.lista`, `${P}.visualizar`] : [`${P}.lista`];
    if (!perms.some((p) => s.roles.some((r) => r === 'wiki' || r === 'dev') || s.permissoes.has(p))) throw new HttpError(403, 'Você não tem permissão para fazer isso');
    const ent = e();
    const where = buildWhere(ent, filter, s);
    const orderBy = buildOrder(ent, parseJson(c.req.query('sort'), 'sort'));
    const { offset, limit } = parseRange(c.req.query('range'));
    const em = c.get('em');
    const [rows, total] = await em.findAndCount(ormName(em, ent), where as never, { orderBy: orderBy as never, limit, offset, populate: relationFields(em, ent) as never[] });
    const end = rows.length ? offset + rows.length - 1 : offset;
    c.header('Content-Range', `${ent.key} ${offset}-${end}/${total}`);
    c.header('Access-Control-Expose-Headers', 'Content-Range');
    return c.json(rows.map((r) => serialize(ent, r as Row)));
  });

  app.get('/export', requirePermission(`${P}.lista`), async (c) => {
    const s = c.get('session');
    const ent = e();
    const format = c.req.query('format') ?? 'csv';
    if (format !== 'csv' && format !== 'xlsx') throw badRequest('Formato de exportação inválido: use csv ou xlsx');
    const where = buildWhere(ent, parseJson(c.req.query('filter'), 'filter'), s);
    const orderBy = buildOrder(ent, parseJson(c.req.query('sort'), 'sort'));
    const colsParam = parseJson(c.req.query('columns'), 'columns');
    if (colsParam !== undefined && (!Array.isArray(colsParam) || !colsParam.every((x) => typeof x === 'string'))) throw badRequest('Parâmetro columns inválido');
    const columns = ((colsParam as string[] | undefined) ?? ent.columns.filter((x) => x.default).map((x) => x.source)).map((src) => {
      const f = fieldOf(ent, src);
      if (!f || f.hidden || f.writeOnly || f.type === 'password') throw badRequest(`Coluna desconhecida: ${src}`);
      return { field: f, label: ent.columns.find((x) => x.source === src)?.label ?? f.label };
    });
    // Streamed, limited per user; see server/crud/export.ts.
    return exportResponse({ em: c.get('em'), entity: ent, session: s, where, orderBy, columns, format, log: c.get('log') });
  });

  app.get('/:id/historico', requirePermission(`${P}.visualizar`), async (c) => {
    const s = c.get('session');
    const id = parseId(c);
    const ent = e();
    const em = c.get('em');
    const where: Where = { entidade: ent.key, registroId: id };
    if (ent.scope === 'empresa') where.empresaId = s.empresaAtiva;
    if (ent.scope === 'ambiente') where.ambienteId = s.ambienteId;
    const live = await em.count(ormName(em, ent), { $and: [{ id }, scopeWhere(ent, s)] } as never, { filters: false });
    const rows = await em.find(HistoricoAlteracaoSchema, where as never, { orderBy: { data: 'DESC', id: 'DESC' } });
    // The change history of a row with companies is shown only while the caller may see the row.
    if (!live && (!rows.length || ent.companies)) throw notFound();
    return c.json(rows.map((r) => ({ id: r.id, data: r.data.toISOString(), usuarioId: r.usuarioId, login: r.login, operacao: r.operacao, alteracoes: r.alteracoes })));
  });

  app.get('/:id', requirePermission(`${P}.visualizar`), async (c) => {
    const ent = e();
    const row = await findVisible(c.get('em'), ent, c.get('session'), parseId(c));
    return c.json(serialize(ent, row));
  });

  // Declarative row actions (also on read-only resources, e.g. sessao.elimina).
  for (const action of entity.actions) {
    app.post(`/:id/${action.name}`, requirePermission(action.permission), async (c) => {
      const s = c.get('session');
      const ent = e();
      const id = parseId(c);
      const em = c.get('em');
      const { row: updated, before, after } = await em.transactional(async (tx) => {
        const row = await findVisible(tx, ent, s, id);
        await guardTarget(tx, ent, s, row, action.name);
        const before = plain(ent, row);
        if (action.visibleWhen && !matches(before, action.visibleWhen)) {
          throw new HttpError(409, `Ação "${action.label}" não permitida na situação atual do registro`);
        }
        tx.assign(row as never, action.set as never);
        await tx.flush();
        const after = plain(ent, row);
        history(tx, ent, s, id, action.name, before, after);
        await tx.flush();
        return { row, before, after };
      }).catch((err) => mapDbError(ent, err));
      emitChange({ entity: ent.key, id, op: action.name, before, after });
      return c.json(serialize(ent, updated));
    });
  }
  if (entity.readOnlyResource) return app;

  app.post('/', requirePermission(`${P}.adicionar`), async (c) => {
    const s = c.get('session');
    const ent = e();
    const body = await readBody(c);
    const em = c.get('em');
    const created = await em.transactional(async (tx) => {
      const data = await prepare(tx, ent, s, body, null);
      const scope: Row = ent.scope === 'empresa' ? { empresaId: s.empresaAtiva } : ent.scope === 'ambiente' ? { ambienteId: s.ambienteId } : {};
      const row = tx.create(ormName(tx, ent), { ...data, ...scope } as never) as Row;
      await tx.flush();
      history(tx, ent, s, Number(row.id), 'create', null, plain(ent, row));
      await tx.flush();
      return row;
    }).catch((err) => mapDbError(ent, err));
    emitChange({ entity: ent.key, id: Number(created.id), op: 'create', before: null, after: plain(ent, created) });
    return c.json(serialize(ent, created), 201);
  });

  app.put('/:id', requirePermission(`${P}.editar`), async (c) => {
    const s = c.get('session');
    const ent = e();
    const id = parseId(c);
    const body = await readBody(c);
    const em = c.get('em');
    const { row: updated, before, after, ended } = await em.transactional(async (tx) => {
      const row = await findVisible(tx, ent, s, id);
      await guardTarget(tx, ent, s, row, 'update');
      const before = plain(ent, row);
      const data = await prepare(tx, ent, s, body, row);
      tx.assign(row as never, data as never);
      await tx.flush();
      const after = plain(ent, row);
      const passwordChanged = ent.fields.some((f) => f.type === 'password' && f.name in data && data[f.name] != null);
      history(tx, ent, s, id, 'update', before, after, passwordChanged);
      await tx.flush();
      // A password set by an administrator ends every session of that user (sockets too, after commit).
      const ended = passwordChanged && ent.key === 'usuario' ? await endUserSessions(tx, id) : NO_SESSIONS;
      return { row, before, after, ended };
    }).catch((err) => mapDbError(ent, err));
    ended.notify();
    emitChange({ entity: ent.key, id, op: 'update', before, after });
    return c.json(serialize(ent, updated));
  });

  app.delete('/:id', requirePermission(`${P}.excluir`), async (c) => {
    const s = c.get('session');
    const ent = e();
    const id = parseId(c);
    const em = c.get('em');
    const { out: gone, before } = await em.transactional(async (tx) => {
      const row = await findVisible(tx, ent, s, id);
      await guardTarget(tx, ent, s, row, 'delete');
      const before = plain(ent, row);
      const out = serialize(ent, row);
      tx.remove(row as never);
      await tx.flush();
      history(tx, ent, s, id, 'delete', before, null);
      await tx.flush();
      return { out, before };
    }).catch((err) => mapDbError(ent, err));
    emitChange({ entity: ent.key, id, op: 'delete', before, after: null });
    return c.json(gone);
  });

  return app;
}

export default crudRoutes;
