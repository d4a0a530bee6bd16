// The one pipeline: session → permission key → company scope → handler. Routes are registered through
// route() (or, for middleware-style modules like crudRoutes, the tagged steps below), which tags each step so a
// test can walk Hono's route table (app.routes) and find any route that skips one (server/test/pipeline.test.ts).
import type { Context, Handler, Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { requireSession, sessionSettled, tenant } from '../auth/middleware.ts';
import { can } from '../auth/users.ts';
import { HttpError } from '../http/envelope.ts';
import { withCompany } from '../db/rls.ts';
import type { PermissionKey } from '../generated/permissions.ts';

export type Step = 'session' | 'permission' | 'scope' | 'public';
export const STEP = Symbol.for('rastro.pipeline.step');
type Tagged = MiddlewareHandler<AppEnv> & { [STEP]?: Step; scope?: Scope; permission?: string; credentials?: boolean; reason?: string };

export type Scope = 'empresa' | 'ambiente' | 'global';

function tag(step: Step, mw: MiddlewareHandler<AppEnv>, extra: Partial<Tagged> = {}): MiddlewareHandler<AppEnv> {
  return Object.assign(mw, { [STEP]: step }, extra);
}

/** The step a handler of the route table stands for, if any. */
export function stepOf(fn: unknown): Step | undefined {
  return (fn as Tagged | undefined)?.[STEP];
}

/** The refusal of a write to credentials by an API-key call. */
export const API_KEY_CREDENTIALS = 'Chaves de API não podem alterar usuários, senhas, cargos, permissões, sessões nem chaves de API.';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a step (of the route table) refuses API-key writes (`credentials`). */
export const guardsCredentials = (fn: unknown) => !!(fn as Tagged | undefined)?.credentials;

/** Step 1: a live session (401 otherwise). `credentials`: the route writes users, passwords, roles, grants, sessions
 *  or API keys (metadata `credentials`, RouteSpec.credentials): an API-key session may only read it (403 otherwise),
 *  whatever keys the key carries. */
export const sessionStep = (o: { credentials?: boolean } = {}) => {
  const s = requireSession();
  if (!o.credentials) return tag('session', s);
  return tag('session', (c, next) => s(c, async () => {
    if (c.get('session').apiKey && !READS.has(c.req.method)) throw new HttpError(403, API_KEY_CREDENTIALS);
    await next();
  }), { credentials: true });
};

/** Step 2: one of the permission keys (403 otherwise; roles wiki/dev hold all). 'self' marks a route on the caller's
 *  own data (own preferences, own permissions), which needs the session only: said explicitly, never by omission. */
export function permissionStep(keys: PermissionKey[] | 'self' | ((c: Context<AppEnv>) => PermissionKey[])): MiddlewareHandler<AppEnv> {
  const label = keys === 'self' ? 'self' : typeof keys === 'function' ? 'computed' : keys.join('|');
  // Not async: no promise of its own on every request.
  return tag('permission', (c, next) => {
    if (keys !== 'self') {
      const s = c.get('session');
      const list = typeof keys === 'function' ? keys(c) : keys;
      if (!s || !list.some((k) => can(s, k))) throw new HttpError(403, 'Você não tem permissão para fazer isso');
    }
    return next();
  }, { permission: label });
}

/** Step 3: the company scope: the rest of the request runs in the session's company (RLS) and the companyId header
 *  of writes is checked (server/auth/middleware.ts tenant()); reads name their rows through server/tenancy/scope.ts.
 *  Every scope sets it; 'global' rows simply have no company column.
 *  A session handed out from the cache unverified is settled here, before the handler acts on it, unless the route
 *  says `sessionInSql`: its read-only handler reads the session change counter in its own statement (SessionCheck). */
export function scopeStep(scope: Scope, o: { sessionInSql?: boolean } = {}): MiddlewareHandler<AppEnv> {
  const t = tenant();
  return tag('scope', o.sessionInSql ? t : async (c, next) => { await sessionSettled(c); return t(c, next); }, { scope });
}

export interface RouteSpec {
  permission: PermissionKey[] | 'self' | ((c: Context<AppEnv>) => PermissionKey[]);
  scope: Scope;
  /** Writes users, passwords, roles, grants, sessions or API keys: refused to API-key calls (sessionStep). */
  credentials?: boolean;
}

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** Registers a route with the whole chain in order: session → permission → scope → handler. */
export function route(app: Hono<AppEnv>, method: Method, path: string, spec: RouteSpec, handler: Handler<AppEnv>): void {
  app.on(method.toUpperCase(), path, sessionStep({ credentials: spec.credentials }), permissionStep(spec.permission), scopeStep(spec.scope), handler);
}

/** Why a public route (tagged 'public') is outside the session pipeline, as it declared (route-table tests). */
export const publicReason = (fn: unknown) => (fn as Tagged | undefined)?.reason;
/** The keys a permission step of the route table asks ('a|b', 'self', 'computed'). */
export const permissionOf = (fn: unknown) => (fn as Tagged | undefined)?.permission;

export interface PublicRouteSpec<T> {
  /** Why the route takes no session (listed by server/core/pipeline.test.ts). */
  reason: string;
  /** The company the request acts in and what it may see, from its own input (e.g. a link's token, checked and
   *  rate-limited here); throws the 4xx otherwise. */
  subject: (c: Context<AppEnv>) => Promise<{ empresaId: number; ambienteId?: number; subject: T }>;
}

/** The one exception to the session pipeline: a route anyone may call (no session, no permission key), whose input
 *  names ONE company (e.g. a public link's token). Steps: 'public' (resolves the subject) → 'scope' (the rest of the
 *  request runs in that company: RLS, and reads name it through server/tenancy as usual) → handler, which reads
 *  c.get('publicSubject'). Read-only: GET only. */
export function publicRoute<T>(app: Hono<AppEnv>, path: string, spec: PublicRouteSpec<T>, handler: Handler<AppEnv>): void {
  const resolve = tag('public', async (c, next) => { c.set('publicSubject', await spec.subject(c)); await next(); }, { reason: spec.reason });
  const scope = tag('scope', (c, next) => {
    const p = c.get('publicSubject')!;
    return withCompany(p.empresaId, next, p.ambienteId);
  }, { scope: 'empresa' });
  app.on('GET', path, resolve, scope, handler);
}
