// Bug tracking, the client's half (spec sections 7 and 8): every error the signed-in user's browser meets goes to
// POST /api/bugtrack/report with its route, browser and stack (company and user come from the session) — window
// errors, unhandled promise rejections, errors caught by React error boundaries (createRoot's onCaughtError /
// onUncaughtError), script chunks that fail or take longer than the chunk time-out (ChunkLoadError) and stylesheet
// chunks that fail (CSS_CHUNK_LOAD_FAILED). The server de-duplicates by fingerprint; here the same error is sent at
// most once a minute and a page sends at most MAX_PER_PAGE reports (the server also limits each session).
// No react-admin here (main.tsx installs it before the sign-in page, which loads without react-admin).
import { getToken } from './cookie';

export type BugTipo = 'erro' | 'rejeicao' | 'componente' | 'chunk' | 'css_chunk';
export interface BugReport { tipo: BugTipo; mensagem: string; stack?: string | null; rota?: string; navegador?: string }

/** Spec section 9: script chunk time-out 120 seconds. */
export const CHUNK_TIMEOUT_MS = 120_000;
export const MAX_PER_PAGE = 50;
const REPEAT_MS = 60_000;

const sent = new Map<string, number>();
let count = 0;
let send = (r: BugReport) => {
  const h = { Authorization: `Bearer ${getToken()}`, 'Content-Type': 'application/json' };
  void fetch('/api/bugtrack/report', { method: 'POST', headers: h, body: JSON.stringify(r), keepalive: true }).catch(() => undefined);
};
/** Tests replace the transport. */
export function setBugSender(fn: (r: BugReport) => void) { send = fn; }

/** Error kinds of the error catalogue (section 8) a thrown value may carry. */
export function tipoOf(err: unknown, fallback: BugTipo): BugTipo {
  const e = err as { name?: string; code?: string } | null;
  if (e?.code === 'CSS_CHUNK_LOAD_FAILED') return 'css_chunk';
  if (e?.name === 'ChunkLoadError') return 'chunk';
  return fallback;
}

const describeErr = (err: unknown): { mensagem: string; stack: string | null } => {
  if (err instanceof Error) return { mensagem: `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`.slice(0, 500), stack: err.stack ?? null };
  if (typeof err === 'string') return { mensagem: err.slice(0, 500), stack: null };
  try { return { mensagem: JSON.stringify(err)?.slice(0, 500) ?? String(err), stack: null }; } catch { return { mensagem: String(err), stack: null }; }
};

/** Reports one error (signed-in users only; nothing without a session). */
export function reportBug(tipo: BugTipo, err: unknown, extraStack?: string | null): void {
  if (!getToken() || count >= MAX_PER_PAGE) return;
  const { mensagem, stack } = describeErr(err);
  if (!mensagem) return;
  const kind = tipoOf(err, tipo);
  const k = `${kind}|${mensagem}`;
  const now = Date.now();
  if ((sent.get(k) ?? 0) > now - REPEAT_MS) return;
  sent.set(k, now);
  count++;
  const full = [stack, extraStack ? `Componentes:${extraStack}` : null].filter(Boolean).join('\n') || null;
  send({ tipo: kind, mensagem, stack: full?.slice(0, 8000) ?? null, rota: `${location.pathname}${location.search}`.slice(0, 500), navegador: navigator.userAgent.slice(0, 400) });
}

/** ChunkLoadError (webpack's name, kept by the error catalogue): a script chunk that failed or timed out. */
export function chunkLoadError(what: string, cause?: unknown, timeout = false): Error {
  const e = new Error(`Loading chunk ${what} failed.${timeout ? ` (timeout: ${CHUNK_TIMEOUT_MS / 1000} s)` : ''}`);
  e.name = 'ChunkLoadError';
  (e as Error & { cause?: unknown }).cause = cause;
  return e;
}

/** CSS_CHUNK_LOAD_FAILED: a stylesheet chunk that failed to load. */
export function cssChunkError(href: string): Error {
  const e = new Error(`Loading CSS chunk ${href} failed.`) as Error & { code: string; request: string };
  e.code = 'CSS_CHUNK_LOAD_FAILED';
  e.request = href;
  return e;
}

const FAILED_IMPORT = /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i;

/** A lazy screen's loader with the chunk time-out: a failed or late chunk becomes ChunkLoadError (reported), a module
 *  without a default export 'Cannot find module' (the catalogue's missing lazy module). */
export function chunk<T>(load: () => Promise<{ default: T }>, what = 'tela', timeoutMs = CHUNK_TIMEOUT_MS): () => Promise<{ default: T }> {
  return () => new Promise((resolve, reject) => {
    const timer = setTimeout(() => { const e = chunkLoadError(what, undefined, true); reportBug('chunk', e); reject(e); }, timeoutMs);
    load().then((m) => {
      clearTimeout(timer);
      if (!m || m.default === undefined) { const e = new Error(`Cannot find module '${what}'`); reportBug('erro', e); reject(e); return; }
      resolve(m);
    }, (err) => {
      clearTimeout(timer);
      const e = err instanceof Error && FAILED_IMPORT.test(err.message) ? chunkLoadError(what, err) : err;
      reportBug('chunk', e);
      reject(e);
    });
  });
}

let installed = false;
/** Window errors, unhandled rejections and stylesheet chunks (Vite's vite:preloadError): installed once by main.tsx. */
export function installBugReporter(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (ev) => {
    // a resource (img, script) that failed to load raises an error event without an error object: not a bug here
    if (!ev.error && !ev.message) return;
    reportBug('erro', ev.error ?? ev.message);
  });
  window.addEventListener('unhandledrejection', (ev) => reportBug('rejeicao', ev.reason));
  window.addEventListener('vite:preloadError', (ev) => {
    const err = (ev as Event & { payload?: unknown }).payload;
    const m = err instanceof Error ? /^Unable to preload CSS for (.+)$/.exec(err.message) : null;
    if (m) {
      // a page without its stylesheet still works: report CSS_CHUNK_LOAD_FAILED and let the script load
      ev.preventDefault();
      reportBug('css_chunk', cssChunkError(m[1]));
    }
  });
}

/** createRoot's error options: errors React error boundaries caught (react-admin's among them) and uncaught ones. */
export const rootErrorOptions = {
  onCaughtError: (error: unknown, info: { componentStack?: string }) => reportBug('componente', error, info.componentStack),
  onUncaughtError: (error: unknown, info: { componentStack?: string }) => reportBug('componente', error, info.componentStack),
};
