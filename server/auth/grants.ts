// Privilege-escalation guard for writes through the generic CRUD. Metadata-driven:
//  - a json field with `optionsFrom: permissions` grants keys (cargo.permissoes, permissao.permissoes,
//    usuario.permissoesExtras): keys added by a write must all be held by the caller;
//  - a referenceList to an entity having such a field assigns them (usuario.cargos): the keys of the
//    newly assigned rows must all be held by the caller;
//  - keys removed by a write must be held by the caller too (nobody strips keys they do not hold);
//  - nobody edits their own grants (usuario.cargos / permissoesExtras of their own row);
//  - a row listing its companies (metadata `companies`, e.g. usuario.empresas): companies added or removed
//    must be the caller's; the list never ends empty (a new row gets the active company);
//  - guardTarget: a user holding keys the caller does not hold, and a role holding such keys (delete), are
//    out of the caller's reach.
// Roles wiki and dev are exempt (platform administrators only from the company rules).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { HttpError } from '../http/envelope.ts';
import { SUPER_ROLES, rolesAndPermissions, type Row } from './users.ts';
import { idOf, idsOf, strings } from '../../shared/ids.ts';
import { administersAll } from '../tenancy/companies.ts';

const isGrantField = (f: FieldMeta) => f.type === 'json' && f.optionsFrom === 'permissions';
const grantFieldsOf = (e: EntityMeta) => e.fields.filter(isGrantField);

/** Fields of `e` that grant permissions: direct key lists, and reference lists to key holders (cargos). */
export function grantingFields(e: EntityMeta): { keys: FieldMeta[]; holders: FieldMeta[] } {
  return {
    keys: grantFieldsOf(e),
    holders: e.fields.filter((f) => f.type === 'referenceList' && !!f.reference && grantFieldsOf(entityByKey(f.reference) ?? e).length > 0 && f.reference !== e.key),
  };
}

const MAX_LISTED = 5;
const list = (keys: string[]) => keys.slice(0, MAX_LISTED).join(', ') + (keys.length > MAX_LISTED ? ` e mais ${keys.length - MAX_LISTED}` : '');

export async function guardGrants(em: EntityManager, e: EntityMeta, s: Session, input: Row, existing: Row | null): Promise<void> {
  guardCompanies(e, s, input, existing);
  if (s.roles.some((r) => SUPER_ROLES.includes(r))) return;
  const { keys, holders } = grantingFields(e);
  const changed = (f: FieldMeta) => {
    if (!(f.name in input)) return false;
    const before = f.type === 'referenceList' ? idsOf(existing?.[f.name]) : strings(existing?.[f.name]);
    const after = f.type === 'referenceList' ? idsOf(input[f.name]) : strings(input[f.name]);
    return JSON.stringify([...before].sort()) !== JSON.stringify([...after].sort());
  };
  if (e.key === 'usuario' && existing && Number(existing.id) === s.usuarioId) {
    const own = [...keys, ...holders].filter(changed);
    if (own.length) throw new HttpError(403, `Você não pode alterar ${own.map((f) => f.label.toLowerCase()).join(' nem ')} do seu próprio usuário`);
  }
  const missing = new Set<string>();
  const removed = new Set<string>();
  for (const f of keys) {
    if (!(f.name in input)) continue;
    const before = new Set(strings(existing?.[f.name]));
    const after = new Set(strings(input[f.name]));
    for (const k of after) if (!before.has(k) && !s.permissoes.has(k)) missing.add(k);
    for (const k of before) if (!after.has(k) && !s.permissoes.has(k)) removed.add(k);
  }
  if (missing.size) {
    const m = [...missing].sort();
    throw new HttpError(403, `Você não pode conceder permissões que não possui: ${list(m)}`, { permissoes: m }, 'Permissão insuficiente');
  }
  if (removed.size) {
    const m = [...removed].sort();
    throw new HttpError(403, `Você não pode remover permissões que não possui: ${list(m)}`, { permissoes: m }, 'Permissão insuficiente');
  }
  for (const f of holders) {
    if (!(f.name in input)) continue;
    const before = new Set(idsOf(existing?.[f.name]));
    const added = idsOf(input[f.name]).filter((id) => !before.has(id));
    if (!added.length) continue;
    const target = entityByKey(f.reference!)!;
    const rows = (await em.find(ormName(em, target), { id: { $in: added } } as never)) as Row[];
    for (const r of rows) for (const g of grantFieldsOf(target)) for (const k of strings(r[g.name])) if (!s.permissoes.has(k)) missing.add(k);
    if (missing.size) {
      const m = [...missing].sort();
      throw new HttpError(403, `Você não pode atribuir ${f.label.toLowerCase()} com permissões que não possui: ${list(m)}`, { permissoes: m }, 'Permissão insuficiente');
    }
  }
}

const companiesField = (e: EntityMeta) =>
  e.companies && !e.companies.includes('.') && e.companies !== 'id' ? e.fields.find((f) => f.name === e.companies) : undefined;

/** Company lists (metadata `companies`): only the caller's companies are added or removed; never empty. */
function guardCompanies(e: EntityMeta, s: Session, input: Row, existing: Row | null): void {
  const f = companiesField(e);
  if (!f || f.type !== 'referenceList') return;
  const all = administersAll(s);
  if (!existing && (input[f.name] == null || (Array.isArray(input[f.name]) && !input[f.name].length))) input[f.name] = [s.empresaAtiva];
  if (!(f.name in input)) return;
  const before = new Set(idsOf(existing?.[f.name]));
  const after = [...new Set(idsOf(input[f.name]))];
  if (!after.length) throw new HttpError(400, `O campo ${f.label} deve ter ao menos uma empresa`, [{ field: f.name, label: f.label, message: `O campo ${f.label} deve ter ao menos uma empresa` }], 'Erro de validação');
  if (!all) {
    const foreign = [...after.filter((id) => !before.has(id)), ...[...before].filter((id) => !after.includes(id))].filter((id) => !s.empresas.includes(id));
    if (foreign.length) throw new HttpError(403, 'Você só pode incluir ou retirar empresas que você administra', { empresas: foreign.sort((a, b) => a - b) }, 'Permissão insuficiente');
  }
  // The active company of the row must be one of its companies.
  const ativa = e.fields.find((x) => x.type === 'reference' && x.reference === 'empresa' && x.name !== f.name);
  if (ativa) {
    const v = ativa.name in input ? idOf(input[ativa.name]) : idOf(existing?.[ativa.name]);
    if (v == null || !after.includes(v)) input[ativa.name] = after.includes(s.empresaAtiva) ? s.empresaAtiva : after[0];
  }
}

/** The caller may change this row (edit, delete, actions): users with role wiki/dev only by wiki/dev; users
 *  holding keys the caller does not hold, and roles holding such keys (delete), by nobody but wiki/dev. */
export async function guardTarget(em: EntityManager, e: EntityMeta, s: Session, row: Row, op: string): Promise<void> {
  if (s.roles.some((r) => SUPER_ROLES.includes(r))) return;
  if (e.key === 'usuario') {
    if (strings(row.roles).some((r) => SUPER_ROLES.includes(r))) {
      throw new HttpError(403, 'Somente perfis especiais (wiki, dev) podem alterar um usuário com perfil especial');
    }
    if (Number(row.id) === s.usuarioId) return;
    // Every key the user holds, in any of their companies.
    const { permissoes } = await rolesAndPermissions(em, row);
    const m = [...permissoes].filter((k) => !s.permissoes.has(k)).sort();
    if (m.length) throw new HttpError(403, `Você não pode alterar um usuário que possui permissões que você não possui: ${list(m)}`, { permissoes: m }, 'Permissão insuficiente');
    return;
  }
  if (op !== 'delete') return;
  const m = [...new Set(grantFieldsOf(e).flatMap((g) => strings(row[g.name])))].filter((k) => !s.permissoes.has(k)).sort();
  if (m.length) throw new HttpError(403, `Você não pode excluir ${e.label.singular.toLowerCase()} com permissões que não possui: ${list(m)}`, { permissoes: m }, 'Permissão insuficiente');
}
