// The contract between the core and a module (modules/<name>/server.ts default-exports one ServerModule).
// The core discovers modules by folder (server/calls/index.ts) and never names one: a module brings its routes
// (mounted on /api like Hono's app.route), its provider implementations (metadata kind: provider, by key), the
// write hooks and action handlers of its registers and the body limits of its uploads; its metadata comes from modules/<name>/metadata/ (generator/load.ts).
import type { Context, Hono } from 'hono';
import type { Server as SocketServer } from 'socket.io';
import type { AppEnv } from '../app/env.ts';
import type { Provider } from '../crud/provider.ts';
import type { WriteHook } from '../crud/hooks.ts';
import type { ActionHandler } from '../crud/actions.ts';
import type { JobKind } from '../jobs/index.ts';
import type { Storage } from '../uploads/storage.ts';
import type { EntityManager } from '@mikro-orm/postgresql';

/** What a module's background work gets: SQL outside any request (the system role; `?` placeholders). */
export interface ModuleStart {
  exec: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /** Calls fn on each write of telemetria.ultimo_estado heard on the latest-state bus (server/realtime/bus.ts): the
   *  company and the serials written (null: any). Answers the unsubscribe. */
  onEstado: (fn: (m: { empresaId: number; serials: string[] | null }) => void) => () => void;
  /** The realtime server (/socket_server): a module may open its own namespace (e.g. /publico, the public link's page,
   *  with its own handshake); the default namespace and its session check stay the core's. */
  io: SocketServer;
  /** Where uploaded files live (the requests' c.get('storage')): e.g. a job's output (report spool). */
  storage: Storage;
  /** A fresh ORM context outside requests (system role; inside withCompany it runs in that company, RLS). */
  em: () => EntityManager;
}

/** Rows of a provider (declared sql, scope empresa) pushed to the sockets of a company holding one of its keys when
 *  the latest-state bus names their `key` column's values (server/realtime/live.ts); the client listens to `event`. */
export interface LivePushDecl {
  event: string; provider: string; key: string;
  /** An event stream rather than a state per key: only the rows of the last `ms` (the provider's datetime filter
   *  `filter`, e.g. fixTime_gte), at most `limit` of them in the provider's sort. */
  recent?: { filter: string; ms: number; limit: number };
}

export interface BodyLimit {
  /** Requests this limit applies to (instead of the JSON limit). */
  match: (c: Context) => boolean;
  maxSize: number;
  /** pt-BR message of the 413 answer. */
  message: string;
}

export interface ServerModule {
  name: string;
  /** Registers the module's named calls on /api, each through server/core/pipeline.ts route(). */
  routes?: (api: Hono<AppEnv>) => void;
  /** Provider implementations by metadata key (mounted by the core with the list protocol, export and named calls). */
  providers?: Record<string, Provider>;
  bodyLimits?: BodyLimit[];
  /** Write hooks by name (metadata `hook:` of its registers), run in the write's transaction (server/crud/hooks.ts). */
  hooks?: Record<string, WriteHook>;
  /** Action handlers by name (metadata actions with `handler:` of its registers; server/crud/actions.ts). */
  actions?: Record<string, ActionHandler>;
  /** Live rows (socket.io pushes) fed by the latest-state bus. */
  live?: LivePushDecl[];
  /** Background job kinds (server/jobs/index.ts defineJob): started by POST /api/tarefa/inicia/{name} or startJob(). */
  jobs?: JobKind<any>[];
  /** Background work started with the server (after migrations and seed), stopped before it closes. */
  start?: (ctx: ModuleStart) => { stop: () => Promise<void> };
}

export const defineModule = (m: ServerModule): ServerModule => m;
