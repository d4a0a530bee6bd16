// Whether an error means the database cannot be reached right now (stopped, restarting, network cut, pool
// exhausted while connecting) — a 503 the client may retry, not a 500 bug. Checks the error and its causes.

/** SQLSTATE classes/codes of an unreachable or restarting server: 08 connection exception, 57P01–57P03
 *  (admin/crash shutdown, cannot connect now), 53300 too many connections. */
const SQLSTATE = /^(08...|57P0[1-3]|53300)$/;
const NODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNABORTED']);
const MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i, /connection is closed|Connection is closed/];

export const DATABASE_UNAVAILABLE = 'O banco de dados está indisponível no momento. Tente novamente em instantes.';

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (SQLSTATE.test(code) || NODE.has(code)) return true;
    if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e!.message as string))) return true;
    // AggregateError (e.g. a connect to several addresses)
    if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x))) return true;
  }
  return false;
}
