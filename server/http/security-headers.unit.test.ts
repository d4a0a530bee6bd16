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
