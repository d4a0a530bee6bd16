// Ambientes of a session (spec section 7: /adm/ambiente/corrente, /adm/ambiente/lista, /adm/ambiente/seleciona/{id};
// /auth/ambiente/{ambiente}/select). A session's ambiente is the ambiente of its active company
// (server/auth/session-cache.ts); the app bar offers only that ambiente's companies. A user may enter the active
// ambientes of his own usable companies; a holder of the platform key (metadata/adm/ambiente.yaml `platform.key`,
// held anywhere: holdsPlatform) every active ambiente. Entering one switches the session to the user's first
// usable company there (a platform holder without one: the ambiente's first active company), re-issuing what the
// company switch re-issues (sessionUser). The company boundary stays: the session runs in one company (RLS),
// its keys are that company's.
import type { Context } from 'hono';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppEnv, Session } from '../app/env.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { asSystem } from '../db/rls.ts';
import { HttpError } from '../http/envelope.ts';
import { ambienteOf, ambienteOnly, inAmbienteRow, isSessionAmbiente } from '../tenancy/scope.ts';
import { idsOf } from '../../shared/ids.ts';
import { invalidateSession } from './session-cache.ts';
import { sessaoName } from './middleware.ts';
import { empresaUsable, findEmpresas, findUser, holdsPlatform, rolesAndPermissions, type Row } from './users.ts';
import { requestEm } from '../db/context.ts';

export interface AmbienteItem { id: number; descricao: string; atual: boolean }

const MSG = {
  naoEncontrado: 'Ambiente não encontrado',
  semAcesso: 'Você não tem acesso a este ambiente',
  inativo: 'Este ambiente está desativado e não pode ser acessado',
  semEmpresa: 'Não há empresa ativa neste ambiente para você acessar',
};

const ambienteName = (em: EntityManager) => ormName(em, entityByKey('ambiente')!);
const empresaName = (em: EntityManager) => ormName(em, entityByKey('empresa')!);

/** The ambiente rows of these ids (all, inactive too), outside any company (the target is another ambiente). */
async function ambientes(em: EntityManager, ids?: number[]): Promise<Row[]> {
  if (ids && !ids.length) return [];
  return asSystem(() => em.find(ambienteName(em), (ids ? { id: { $in: ids } } : {}) as never, { orderBy: { descricao: 'ASC', id: 'ASC' } as never })) as Promise<Row[]>;
}

/** What decides where the user may go: his usable companies (each with its ambiente) and the platform key. */
async function reach(em: EntityManager, s: Session): Promise<{ own: Row[]; platform: boolean }> {
  if (s.apiKey) return { own: [], platform: false };
  const u = await findUser(em, s.usuarioId);
  if (!u) return { own: [], platform: false };
  const own = (await asSystem(() => findEmpresas(em, idsOf(u.empresas)))).filter(empresaUsable);
  return { own, platform: await holdsPlatform(em, u) };
}

/** The active ambientes the session's user may enter (the current one always among them). */
export async function ambientesPermitidos(em: EntityManager, s: Session): Promise<AmbienteItem[]> {
  const { own, platform } = await reach(em, s);
  const rows = platform ? await ambientes(em) : await ambientes(em, [...new Set([...own.map(ambienteOf), s.ambienteId].filter((x): x is number => x != null))]);
  return rows
    .filter((a) => a.ativo !== false || isSessionAmbiente(s, Number(a.id)))
    .map((a) => ({ id: Number(a.id), descricao: String(a.descricao), atual: isSessionAmbiente(s, Number(a.id)) }));
}

/** The session's current ambiente. */
export async function ambienteCorrente(em: EntityManager, s: Session): Promise<AmbienteItem> {
  const [a] = await ambientes(em, [s.ambienteId]);
  if (!a) throw new HttpError(404, MSG.naoEncontrado);
  return { id: Number(a.id), descricao: String(a.descricao), atual: true };
}

/** The company the session opens in ambiente `raw` (an id from the path): 404 none, 403 not his or inactive. */
export async function empresaDoAmbiente(em: EntityManager, s: Session, raw: string): Promise<number> {
  const id = Number(raw);
  const [a] = Number.isSafeInteger(id) && id > 0 && String(id) === raw.trim() ? await ambientes(em, [id]) : [];
  if (!a) throw new HttpError(404, MSG.naoEncontrado);
  const { own, platform } = await reach(em, s);
  const mine = own.filter((e) => inAmbienteRow(e, id));
  if (!mine.length && !platform) throw new HttpError(403, MSG.semAcesso);
  if (a.ativo === false) throw new HttpError(403, MSG.inativo);
  // Already there: the session keeps its company.
  if (isSessionAmbiente(s, id)) return s.empresaAtiva;
  if (mine.length) return Number(mine[0].id);
  const first = (await asSystem(() => em.findOne(empresaName(em), { $and: [ambienteOnly(id), { status: 'ativa' }] } as never, { orderBy: { id: 'ASC' } as never }))) as Row | null;
  if (!first) throw new HttpError(403, MSG.semEmpresa);
  return Number(first.id);
}

/** Moves the session to company `empresa` (already checked: one of the user's usable companies, or any active
 *  company for a platform holder) and so to its ambiente: the session row, the user's preferred company, the cached
 *  session; answers the session with the keys of that company. */
export async function switchSession(c: Context<AppEnv>, empresa: number): Promise<{ next: Session; user: Row | null }> {
  const s = c.get('session');
  const em = requestEm(c);
  const row = await asSystem(() => em.findOne(empresaName(em), { id: empresa } as never)) as Row | null;
  const ambiente = ambienteOf(row);
  if (!row || ambiente == null) throw new HttpError(404, 'Empresa não encontrada');
  const [a] = await ambientes(em, [ambiente]);
  if (a?.ativo === false) throw new HttpError(403, MSG.inativo);
  const usuario = entityByKey('usuario');
  const u = await asSystem(async () => {
    const moved = { empresaAtiva: empresa, ambienteId: ambiente };
    await em.nativeUpdate(sessaoName(em), { id: s.id } as never, moved as never);
    // The preferred company is kept only when it is one of his own (the next sign-in opens it).
    if (usuario?.fields.some((f) => f.name === 'empresaAtiva') && s.empresas.includes(empresa)) {
      await em.nativeUpdate(ormName(em, usuario), { id: s.usuarioId } as never, { empresaAtiva: empresa } as never);
    }
    return findUser(em, s.usuarioId);
  });
  invalidateSession(s.id);
  const { roles, permissoes } = u ? await asSystem(() => rolesAndPermissions(em, u, empresa)) : { roles: s.roles, permissoes: s.permissoes };
  return { next: { ...s, empresaAtiva: empresa, ambienteId: ambiente, roles, permissoes }, user: u };
}

/** The companies among `rows` whose ambiente is active (sign-in opens none of the others). */
export async function inActiveAmbiente(em: EntityManager, rows: Row[]): Promise<Row[]> {
  const ids = [...new Set(rows.map(ambienteOf).filter((x): x is number => x != null))];
  const active = new Set((await ambientes(em, ids)).filter((a) => a.ativo !== false).map((a) => Number(a.id)));
  return rows.filter((e) => { const a = ambienteOf(e); return a != null && active.has(a); });
}
