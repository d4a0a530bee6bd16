// Envelope {status, msg, payload, errorMsg} for named calls and errors.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface Envelope<T = unknown> { status: number; msg: string; payload: T; errorMsg: string | null }

export function ok<T>(c: Context, payload: T, msg = 'OK', status: ContentfulStatusCode = 200) {
  return c.json({ status, msg, payload, errorMsg: null } satisfies Envelope<T>, status);
}

export function fail(c: Context, status: ContentfulStatusCode, msg: string, payload: unknown = null, errorMsg?: string) {
  return c.json({ status, msg, payload, errorMsg: errorMsg ?? msg } satisfies Envelope, status);
}

/** Thrown anywhere in a handler; the app's error handler turns it into the envelope. */
export class HttpError extends Error {
  constructor(public status: ContentfulStatusCode, msg: string, public payload: unknown = null, public errorMsg?: string) {
    super(msg);
  }
}

export const badRequest = (msg: string, payload: unknown = null) => new HttpError(400, msg, payload);
export const forbidden = (msg = 'Você não tem permissão para fazer isso') => new HttpError(403, msg);
export const notFound = (msg = 'Registro não encontrado') => new HttpError(404, msg);
export const unauthorized = (msg = 'Sessão inválida ou expirada') => new HttpError(401, msg);
