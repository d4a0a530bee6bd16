// Reading Hono's route table (app.routes) for the pipeline's tests (server/core/pipeline.test.ts,
// server/auth/api-key-credenciais.test.ts): each endpoint with the tagged steps that run before it.
import type { Model } from '../../shared/model.ts';
import { guardsCredentials, permissionOf, stepOf, type Step } from './pipeline.ts';

export interface Endpoint {
  id: string; method: string; path: string; steps: Step[]; credentials: boolean;
  /** The permission step's keys ('k1|k2'), 'self' (the session alone) or 'computed'; undefined without the step. */
  permission?: string;
}

const covers = (pattern: string, path: string) =>
  pattern === path || pattern === '*' || pattern === '/*' || (pattern.endsWith('/*') && (path + '/').startsWith(pattern.slice(0, -1)));

/** Each endpoint of a route table with the tagged steps that run before it, in order, and whether one of them
 *  refuses API-key writes to credentials. */
export function endpoints(routes: { method: string; path: string; handler: unknown }[]): Endpoint[] {
  const last = new Map<string, number>();
  routes.forEach((r, i) => { if (!stepOf(r.handler)) last.set(`${r.method} ${r.path}`, i); });
  const out: Endpoint[] = [];
  for (const [id, i] of last) {
    const { method, path } = routes[i];
    if (method === 'ALL' && path.endsWith('*') && id !== 'ALL /api/*' && routes.slice(i + 1).some((r) => r.path.startsWith(path.slice(0, -1)))) continue; // middleware
    const before = routes.slice(0, i).filter((r) => (r.method === method || r.method === 'ALL') && covers(r.path, path));
    const steps = before.map((r) => stepOf(r.handler)).filter((s): s is Step => !!s);
    const permission = before.map((r) => permissionOf(r.handler)).find((k) => k !== undefined);
    out.push({ id, method, path, steps, credentials: before.some((r) => guardsCredentials(r.handler)), permission });
  }
  return out;
}

/** Whether session, permission and scope all run, in that order. */
export function complete(steps: Step[]): boolean {
  const at = (s: Step) => steps.indexOf(s);
  return at('session') >= 0 && at('session') < at('permission') && at('permission') < at('scope');
}

/** The writes (any method but GET) that touch users, passwords, roles, grants, sessions or API keys, by path: a
 *  segment naming a `credentials` register (its own, nested and named-call routes, and custom calls below it such
 *  as /api/usuario/perfil), or below /api/auth. Each must refuse API-key calls (sessionStep credentials). */
export function credentialWrites(all: Endpoint[], model: Model): Endpoint[] {
  const names = new Set(['auth', ...model.entities.filter((e) => e.credentials).map((e) => e.key)]);
  return all.filter((e) => e.method !== 'GET' && e.path.split('/').some((seg) => names.has(seg)));
}
