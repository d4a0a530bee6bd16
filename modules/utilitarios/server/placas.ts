// Vehicle data by plate (GET /api/wkd/adm/api_placas/consulta/{placa}) through a configurable provider:
// PLACAS_URL (a template with {placa}, or a base the plate is appended to; unset = not configured: 503),
// PLACAS_TOKEN (sent as 'Authorization: Bearer …' and replacing {token} in the URL), PLACAS_TIMEOUT_MS (default 5000),
// PLACAS_CACHE_TTL_MS (default 24 h). The provider's JSON is read by the usual Brazilian plate-API names, upper or
// lower case (MARCA/marca, MODELO, ano, anoModelo, cor, municipio, uf, situacao, chassi). Plates: ABC1234 (old) and
// ABC1D23 (Mercosul), a hyphen and lower case accepted. No offline source exists for plates.
import { TtlCache, fillUrl } from './cache.ts';

export interface Veiculo {
  placa: string; formato: 'antigo' | 'mercosul'; marca: string; modelo: string; ano: string; anoModelo: string; cor: string;
  municipio: string; uf: string; situacao: string; chassi: string;
}

export const PLACA_INVALIDA = 'Placa inválida: use o formato ABC1234 ou ABC1D23 (Mercosul)';
export const PLACA_NAO_ENCONTRADA = 'Placa não encontrada';
export const PLACAS_SEM_PROVEDOR = 'Consulta de placas não configurada (PLACAS_URL)';
export const PLACAS_INDISPONIVEL = 'O serviço de consulta de placas não respondeu; tente de novo em instantes';

/** 'abc-1d23' → { placa: 'ABC1D23', formato: 'mercosul' }; null when neither format. */
export function normalizePlaca(raw: string): { placa: string; formato: Veiculo['formato'] } | null {
  const p = raw.trim().toUpperCase().replace(/-/g, '');
  if (/^[A-Z]{3}\d{4}$/.test(p)) return { placa: p, formato: 'antigo' };
  if (/^[A-Z]{3}\d[A-Z]\d{2}$/.test(p)) return { placa: p, formato: 'mercosul' };
  return null;
}

export interface PlacasOptions { url?: string; token?: string; timeoutMs?: number; ttlMs?: number; fetch?: typeof fetch }
export const placasOptionsFromEnv = (env = process.env): PlacasOptions => ({
  url: env.PLACAS_URL || undefined, token: env.PLACAS_TOKEN || undefined,
  timeoutMs: Number(env.PLACAS_TIMEOUT_MS ?? 5000), ttlMs: Number(env.PLACAS_CACHE_TTL_MS ?? 24 * 3600_000),
});

export class PlacasError extends Error { constructor(public status: 400 | 404 | 502 | 503, msg: string) { super(msg); } }

/** A field of the answer by any of its usual names (case-insensitive), as text. */
function pick(j: Record<string, unknown>, ...names: string[]): string {
  const lower = new Map(Object.entries(j).map(([k, v]) => [k.toLowerCase(), v]));
  for (const n of names) {
    const v = lower.get(n.toLowerCase());
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (typeof v === 'number') return String(v);
  }
  return '';
}

export interface PlacasAdapter { consulta(placa: string): Promise<Veiculo>; readonly sent: number }

export function createPlacasAdapter(o: PlacasOptions): PlacasAdapter {
  const cache = new TtlCache<Veiculo>(o.ttlMs ?? 24 * 3600_000);
  const doFetch = o.fetch ?? fetch;
  let sent = 0;
  return {
    get sent() { return sent; },
    async consulta(raw) {
      const n = normalizePlaca(raw);
      if (!n) throw new PlacasError(400, PLACA_INVALIDA);
      const hit = cache.get(n.placa);
      if (hit) return hit;
      if (!o.url) throw new PlacasError(503, PLACAS_SEM_PROVEDOR);
      let url = fillUrl(o.url, 'placa', n.placa);
      if (o.token) url = url.replaceAll('{token}', encodeURIComponent(o.token));
      sent++;
      let r: Response;
      let j: Record<string, unknown>;
      try {
        r = await doFetch(url, { headers: { accept: 'application/json', ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) }, signal: AbortSignal.timeout(o.timeoutMs ?? 5000) });
        if (r.status === 404) throw new PlacasError(404, PLACA_NAO_ENCONTRADA);
        if (!r.ok) throw new PlacasError(502, PLACAS_INDISPONIVEL);
        j = (await r.json()) as Record<string, unknown>;
      } catch (e) {
        if (e instanceof PlacasError) throw e;
        throw new PlacasError(502, PLACAS_INDISPONIVEL);
      }
      if (!j || typeof j !== 'object' || Array.isArray(j)) throw new PlacasError(502, PLACAS_INDISPONIVEL);
      const marca = pick(j, 'marca', 'MARCA'), modelo = pick(j, 'modelo', 'MODELO');
      if (!marca && !modelo) throw new PlacasError(404, PLACA_NAO_ENCONTRADA);
      const v: Veiculo = {
        placa: n.placa, formato: n.formato, marca, modelo,
        ano: pick(j, 'ano', 'anoFabricacao', 'ano_fabricacao'), anoModelo: pick(j, 'anoModelo', 'ano_modelo'), cor: pick(j, 'cor'),
        municipio: pick(j, 'municipio', 'cidade'), uf: pick(j, 'uf').toUpperCase(), situacao: pick(j, 'situacao'),
        chassi: pick(j, 'chassi'),
      };
      cache.set(n.placa, v);
      return v;
    },
  };
}
