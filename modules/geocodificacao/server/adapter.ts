// Reverse geocoding: a Nominatim-compatible provider (GEOCODER_URL, e.g. https://nominatim.openstreetmap.org) behind a
// queue that keeps Nominatim's policy (one request per second by default), with a timeout; without a provider, or
// when it fails, times out or the queue is full, the nearest municipality and UF (offline, municipios.ts).
import { municipioLabel } from './municipios.ts';

export type Fonte = 'provedor' | 'municipio';
export interface Endereco { endereco: string; fonte: Fonte }

export interface GeocoderOptions {
  /** Base URL of a Nominatim-compatible service (its /reverse is called); none = offline. */
  url?: string;
  /** Per request (ms). */
  timeoutMs?: number;
  /** Minimum time between two requests (ms): 1000 = Nominatim's 1 request per second. */
  minIntervalMs?: number;
  /** Requests waiting at most; more answer the municipality at once. */
  maxQueue?: number;
  userAgent?: string;
  fetch?: typeof fetch;
}

export const geocoderOptionsFromEnv = (env = process.env): GeocoderOptions => ({
  url: env.GEOCODER_URL || undefined,
  timeoutMs: Number(env.GEOCODER_TIMEOUT_MS ?? 5000),
  minIntervalMs: Number(env.GEOCODER_MIN_INTERVAL_MS ?? 1000),
  userAgent: env.GEOCODER_USER_AGENT ?? 'Rastro/0.1 (rastreamento de frotas)',
});

interface NominatimAnswer {
  display_name?: string;
  address?: Record<string, string>;
}

/** 'Rua X, 123 - Bairro, Cidade/UF' from a Nominatim answer (its display_name when the parts are missing). */
export function formatAnswer(a: NominatimAnswer): string | undefined {
  const ad = a.address ?? {};
  const street = [ad.road ?? ad.pedestrian ?? ad.highway, ad.house_number].filter(Boolean).join(', ');
  const district = ad.suburb ?? ad.neighbourhood ?? ad.quarter;
  const city = ad.city ?? ad.town ?? ad.village ?? ad.municipality ?? ad.hamlet;
  const uf = /^BR-([A-Z]{2})$/.exec(ad['ISO3166-2-lvl4'] ?? '')?.[1];
  const place = city ? (uf ? `${city}/${uf}` : city) : undefined;
  const parts = [street && district ? `${street} - ${district}` : street || district, place].filter(Boolean);
  return parts.length ? parts.join(', ') : a.display_name || undefined;
}

export interface Geocoder {
  readonly online: boolean;
  /** The provider's address, else the municipality (never throws). */
  reverse(lat: number, lon: number): Promise<Endereco>;
  /** Requests sent to the provider so far. */
  readonly sent: number;
}

export function offlineAddress(lat: number, lon: number): Endereco {
  return { endereco: municipioLabel(lat, lon) ?? `${lat.toFixed(6)}, ${lon.toFixed(6)}`, fonte: 'municipio' };
}

export function createGeocoder(o: GeocoderOptions = {}): Geocoder {
  const timeoutMs = o.timeoutMs ?? 5000, gap = o.minIntervalMs ?? 1000, maxQueue = o.maxQueue ?? 200;
  const doFetch = o.fetch ?? fetch;
  let chain: Promise<unknown> = Promise.resolve();
  let nextAt = 0, waiting = 0, sent = 0;

  async function ask(lat: number, lon: number): Promise<string | undefined> {
    const u = new URL('reverse', o.url!.endsWith('/') ? o.url : `${o.url}/`);
    u.search = new URLSearchParams({ format: 'jsonv2', lat: String(lat), lon: String(lon), zoom: '18', addressdetails: '1' }).toString();
    sent++;
    const r = await doFetch(u, {
      headers: { 'User-Agent': o.userAgent ?? 'Rastro', 'Accept-Language': 'pt-BR' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!r.ok) return undefined;
    return formatAnswer((await r.json()) as NominatimAnswer);
  }

  return {
    online: !!o.url,
    get sent() { return sent; },
    async reverse(lat, lon) {
      if (!o.url || waiting >= maxQueue) return offlineAddress(lat, lon);
      waiting++;
      // one at a time, `gap` ms apart (the gap counts from each request's start)
      const turn = chain.then(async () => {
        const wait = nextAt - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        nextAt = Date.now() + gap;
        try { return await ask(lat, lon); } catch { return undefined; }
      });
      chain = turn.catch(() => undefined);
      try {
        const text = await turn;
        return text ? { endereco: text, fonte: 'provedor' } : offlineAddress(lat, lon);
      } finally { waiting--; }
    },
  };
}
