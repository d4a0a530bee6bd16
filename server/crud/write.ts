// Writes: validation of request bodies (JSON Schema + references + uniqueness) and driver errors in pt-BR.
import {
  ForeignKeyConstraintViolationException, NotNullConstraintViolationException, UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { idOf, idsOf } from '../../shared/ids.ts';
import { guardGrants } from '../auth/grants.ts';
import { hashPassword } from '../auth/password.ts';
import { HttpError, badRequest } from '../http/envelope.ts';
import { entityByKey, ormName, schemaFor } from '../core/registry.ts';
import { compile, messages, type FieldError } from './validation.ts';
import { checkQuestions } from '../../shared/questionnaire.ts';
import { checkLookups } from './lookup.ts';
import { SYSTEM, escapeLike, fieldOf, fmt, type Row, type Where } from './query.ts';
import { scopeWhere, tenantOnly } from '../tenancy/scope.ts';
import { LABELS } from '../read/index.ts';

/** Hash for password fields (argon2id is @node-rs/argon2's default algorithm). */

function failValidation(errors: FieldError[]): never {
  throw new HttpError(400, errors.map((x) => x.message).join('; '), errors, 'Erro de validação');
}

const owned = new WeakMap<EntityMeta, Set<string>>();
/** Names the model knows on `e` that a client may send back but never writes: system fields, read-only, hidden
 *  and other non-writable fields, the computed (virtual) list columns and the references' labels (_labels). */
export function serverOwned(e: EntityMeta): Set<string> {
  let s = owned.get(e);
  if (!s) {
    s = new Set([...SYSTEM, LABELS, ...e.fields.map((f) => f.name), ...e.columns.filter((c) => c.virtual).map((c) => c.source)]);
    owned.set(e, s);
  }
  return s;
}

/** A state field (FieldMeta.setBy: a field an action sets) changes only through its actions. Sent back unchanged
 *  (react-admin sends the whole record; a create may send the default) it is ignored like any read-only field;
 *  a different value is refused, 409 pt-BR, rather than dropped: the client must not believe it reopened a batch. */
function refuseStateChange(e: EntityMeta, k: string, v: unknown, existing: Row | null): void {
  const f = fieldOf(e, k);
  if (!f?.setBy?.length || v === undefined) return;
  const current = existing ? fmt(f, existing[k]) : (f.default ?? null);
  if (JSON.stringify(v ?? null) === JSON.stringify(current ?? null)) return;
  const names = f.setBy.map((l) => `'${l}'`);
  const how = names.length === 1 ? `pela ação ${names[0]}` : `pelas ações ${names.slice(0, -1).join(', ')} e ${names[names.length - 1]}`;
  throw new HttpError(409, `O campo ${f.label} só muda ${how}`, [{ field: k, label: f.label, message: `O campo ${f.label} só muda ${how}` }], 'Alteração não permitida');
}

/** Validates a request body against the entity's JSON Schema; answers the data to persist. */
/** `states`: the state fields the calling action changes (its `sets`, its payload already checked by its schema). */
export async function prepare(em: EntityManager, e: EntityMeta, s: Session, body: unknown, existing: Row | null, states: string[] = []): Promise<Row> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Corpo da requisição inválido: esperado um objeto JSON');
  const schema = schemaFor(e.key);
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const errors: FieldError[] = [];
  const input: Row = {};
  const known = serverOwned(e);
  const stateValues: Row = {};
  for (const [k, v] of Object.entries(body as Row)) {
    if (states.includes(k)) { stateValues[k] = v; continue; }
    refuseStateChange(e, k, v, existing);
    // What the server owns is ignored when sent, never written (react-admin's edit and clone send the whole record
    // back); a name the entity does not have stays in and is refused by the schema (additionalProperties).
    if (known.has(k) && !(k in props)) continue;
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
  // questionnaire fields: each question checked for its type (shared/questionnaire.ts)
  for (const f of e.fields) {
    if (f.widget !== 'questionnaire' || !Array.isArray(candidate[f.name]) || errors.some((x) => x.field === f.name)) continue;
    const problems = checkQuestions(candidate[f.name], f.label);
    if (problems.length) errors.push({ field: f.name, label: f.label, message: problems.join('; ') });
  }
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
  Object.assign(data, stateValues);
  await checkReferences(em, e, s, data, existing);
  await checkLookups(em, e, s, data, existing);
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
    const visible = (await em.find(ormName(em, target), { $and: [{ id: { $in: before } }, scopeWhere(target, s)] } as never, { fields: ['id'] as never })) as Row[];
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
    const n = await em.count(ormName(em, target), { $and: [{ id: { $in: ids } }, scopeWhere(target, s)] } as never);
    if (n !== ids.length) { errors.push({ field: f.name, label: f.label, message: `O campo ${f.label} referencia um registro inexistente` }); continue; }
    const narrow = Object.entries(f.narrow ?? {}).map(([theirs, mine]) => [theirs, data[mine] !== undefined ? data[mine] : existing?.[mine]] as const);
    if (!narrow.length) continue;
    const fitting = await em.count(ormName(em, target), { $and: [{ id: { $in: ids } }, scopeWhere(target, s), Object.fromEntries(narrow)] } as never);
    if (fitting !== ids.length) {
      const wanted = narrow.map(([theirs, v]) => `${target.fields.find((x) => x.name === theirs)?.label ?? theirs} ${v ?? '(vazio)'}`).join(' e ');
      errors.push({ field: f.name, label: f.label, message: `O campo ${f.label} deve referenciar um registro com ${wanted}` });
    }
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
    const n = await em.count(ormName(em, e), { $and: where } as never);
    if (n > 0) throw new HttpError(409, uniqueMessage(f), { field: f.name }, 'Registro duplicado');
  }
}

/** The duplicate's message: names the field without an article (no gender to agree with: 'Placa', 'CPF'). */
export const uniqueMessage = (f: FieldMeta) => `Já existe um registro com o valor informado em ${f.label}`;

/** Maps driver exceptions of a failed write to pt-BR HTTP errors. */
export function mapDbError(e: EntityMeta, err: unknown): never {
  if (err instanceof UniqueConstraintViolationException) {
    const msg = String((err as Error).message);
    // a partial unique index (uniqueWhileEmpty): another row still open holds the value (a race the checks lost)
    const open = e.fields.find((x) => x.uniqueWhileEmpty && msg.includes(`${x.column}_open_unique`));
    if (open) throw new HttpError(409, `Já existe ${e.label.singular.toLowerCase()} em aberto com este ${open.label}`, null, 'Registro duplicado');
    const f = e.fields.find((x) => x.unique && msg.includes(x.column));
    throw new HttpError(409, f ? uniqueMessage(f) : 'Já existe um registro com estes dados', null, 'Registro duplicado');
  }
  if (err instanceof ForeignKeyConstraintViolationException) {
    throw new HttpError(409, 'Este registro está em uso por outros cadastros e não pode ser excluído ou alterado', null, 'Registro em uso');
  }
  if (err instanceof NotNullConstraintViolationException) throw badRequest('Campo obrigatório não informado');
  throw err;
}
