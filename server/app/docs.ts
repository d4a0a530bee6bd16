// GET /api/openapi.json (the generated document) and /api/docs (a self-contained HTML viewer): both need a
// session and show only the operations the caller may use (like /api/meta).
import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import type { Model } from '../../shared/model.ts';
import type { AppEnv } from './env.ts';
import { generatedDir } from '../core/registry.ts';
import { sessionFromCookie } from '../auth/middleware.ts';
import { route } from '../core/pipeline.ts';
import { can } from '../auth/users.ts';

/** OpenAPI paths of hand-written calls (server/calls/*.ts declare theirs with documentCalls), added to the generated
 *  document. An operation of a 'self' route (the caller's own session or data) says `x-self: true`. */
const callPaths: Record<string, Record<string, unknown>> = {};
export function documentCalls(paths: Record<string, Record<string, unknown>>): void {
  for (const [p, item] of Object.entries(paths)) callPaths[p] = { ...(callPaths[p] ?? {}), ...item };
}
const withCalls = new WeakMap<object, Record<string, any>>();
function withCallPaths(doc: Record<string, any>): Record<string, any> {
  let out = withCalls.get(doc);
  if (!out) { out = { ...doc, paths: { ...(doc.paths ?? {}), ...callPaths } }; withCalls.set(doc, out); }
  return out;
}

/** Minimal OpenAPI 3.1 document from the model, used only when the generated one is missing. */
export function fallbackOpenapi(model: Model): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of model.entities) {
    const tag = e.label.plural;
    paths[`/api/${e.key}`] = {
      get: { tags: [tag], summary: `Listar ${e.label.plural}`, operationId: `${e.permission}.lista` },
      ...(e.readOnlyResource ? {} : { post: { tags: [tag], summary: `Adicionar ${e.label.singular}`, operationId: `${e.permission}.adicionar` } }),
    };
    paths[`/api/${e.key}/{id}`] = {
      get: { tags: [tag], summary: `Visualizar ${e.label.singular}`, operationId: `${e.permission}.visualizar` },
      ...(e.readOnlyResource ? {} : {
        put: { tags: [tag], summary: `Editar ${e.label.singular}`, operationId: `${e.permission}.editar` },
        delete: { tags: [tag], summary: `Excluir ${e.label.singular}`, operationId: `${e.permission}.excluir` },
      }),
    };
    paths[`/api/${e.key}/export`] = { get: { tags: [tag], summary: `Exportar ${e.label.plural} (csv, xlsx)`, 'x-permission': `${e.permission}.lista` } };
    paths[`/api/${e.key}/{id}/historico`] = { get: { tags: [tag], summary: 'Histórico de alterações', 'x-permission': `${e.permission}.visualizar` } };
    for (const a of e.actions) paths[`/api/${e.key}/{id}/${a.name}`] = { post: { tags: [tag], summary: a.label, operationId: a.permission } };
  }
  return { openapi: '3.1.0', info: { title: 'Rastro API', version: '0.1.0' }, paths };
}

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (m) => `&#${m.charCodeAt(0)};`);

export function docsHtml(doc: Record<string, any>): string {
  const groups = new Map<string, string[]>();
  for (const [p, ops] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!op || typeof op !== 'object' || !['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const tag = op.tags?.[0] ?? 'Geral';
      const line = `<li><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(p)}</code> — ${esc(op.summary ?? op.operationId ?? '')}${op.operationId ? ` <small>(${esc(op.operationId)})</small>` : ''}</li>`;
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push(line);
    }
  }
  const sections = [...groups.entries()].sort((a, b) => a[0].localeCompare(b[0]))
    .map(([tag, lines]) => `<details open><summary>${esc(tag)}</summary><ul>${lines.join('')}</ul></details>`).join('');
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${esc(doc.info?.title ?? 'API')} — documentação</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}summary{font-weight:600;font-size:1.1rem;cursor:pointer;margin:.6rem 0}
ul{list-style:none;padding-left:1rem}li{margin:.2rem 0}.m{display:inline-block;width:4.2rem;font:600 .8rem monospace;color:#fff;text-align:center;border-radius:3px;padding:1px 0}
.get{background:#2e7d32}.post{background:#1565c0}.put{background:#ef6c00}.patch{background:#6a1b9a}.delete{background:#c62828}small{color:#666}</style></head>
<body><h1>${esc(doc.info?.title ?? 'API')} <small>${esc(doc.info?.version ?? '')}</small></h1>
<p>Documento OpenAPI: <a href="/api/openapi.json">/api/openapi.json</a>. Autenticação: <code>Authorization: Bearer {token}</code> (POST /api/auth/login); escritas exigem o cabeçalho <code>companyId</code>.</p>
${sections}</body></html>`;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Permission keys of an operation, any one of which opens it: x-permissions (providers), x-permission (generated
 *  document) or operationId (fallback document). */
const permissionsOf = (op: Record<string, any>): string[] => {
  const keys = op['x-permissions'] ?? op['x-permission'] ?? op.operationId;
  return Array.isArray(keys) ? keys : typeof keys === 'string' ? [keys] : [];
};

/**
 * The document reduced to the operations allowed by `may`: an operation without a permission key is dropped
 * (fail closed); tags and component schemas nobody references any more are dropped too.
 */
export function openapiFor(doc: Record<string, any>, may: (key: string) => boolean, extra: Map<string, string[]> = new Map()): Record<string, any> {
  const paths: Record<string, any> = {};
  for (const [p, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, any>>)) {
    const kept: Record<string, any> = {};
    // Keys every operation of the path needs besides its own (nested routes: the parent's, its tabs').
    const needs = extra.get(p) ?? [];
    if (!needs.every(may)) continue;
    for (const [k, op] of Object.entries(item)) {
      if (!METHODS.includes(k)) continue;
      // The caller's copy names, as x-permission, the key the caller holds.
      const key = op && typeof op === 'object' ? permissionsOf(op).find(may) : undefined;
      if (key) kept[k] = op['x-permission'] === undefined || op['x-permission'] === key ? op : { ...op, 'x-permission': key };
      else if (op && typeof op === 'object' && op['x-self'] === true && !op['x-permission'] && !op['x-permissions']) kept[k] = op;
    }
    if (!Object.keys(kept).length) continue;
    for (const [k, v] of Object.entries(item)) if (!METHODS.includes(k)) kept[k] = v; // parameters, summary, ...
    paths[p] = kept;
  }
  const out: Record<string, any> = { ...doc, paths };
  const schemas = doc.components?.schemas as Record<string, unknown> | undefined;
  if (schemas) {
    // Schemas reachable from the kept paths (and from reachable schemas, responses, parameters).
    const used = new Set<string>();
    const seen = new Set<unknown>();
    const walk = (v: unknown) => {
      if (!v || typeof v !== 'object' || seen.has(v)) return;
      seen.add(v);
      if (Array.isArray(v)) { v.forEach(walk); return; }
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string') {
          const m = /^#\/components\/(\w+)\/(.+)$/.exec(x);
          if (m) {
            if (m[1] === 'schemas') used.add(m[2]);
            walk(doc.components?.[m[1]]?.[m[2]]);
          }
        } else walk(x);
      }
    };
    walk(paths);
    out.components = { ...doc.components, schemas: Object.fromEntries(Object.entries(schemas).filter(([k]) => used.has(k))) };
  }
  if (Array.isArray(doc.tags)) {
    const tags = new Set(Object.values(paths).flatMap((item) => Object.values(item as Record<string, any>).flatMap((op) => (op && Array.isArray(op.tags) ? op.tags : []))));
    out.tags = doc.tags.filter((t: { name?: string }) => t && tags.has(t.name));
  }
  return out;
}

/** The keys a nested route (server/crud/nested.ts) requires besides its operation's own, by OpenAPI path:
 *  the parent's visualizar and the keys of the parent's record tabs that show the list (parent.tabKeys). */
export function nestedKeys(model: Model): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of model.entities) {
    if (!e.parent) continue;
    const base = `/api/${e.parent.api.replace(':parent', '{parent}')}`;
    const keys = [`${e.parent.permission}.visualizar`, ...(e.parent.tabKeys ?? [])];
    out.set(base, keys);
    out.set(`${base}/{id}`, keys);
  }
  return out;
}

/** The docs page has an inline <style> and nothing else. */
const DOCS_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function docsRoutes(model: Model, openapi?: Record<string, unknown>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  let cached: { file: string; mtimeMs: number; doc: Record<string, any> } | undefined;
  const load = (): Record<string, any> => {
    if (openapi) return openapi;
    const file = path.join(generatedDir(), 'openapi.json');
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) return fallbackOpenapi(model);
    if (cached?.file !== file || cached.mtimeMs !== st.mtimeMs) cached = { file, mtimeMs: st.mtimeMs, doc: JSON.parse(fs.readFileSync(file, 'utf8')) };
    return cached.doc;
  };
  // Opened in a browser tab there is no bearer header: the front end's token cookie identifies the session.
  const fromCookie = sessionFromCookie();
  const nested = nestedKeys(model);
  const mine = (c: import('hono').Context<AppEnv>) => { const s = c.get('session'); return openapiFor(withCallPaths(load()), (k) => can(s, k), nested); };
  app.get('/openapi.json', fromCookie);
  app.get('/docs', fromCookie);
  route(app, 'get', '/openapi.json', { permission: 'self', scope: 'ambiente' }, (c) => c.json(mine(c)));
  route(app, 'get', '/docs', { permission: 'self', scope: 'ambiente' }, (c) => {
    c.header('Content-Security-Policy', DOCS_POLICY);
    return c.html(docsHtml(mine(c)));
  });
  return app;
}
