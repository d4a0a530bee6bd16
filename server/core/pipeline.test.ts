// The one pipeline (issue 7): walks the real app's route table (Hono app.routes) and fails for any route that
// does not run session → permission key → company scope before its handler, unless it is on the explicit
// allow-list below. Also proves every pipelined route answers 401 without a session.
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../app/env.ts';
import { json, startTestServer, type TestServer } from '../test/harness.ts';
import { requirePermission } from '../auth/middleware.ts';
import { PERMISSION_KEYS } from '../generated/permissions.ts';
import { permissionStep, publicReason, publicRoute, route, scopeStep, sessionStep, stepOf } from './pipeline.ts';
import { complete, credentialWrites, endpoints } from './route-table.ts';

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
  // Declared public routes (publicRoute): no session; the input names one company and the request runs in it.
  'GET /api/public/rastreamento_ao_vivo/query': 'public link page: its token names one link, its company, its assets (modules/link_publico)',
  'GET /api/report/get/:token': 'share link of a generated report: its token (random, stored hashed, expiring, revocable) names one file of one company (modules/relatorios)',
};

/** Routes declared with publicRoute: step 'public' (with its reason) then the company scope, nothing else. */
const PUBLIC = ['GET /api/public/rastreamento_ao_vivo/query', 'GET /api/report/get/:token'];

/** Sign-in routes below /api/auth that take no session (so no API key): they act on the token or password sent. */
const PUBLIC_AUTH = new Set(['POST /api/auth/login', 'POST /api/auth/logout', 'POST /api/auth/changepwd', 'POST /api/auth/recover']);

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
    // Public routes are declared as such (publicRoute), each listed above: public → scope, with a reason.
    const declaredPublic = all.filter((e) => e.steps.includes('public'));
    expect(declaredPublic.map((e) => e.id).sort()).toEqual([...PUBLIC].sort());
    for (const e of declaredPublic) expect(e.steps, e.id).toEqual(['public', 'scope']);
    const reasons = ts.app.routes.filter((r) => stepOf(r.handler) === 'public').map((r) => publicReason(r.handler));
    expect(reasons.every((r) => typeof r === 'string' && r.length > 20)).toBe(true);
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
    publicRoute(app, '/open', { reason: 'a test', subject: async () => ({ empresaId: 1, subject: null }) }, (c) => c.text('x'));
    const found = Object.fromEntries(endpoints(app.routes).map((e) => [e.id, complete(e.steps)]));
    expect(found).toEqual({ 'GET /ok': true, 'GET /no-permission': false, 'GET /bare': false, 'GET /scope-first': false, 'GET /sub': true, 'GET /open': false });
    expect(endpoints(app.routes).find((e) => e.id === 'GET /open')!.steps).toEqual(['public', 'scope']);
  });

  it('every route writing users, passwords, roles, grants, sessions or API keys refuses API-key calls', () => {
    const all = endpoints(ts.app.routes);
    const writes = credentialWrites(all, ts.model).filter((e) => !PUBLIC_AUTH.has(e.id));
    expect(writes.filter((e) => !e.credentials).map((e) => e.id)).toEqual([]);
    // The walk finds the generated, named-call and custom ones.
    const ids = writes.map((e) => e.id);
    for (const id of ['PUT /api/usuario/:id', 'POST /api/usuario', 'DELETE /api/usuario/:id', 'POST /api/usuario/:id/desativa', 'POST /api/usuario/vincula_empresa',
      'PUT /api/adm/cad/usuario/:id', 'POST /api/cargo', 'PUT /api/cargo/:id', 'POST /api/permissao', 'POST /api/chave_de_api', 'POST /api/chave_de_api/:id/revoga',
      'POST /api/sessao/:id/elimina', 'POST /api/adm/sessao/elimina/:id', 'PUT /api/usuario/perfil', 'PUT /api/usuario', 'POST /api/auth/empresa/:id']) {
      expect(ids, id).toContain(id);
    }
    // Public sign-in routes take no API key (they read only a token or a password): still existing routes.
    expect([...PUBLIC_AUTH].filter((id) => !all.some((e) => e.id === id))).toEqual([]);
    // Ordinary registers are not flagged (the refusal is targeted).
    expect(all.filter((e) => e.credentials && (e.id === 'POST /api/ativo' || e.id === 'POST /api/garagem'))).toEqual([]);
  });

  it('the walk finds a credentials write without the flag', () => {
    const app = new Hono<AppEnv>();
    route(app, 'put', '/api/usuario/:id', { permission: ['adm.sis.usuario.editar'], scope: 'ambiente', credentials: true }, (c) => c.text('ok'));
    route(app, 'post', '/api/cargo/:id/copia', { permission: ['adm.sis.cargo.adicionar'], scope: 'empresa' }, (c) => c.text('x'));
    route(app, 'get', '/api/usuario/:id', { permission: ['adm.sis.usuario.visualizar'], scope: 'ambiente' }, (c) => c.text('x'));
    route(app, 'post', '/api/ativo', { permission: ['tlm.fro.ativo.adicionar'], scope: 'empresa' }, (c) => c.text('x'));
    const found = credentialWrites(endpoints(app.routes), ts.model).map((e) => [e.id, e.credentials]);
    expect(found).toEqual([['PUT /api/usuario/:id', true], ['POST /api/cargo/:id/copia', false]]);
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
