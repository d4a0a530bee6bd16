// The company boundary inside an ambiente (metadata `companies` and `platform`, shared/model.ts):
//  - a row of an entity with `companies` belongs to those companies; a caller sees and changes it only when
//    ALL of them are among the caller's companies (session.empresas). wiki, dev and holders of a platform key
//    administer every company of their ambiente;
//  - keys gated by a platform key (metadata `platform.operations`) take effect only together with it.
import type { EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { entityByKey, getModel } from '../core/registry.ts';
import { SUPER_ROLES, type Row } from '../auth/users.ts';
import { idOf, idsOf } from '../../shared/ids.ts';

type Where = Record<string, unknown>;

export const isSuper = (s: Pick<Session, 'roles'>) => s.roles.some((r) => SUPER_ROLES.includes(r));

export function platformKeys(): string[] {
  return (getModel().platform ?? []).map((p) => p.key);
}

/** wiki, dev and platform administrators administer every company of their ambiente. */
export function administersAll(s: Pick<Session, 'roles' | 'permissoes'>): boolean {
  return isSuper(s) || platformKeys().some((k) => s.permissoes.has(k));
}

/** Drops the keys gated by a platform key the holder lacks (wiki/dev hold every key). */
export function effectiveKeys(keys: Set<string>): Set<string> {
  for (const p of getModel().platform ?? []) {
    if (keys.has(p.key)) continue;
    for (const k of p.gated) keys.delete(k);
  }
  return keys;
}

/** WHERE restricting `e` to the rows whose companies are all among the caller's; {} when unrestricted. */
export function companiesWhere(e: EntityMeta, s: Session): Where {
  if (!e.companies || administersAll(s)) return {};
  return pathWhere(e, e.companies, s.empresas);
}

function pathWhere(e: EntityMeta, path: string, mine: number[]): Where {
  const [head, rest] = path.split('.');
  if (rest) {
    const f = e.fields.find((x) => x.name === head)!;
    return { [head]: pathWhere(entityByKey(f.reference!)!, rest, mine) };
  }
  if (head === 'id') return { id: { $in: mine } };
  const f = e.fields.find((x) => x.name === head)!;
  // All of the row's companies among mine, and at least one (a row without companies is nobody's).
  if (f.type === 'referenceList') return { [head]: { $contained: mine, $overlap: mine } };
  return { [head]: { $in: mine } };
}

/** The companies a loaded row belongs to (direct paths only: id, a reference or a reference list). */
export function rowCompanies(e: EntityMeta, row: Row): number[] | null {
  if (!e.companies || e.companies.includes('.')) return null;
  if (e.companies === 'id') return [Number(row.id)];
  const f = e.fields.find((x) => x.name === e.companies)!;
  if (f.type === 'referenceList') return idsOf(row[f.name]);
  const id = idOf(row[f.name]);
  return id == null ? [] : [id];
}
