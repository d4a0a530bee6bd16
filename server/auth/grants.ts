// Privilege-escalation guard for writes through the generic CRUD. Metadata-driven:
//  - a json field with `optionsFrom: permissions` grants keys (cargo.permissoes, permissao.permissoes,
//    usuario.permissoesExtras): keys added by a write must all be held by the caller;
//  - a referenceList to an entity having such a field assigns them (usuario.cargos): the keys of the
//    newly assigned rows must all be held by the caller;
//  - nobody edits their own grants (usuario.cargos / permissoesExtras of their own row).
// Roles wiki and dev are exempt.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../generator/model.ts';
import type { Session } from '../app/env.ts';
import { entityByKey, ormName } from '../crud/registry.ts';
import { HttpError } from '../http/envelope.ts';
import { SUPER_ROLES, idsOf, strings, type Row } from './users.ts';

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
  for (const f of keys) {
    if (!(f.name in input)) continue;
    const before = new Set(strings(existing?.[f.name]));
    for (const k of strings(input[f.name])) if (!before.has(k) && !s.permissoes.has(k)) missing.add(k);
  }
  if (missing.size) {
    const m = [...missing].sort();
    throw new HttpError(403, `Você não pode conceder permissões que não possui: ${list(m)}`, { permissoes: m }, 'Permissão insuficiente');
  }
  for (const f of holders) {
    if (!(f.name in input)) continue;
    const before = new Set(idsOf(existing?.[f.name]));
    const added = idsOf(input[f.name]).filter((id) => !before.has(id));
    if (!added.length) continue;
    const target = entityByKey(f.reference!)!;
    const rows = (await em.find(ormName(em, target), { id: { $in: added } } as never, { filters: false })) as Row[];
    for (const r of rows) for (const g of grantFieldsOf(target)) for (const k of strings(r[g.name])) if (!s.permissoes.has(k)) missing.add(k);
    if (missing.size) {
      const m = [...missing].sort();
      throw new HttpError(403, `Você não pode atribuir ${f.label.toLowerCase()} com permissões que não possui: ${list(m)}`, { permissoes: m }, 'Permissão insuficiente');
    }
  }
}

/** Users with role wiki/dev are changed (edit, delete, actions) only by wiki/dev: no account takeover. */
export function guardTarget(e: EntityMeta, s: Session, row: Row): void {
  if (e.key !== 'usuario' || s.roles.some((r) => SUPER_ROLES.includes(r))) return;
  if (strings(row.roles).some((r) => SUPER_ROLES.includes(r))) {
    throw new HttpError(403, 'Somente perfis especiais (wiki, dev) podem alterar um usuário com perfil especial');
  }
}
