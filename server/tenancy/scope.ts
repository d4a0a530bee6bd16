// The one company scope: which rows of an entity a session may see (its empresa, its ambiente, the companies of
// ambiente registers, the owner's own rows). Row-level security (server/db/rls.ts) is the backstop under it.
import type { EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { companiesWhere } from './companies.ts';

export type Where = Record<string, unknown>;

/** The rows of `e` the session may see: its tenant, and for entities with `companies` only rows all of whose
 *  companies are the caller's (server/tenancy/companies.ts). */
export function scopeWhere(e: EntityMeta, s: Session): Where {
  if (e.scope === 'empresa') return { empresaId: s.empresaAtiva, ...ownerOnly(e, s) };
  if (e.scope === 'ambiente') return { ambienteId: s.ambienteId, ...companiesWhere(e, s) };
  return companiesWhere(e, s);
}

/** Entities with `owner` (notificacao): only the caller's own rows; a row created through the API is the caller's. */
export function ownerOnly(e: EntityMeta, s: Session): Where {
  return e.owner ? { [e.owner]: s.usuarioId } : {};
}

/** The tenant alone (uniqueness is per tenant, whatever the caller may see). */
export function tenantOnly(e: EntityMeta, s: Session): Where {
  if (e.scope === 'empresa') return { empresaId: s.empresaAtiva };
  if (e.scope === 'ambiente') return { ambienteId: s.ambienteId };
  return {};
}
