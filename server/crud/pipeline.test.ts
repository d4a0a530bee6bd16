// The one pipeline (issue 7): walks the real app's route table (Hono app.routes) and fails for any route that
// does not run session → permission key → company scope before its handler, unless it is on the explicit
// allow-list below. Also proves every pipelined route answers 401 without a session.
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../app/env.ts';
import { json, startTestServer, type TestServer } from '../test/harness.ts';
import { requirePermission } from '../auth/middleware.ts';
import { PERMISSION_KEYS } from '../generated/permissions.ts';
import { permissionStep, route, scopeStep, sessionStep, stepOf, type Step } from './pipeline.ts';

/** Routes outside the pipeline, each with its reason. */
const ALLOWED: Record<string, string> = {
  // Public: no session exists yet (or the token is the input).
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public (ends the session of the token it carries, if any)',
  'GET /api/auth/token_valido': 'public (answers whether a token is valid)',
  'POST /api/auth/changepwd': 'public (password change with the current password or a recovery token)',
  'POST /api/auth/recover': 'public',
  // Catch-alls: the 404 of /api and the built front end.
  'ALL /api/*': '404 of unknown API paths',
  'GET /*': 'front end (static files, index.html)',
  // The company switch is checked against the TARGET company (one of the own companies, usable), and the keys are
  // recomputed for it: the scope step of the current company would run it under the wrong company's row security.
  'POST /api/auth/empresa/:id': 'switch of the own active company, checked against the own companies (server/auth/routes.ts)',
};

interface Endpoint { id: string; method: string; path: string; steps: Step[] }

const covers = (pattern: string, path: string) =>
  pattern === path || pattern === '*' || pattern === '/*' || (pattern.endsWith('/*') && (path + '/').startsWith(pattern.slice(0, -1)));

/** Each endpoint of a route table with the tagged steps that run before it, in order. */
export function endpoints(routes: { method: string; path: string; handler: unknown }[]): Endpoint[] {
  const last = new Map<string, number>();
  routes.forEach((r, i) => { if (!stepOf(r.handler)) last.set(`${r.method} ${r.path}`, i); });
  const out: Endpoint[] = [];
  for (const [id, i] of last) {
    const { method, path } = routes[i];
    if (method === 'ALL' && path.endsWith('*') && id !== 'ALL /api/*' && routes.slice(i + 1).some((r) => r.path.startsWith(path.slice(0, -1)))) continue; // middleware
    const steps = routes.slice(0, i)
      .filter((r) => (r.method === method || r.method === 'ALL') && covers(r.path, path))
      .map((r) => stepOf(r.handler)).filter((s): s is Step => !!s);
    out.push({ id, method, path, steps });
  }
  return out;
}

/** Whether session, permission and scope all run, in that order. */
export function complete(steps: Step[]): boolean {
  const at = (s: Step) => steps.indexOf(s);
  return at('session') >= 0 && at('session') < at('permission') && at('permission') < at('scope');
}

let ts: TestServer;
beforeAll(async () => { ts = await startTestServer(); });
afterAll(async () => { await ts?.close(); });

describe('route table', () => {
  it('every route runs session → permission key → company scope, or is on the allow-list', () => {
    const all = endpoints(ts.app.routes);
    const missing = all.filter((e) => !ALLOWED[e.id] && !complete(e.steps)).map((e) => `${e.id} [${e.steps.join(' → ')}]`);
    expect(missing).toEqual([]);
    // The table really holds the generated, provider and named-call routes.
    const ids = new Set(all.map((e) => e.id));
    for (const id of ['GET /api/ativo', 'POST /api/ativo', 'DELETE /api/ativo/:id', 'POST /api/empresa/:id/desativa', 'GET /api/biblioteca/familia/:familia',
      'GET /api/equipamento_ativo/por_serial/:serial', 'GET /api/rastreamento/ultimo_estado', 'GET /api/meta', 'GET /api/home/resumo']) {
      expect(ids.has(id), id).toBe(true);
      expect(complete(all.find((e) => e.id === id)!.steps), id).toBe(true);
    }
    expect(all.length).toBeGreaterThan(100);
    // The allow-list names only routes that exist (no stale entries).
    expect(Object.keys(ALLOWED).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('the walk finds a route that skips a step or runs them out of order', () => {
    const app = new Hono<AppEnv>();
    route(app, 'get', '/ok', { permission: ['tlm.fro.ativo.lista'], scope: 'empresa' }, (c) => c.text('ok'));
    app.get('/no-permission', sessionStep(), scopeStep('empresa'), (c) => c.text('x'));
    app.get('/bare', (c) => c.text('x'));
    app.get('/scope-first', sessionStep(), scopeStep('empresa'), permissionStep(['tlm.fro.ativo.lista']), (c) => c.text('x'));
    const sub = new Hono<AppEnv>();
    sub.use('*', sessionStep());
    sub.get('/', permissionStep(['tlm.fro.ativo.lista']), scopeStep('empresa'), (c) => c.text('x'));
    app.route('/sub', sub);
    const found = Object.fromEntries(endpoints(app.routes).map((e) => [e.id, complete(e.steps)]));
    expect(found).toEqual({ 'GET /ok': true, 'GET /no-permission': false, 'GET /bare': false, 'GET /scope-first': false, 'GET /sub': true });
  });

  it('permission keys are the generated union: a key the catalogue lacks does not type-check (npm run typecheck)', () => {
    // @ts-expect-error not in the catalogue (the old grant of server/ingest/calls.ts)
    const step = permissionStep(['tlm.ras.rastreamento_ao_vivo.lista']);
    // @ts-expect-error not in the catalogue
    const mw = requirePermission('tlm.fro.ativo.apaga_tudo');
    expect([typeof step, typeof mw]).toEqual(['function', 'function']);
    expect(PERMISSION_KEYS).toContain('tlm.ras.rastreamento_ao_vivo');
    expect(PERMISSION_KEYS).not.toContain('tlm.ras.rastreamento_ao_vivo.lista');
  });

  it('every pipelined route answers 401 without a session', async () => {
    const all = endpoints(ts.app.routes).filter((e) => !ALLOWED[e.id] && e.method !== 'ALL');
    const wrong: string[] = [];
    for (const e of all) {
      const res = await ts.fetch(e.path.replace(/:[A-Za-z]+/g, '1'), { method: e.method, headers: { 'content-type': 'application/json' }, body: e.method === 'GET' ? undefined : '{}' });
      if (res.status !== 401) wrong.push(`${e.id}: ${res.status}`);
      else expect((await json(res)).msg).toBe('Sessão inválida ou expirada. Entre novamente.');
    }
    expect(wrong).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });
});
