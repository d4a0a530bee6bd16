// The read engine's connections: a pg pool of its own per app, beside the ORM's. A read by id is one statement;
// going through the ORM's query builder layers (Kysely's executor, connection provider and driver, each an async
// step) cost about a tenth of its CPU (bench:api). The connections take the company of the request's context as
// the ORM's do (server/db/rls.ts, reserveClient): their state is remembered per connection of this pool, which
// nothing else uses, so the two pools never disagree about a connection.
import pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { perOrm } from './per-orm.ts';
import { reserveClient } from './rls.ts';

/** A pg pool per app beside the ORM's (the read engine's, the exports' cursors): the ORM's connection settings and
 *  type parsers (values come as the ORM's raw reads give them), `max()` connections, idle ones closed after
 *  `idleTimeoutMillis`; the pool never keeps the process alive. */
export function ownPool(max: () => number, idleTimeoutMillis: number): (em: EntityManager) => pg.Pool {
  const held = perOrm((): { pool?: pg.Pool } => ({}));
  return (em) => {
    const h = held(em);
    if (!h.pool) {
      const conn = em.getConnection() as unknown as { mapOptions(o: object): pg.PoolConfig };
      const pool = new pg.Pool({ ...conn.mapOptions({}), max: max(), idleTimeoutMillis, allowExitOnIdle: true });
      pool.on('error', () => undefined); // an idle connection dropped by the server: the pool discards it
      // A connection that fails while checked out between two statements (the server ended it) emits 'error' with no
      // pool listener attached: without one of its own the process would end. Its next statement fails and drops it.
      pool.on('connect', (client) => { client.on('error', () => undefined); });
      h.pool = pool;
    }
    return h.pool;
  };
}

/** Connections of the read pool (READ_POOL_MAX, default 10); idle ones close after 10 s. */
const poolOf = ownPool(() => Number(process.env.READ_POOL_MAX ?? 10), 10_000);

/** Runs one statement (text or a named, prepared query) in the current context's company and answers its rows. */
export async function readRows<R = Record<string, unknown>>(em: EntityManager, q: string | pg.QueryConfig): Promise<R[]> {
  const client = await poolOf(em).connect();
  let broken: Error | undefined;
  try {
    const set = reserveClient(client);
    if (set) await set;
    return (await client.query(q as pg.QueryConfig)).rows as R[];
  } catch (e) {
    // An error PostgreSQL reported on the statement leaves the connection usable; a FATAL one (the server ends the
    // connection: shutdown, pg_terminate_backend) or anything else (a lost connection) discards it.
    if (!(e instanceof pg.DatabaseError) || e.severity === 'FATAL' || e.severity === 'PANIC') broken = e as Error;
    throw e;
  } finally {
    client.release(broken);
  }
}
