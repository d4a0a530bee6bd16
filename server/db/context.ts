// Process-wide ORM handle (set by the app factory) and the request's entity manager.
import type { Context } from 'hono';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { AppEnv } from '../app/env.ts';

let current: MikroORM | undefined;
export function setOrm(orm: MikroORM): void { current = orm; }
export function getOrm(): MikroORM {
  if (!current) throw new Error('ORM not initialised');
  return current;
}

/** The request's entity manager (its own identity map), forked on first use: forking costs more than a whole read
 *  of the engine, which only needs the connection (bench:api). The app's ORM (c.get('orm')), else the process's. */
export function requestEm(c: Context<AppEnv>): EntityManager {
  let em = c.get('em');
  if (!em) {
    em = (c.get('orm') ?? getOrm()).em.fork();
    c.set('em', em);
  }
  return em;
}

/** The request's side of the database for reads that need no identity map (the read engine, the session lookup):
 *  the request's fork when one exists, else the ORM's root manager — the same connection pool and metadata, without
 *  forking. Only for getConnection()/metadata: MikroORM refuses entity operations on the global context. */
export function requestDb(c: Context<AppEnv>): EntityManager {
  return c.get('em') ?? (c.get('orm') ?? getOrm()).em;
}
