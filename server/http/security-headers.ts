// Protective headers on every response: Content-Security-Policy (pages: what the SPA needs; API: nothing),
// nosniff, Referrer-Policy, framing refused, API answers never cached, HSTS behind HTTPS.
import type { MiddlewareHandler } from 'hono';
import { header } from './headers.ts';

export interface SecurityHeadersOptions {
  /** Map tile URL template (VITE_MAP_TILE_URL); its origin is allowed for images. 'off' = none. */
  tileUrl?: string;
  /** Extra sources for connect-src (e.g. another API origin), space-separated. */
  connectSrc?: string;
}

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** CSP source for a tile URL template: scheme + host, `{s}` subdomains as a wildcard. */
export function tileSource(template: string | undefined): string | null {
  if (!template || template === 'off') return null;
  const m = /^(https?):\/\/([^/?#]+)/i.exec(template);
  if (!m) return null; // relative template: same origin, covered by 'self'
  const host = m[2].replace(/^\{[a-z]+\}\./i, '*.').replace(/\{[a-z]+\}/gi, '*');
  return `${m[1].toLowerCase()}://${host}`;
}

/**
 * Policy of the SPA pages. No inline or foreign scripts. 'unsafe-eval': the JSON-schema forms (rjsf + ajv) compile
 * their validators with new Function at run time (precompiled validators would let it go). MUI/emotion inject
 * <style> elements, hence style-src 'unsafe-inline'.
 */
export function pagePolicy(o: SecurityHeadersOptions = {}): string {
  const tiles = tileSource(o.tileUrl ?? process.env.VITE_MAP_TILE_URL ?? DEFAULT_TILE_URL);
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ''}`,
    "font-src 'self' data:",
    // live video (Media Source Extensions: mpegts.js, hls.js) plays from blob: URLs of the page
    "media-src 'self' blob:",
    // 'self' also matches ws:/wss: of the same host (socket.io at /socket_server).
    `connect-src 'self'${o.connectSrc ? ` ${o.connectSrc}` : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Policy of API answers (JSON, downloads): nothing may load or frame them. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function securityHeaders(o: SecurityHeadersOptions = {}): MiddlewareHandler {
  const page = pagePolicy({ ...o, connectSrc: o.connectSrc ?? process.env.CSP_CONNECT_SRC });
  return async (c, next) => {
    await next();
    const api = c.req.path === '/api' || c.req.path.startsWith('/api/');
    const h = c.res.headers;
    // A handler may set a narrower-or-different policy of its own (e.g. /api/docs).
    if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', api ? API_POLICY : page);
    h.set('X-Content-Type-Options', 'nosniff');
    // Origin only across sites: tile servers (OpenStreetMap's policy) want a Referer, paths and queries never leave.
    h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    h.set('X-Frame-Options', 'DENY');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (api && !h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
    // Behind HTTPS (directly or via a proxy): browsers keep to HTTPS. Ignored by browsers over plain HTTP.
    if (c.req.url.startsWith('https:') || header(c, 'x-forwarded-proto')?.split(',')[0].trim() === 'https') {
      h.set('Strict-Transport-Security', 'max-age=31536000');
    }
  };
}
