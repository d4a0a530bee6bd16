// Grafana panels through an authenticated proxy (/api/wkd/grafana/…), only when GRAFANA_URL and GRAFANA_TOKEN are
// set (else 404; /config answers { ativo: false } and the screens offer no Grafana widget). The browser never sees
// Grafana's service token (sent here as a bearer header) nor Grafana's address: it asks this server, on the one
// pipeline (session — the <img>'s cookie too —, key rel.ges.paineis, company scope), and the server asks Grafana with
// the caller's active company forced as the dashboard variable `var-empresa` (and headers X-Rastro-Empresa /
// X-Rastro-Usuario), whatever the query said. Only rendered panels (PNG, Grafana's /render/d-solo, which needs the
// grafana-image-renderer plugin) and the dashboard list pass: no data-source query reaches Grafana from the browser,
// so a viewer cannot ask for another company's series. GRAFANA_ORG_ID (optional) picks the organisation.
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { sessionFromCookie } from '../../../server/auth/middleware.ts';
import { badRequest, HttpError, ok } from '../../../server/http/envelope.ts';

const KEY = ['rel.ges.paineis'] as const;
const TIMEOUT_MS = () => Number(process.env.GRAFANA_TIMEOUT_MS ?? 15_000);

interface Config { url: string; token: string; orgId: string | undefined }
/** The configured Grafana, or null (read on each request: tests and operators may set it at start). */
export function grafanaConfig(): Config | null {
  const url = process.env.GRAFANA_URL?.trim().replace(/\/+$/, '');
  const token = process.env.GRAFANA_TOKEN?.trim();
  if (!url || !token) return null;
  return { url, token, orgId: process.env.GRAFANA_ORG_ID?.trim() || undefined };
}

const configured = (): Config => {
  const g = grafanaConfig();
  if (!g) throw new HttpError(404, 'Recurso não encontrado');
  return g;
};

async function ask(c: Context<AppEnv>, g: Config, path: string, query: URLSearchParams): Promise<Response> {
  const s = c.get('session');
  query.set('var-empresa', String(s.empresaAtiva));
  if (g.orgId) query.set('orgId', g.orgId);
  try {
    return await fetch(`${g.url}${path}?${query}`, {
      headers: { Authorization: `Bearer ${g.token}`, 'X-Rastro-Empresa': String(s.empresaAtiva), 'X-Rastro-Usuario': String(s.usuarioId) },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS()),
    });
  } catch {
    throw new HttpError(502, 'O Grafana não respondeu. Tente novamente em instantes.');
  }
}

const TEMPO = /^(now(-\d{1,4}[smhdwMy])?(\/[dwMy])?|\d{10,13})$/;
const int = (v: string | undefined, def: number, min: number, max: number, label: string) => {
  if (v === undefined || v === '') return def;
  if (!/^\d{1,5}$/.test(v) || Number(v) < min || Number(v) > max) throw badRequest(`${label} inválida: use um número de ${min} a ${max}`);
  return Number(v);
};

export function grafanaRoutes(api: Hono<AppEnv>) {
  const spec = { permission: [...KEY], scope: 'empresa' as const };

  // Whether Grafana is configured (the screens offer the widget only then): the one route that answers without it.
  route(api, 'get', '/wkd/grafana/config', spec, async (c) => ok(c, { ativo: grafanaConfig() != null }));

  // The dashboards the service account sees: uid and title (for the widget's picker).
  route(api, 'get', '/wkd/grafana/paineis', spec, async (c) => {
    const g = configured();
    const r = await ask(c, g, '/api/search', new URLSearchParams({ type: 'dash-db', limit: '500' }));
    if (!r.ok) throw new HttpError(502, `O Grafana recusou a consulta dos painéis (HTTP ${r.status})`);
    const list = (await r.json().catch(() => [])) as { uid?: unknown; title?: unknown }[];
    return ok(c, (Array.isArray(list) ? list : []).filter((d) => typeof d.uid === 'string').map((d) => ({ uid: d.uid, titulo: String(d.title ?? d.uid) })));
  });

  // One panel drawn by Grafana (PNG). <img> sends the front end's cookie, not a bearer header.
  api.get('/wkd/grafana/render/:uid/:panel', sessionFromCookie());
  route(api, 'get', '/wkd/grafana/render/:uid/:panel', spec, async (c) => {
    const g = configured();
    const uid = c.req.param('uid') ?? '';
    const panel = c.req.param('panel') ?? '';
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid)) throw badRequest('Identificador do painel inválido');
    if (!/^\d{1,6}$/.test(panel)) throw badRequest('Número do gráfico inválido');
    const from = c.req.query('from') ?? 'now-24h', to = c.req.query('to') ?? 'now';
    if (!TEMPO.test(from) || !TEMPO.test(to)) throw badRequest('Período inválido: use now, now-7d ou um instante em milissegundos');
    const q = new URLSearchParams({
      panelId: panel, from, to,
      width: String(int(c.req.query('width'), 800, 100, 2000, 'Largura')),
      height: String(int(c.req.query('height'), 300, 100, 2000, 'Altura')),
      tz: process.env.FUSO_HORARIO || 'America/Sao_Paulo',
    });
    const r = await ask(c, g, `/render/d-solo/${uid}`, q);
    if (r.status === 404) throw new HttpError(404, 'Painel Grafana não encontrado');
    const type = r.headers.get('content-type') ?? '';
    if (!r.ok || !type.startsWith('image/')) throw new HttpError(502, `O Grafana não desenhou o painel (HTTP ${r.status})`);
    const body = new Uint8Array(await r.arrayBuffer());
    c.header('Content-Type', type);
    c.header('Cache-Control', 'private, max-age=60');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    return c.body(body);
  });
}
