// Superlógica's billing API (financeiro v2) for the platform's own billing of its customer companies:
// base SUPERLOGICA_URL (default https://api.superlogica.net/v2/financeiro), headers app_token (SUPERLOGICA_APP_TOKEN)
// and access_token (SUPERLOGICA_ACCESS_TOKEN), a timeout (SUPERLOGICA_TIMEOUT_MS, default 8000) and a short cache
// (SUPERLOGICA_CACHE_TTL_MS, default 60 s) per request URL. The contract read:
//   GET /clientes?pagina=&itensPorPagina=                       clients (id_sacado_sac, st_nome_sac, st_cgc_sac, …)
//   GET /cobranca?status=pendentes|liquidadas|canceladas|todos&pagina=&itensPorPagina=   charges (id_recebimento_recb, vl_total_recb, dt_vencimento_recb MM/DD/YYYY, …)
//   GET /inadimplencia?pagina=&itensPorPagina=                  defaulters: clients with their overdue charges (recebimento[])
//   GET /clientes/adimplentes?pagina=&itensPorPagina=           paid-up clients
// Answers are JSON arrays; Superlógica's error answers ({status:'4xx', msg}) and HTTP errors become pt-BR messages.
// Tokens are never answered nor logged.
import { TtlCacheLite } from './cache.ts';

export interface SuperlogicaOptions { url: string; appToken?: string; accessToken?: string; timeoutMs?: number; ttlMs?: number; fetch?: typeof fetch }
export const superlogicaOptionsFromEnv = (env = process.env): SuperlogicaOptions => ({
  url: env.SUPERLOGICA_URL || 'https://api.superlogica.net/v2/financeiro',
  appToken: env.SUPERLOGICA_APP_TOKEN || undefined, accessToken: env.SUPERLOGICA_ACCESS_TOKEN || undefined,
  timeoutMs: Number(env.SUPERLOGICA_TIMEOUT_MS ?? 8000), ttlMs: Number(env.SUPERLOGICA_CACHE_TTL_MS ?? 60_000),
});

export class SuperlogicaError extends Error { constructor(public status: 502 | 503, msg: string) { super(msg); } }
export const NAO_CONFIGURADA = 'Integração com a Superlógica não configurada (SUPERLOGICA_APP_TOKEN e SUPERLOGICA_ACCESS_TOKEN)';
export const INDISPONIVEL = 'A Superlógica não respondeu; tente de novo em instantes';
export const RECUSADA = 'A Superlógica recusou as credenciais configuradas (app_token/access_token)';

export interface Cliente { id: number; nome: string; nomeFantasia: string; documento: string; email: string; telefone: string; cidade: string; uf: string; ativo: boolean }
export interface Cobranca { id: number; clienteId: number | null; cliente: string; valor: number; vencimento: string | null; liquidacao: string | null; situacao: string; link: string }
export interface Inadimplente { clienteId: number; cliente: string; documento: string; cobrancas: number; valorDevido: number; vencimentoMaisAntigo: string | null }

type Raw = Record<string, unknown>;
const s = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const n = (v: unknown) => { const x = typeof v === 'number' ? v : Number(String(v ?? '').replace(',', '.')); return Number.isFinite(x) ? x : 0; };
const id = (v: unknown) => { const x = Number(v); return Number.isSafeInteger(x) && x > 0 ? x : null; };
/** Superlógica's MM/DD/YYYY (or an ISO date) → YYYY-MM-DD; null when empty. */
export function isoDate(v: unknown): string | null {
  const t = s(v);
  let m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(t);
  if (m) return `${m[3]}-${m[1]}-${m[2]}`;
  m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
const SITUACAO: Record<string, string> = { '0': 'pendente', '1': 'liquidada', '2': 'cancelada' };

export const cliente = (r: Raw): Cliente => ({
  id: id(r.id_sacado_sac) ?? 0, nome: s(r.st_nome_sac), nomeFantasia: s(r.st_nomeref_sac), documento: s(r.st_cgc_sac), email: s(r.st_email_sac),
  telefone: s(r.st_telefone_sac), cidade: s(r.st_cidade_sac), uf: s(r.st_estado_sac).toUpperCase(), ativo: s(r.fl_status_sac) !== '1' && s(r.fl_status_sac) !== '2',
});
export const cobranca = (r: Raw): Cobranca => ({
  id: id(r.id_recebimento_recb) ?? 0, clienteId: id(r.id_sacado_sac), cliente: s(r.st_nome_sac), valor: n(r.vl_total_recb),
  vencimento: isoDate(r.dt_vencimento_recb), liquidacao: isoDate(r.dt_liquidacao_recb), situacao: SITUACAO[s(r.fl_status_recb)] ?? s(r.fl_status_recb),
  link: s(r.link_2via),
});
export function inadimplente(r: Raw): Inadimplente {
  const recs = (Array.isArray(r.recebimento) ? r.recebimento : []) as Raw[];
  const datas = recs.map((x) => isoDate(x.dt_vencimento_recb)).filter((x): x is string => !!x).sort();
  return {
    clienteId: id(r.id_sacado_sac) ?? 0, cliente: s(r.st_nome_sac), documento: s(r.st_cgc_sac), cobrancas: recs.length,
    valorDevido: Math.round(recs.reduce((a, x) => a + n(x.vl_total_recb), 0) * 100) / 100, vencimentoMaisAntigo: datas[0] ?? null,
  };
}

export interface Superlogica {
  readonly configured: boolean;
  readonly sent: number;
  clientes(pagina: number, itens: number): Promise<Cliente[]>;
  cobrancas(status: string, pagina: number, itens: number): Promise<Cobranca[]>;
  inadimplentes(pagina: number, itens: number): Promise<Inadimplente[]>;
  adimplentes(pagina: number, itens: number): Promise<Cliente[]>;
  /** Whether the configured tokens are accepted (one small request, never cached). */
  token(): Promise<{ configurado: boolean; valido: boolean; mensagem: string }>;
}

export function createSuperlogica(o: SuperlogicaOptions): Superlogica {
  const cache = new TtlCacheLite<Raw[]>(o.ttlMs ?? 60_000);
  const doFetch = o.fetch ?? fetch;
  const configured = !!(o.appToken && o.accessToken);
  let sent = 0;
  async function get(path: string, query: Record<string, string | number>, useCache = true): Promise<Raw[]> {
    if (!configured) throw new SuperlogicaError(503, NAO_CONFIGURADA);
    const u = new URL(`${o.url.replace(/\/+$/, '')}${path}`);
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
    const key = u.toString();
    const hit = useCache ? cache.get(key) : undefined;
    if (hit) return hit;
    sent++;
    let body: unknown;
    try {
      const r = await doFetch(u, { headers: { app_token: o.appToken!, access_token: o.accessToken!, 'content-type': 'application/json', accept: 'application/json' }, signal: AbortSignal.timeout(o.timeoutMs ?? 8000) });
      if (r.status === 401 || r.status === 403) throw new SuperlogicaError(502, RECUSADA);
      if (!r.ok) throw new SuperlogicaError(502, INDISPONIVEL);
      body = await r.json();
    } catch (e) {
      if (e instanceof SuperlogicaError) throw e;
      throw new SuperlogicaError(502, INDISPONIVEL);
    }
    // Superlógica answers some errors with 200 and {status: '401', msg}: credentials or a refused request.
    if (body && !Array.isArray(body) && typeof body === 'object') {
      const st = s((body as Raw).status);
      if (st === '401' || st === '403') throw new SuperlogicaError(502, RECUSADA);
      if (st && st !== '200') throw new SuperlogicaError(502, INDISPONIVEL);
      body = Array.isArray((body as Raw).data) ? (body as Raw).data : [];
    }
    const rows = (Array.isArray(body) ? body : []).filter((x): x is Raw => !!x && typeof x === 'object');
    if (useCache) cache.set(key, rows);
    return rows;
  }
  return {
    configured,
    get sent() { return sent; },
    clientes: async (pagina, itens) => (await get('/clientes', { pagina, itensPorPagina: itens })).map(cliente),
    cobrancas: async (status, pagina, itens) => (await get('/cobranca', { status, pagina, itensPorPagina: itens })).map(cobranca),
    inadimplentes: async (pagina, itens) => (await get('/inadimplencia', { pagina, itensPorPagina: itens })).map(inadimplente),
    adimplentes: async (pagina, itens) => (await get('/clientes/adimplentes', { pagina, itensPorPagina: itens })).map(cliente),
    async token() {
      if (!configured) return { configurado: false, valido: false, mensagem: NAO_CONFIGURADA };
      try {
        await get('/clientes', { pagina: 1, itensPorPagina: 1 }, false);
        return { configurado: true, valido: true, mensagem: 'Credenciais aceitas pela Superlógica' };
      } catch (e) {
        return { configurado: true, valido: false, mensagem: (e as Error).message };
      }
    },
  };
}
