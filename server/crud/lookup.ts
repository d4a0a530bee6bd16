// String fields whose values are the codes of a register (metadata `lookup`, e.g. equipamento.modelo → modelo.codigo):
// their choices, read under the permission of the entity holding the field (a user who may edit equipment need not
// see the hardware registers), and the check of a written value: a row the caller sees (company scope), so a code of
// another company's register (e.g. its tracker's serial in equipamento_ativo) is refused like an unknown one. The code
// field of a parent by code (metadata `parent: { by }`, e.g. fila_processamento.serial → equipamento.serial) is
// checked the same way, whatever the route (nested or not).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta, LookupMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { HttpError, badRequest } from '../http/envelope.ts';
import { asSystem } from '../db/rls.ts';
import { getOrm } from '../db/context.ts';
import { entityByKey, getModel, ormName } from '../core/registry.ts';
import { fieldOf, type Row, type Where } from './query.ts';
import { readOptions } from '../read/index.ts';
import { scopeWhere } from '../tenancy/scope.ts';

export interface LookupOption { value: string; label: string }

const MAX_OPTIONS = 5000;

function target(f: FieldMeta): EntityMeta {
  const t = entityByKey(f.lookup!.entity);
  if (!t) throw new Error(`lookup de ${f.name}: entidade desconhecida ${f.lookup!.entity}`);
  return t;
}

/** The register's rows a value may name: visible to the caller (unless `scoped` is false: the engine adds the
 *  scope) and, when narrowed, carrying the parent's code. */
function candidates(e: EntityMeta, f: FieldMeta, s: Session, parentValue: unknown, scoped = true): Where {
  const l = f.lookup!;
  const where: Where[] = scoped ? [scopeWhere(target(f), s)] : [];
  if (l.parent) {
    const pf = fieldOf(e, l.parent.field)!;
    where.push({ [l.parent.via]: { [pf.lookup!.value]: parentValue ?? null } });
  }
  return { $and: where };
}

/** GET /api/{entity}/opcoes/{field}[?{parent field}=code]: the choices, by label. */
export async function lookupOptions(em: EntityManager, e: EntityMeta, name: string, s: Session, query: Record<string, string>): Promise<LookupOption[]> {
  const f = fieldOf(e, name);
  if (!f?.lookup) throw new HttpError(404, `O campo ${name} não tem opções cadastradas`);
  const t = target(f);
  const parent = f.lookup.parent?.field;
  if (parent && !query[parent]) throw badRequest(`Informe o campo ${fieldOf(e, parent)?.label ?? parent} para listar as opções de ${f.label}`);
  const label = t.recordRepresentation ?? f.lookup.value;
  // Read by the engine: the register's rows the caller sees (company scope), narrowed to the parent's code.
  const narrow = candidates(e, f, s, parent ? query[parent] : undefined, false);
  const rows = await readOptions(em, t, s, f.lookup.value, label, narrow, MAX_OPTIONS);
  return rows.map((r) => ({ value: String(r.value), label: String(r.label ?? r.value) }));
}

/** The fields of `e` holding a register's code: its lookups, and the field naming its parent by a code (a string
 *  field, not a reference: `parent.by` other than id), as a lookup of the parent's code without narrowing. */
function codeFields(e: EntityMeta): (FieldMeta & { lookup: LookupMeta })[] {
  const out = e.fields.filter((f): f is FieldMeta & { lookup: LookupMeta } => !!f.lookup);
  const p = e.parent;
  const pf = p && p.by !== 'id' && !p.refId ? fieldOf(e, p.field) : undefined;
  if (p && pf && !pf.lookup && pf.type === 'string') out.push({ ...pf, lookup: { entity: p.entity, value: p.by } });
  return out;
}

/** A written code (or a code whose parent changed) must be one of its register's rows the caller sees. */
export async function checkLookups(em: EntityManager, e: EntityMeta, s: Session, data: Row, existing: Row | null): Promise<void> {
  const errors: { field: string; label: string; message: string }[] = [];
  for (const f of codeFields(e)) {
    const l = f.lookup;
    const parent = l.parent?.field;
    if (!(f.name in data) && !(parent && parent in data)) continue;
    const value = f.name in data ? data[f.name] : existing?.[f.name];
    if (value == null || value === '') continue; // required is checked with the schema
    const pv = parent ? (parent in data ? data[parent] : existing?.[parent]) : undefined;
    if (existing && value === existing[f.name] && (!parent || pv === existing[parent])) continue;
    const t = target(f);
    const n = await em.count(ormName(em, t), { $and: [{ [l.value]: value }, candidates(e, f, s, pv)] } as never);
    if (n) continue;
    const pf = parent ? fieldOf(e, parent) : undefined;
    errors.push({ field: f.name, label: f.label, message: `O valor '${String(value)}' do campo ${f.label} não está cadastrado em ${t.label.plural}`
      + (t.scope === 'empresa' ? ' desta empresa' : '') + (pf ? ` para ${pf.label} '${String(pv ?? '')}'` : '') });
  }
  if (errors.length) throw new HttpError(400, errors.map((x) => x.message).join('; '), errors, 'Erro de validação');
}

/** The label of a lookup code (its register's representation), or the code itself when the register lacks it. */
export async function lookupLabelOf(em: EntityManager, e: EntityMeta, name: string, value: unknown): Promise<string> {
  const f = fieldOf(e, name);
  if (!f?.lookup || value == null) return String(value ?? '');
  const t = target(f);
  const row = (await em.findOne(ormName(em, t), { [f.lookup.value]: value } as never)) as Row | null;
  return String(row?.[t.recordRepresentation ?? f.lookup.value] ?? value);
}

/** The lookup fields naming each register, indexed once per model (every update and delete asks). */
let users: { model: unknown; by: Map<string, { e: EntityMeta; f: FieldMeta & { lookup: LookupMeta } }[]> } | null = null;
function usersOf(key: string) {
  const model = getModel();
  if (users?.model !== model) {
    const by = new Map<string, { e: EntityMeta; f: FieldMeta & { lookup: LookupMeta } }[]>();
    for (const e of model.entities) for (const f of e.fields) if (f.lookup) by.set(f.lookup.entity, [...(by.get(f.lookup.entity) ?? []), { e, f: f as FieldMeta & { lookup: LookupMeta } }]);
    users = { model, by };
  }
  return users.by.get(key) ?? [];
}

/**
 * A register row whose code other rows carry (a lookup target, e.g. the modelo gv50cg of equipment) is neither
 * deleted nor given another code while they do: 409, as a reference in use. Counted in every company (system role:
 * the rows using a platform-wide model belong to many companies); `next` is the update's data, null on delete.
 */
export async function guardLookupUse(target: EntityMeta, row: Row, next: Row | null): Promise<void> {
  for (const { e, f } of usersOf(target.key)) {
    const code = row[f.lookup.value];
    if (code == null || (next && (!(f.lookup.value in next) || next[f.lookup.value] === code))) continue;
    const em = getOrm().em.fork();
    const where = f.lookup.inUseWhileEmpty ? { [f.name]: code, [f.lookup.inUseWhileEmpty]: null } : { [f.name]: code };
    const n = await asSystem(() => em.count(ormName(em, e), where as never));
    if (!n) continue;
    const codeLabel = fieldOf(target, f.lookup.value)?.label ?? f.lookup.value;
    throw new HttpError(409, `Este registro está em uso: ${n} ${n === 1 ? e.label.singular : e.label.plural} (campo ${f.label}) ${n === 1 ? 'usa' : 'usam'} o valor '${String(code)}' do campo ${codeLabel}; ele não pode ser excluído nem ter o campo ${codeLabel} alterado`,
      { entity: e.key, field: f.name, count: n }, 'Registro em uso');
  }
}
