// How the session caches of several processes learn about changes that end or alter a session
// (server/auth/session-cache.ts). Two transports, same contract:
//  - pg (default): LISTEN on `rastro_sessao`, fed by database triggers on every committed change (any process,
//    plain SQL too); the counter is the committed `rastro_sessao_versao` the same triggers bump.
//  - redis (REDIS_URL set): the processes publish their own changes (INCR of a counter + PUBLISH, atomically) and
//    subscribe to everyone's; a request that changed something answers only after its publish is counted
//    (invalidationsSent, awaited by server/app/index.ts). Writes outside the app are seen only after the cache TTL.
// Either way a cache hit is trusted only after version() was read (after the request arrived) and found unmoved,
// so a change counted before the request arrived is never missed, whenever its message comes.
import { bounded, listen } from '../db/listen.ts';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export const CHANNEL = 'rastro_sessao';
/** The committed change counter the triggers bump (see the sessao_versao migration); readable by the app role. */
export const VERSION_SQL = 'select "v" from "rastro_sessao_versao" where "id" = 1';
export type InvalidationKind = 's' | 'u' | 'e' | 'c' | '*';

export interface BusHandlers {
  /** An invalidation from some process: kind (session, user, company, cargo, everything) and id. */
  message(kind: string, id: number): void;
  /** (Re)connected: whatever was cached before may have missed messages. */
  up(): void;
  /** Connection lost: the cache must not be used until up() again. */
  down(): void;
}

export interface InvalidationBus {
  readonly kind: 'pg' | 'redis';
  /** The change counter, read now (one round trip): it has moved for every change counted before the call. */
  version(): Promise<string>;
  /** Tells every process (pg: nothing to do, the database triggers did). Resolves once counted. */
  publish(kind: InvalidationKind, id?: number): Promise<void>;
  close(): Promise<void>;
}

export function pgBus(url: string | undefined, h: BusHandlers, log?: Logger): InvalidationBus {
  const l = listen(url, CHANNEL, 'rastro-sessao-listener', {
    message: (payload) => { const [kind, id] = payload.split(':'); h.message(kind!, Number(id)); },
    up: h.up,
    down: h.down,
    lost: (err) => log?.warn({ err }, 'cache de sessões: conexão LISTEN perdida; cache desligado até reconectar'),
  });
  return {
    kind: 'pg',
    version: async () => {
      const ready = l.ready();
      if (!ready) throw new Error('cache de sessões sem escuta');
      const r = await ready.query(VERSION_SQL);
      return String(r.rows[0]?.v ?? '');
    },
    publish: async () => undefined,
    close: () => l.close(),
  };
}

/** Channel and counter of one database (`namespace`: its name), so databases sharing a Redis never mix. */
export function redisBus(redisUrl: string, namespace: string, h: BusHandlers, log?: Logger): InvalidationBus {
  const channel = `${CHANNEL}:${namespace}`;
  const counter = `${CHANNEL}:${namespace}:versao`;
  // Commands fail at once while disconnected (no offline queue): a request never waits on a lost Redis, it reads
  // the session from the database instead.
  const opts = { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2000, connectionName: 'rastro-sessao' } as const;
  const cmd = new Redis(redisUrl, opts);
  const sub = new Redis(redisUrl, { ...opts, enableOfflineQueue: true, commandTimeout: undefined });
  let subscribed = false;
  let warned = false;
  const lost = (err?: unknown) => {
    if (err && !warned) { warned = true; log?.warn({ err }, 'cache de sessões: Redis indisponível; cache desligado até reconectar'); }
    if (subscribed) { subscribed = false; h.down(); }
  };
  sub.on('message', (ch: string, payload: string) => {
    if (ch !== channel) return;
    const [kind, id] = payload.split(':');
    h.message(kind, Number(id));
  });
  sub.on('ready', () => {
    sub.subscribe(channel).then(() => { warned = false; subscribed = true; h.up(); }, lost);
  });
  sub.on('close', () => lost());
  sub.on('error', lost);
  cmd.on('error', (err) => { if (!warned) { warned = true; log?.warn({ err }, 'cache de sessões: Redis indisponível'); } });
  return {
    kind: 'redis',
    // Prefixed: never equal to a value of the database counter.
    version: async () => `redis:${(await cmd.get(counter)) ?? '0'}`,
    publish: async (kind, id) => {
      try {
        await cmd.multi().incr(counter).publish(channel, `${kind}:${id ?? ''}`).exec();
      } catch (err) {
        // Committed but not told: other processes keep their cached sessions until the TTL. Said loudly.
        log?.error({ err, kind, id }, 'cache de sessões: invalidação não publicada no Redis');
      }
    },
    close: async () => {
      sub.removeAllListeners('close');
      lost();
      await bounded(Promise.all([sub.quit(), cmd.quit()]));
      sub.disconnect();
      cmd.disconnect();
    },
  };
}

const pending = new Set<Promise<void>>();

/** Runs a publish, kept until done so the request that caused it can wait for it. */
export function track(p: Promise<void>): void {
  pending.add(p);
  void p.finally(() => pending.delete(p));
}

/** Resolves once every publish started so far is counted (server/app/index.ts awaits it before answering). */
export function invalidationsSent(): Promise<unknown> | undefined {
  // Nothing pending (nearly every request): no promise to wait on.
  return pending.size ? Promise.all(pending) : undefined;
}
