// Reads users, roles and companies through the metadata entities usuario, cargo, empresa.
// Field names the server relies on (metadata/adm/*.yaml):
//   usuario: login, senha (password), nome, email, ativo, empresas (referenceList empresa), empresaAtiva,
//            cargos (referenceList cargo), permissoesExtras (string[]), roles (string[]: wiki, dev), ui (json)
//   cargo:   descricao, permissoes (string[])     empresa: fantasia, status (ativa|suspensa|desativada)
//   sessao:  usuario, login, empresaAtiva, ip, userAgent, dataInicio, dataUltimoAcesso, dataValidoAte, ativa, dataFim
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Session } from '../app/env.ts';
import { entityByKey, getModel, ormName } from '../core/registry.ts';
import { effectiveKeys } from '../tenancy/companies.ts';
import { companyOnly } from '../tenancy/scope.ts';
import { idsOf, strings } from '../../shared/ids.ts';
import { asSystem } from '../db/rls.ts';

export const SUPER_ROLES = ['wiki', 'dev'];

export type Row = Record<string, any>;

const name = (em: EntityManager, key: string) => ormName(em, entityByKey(key)!);
const populateOf = (em: EntityManager, key: string, fields: string[]) => {
  const meta = em.getMetadata().find(name(em, key));
  return fields.filter((f) => meta?.properties[f as never]?.kind && meta.properties[f as never].kind !== 'scalar') as never[];
};

export async function findUserByLogin(em: EntityManager, login: string, withPassword = false): Promise<Row | null> {
  return em.findOne(name(em, 'usuario'), { login: { $ilike: login.replace(/[\\%_]/g, (m) => '\\' + m) } } as never, { populate: userPopulate(em, withPassword) }) as Promise<Row | null>;
}
/** A user by id. The row lives in the user's home ambiente while the session may be in another (the ambiente of
 *  its active company, server/auth/ambiente.ts), so it is read outside the company's row security: callers name
 *  the session's own user (or a job's owner), never an id from the request. */
export async function findUser(em: EntityManager, id: number, withPassword = false): Promise<Row | null> {
  return asSystem(() => em.findOne(name(em, 'usuario'), { id } as never, { populate: userPopulate(em, withPassword) }) as Promise<Row | null>);
}
/** The password hash is a lazy property that the app's database role may not read (server/db/rls.ts): only the
 *  sign-in and password change paths ask for it, outside a company (system role). */
const userPopulate = (em: EntityManager, withPassword: boolean) =>
  [...populateOf(em, 'usuario', ['empresas', 'cargos']), ...(withPassword ? ['senha' as never] : [])];
/** Writes fields of the session's own user row (preferences, profile): outside the company's row security like
 *  findUser, by the session's user id only. */
export async function updateOwnUser(em: EntityManager, s: Pick<Session, 'usuarioId'>, data: Row): Promise<void> {
  await asSystem(() => em.nativeUpdate(name(em, 'usuario'), { id: s.usuarioId } as never, data as never));
}
export async function findEmpresa(em: EntityManager, id: number): Promise<Row | null> {
  return em.findOne(name(em, 'empresa'), { id } as never) as Promise<Row | null>;
}
export async function findEmpresas(em: EntityManager, ids: number[]): Promise<Row[]> {
  if (!ids.length) return [];
  return em.find(name(em, 'empresa'), { id: { $in: ids } } as never, { orderBy: { id: 'ASC' } as never }) as Promise<Row[]>;
}

export function userActive(u: Row): boolean { return u.ativo !== false; }
export function empresaUsable(e: Row | null): boolean { return !!e && (e.status ?? 'ativa') === 'ativa'; }

export function allPermissionKeys(): string[] { return getModel().permissions.map((p) => p.key); }

/** Roles and permission keys of a user (cargos + permissoesExtras). With `empresa`, only the cargos of that
 *  company count when cargo is company-scoped (a role's keys apply in its company); without it, every cargo
 *  (all the keys the user holds anywhere). Keys gated by a platform key the user lacks are dropped. */
export async function rolesAndPermissions(em: EntityManager, u: Row, empresa?: number): Promise<{ roles: string[]; permissoes: Set<string> }> {
  const cargoIds = idsOf(u.cargos);
  const perCompany = empresa != null && entityByKey('cargo')?.scope === 'empresa';
  const cargos = cargoIds.length
    ? ((await em.find(name(em, 'cargo'), { id: { $in: cargoIds }, ...(perCompany ? companyOnly(empresa) : {}) } as never)) as Row[])
    : [];
  return grantsOf(u.roles, u.permissoesExtras, cargos.map((c) => c.permissoes));
}

/** Roles and effective keys from the user's roles, extra keys and the key lists of the cargos that count. */
export function grantsOf(rolesRaw: unknown, extras: unknown, cargoKeys: unknown[]): { roles: string[]; permissoes: Set<string> } {
  const roles = strings(rolesRaw);
  const permissoes = new Set<string>(strings(extras));
  for (const keys of cargoKeys) for (const k of strings(keys)) permissoes.add(k);
  if (roles.some((r) => SUPER_ROLES.includes(r))) for (const k of allPermissionKeys()) permissoes.add(k);
  return { roles, permissoes: effectiveKeys(permissoes) };
}

/** The key that lets a user enter every active ambiente (metadata/adm/ambiente.yaml `platform.key`). */
export function platformKey(): string | undefined {
  return entityByKey('ambiente')?.platform?.key;
}

/** Whether the user holds the platform key anywhere: roles, extra keys or any of their cargos, whatever its
 *  company (the question is who may enter other ambientes, not what a key allows inside one company). */
export async function holdsPlatform(em: EntityManager, u: Row): Promise<boolean> {
  const key = platformKey();
  if (!key) return false;
  const cargoIds = idsOf(u.cargos);
  const cargos = cargoIds.length ? ((await asSystem(() => em.find(name(em, 'cargo'), { id: { $in: cargoIds } } as never))) as Row[]) : [];
  return grantsOf(u.roles, u.permissoesExtras, cargos.map((c) => c.permissoes)).permissoes.has(key);
}

export function can(s: Session, key: string): boolean {
  return s.roles.some((r) => SUPER_ROLES.includes(r)) || s.permissoes.has(key);
}
