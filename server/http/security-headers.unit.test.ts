import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { API_POLICY, pagePolicy, securityHeaders, tileSource } from './security-headers.ts';

describe('tileSource', () => {
  it('takes scheme and host of the template, {s} subdomains as a wildcard', () => {
    expect(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://tile.openstreetmap.org');
    expect(tileSource('https://{s}.tile.example.com/{z}/{x}/{y}.png')).toBe('https://*.tile.example.com');
    expect(tileSource('HTTP://tiles.local:8080/{z}/{x}/{y}.png')).toBe('http://tiles.local:8080');
    expect(tileSource('off')).toBe(null);
    expect(tileSource('/tiles/{z}/{x}/{y}.png')).toBe(null);
  });
});

describe('securityHeaders()', () => {
  const app = new Hono();
  app.use('*', securityHeaders({ tileUrl: 'https://{s}.tiles.test/{z}/{x}/{y}.png' }));
  app.get('/api/x', (c) => c.json({ ok: true }));
  app.get('/api/docs', (c) => { c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'"); return c.html('<p>'); });
  app.get('*', (c) => c.html('<!doctype html>'));

  it('pages: the SPA policy with the tile host, framing refused, nosniff, referrer policy', async () => {
    const r = await app.request('/tlm/fro/ativo');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toBe(pagePolicy({ tileUrl: 'https://{s}.tiles.test/{z}/{x}/{y}.png' }));
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self' 'unsafe-eval';"); // no 'unsafe-inline' for scripts
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.test;");
    expect(csp).toContain("media-src 'self' blob:;"); // live video through Media Source Extensions
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('cache-control')).toBe(null);
  });
  it('API: nothing may load, never cached; a handler keeps its own policy', async () => {
    const r = await app.request('/api/x');
    expect(r.headers.get('content-security-policy')).toBe(API_POLICY);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('strict-transport-security')).toBe(null);
    const tls = await app.request('/api/x', { headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const d = await app.request('/api/docs');
    expect(d.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
  });
});

describe('securityHeaders().node', () => {
  it('sets the headers on Node\'s response before the app; the app\'s own header wins; the middleware then stays out', async () => {
    const http = await import('node:http');
    const sec = securityHeaders({ tileUrl: 'off' });
    const app = new Hono<{ Bindings: { incoming: import('node:http').IncomingMessage } }>();
    app.use('*', sec);
    app.get('/api/docs', (c) => { c.header('Content-Security-Policy', "style-src 'unsafe-inline'"); return c.text('d'); });
    app.get('*', (c) => c.text('x'));
    const server = http.createServer(async (req, res) => {
      sec.node(req, res);
      const r = await app.fetch(new Request(`http://x${req.url}`, { headers: req.headers as Record<string, string> }), { incoming: req });
      // as @hono/node-server answers: the Response's headers through writeHead
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(await r.text());
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const api = await fetch(`${base}/api/x?y=1`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(api.headers.get('content-security-policy')).toBe(API_POLICY);
      expect(api.headers.get('cache-control')).toBe('no-store');
      expect(api.headers.get('x-frame-options')).toBe('DENY');
      expect(api.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const page = await fetch(`${base}/tlm/fro/ativo`);
      expect(page.headers.get('content-security-policy')).toBe(pagePolicy({ tileUrl: 'off' }));
      expect(page.headers.get('cache-control')).toBe(null);
      expect(page.headers.get('strict-transport-security')).toBe(null);
      const docs = await fetch(`${base}/api/docs`);
      expect(docs.headers.get('content-security-policy')).toBe("style-src 'unsafe-inline'");
    } finally {
      server.close();
    }
  });
});
