// Named calls of a register (metadata `calls`, spec section 7, e.g. /adm/cad/pais): the entity's own routes
// (same pipeline: session → permission key → company scope, same validation and history) mounted again below
// /api{calls}, whose JSON answers are wrapped in the envelope {status, msg, payload, errorMsg}. Errors already are.
import { Hono } from 'hono';
import type { EntityMeta } from '../../shared/model.ts';
import type { AppEnv } from '../app/env.ts';
import type { Envelope } from '../http/envelope.ts';
import { crudRoutes } from './routes.ts';

export function namedRoutes(entity: EntityMeta): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    await next();
    const res = c.res;
    if (res.status >= 400 || !res.headers.get('content-type')?.startsWith('application/json')) return;
    const payload = await res.json();
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    c.res = undefined as never; // Hono: a new response replaces the one read
    c.res = new Response(JSON.stringify({ status: res.status, msg: 'OK', payload, errorMsg: null } satisfies Envelope), { status: res.status, headers });
  });
  app.route('/', crudRoutes(entity));
  return app;
}
