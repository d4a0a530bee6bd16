// Middleware factories: requireSession(), requirePermission(key), tenant().
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv, Session } from '../app/env.ts';
import type { PermissionKey } from '../generated/permissions.ts';
import { requestDb, requestEm } from '../db/context.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { entityByKey, ormName } from '../core/registry.ts';
import { HttpError, forbidden, unauthorized } from '../http/envelope.ts';
import { header } from '../http/headers.ts';
import { verifySession } from './tokens.ts';
import { can } from './users.ts';
import { cachedSession, invalidateSession, type SessionCheck } from './session-cache.ts';
import { withCompany } from '../db/rls.ts';
import { apiKeySession } from './api-key.ts';
import { MSG } from '../realtime/events.ts';

export function tokenOf(c: Context): string | undefined {
  const h = header(c, 'authorization');
  if (h?.toLowerCase().startsWith('bearer ')) return h.slice(7).trim();
  return getCookie(c, 'token') || undefined;
}

export const sessaoName = (em: EntityManager) => ormName(em, entityByKey('sessao')!);

export type MotivoFim = 'logout' | 'administrador' | 'senha';

/** Ends a session row (ativa=false, dataFim=now, and why when known). */
export async function endSession(em: EntityManager, id: number, motivo?: MotivoFim): Promise<void> {
  await em.nativeUpdate(sessaoName(em), { id } as never, { ativa: false, dataFim: new Date(), ...(motivo ? { motivoFim: motivo } : {}) } as never);
  invalidateSession(id);
}

/** The 401 of a request whose token names a session someone else ended: the reason and its message, so the client
 *  shows 'Sessão terminada' even when this answer arrives before the realtime push. */
async function endedSession(em: EntityManager, token: string): Promise<HttpError | undefined> {
  const sid = await verifySession(token);
  if (sid === null) return undefined;
  const row = (await em.findOne(sessaoName(em), { id: sid, ativa: false } as never, { fields: ['motivoFim'] as never })) as { motivoFim?: MotivoFim | null } | null;
  const motivo = row?.motivoFim;
  if (motivo === 'administrador') return new HttpError(401, MSG.sessaoFinalizada, { motivo });
  if (motivo === 'senha') return new HttpError(401, MSG.senhaAlterada, { motivo });
  return undefined;
}

/** Loads and checks the session row of the request's token. `defer`: a cached session may be handed out with a
 *  check still to settle (c.get('sessionCheck'), see staleSessionRetry). */
export async function loadSession(c: Context<AppEnv>, defer = false): Promise<Session | null> {
  const token = tokenOf(c);
  if (!token) return null;
  const later = defer && c.get('sessionDefer') ? (k: SessionCheck) => c.set('sessionCheck', k) : undefined;
  return cachedSession(requestDb(c), token, verifySession, (sid) => endSession(requestEm(c), sid), later);
}

/** The live session of a token (HTTP requests and the realtime socket); ends it when its user or company no
 *  longer may. One query, cached per token while the session channel is listened to (session-cache.ts). */
export async function sessionOfToken(em: EntityManager, token: string): Promise<Session | null> {
  return cachedSession(em, token, verifySession, (sid) => endSession(em, sid));
}

/** Thrown when the request's cached session turned out stale: its answer is discarded (staleSessionRetry). */
export const staleSession = () => new HttpError(503, 'A sessão foi alterada durante a requisição; tente novamente');

/** Settles the request's session check now (one round trip), before anything acts on the session. */
export async function sessionSettled(c: Context<AppEnv>): Promise<void> {
  const k = c.get('sessionCheck');
  if (k && !(await k.verify())) throw staleSession();
}

const strict = new WeakSet<object>();

/** Outermost API middleware. A GET may be served with a cached session before the session change counter was
 *  read (session-cache.ts): its route settles the check in its own SQL, or the scope step with a round trip, and at
 *  the latest here. When the session turned out stale (a change committed elsewhere before this request, whose
 *  notification had not arrived yet), the answer is discarded and the request runs again with strict checks. */
export function staleSessionRetry(fetch: (req: Request, env: unknown) => Response | Promise<Response>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET' || strict.has(c.req.raw)) return next();
    c.set('sessionDefer', true);
    await next();
    const k = c.get('sessionCheck');
    if (!k || (await k.verify())) return;
    strict.add(c.req.raw);
    const again = await fetch(c.req.raw, c.env);
    c.res = undefined;
    c.res = again;
  };
}

/** Read-only GETs a browser opens itself (a documentation tab, an <img> of an uploaded file) carry no bearer
 *  header: the front end's token cookie (runtime/src/api/cookie.ts) identifies the session. The cookie is
 *  SameSite=Lax (no cross-site subrequest sends it); writes still need the bearer or the companyId header. */
export function sessionFromCookie(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = header(c, 'authorization') ? undefined : getCookie(c, 'rastro_token');
    if (token && !c.get('session')) {
      const s = await sessionOfToken(requestEm(c), token);
      if (s) c.set('session', s);
    }
    await next();
  };
}

/** 401 unless the request carries a live session; sets c.get('session'). Idempotent. */
export function requireSession(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('session')) {
      // Another system's call carries an API key instead of a session token (server/auth/api-key.ts).
      const token = tokenOf(c);
      const s = (token ? undefined : await apiKeySession(c, requestEm(c))) ?? await loadSession(c, true);
      if (!s) throw (token ? await endedSession(requestEm(c), token) : undefined) ?? unauthorized('Sessão inválida ou expirada. Entre novamente.');
      c.set('session', s);
    }
    await next();
  };
}

/** 403 unless the session holds the permission key (roles wiki/dev hold all). */
export function requirePermission(key: PermissionKey | ((c: Context<AppEnv>) => PermissionKey)): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const s = c.get('session');
    if (!s) throw unauthorized('Sessão inválida ou expirada. Entre novamente.');
    if (!can(s, typeof key === 'function' ? key(c) : key)) throw forbidden();
    return next();
  };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Runs the rest of the request in the session's company (RLS, server/db/rls.ts; reads name their scope through
 *  server/tenancy/scope.ts — there is no ORM tenant filter). Writes act on the session's active company; a
 *  companyId header, when sent (the spec's client sends it), must name that company. A write authenticated
 *  by the cookie alone must carry the header (a custom header: no cross-site form can send it). */
export function tenant(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const s = c.get('session');
    if (!s) throw unauthorized('Sessão inválida ou expirada. Entre novamente.');
    if (WRITES.has(c.req.method)) {
      const h = c.req.header('companyId');
      if (h != null && (String(Number(h)) !== h.trim() || Number(h) !== s.empresaAtiva)) {
        throw new HttpError(403, 'A empresa da requisição (companyId) não corresponde à empresa ativa da sessão');
      }
      if (h == null && !s.apiKey && !c.req.header('authorization')?.toLowerCase().startsWith('bearer ')) {
        throw new HttpError(403, 'Alterações autenticadas pelo cookie precisam do cabeçalho companyId (ou use o cabeçalho Authorization: Bearer)');
      }
    }
    // Second line: every query of the rest of the request runs under row-level security (server/db/rls.ts).
    return withCompany(s.empresaAtiva, next, s.ambienteId);
  };
}
