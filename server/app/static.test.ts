// Front end delivery: precompressed hashed assets by Accept-Encoding with immutable caching; HTML no-cache.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { IMMUTABLE, staticFiles } from './static.ts';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-static-'));
const js = `export const x = ${JSON.stringify('Rastro '.repeat(400))};\n`;
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'assets/app-AbC123.js'), js);
fs.writeFileSync(path.join(dist, 'assets/app-AbC123.js.br'), brotliCompressSync(js));
fs.writeFileSync(path.join(dist, 'assets/app-AbC123.js.gz'), gzipSync(js));
fs.writeFileSync(path.join(dist, 'assets/plain-Z9.css'), 'body{margin:0}');
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Rastro</title><div id="root"></div>');
fs.writeFileSync(path.join(dist, '.secret'), 'no');
fs.writeFileSync(path.join(os.tmpdir(), 'outside.txt'), 'no');

const front = staticFiles(dist);
const app = new Hono();
app.use('*', front.assets);
app.get('*', front.index);
const get = (p: string, h: Record<string, string> = {}) => app.request(p, { headers: h });
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

describe('hashed assets', () => {
  it('brotli when accepted, else gzip, else the plain file; a year of immutable cache; Vary', async () => {
    const br = await get('/assets/app-AbC123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('content-length'))).toBe(brBody.length);
    expect(brBody.length).toBeLessThan(js.length / 10);
    expect(brotliDecompressSync(brBody).toString()).toBe(js);

    const gz = await get('/assets/app-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(js);

    const refused = await get('/assets/app-AbC123.js', { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
    expect(refused.headers.get('content-encoding')).toBe('gzip');

    const plain = await get('/assets/app-AbC123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(js);
    expect(plain.headers.get('cache-control')).toBe(IMMUTABLE);
  });

  it('a file without compressed copies is served as is, without Vary', async () => {
    const r = await get('/assets/plain-Z9.css', { 'accept-encoding': 'br, gzip' });
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(r.headers.get('vary')).toBeNull();
    expect(r.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await r.text()).toBe('body{margin:0}');
  });

  it('a missing asset is 404 (never the HTML page); the compressed copies, dotfiles and paths outside are not served', async () => {
    const miss = await get('/assets/gone-000.js');
    expect(miss.status).toBe(404);
    expect(miss.headers.get('content-type')).not.toContain('html');
    expect((await get('/assets/app-AbC123.js.br')).status).toBe(404);
    for (const p of ['/.secret', '/../outside.txt', '/%2e%2e/outside.txt', '/assets/..%2f..%2foutside.txt']) {
      const r = await get(p);
      const body = await r.text();
      expect(body).not.toBe('no');
    }
  });
});

describe('index.html', () => {
  it('no-cache with an ETag (304 when unchanged), also as the history-mode fallback', async () => {
    const r = await get('/tlm/fro/ativo', { 'accept-encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await r.text()).toContain('<div id="root">');
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/login', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect((await get('/index.html')).headers.get('cache-control')).toBe('no-cache');
  });

  it('a new build is picked up (the page is re-read when the file changes)', async () => {
    const before = await (await get('/')).text();
    const file = path.join(dist, 'index.html');
    const { mtimeMs } = fs.statSync(file);
    fs.writeFileSync(file, '<!doctype html><title>Rastro 2</title>');
    // a new build has a newer mtime: set it, rather than count on the clock having moved since the first write
    fs.utimesSync(file, new Date(), new Date(mtimeMs + 1000));
    const after = await (await get('/')).text();
    expect(before).toContain('<title>Rastro</title>');
    expect(after).toContain('Rastro 2');
  });
});
