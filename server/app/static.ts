// The built front end (vite outDir) served as a product: hashed assets (/assets/*) with their build-time .br/.gz
// picked by Accept-Encoding and cached for a year (immutable); anything else, and the history-mode fallback
// index.html, revalidated on every load (no-cache + ETag). Files are read once and kept in memory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context, MiddlewareHandler } from 'hono';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8', '.json': 'application/json; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
};
export const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Variant { body: Uint8Array; encoding?: 'br' | 'gzip' }
interface File { type: string; etag: string; variants: Variant[]; immutable: boolean; mtimeMs: number }

/** Which encodings the client accepts (q=0 refuses). */
function accepted(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
}

export function staticFiles(distDir: string): { assets: MiddlewareHandler; index: (c: Context) => Response | Promise<Response> } {
  const root = path.resolve(distDir);
  const cache = new Map<string, File>();

  const load = (rel: string): File | null => {
    const full = path.join(root, rel);
    const hit = cache.get(rel);
    // Hashed assets never change; other files (index.html) are re-read after a new build.
    if (hit && (hit.immutable || fs.statSync(full, { throwIfNoEntry: false })?.mtimeMs === hit.mtimeMs)) return hit;
    let file: File | null = null;
    // Only regular files inside the output folder; no dotfiles, no precompressed copies asked for directly.
    if (full.startsWith(root + path.sep) && !/(^|[\\/])\./.test(rel) && !/\.(br|gz)$/.test(rel)) {
      try {
        const st = fs.statSync(full);
        if (st.isFile()) {
          const body = fs.readFileSync(full);
          const variants: Variant[] = [];
          for (const [ext, encoding] of [['.br', 'br'], ['.gz', 'gzip']] as const) {
            try { variants.push({ body: fs.readFileSync(full + ext), encoding }); } catch { /* not precompressed */ }
          }
          variants.push({ body });
          file = {
            type: TYPES[path.extname(full).toLowerCase()] ?? 'application/octet-stream',
            etag: `"${crypto.createHash('sha1').update(body).digest('base64url')}"`,
            variants,
            immutable: rel.startsWith(`assets${path.sep}`),
            mtimeMs: st.mtimeMs,
          };
        }
      } catch { /* missing */ }
    }
    // Missing files are not remembered (a build may add them); found ones are (hashed names never change).
    if (file) cache.set(rel, file);
    return file;
  };

  const send = (c: Context, f: File): Response => {
    const ok = accepted(c.req.header('accept-encoding'));
    const v = f.variants.find((x) => !x.encoding || ok.has(x.encoding))!;
    const headers: Record<string, string> = {
      'Content-Type': f.type, 'Cache-Control': f.immutable ? IMMUTABLE : 'no-cache', ETag: f.etag, 'Content-Length': String(v.body.byteLength),
    };
    if (f.variants.length > 1) headers.Vary = 'Accept-Encoding';
    if (v.encoding) headers['Content-Encoding'] = v.encoding;
    if (!f.immutable && c.req.header('if-none-match') === f.etag) return c.body(null, 304, { 'Cache-Control': 'no-cache', ETag: f.etag });
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(v.body as Uint8Array<ArrayBuffer>, 200, headers);
  };

  return {
    assets: async (c, next) => {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
      let rel: string;
      try { rel = path.normalize(decodeURIComponent(c.req.path)).replace(/^[\\/]+/, ''); } catch { return next(); }
      if (!rel || rel.includes('\0') || rel === 'index.html') return next();
      const f = load(rel);
      if (!f) {
        // A missing hashed asset is a 404, never the HTML page (a stale tab would parse HTML as JavaScript).
        if (rel.startsWith(`assets${path.sep}`)) return c.text('Arquivo não encontrado', 404, { 'Cache-Control': 'no-cache' });
        return next();
      }
      return send(c, f);
    },
    index: (c) => {
      const f = fs.existsSync(path.join(root, 'index.html')) ? load('index.html') : null;
      if (!f) {
        return c.html('<!doctype html><meta charset="utf-8"><title>Rastro</title><p>Front end não compilado: execute <code>npm run build</code>.</p>', 503);
      }
      return send(c, f);
    },
  };
}
