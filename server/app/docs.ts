// GET /api/openapi.json (the generated document) and /api/docs (a self-contained HTML viewer).
import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import type { Model } from '../../generator/model.ts';
import type { AppEnv } from './env.ts';
import { generatedDir } from '../crud/registry.ts';

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
    paths[`/api/${e.key}/export`] = { get: { tags: [tag], summary: `Exportar ${e.label.plural} (csv, xlsx)` } };
    paths[`/api/${e.key}/{id}/historico`] = { get: { tags: [tag], summary: 'Histórico de alterações' } };
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

export function docsRoutes(model: Model, openapi?: Record<string, unknown>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const load = () => {
    if (openapi) return openapi;
    const file = path.join(generatedDir(), 'openapi.json');
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : fallbackOpenapi(model);
  };
  app.get('/openapi.json', (c) => c.json(load()));
  app.get('/docs', (c) => c.html(docsHtml(load())));
  return app;
}
