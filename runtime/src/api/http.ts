// The shared client of spec section 7: bearer token, companyId on writes, 300000 ms timeout,
// slow-request report, pt-BR error envelope turned into react-admin's HttpError.
import { HttpError } from 'react-admin';
import { clearToken, getToken } from './cookie';
import { session } from './session';

export const REQUEST_TIMEOUT_MS = 300_000;
export const SLOW_REQUEST_MS = 10_000;
const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface Envelope<T = unknown> { status?: number | string; msg?: string; errorMsg?: string; payload?: T }

let onUnauthorized: () => void = () => {
  if (location.pathname !== '/login') location.assign('/login');
};
export function setUnauthorizedHandler(fn: () => void) {
  onUnauthorized = fn;
}
// A 401 that says why the session ended (someone else ended it: payload.motivo) goes here instead, so the
// 'Sessão terminada' dialog shows even when this answer arrives before the realtime push.
let onSessionEnded: ((motivo: string) => void) | undefined;
export function setSessionEndedHandler(fn: ((motivo: string) => void) | undefined) {
  onSessionEnded = fn;
}
/** The reason a 401's body gives for an ended session, if any. */
export const endedReason = (body: unknown): string | undefined => {
  const m = (body as { payload?: { motivo?: unknown } } | undefined)?.payload?.motivo;
  return typeof m === 'string' ? m : undefined;
};

export function authHeaders(method = 'GET'): Headers {
  const h = new Headers();
  const token = getToken();
  if (token) h.set('Authorization', `Bearer ${token}`);
  const empresa = session.get()?.empresaAtiva;
  if (WRITE.has(method.toUpperCase()) && empresa != null) h.set('companyId', String(empresa));
  return h;
}

// Field errors from the server's payload, whatever list/object shape it uses -> { field: message }.
export function fieldErrors(payload: unknown, msg?: string): Record<string, string> {
  const out: Record<string, string> = {};
  // a single { field } (e.g. a unique conflict) takes the envelope message
  if (payload && typeof payload === 'object' && !Array.isArray(payload) && typeof (payload as any).field === 'string') {
    const p = payload as any;
    const m = p.message ?? p.msg ?? msg;
    return m ? { [p.field]: String(m) } : {};
  }
  const list = Array.isArray(payload) ? payload : Array.isArray((payload as any)?.errors) ? (payload as any).errors : null;
  if (list) {
    for (const e of list) {
      if (!e || typeof e !== 'object') continue;
      const raw = e.field ?? e.campo ?? e.name ?? e.path ?? e.instancePath ?? e.property;
      const field = typeof raw === 'string' ? raw.replace(/^[./]+/, '').split(/[./]/)[0] : undefined;
      const msg = e.message ?? e.msg ?? e.mensagem;
      if (field && msg) out[field] = String(msg);
    }
  } else if (payload && typeof payload === 'object') {
    for (const [k, v] of Object.entries(payload as any)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export function errorMessage(body: Envelope | undefined, status: number): string {
  if (body?.errorMsg && body?.payload && typeof body.payload === 'string') return `${body.errorMsg}: ${body.payload}`;
  return body?.msg || body?.errorMsg || `Erro ${status}`;
}

let reportSlow = (info: Record<string, unknown>) => {
  void fetch('/api/request_time', {
    method: 'POST',
    headers: (() => {
      const h = authHeaders('POST');
      h.set('Content-Type', 'application/json');
      return h;
    })(),
    body: JSON.stringify(info),
  }).catch(() => undefined);
};
export function setSlowReporter(fn: typeof reportSlow) {
  reportSlow = fn;
}

export interface HttpResult { status: number; headers: Headers; body: string; json: any }

export async function httpClient(url: string, options: RequestInit = {}): Promise<HttpResult> {
  const method = (options.method ?? 'GET').toUpperCase();
  const headers = authHeaders(method);
  new Headers(options.headers).forEach((v, k) => headers.set(k, v));
  if (options.body && typeof options.body === 'string' && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, { ...options, method, headers, signal: options.signal ?? controller.signal });
  } catch (e) {
    throw new HttpError(controller.signal.aborted ? 'Tempo de requisição esgotado' : 'Sem conexão com o servidor', 0);
  } finally {
    clearTimeout(timer);
  }
  const duracao = performance.now() - started;
  if (duracao > SLOW_REQUEST_MS && !url.includes('/api/request_time')) {
    reportSlow({ duracao: Math.round(duracao), url, method, parametros: typeof options.body === 'string' ? options.body : null, idEmpresa: session.get()?.empresaAtiva ?? null });
  }
  const body = await res.text();
  let json: any;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status === 401) {
    clearToken();
    session.set(null);
    const motivo = endedReason(json);
    if (motivo && onSessionEnded) onSessionEnded(motivo);
    else if (!url.includes('/api/auth/login')) onUnauthorized();
  }
  if (res.status < 200 || res.status >= 300) {
    const fe = fieldErrors(json?.payload, json?.msg);
    // react-admin puts body.errors on the form fields (server-side validation).
    throw new HttpError(errorMessage(json, res.status), res.status, { ...json, errors: fe });
  }
  return { status: res.status, headers: res.headers, body, json };
}

// Named calls answer the envelope; returns payload.
export async function call<T = any>(path: string, init: RequestInit = {}): Promise<T> {
  const { json } = await httpClient(path.startsWith('/api') ? path : `/api${path}`, init);
  return (json && typeof json === 'object' && 'payload' in json ? json.payload : json) as T;
}
