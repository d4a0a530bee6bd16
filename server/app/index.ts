// The Hono application: /api (auth, named calls, generated CRUD routes), the built front end, errors.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { DriverException, ValidationError } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Model } from '../../shared/model.ts';
import type { AppEnv } from './env.ts';
import { authRoutes, sessaoRoutes, type AuthOptions } from '../auth/routes.ts';
import { setOrm } from '../db/context.ts';
import { staleSessionRetry } from '../auth/middleware.ts';
import { setRuntime } from '../core/registry.ts';
import { HttpError } from '../http/envelope.ts';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../db/unavailable.ts';
import { bodyLimits, calls } from '../calls/index.ts';
import { docsRoutes } from './docs.ts';
import { hasBody, inputGuard } from '../http/input-guard.ts';
import { securityHeaders, type SecurityHeaders } from '../http/security-headers.ts';
import { staticFiles } from './static.ts';
import { invalidationsSent } from '../auth/invalidation-bus.ts';
import { storageFromEnv, type Storage } from '../uploads/storage.ts';
import { MSG_SIZE, uploadBodyLimit } from '../calls/upload.ts';

export interface AppOptions {
  orm: MikroORM;
  model: Model;
  routes: { key: string; app: Hono<AppEnv> }[];
  schemas?: Record<string, Record<string, unknown>>;
  openapi?: Record<string, unknown>;
  log: Logger;
  distDir?: string;
  bodyLimitBytes?: number;
  auth?: Partial<AuthOptions>;
  /** Generated dir (schemas/, openapi.json); default server/generated. */
  generatedDir?: string;
  /** Uploaded files (default: storageFromEnv of DATA_DIR). */
  storage?: Storage;
}

export function errorBody(status: number, msg: string, payload: unknown = null, errorMsg?: string) {
  return { status, msg, payload, errorMsg: errorMsg ?? msg };
}

const nodeHeaders = new WeakMap<object, SecurityHeaders['node']>();
/** The app's protective headers as a Node 'request' listener to put ahead of the app (server/app/start.ts). */
export const securityHeadersListener = (app: Hono<AppEnv>) => nodeHeaders.get(app);

export function createApp(o: AppOptions): Hono<AppEnv> {
  setOrm(o.orm);
  setRuntime({ model: o.model, schemas: o.schemas ?? {}, dir: o.generatedDir });
  const limit = o.bodyLimitBytes ?? Number(process.env.BODY_LIMIT_BYTES ?? 1024 * 1024);
  const storage = o.storage ?? storageFromEnv(process.env.DATA_DIR ?? 'data');
  const app = new Hono<AppEnv>();

  const headers = securityHeaders();
  nodeHeaders.set(app, headers.node);
  app.use('*', headers);
  app.use('/api/*', async (c, next) => {
    const t0 = performance.now();
    c.set('log', o.log);
    c.set('orm', o.orm);
    c.set('storage', storage);
    await next();
    // A change that ends or alters sessions is counted on the Redis bus before its answer leaves (no-op otherwise).
    const sent = invalidationsSent();
    if (sent) await sent;
    o.log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - t0) }, 'req');
  });
  app.use('/api/*', staleSessionRetry((req, env) => app.fetch(req, env)));
  const tooLarge = (msg: string) => (c: Context) => {
    // The rest of the body is not read: close the connection.
    c.header('Connection', 'close');
    return c.json(errorBody(413, msg, { file: '', path: '' }), 413);
  };
  const jsonLimit = bodyLimit({ maxSize: limit, onError: tooLarge(`O corpo da requisição excede o limite de ${Math.round(limit / 1024)} KB`) });
  // Multipart uploads: 10 MB per file (server/calls/upload.ts checks each file again).
  const uploadLimits = new Map(['/api/upload/single/', '/api/upload/many/'].map((p) => [p, bodyLimit({ maxSize: uploadBodyLimit(p), onError: tooLarge(MSG_SIZE) })]));
  // The modules' uploads (contract server/core/module.ts: bodyLimits), e.g. spreadsheets to import, firmware files.
  const moduleLimits = bodyLimits.map((l) => ({ match: l.match, limit: bodyLimit({ maxSize: l.maxSize, onError: tooLarge(l.message) }) }));
  // GET and HEAD carry no body here (the adapter drops it): no need to build the full Request to look for one.
  app.use('/api/*', (c, next) => {
    if (!hasBody(c.req.method)) return next();
    const upload = c.req.method === 'POST' ? [...uploadLimits].find(([p]) => c.req.path.startsWith(p))?.[1] : undefined;
    return (upload ?? moduleLimits.find((l) => l.match(c))?.limit ?? jsonLimit)(c, next);
  });
  // NUL bytes and deep JSON: 400 before any handler parses or recurses.
  app.use('/api/*', inputGuard());

  const api = new Hono<AppEnv>();
  api.route('/auth', authRoutes({ log: o.log, ...o.auth }));
  api.route('/adm/sessao', sessaoRoutes());
  api.route('/', docsRoutes(o.model, o.openapi));
  for (const register of calls) register(api);
  for (const r of o.routes) api.route(`/${r.key}`, r.app);
  api.all('*', (c) => c.json(errorBody(404, 'Rota não encontrada'), 404));
  app.route('/api', api);

  // Built front end (vite outDir): precompressed hashed assets cached for a year, index.html revalidated;
  // history-mode fallback (server/app/static.ts).
  const front = staticFiles(o.distDir ?? process.env.DIST_DIR ?? 'dist');
  app.use('*', front.assets);
  app.get('*', front.index);

  app.onError((err, c) => {
    if (err instanceof HttpError) return c.json(errorBody(err.status, err.message, err.payload, err.errorMsg), err.status);
    if (err instanceof HTTPException) {
      const status = err.status;
      return c.json(errorBody(status, status === 413 ? 'O corpo da requisição excede o limite' : err.message || 'Requisição inválida'), status);
    }
    if (err instanceof SyntaxError) return c.json(errorBody(400, 'Requisição inválida: JSON malformado'), 400);
    if (err instanceof ValidationError) return c.json(errorBody(400, 'Dados inválidos', null, err.message), 400);
    if (err instanceof DriverException) {
      const code = (err as unknown as { code?: string }).code ?? '';
      // Data errors from PostgreSQL (class 22: invalid text, out of range, ...) are the client's fault.
      if (code.startsWith('22')) return c.json(errorBody(400, 'Valor inválido para o tipo do campo'), 400);
    }
    if (isDatabaseUnavailable(err)) {
      o.log.warn({ err: (err as Error).message, path: c.req.path }, 'banco de dados indisponível');
      c.header('Retry-After', '5');
      return c.json(errorBody(503, DATABASE_UNAVAILABLE), 503);
    }
    o.log.error({ err, path: c.req.path }, 'erro não tratado');
    return c.json(errorBody(500, 'Erro interno do servidor'), 500);
  });
  return app;
}
