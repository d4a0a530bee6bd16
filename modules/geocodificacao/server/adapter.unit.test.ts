// The reverse-geocoding adapter against a local Nominatim double (node:http): the answer's address, the cache
// (a hit makes no second request), Nominatim's rate limit (requests >= the gap apart), timeout/errors → municipality.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeocoder, formatAnswer } from './adapter.ts';
import { Resolver, type Exec } from './resolver.ts';

let server: http.Server;
let url: string;
const hits: { at: number; lat: string; lon: string; ua?: string }[] = [];
let delayMs = 0;
let status = 200;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    hits.push({ at: Date.now(), lat: u.searchParams.get('lat')!, lon: u.searchParams.get('lon')!, ua: req.headers['user-agent'] });
    setTimeout(() => {
      if (status !== 200) { res.writeHead(status).end('{}'); return; }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        display_name: 'Praça da Sé, Sé, São Paulo, Região Metropolitana de São Paulo, São Paulo, Brasil',
        address: { road: 'Praça da Sé', house_number: '10', suburb: 'Sé', city: 'São Paulo', state: 'São Paulo', 'ISO3166-2-lvl4': 'BR-SP', country_code: 'br' },
      }));
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** An in-memory telemetria.endereco for the resolver (the SQL it runs, by its shape). */
function memoryCache() {
  const rows = new Map<string, { empresa: number; endereco: string; fonte: string }>();
  const key = (lat: unknown, lon: unknown) => `${Math.round(Number(lat) * 1000)}|${Math.round(Number(lon) * 1000)}`;
  const calls: string[] = [];
  const exec: Exec = async (sql, p) => {
    calls.push(sql);
    // the resolver's claims: a new point's row (DO NOTHING), a municipality's retry (taken as older than RETRY_MS)
    if (sql.includes('DO NOTHING RETURNING')) {
      const k = `${p[0]}|${key(p[1], p[2])}`;
      if (rows.has(k)) return [];
      rows.set(k, { empresa: Number(p[0]), endereco: String(p[3]), fonte: 'municipio' });
      return [{ ok: 1 }];
    }
    if (sql.startsWith('UPDATE telemetria.endereco')) {
      const r = rows.get(`${p[2]}|${key(p[0], p[1])}`);
      return r?.fonte === 'municipio' ? [{ ok: 1 }] : [];
    }
    if (sql.startsWith('INSERT')) { rows.set(`${p[0]}|${key(p[1], p[2])}`, { empresa: Number(p[0]), endereco: String(p[3]), fonte: String(p[4]) }); return []; }
    if (sql.includes("g.fonte = 'provedor' LIMIT 1")) return [...rows.entries()].filter(([k, v]) => k.endsWith(`|${key(p[0], p[1])}`) && v.fonte === 'provedor').map(([, v]) => v);
    if (sql.includes('FROM telemetria.ultimo_estado')) return [];
    const r = rows.get(`${p[2]}|${key(p[0], p[1])}`);
    return r ? [r] : [];
  };
  return { rows, exec, calls };
}

describe('reverse-geocoding adapter', () => {
  it('formats the provider answer as street, number - district, city/UF', () => {
    expect(formatAnswer({ address: { road: 'Av. Paulista', house_number: '1000', suburb: 'Bela Vista', city: 'São Paulo', 'ISO3166-2-lvl4': 'BR-SP' } }))
      .toBe('Av. Paulista, 1000 - Bela Vista, São Paulo/SP');
    expect(formatAnswer({ display_name: 'Algum lugar' })).toBe('Algum lugar');
  });

  it('asks the provider once per point: a cache hit, also of another company, makes no second request', async () => {
    hits.length = 0;
    const g = createGeocoder({ url, minIntervalMs: 0, timeoutMs: 2000, userAgent: 'Rastro-teste' });
    const cache = memoryCache();
    const r = new Resolver(cache.exec, g);
    const a = await r.resolve({ empresa: 1, lat: -23.5504, lon: -46.6334 });
    expect(a).toEqual({ endereco: 'Praça da Sé, 10 - Sé, São Paulo/SP', fonte: 'provedor' });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ lat: '-23.5504', lon: '-46.6334', ua: 'Rastro-teste' });
    // same point (rounded to 3 decimals: ~110 m) for the same company and for another one
    expect(await r.resolve({ empresa: 1, lat: -23.55043, lon: -46.63337 })).toEqual(a);
    expect(await r.resolve({ empresa: 2, lat: -23.5504, lon: -46.6334 })).toEqual(a);
    expect(hits).toHaveLength(1);
    expect(cache.rows.size).toBe(2);
  });

  it("keeps Nominatim's rate limit: one request per interval, queued", async () => {
    hits.length = 0;
    const sentAt: number[] = [];
    const timed: typeof fetch = (input, init) => { sentAt.push(performance.now()); return fetch(input, init); };
    const g = createGeocoder({ url, minIntervalMs: 300, timeoutMs: 2000, fetch: timed });
    const answers = await Promise.all([0, 1, 2, 3].map((i) => g.reverse(-23.5 - i * 0.01, -46.6)));
    expect(answers.every((x) => x.fonte === 'provedor')).toBe(true);
    expect(hits).toHaveLength(4);
    expect(hits.map((h) => h.lat)).toEqual(['-23.5', '-23.51', '-23.52', '-23.53']);
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i] - sentAt[i - 1]).toBeGreaterThanOrEqual(295);
    expect(g.sent).toBe(4);
  });

  it('falls back to the nearest municipality on a timeout, an error, a full queue and without a provider', async () => {
    delayMs = 800;
    const slow = createGeocoder({ url, minIntervalMs: 0, timeoutMs: 200 });
    const t0 = Date.now();
    expect(await slow.reverse(-23.5505, -46.6333)).toEqual({ endereco: 'São Paulo/SP', fonte: 'municipio' });
    expect(Date.now() - t0).toBeLessThan(700);
    delayMs = 0;
    status = 500;
    expect(await createGeocoder({ url, minIntervalMs: 0 }).reverse(-22.9068, -43.1729)).toEqual({ endereco: 'Rio de Janeiro/RJ', fonte: 'municipio' });
    status = 200;
    const full = createGeocoder({ url, minIntervalMs: 200, maxQueue: 1 });
    const [first, second] = await Promise.all([full.reverse(-23.5505, -46.6333), full.reverse(-15.7939, -47.8828)]);
    expect(first.fonte).toBe('provedor');
    expect(second).toEqual({ endereco: 'Brasília/DF', fonte: 'municipio' });
    hits.length = 0;
    const offline = createGeocoder({});
    expect(offline.online).toBe(false);
    expect(await offline.reverse(-30.0346, -51.2177)).toEqual({ endereco: 'Porto Alegre/RS', fonte: 'municipio' });
    expect(hits).toHaveLength(0);
  });

  it('the resolver writes the municipality for pending points at once and the provider answer after', async () => {
    hits.length = 0;
    const cache = memoryCache();
    const offline = new Resolver(cache.exec, createGeocoder({}));
    offline.enqueue({ empresa: 3, lat: -22.9056, lon: -47.0608 });
    await offline.tick();
    expect([...cache.rows.values()]).toEqual([{ empresa: 3, endereco: 'Campinas/SP', fonte: 'municipio' }]);
    const online = new Resolver(cache.exec, createGeocoder({ url, minIntervalMs: 0 }));
    online.enqueue({ empresa: 3, lat: -22.9056, lon: -47.0608 });
    await online.tick();
    expect([...cache.rows.values()]).toEqual([{ empresa: 3, endereco: 'Praça da Sé, 10 - Sé, São Paulo/SP', fonte: 'provedor' }]);
    expect(hits).toHaveLength(1);
  });

  it('runs no timer: a pass at start, then only when the bus names serials or a point is enqueued', async () => {
    const cache = memoryCache();
    const r = new Resolver(cache.exec, createGeocoder({}));
    let bus: ((m: { serials: string[] | null }) => void) | undefined;
    const job = r.start((fn) => { bus = fn; return () => { bus = undefined; }; }, 20);
    const passes = () => cache.calls.filter((c) => c.includes('FROM telemetria.ultimo_estado')).length;
    await new Promise((res) => setTimeout(res, 50));
    expect(passes()).toBe(1);
    expect(cache.calls.filter((c) => c.includes('FROM telemetria.ultimo_estado'))[0]).not.toContain('u.serial IN');
    await new Promise((res) => setTimeout(res, 300));
    expect(passes()).toBe(1);
    bus!({ serials: ['861', '862'] });
    bus!({ serials: ['863'] });
    await new Promise((res) => setTimeout(res, 150));
    expect(passes()).toBe(2);
    const last = cache.calls.filter((c) => c.includes('FROM telemetria.ultimo_estado')).at(-1)!;
    expect(last).toContain('u.serial IN (SELECT jsonb_array_elements_text(');
    r.enqueue({ empresa: 3, lat: -22.9056, lon: -47.0608 });
    await expect.poll(() => [...cache.rows.values()]).toEqual([{ empresa: 3, endereco: 'Campinas/SP', fonte: 'municipio' }]);
    await job.stop();
    expect(bus).toBeUndefined();
  });
});
