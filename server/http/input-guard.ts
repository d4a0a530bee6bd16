// Refuses hostile input before any handler (or anything recursive) sees it: NUL bytes anywhere in the URL,
// header values or body (PostgreSQL rejects them in text), and JSON nested deeper than a bound.
import type { MiddlewareHandler } from 'hono';
import { HttpError } from './envelope.ts';
import { header, headerValues } from './headers.ts';

export const MSG_MEDIA_TYPE = 'Tipo de conteúdo não suportado: envie o corpo da requisição como JSON (Content-Type: application/json)';
export const MSG_NUL = 'Requisição inválida: caractere nulo (\\u0000) não é permitido';
export const msgDepth = (max: number) => `Requisição inválida: JSON aninhado demais (máximo de ${max} níveis)`;

export interface InputGuardOptions {
  /** Deepest nesting of arrays/objects accepted in a JSON body or JSON query parameter. */
  maxDepth?: number;
}

/**
 * Linear scan of JSON text (no recursion, no parse): answers 'nul' when a string holds a NUL (raw or \u0000
 * escape), 'depth' when nesting exceeds maxDepth, null otherwise. Malformed JSON is left to JSON.parse.
 */
export function scanJson(text: string, maxDepth: number): 'nul' | 'depth' | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0) return 'nul';
    if (inString) {
      if (ch === 0x5c /* \ */) {
        // \u0000 (any case of the hex digits is fine: only zeros matter)
        if (text.charCodeAt(i + 1) === 0x75 /* u */ && text.startsWith('0000', i + 2)) return 'nul';
        i++; // skip the escaped character
      } else if (ch === 0x22 /* " */) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) { if (++depth > maxDepth) return 'depth'; }
    else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) depth--;
  }
  return null;
}

/** Percent-decodes leniently (a malformed escape stays as is). */
function decode(s: string): string {
  try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; }
}

/** application/json or a +json type (e.g. application/merge-patch+json), parameters aside. */
export function isJsonType(contentType: string | undefined): boolean {
  const t = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return t === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(t);
}

/** Whether a request of this method may carry a body (the Node adapter gives GET and HEAD none). */
export const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD';

const bad = (msg: string) => new HttpError(400, msg);

export function inputGuard(o: InputGuardOptions = {}): MiddlewareHandler {
  const maxDepth = o.maxDepth ?? Number(process.env.JSON_MAX_DEPTH ?? 64);
  const check = (r: ReturnType<typeof scanJson>) => {
    if (r === 'nul') throw bad(MSG_NUL);
    if (r === 'depth') throw bad(msgDepth(maxDepth));
  };
  // Not async: a request without a body goes on without an extra promise.
  return (c, next) => {
    const url = c.req.url;
    if (url.includes('\0') || /%00/i.test(url)) throw bad(MSG_NUL);
    // Query values: filter/sort/range/columns are JSON (a NUL may hide in a \u0000 escape).
    const q = url.indexOf('?');
    if (q >= 0) {
      for (const part of url.slice(q + 1).split('&')) {
        const eq = part.indexOf('=');
        if (eq >= 0) check(scanJson(decode(part.slice(eq + 1)), maxDepth));
      }
    }
    for (const v of headerValues(c)) if (v.includes('\0')) throw bad(MSG_NUL);
    // Multipart bodies are the uploads (server/calls/upload.ts): binary content, checked there by its magic bytes.
    const multipart = () => (header(c, 'content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
    if (hasBody(c.req.method) && c.req.raw.body && !multipart()) {
      // Every other body of this API is JSON, and only a JSON media type is read as JSON: text/plain and form bodies
      // are "simple" cross-site requests (no CORS preflight), so refusing them also keeps forged forms out. An empty
      // body goes on whatever its type (ra-data-simple-rest's DELETE says text/plain). The text is cached by Hono
      // for the handler's c.req.json().
      return c.req.text().then((text) => {
        if (text.length && !isJsonType(header(c, 'content-type'))) throw new HttpError(415, MSG_MEDIA_TYPE);
        check(scanJson(text, maxDepth));
        return next();
      });
    }
    return next();
  };
}
