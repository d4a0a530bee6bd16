// Protective headers on every response: Content-Security-Policy (pages: what the SPA needs; API: nothing),
// nosniff, Referrer-Policy, framing refused, API answers never cached, HSTS behind HTTPS.
import type { IncomingMessage, ServerResponse } from 'node:http';
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

/** What marks a Node request whose answer already carries the headers (securityHeaders().node). */
const SECURED = Symbol.for('rastro.securityHeaders');

export type SecurityHeaders = MiddlewareHandler & {
  /** The same headers set on Node's response before the app runs (a 'request' listener put ahead of the app's):
   *  the answer's own headers take precedence (Node merges setHeader under writeHead), as the middleware's
   *  "unless the handler set one" does, without building the Fetch Headers of every answer (bench:api). The
   *  middleware then leaves that request alone. */
  node: (req: IncomingMessage, res: ServerResponse) => void;
};

export function securityHeaders(o: SecurityHeadersOptions = {}): SecurityHeaders {
  const page = pagePolicy({ ...o, connectSrc: o.connectSrc ?? process.env.CSP_CONNECT_SRC });
  const isApi = (path: string) => path === '/api' || path.startsWith('/api/');
  const isHttps = (forwarded: string | undefined) => forwarded?.split(',')[0].trim() === 'https';
  /** Every header as [name, value, only when the answer has none]. */
  const list = (api: boolean, https: boolean): [string, string, boolean][] => [
    // A handler may set a narrower-or-different policy of its own (e.g. /api/docs).
    ['Content-Security-Policy', api ? API_POLICY : page, true],
    ['X-Content-Type-Options', 'nosniff', false],
    // Origin only across sites: tile servers (OpenStreetMap's policy) want a Referer, paths and queries never leave.
    ['Referrer-Policy', 'strict-origin-when-cross-origin', false],
    ['X-Frame-Options', 'DENY', false],
    ['Cross-Origin-Opener-Policy', 'same-origin', false],
    ...(api ? [['Cache-Control', 'no-store', true] as [string, string, boolean]] : []),
    // Behind HTTPS (directly or via a proxy): browsers keep to HTTPS. Ignored by browsers over plain HTTP.
    ...(https ? [['Strict-Transport-Security', 'max-age=31536000', false] as [string, string, boolean]] : []),
  ];
  const mw: MiddlewareHandler = async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage & { [SECURED]?: boolean } } | undefined)?.incoming;
    if (incoming?.[SECURED]) return next();
    await next();
    const h = c.res.headers;
    for (const [name, value, unlessSet] of list(isApi(c.req.path), c.req.url.startsWith('https:') || isHttps(header(c, 'x-forwarded-proto')))) {
      if (!unlessSet || !h.has(name)) h.set(name, value);
    }
  };
  const node = (req: IncomingMessage & { [SECURED]?: boolean }, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const forwarded = req.headers['x-forwarded-proto'];
    const https = !!(req.socket as { encrypted?: boolean }).encrypted || isHttps(Array.isArray(forwarded) ? forwarded[0] : forwarded);
    for (const [name, value] of list(isApi(q < 0 ? url : url.slice(0, q)), https)) res.setHeader(name, value);
    req[SECURED] = true;
  };
  return Object.assign(mw, { node });
}
