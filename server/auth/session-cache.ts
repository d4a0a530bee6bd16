// Sessions resolved in one query (session row + user + active company + role keys) and cached per token in
// process. Correctness over speed: the cache is used only while this process hears the invalidation bus
// (server/auth/invalidation-bus.ts): PostgreSQL LISTEN on `rastro_sessao` (database triggers notify every committed
// change of sessao, usuario, empresa or cargo that may end or alter a session, from any process; migration
// *_sessao_notify), or Redis when REDIS_URL is set (the app publishes its own changes). Messages arrive
// asynchronously, so every change also moves a counter (pg: the committed counter the triggers bump, migration
// *_sessao_versao; redis: the counter each publish increments): a cache hit is trusted only once that counter, read
// after the request arrived, still has the value the cache was filled under, so a change counted anywhere before the
// request arrived is never missed. The read is either a round trip of its own (the barrier, shared by concurrent
// requests) or, on the pg bus for read-only routes that opt in (SessionCheck), one more column of the statement the
// request runs anyway: a moved counter then discards the answer and the request runs again, strictly
// (server/auth/middleware.ts staleSessionRetry). In-process writes also invalidate synchronously through the change
// events.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Configuration } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { Session } from '../app/env.ts';
import { entityByKey, getModel, ormName } from '../core/registry.ts';
import { inCompany } from '../../shared/scope-sql.ts';
import { ambienteOfCompany } from '../tenancy/scope.ts';
import { events } from '../realtime/events.ts';
import { empresaUsable, grantsOf, platformKey, userActive } from './users.ts';
import { ident as q } from '../db/sql.ts';
import { VERSION_SQL, pgBus, redisBus, track, type BusHandlers, type InvalidationBus, type InvalidationKind } from './invalidation-bus.ts';

export { VERSION_SQL };
const MAX_ENTRIES = Number(process.env.SESSION_CACHE_MAX ?? 20_000);
/** Safety net for writes that bypass the triggers (none known): an entry is re-read after this age. */
const TTL_MS = Number(process.env.SESSION_CACHE_TTL_MS ?? 30_000);
const TOUCH_MS = 60_000;

interface Entry { session: Session; validUntil: number; lastAccess: number; cachedAt: number }

/** The cache of one database (one ORM). */
class SessionCache {
  byToken = new Map<string, Entry>();
  generation = 0;
  /** Last value seen of the committed change counter. */
  version?: string;
  listening = false;
  bus?: InvalidationBus['kind'];
  /** Round trip reading the bus's change counter (set while listening). */
  ping?: () => Promise<void>;
  private inflight?: Promise<void>;
  private queued?: Promise<void>;
  /** Resolves once every change committed before this call is accounted for: reads the committed change counter
   *  and drops the cache when it moved. Concurrent callers share one round trip, but never one already sent before
   *  they called. */
  barrier(): Promise<void> {
    const ping = this.ping;
    if (!ping) return Promise.reject(new Error('cache de sessões sem escuta'));
    const start = () => {
      this.barriers++;
      const p = ping();
      this.inflight = p;
      void p.catch(() => undefined).finally(() => { if (this.inflight === p) this.inflight = undefined; });
      return p;
    };
    if (!this.inflight) return start();
    return (this.queued ??= this.inflight.catch(() => undefined).then(() => { this.queued = undefined; return start(); }));
  }
  hits = 0;
  misses = 0;
  /** Round trips made by barrier(). */
  barriers = 0;
  /** A value of the committed counter read after the cache was filled: drops the cache when it moved. */
  observe(v: string): void {
    if (v !== this.version) { this.clear(); this.version = v; }
  }
  invalidate(match: (s: Session) => boolean): void {
    this.generation++;
    for (const [t, e] of this.byToken) if (match(e.session)) this.byToken.delete(t);
  }
  clear(): void { this.generation++; this.byToken.clear(); }
  set(token: string, e: Entry): void {
    if (this.byToken.size >= MAX_ENTRIES) this.byToken.delete(this.byToken.keys().next().value!);
    this.byToken.set(token, e);
  }
}

const caches = new Map<Configuration, SessionCache>();
const buses = new Set<InvalidationBus>();

/** A cached session handed out before the counter was read for this request: the request settles it, from the
 *  counter read in its own statement (settle) or with the barrier (verify), before its answer may leave. */
export class SessionCheck {
  private state: 'pending' | 'ok' | 'stale' = 'pending';
  constructor(private cache: SessionCache, private token: string, private entry: Entry, private version: string | undefined) {}
  get pending(): boolean { return this.state === 'pending'; }
  /** The counter as read by a statement of this request (run after the request arrived). */
  settle(v: unknown): boolean {
    if (this.state === 'pending') {
      if (v == null) this.state = 'stale';
      else {
        this.cache.observe(String(v));
        this.state = String(v) === this.version && this.cache.byToken.get(this.token) === this.entry ? 'ok' : 'stale';
      }
    }
    return this.state === 'ok';
  }
  /** Settles with a round trip when no statement of the request did. */
  async verify(): Promise<boolean> {
    if (this.state === 'pending') {
      const synced = await this.cache.barrier().then(() => true, () => false);
      this.state = synced && this.cache.version === this.version && this.cache.byToken.get(this.token) === this.entry ? 'ok' : 'stale';
    }
    return this.state === 'ok';
  }
}

/** Drops cached sessions in every cache of this process (ids are per database; over-invalidating is harmless),
 *  and tells the other processes where the bus needs it (Redis). */
export function invalidate(kind: InvalidationKind, id?: number): void {
  for (const c of caches.values()) apply(c, kind, id);
  for (const b of buses) if (b.kind === 'redis') track(b.publish(kind, id));
}
function apply(c: SessionCache, kind: string, id?: number): void {
  if (kind === 's') c.invalidate((s) => s.id === id);
  else if (kind === 'u') c.invalidate((s) => s.usuarioId === id);
  else if (kind === 'e') c.invalidate((s) => s.empresaAtiva === id || s.empresas.includes(id!));
  else c.clear(); // cargo (keys of its holders) or unknown: everything
}
export const invalidateSession = (id: number) => invalidate('s', id);

// In-process writes (generic CRUD after commit, session ends): synchronous invalidation.
const keyHolders = () => new Set(getModel().entities.filter((e) => e.fields.some((f) => f.optionsFrom === 'permissions')).map((e) => e.key));
events.on('change', (ch) => {
  if (ch.op === 'create' && ch.entity !== 'sessao') return;
  if (ch.entity === 'sessao') invalidate('s', ch.id);
  else if (ch.entity === 'usuario') invalidate('u', ch.id);
  else if (ch.entity === 'empresa') invalidate('e', ch.id);
  else if (ch.entity === 'cargo' || ch.entity === 'ambiente' || keyHolders().has(ch.entity)) invalidate('*');
});
events.on('sessionEnded', (e) => invalidate('s', e.sessaoId));

export interface SessionListener { close(): Promise<void>; readonly listening: boolean; readonly bus: InvalidationBus['kind'] }

/** Hears the invalidation bus of this ORM's database (Redis when `redisUrl`, default REDIS_URL, is set; else
 *  PostgreSQL LISTEN) and enables its cache while connected. */
export function listenSessions(config: Configuration, log?: Logger, o: { redisUrl?: string } = {}): SessionListener {
  const cache = caches.get(config) ?? new SessionCache();
  caches.set(config, cache);
  const handlers: BusHandlers = {
    message: (kind, id) => apply(cache, kind, id),
    up: () => {
      cache.clear(); // anything cached while not listening may have missed messages
      // A moved counter means some change was counted since the cache last looked, whether or not its message
      // has arrived yet.
      cache.ping = () => bus.version().then((v) => cache.observe(v));
      cache.listening = true;
    },
    down: () => { cache.listening = false; cache.ping = undefined; cache.version = undefined; cache.clear(); },
  };
  const redisUrl = o.redisUrl ?? process.env.REDIS_URL;
  const bus: InvalidationBus = redisUrl
    ? redisBus(redisUrl, String(config.get('dbName')), handlers, log)
    : pgBus(config.get('clientUrl') as string | undefined, handlers, log);
  buses.add(bus);
  cache.bus = bus.kind;
  return {
    get listening() { return cache.listening; },
    bus: bus.kind,
    close: async () => {
      buses.delete(bus);
      caches.delete(config);
      await bus.close();
    },
  };
}

/** For tests and the benchmark. */
export function cacheStats(config: Configuration) {
  const c = caches.get(config);
  return c ? { entries: c.byToken.size, hits: c.hits, misses: c.misses, listening: c.listening, barriers: c.barriers, bus: c.bus } : null;
}

// ---- one query --------------------------------------------------------------------------------------


interface Sql { text: string; perCompany: boolean; platform?: string }
const sqlOf = new WeakMap<Configuration, Sql>();

function buildSql(em: EntityManager): Sql {
  const md = em.getMetadata();
  const table = (key: string) => {
    const m = md.find(ormName(em, entityByKey(key)!))!;
    return { t: (m.schema ? q(m.schema) + '.' : '') + q(m.tableName), c: (p: string) => q(m.properties[p as never].fieldNames[0]) };
  };
  const s = table('sessao'), u = table('usuario'), e = table('empresa'), c = table('cargo'), a = table('ambiente');
  const perCompany = entityByKey('cargo')?.scope === 'empresa';
  // The session's ambiente is its active company's; a company outside the user's own only for a platform holder
  // (the key held anywhere: every cargo counts for that question, server/auth/ambiente.ts).
  const platform = platformKey();
  const text = `select s.${s.c('id')} as "id", s.${s.c('login')} as "login", s.${s.c('ambienteId')} as "ambienteId",
  e.${e.c('ambienteId')} as "empresaAmbiente", a.${a.c('ativo')} as "ambienteAtivo",
  s.${s.c('usuario')} as "usuarioId", s.${s.c('ativa')} as "ativa", s.${s.c('dataFim')} as "dataFim",
  s.${s.c('dataValidoAte')} as "dataValidoAte", s.${s.c('dataUltimoAcesso')} as "dataUltimoAcesso",
  u.${u.c('ativo')} as "usuarioAtivo", u.${u.c('empresas')} as "empresas", u.${u.c('roles')} as "roles",
  u.${u.c('permissoesExtras')} as "permissoesExtras",
  e.${e.c('id')} as "empresaAtiva", e.${e.c('status')} as "empresaStatus",
  (select coalesce(json_agg(c.${c.c('permissoes')}), '[]'::json) from ${c.t} c
    where c.${c.c('id')} = any(u.${u.c('cargos')})${perCompany ? ` and ${inCompany('c', `e.${e.c('id')}`)}` : ''}) as "cargos"${platform && perCompany ? `,
  (select coalesce(json_agg(c.${c.c('permissoes')}), '[]'::json) from ${c.t} c where c.${c.c('id')} = any(u.${u.c('cargos')})) as "todosCargos"` : ''}
from ${s.t} s
join ${u.t} u on u.${u.c('id')} = s.${s.c('usuario')}
left join ${e.t} e on e.${e.c('id')} = coalesce(s.${s.c('empresaAtiva')}, u.${u.c('empresas')}[1])
left join ${a.t} a on ${ambienteOfCompany('a', 'e')}
where s.${s.c('id')} = $1`;
  return { text, perCompany, platform };
}

interface Resolved { session: Session | null; end: boolean; validUntil: number; lastAccess: number }

async function resolve(em: EntityManager, sid: number, now: number): Promise<Resolved> {
  let sql = sqlOf.get(em.config);
  if (!sql) { sql = buildSql(em); sqlOf.set(em.config, sql); }
  const [r] = (await em.getConnection().execute(sql.text.replace('$1', '?'), [sid])) as Record<string, any>[];
  const none = { session: null, end: false, validUntil: 0, lastAccess: 0 };
  if (!r || r.ativa === false || r.dataFim || new Date(r.dataValidoAte).getTime() <= now) return none;
  const empresas = (r.empresas ?? []).map(Number) as number[];
  const empresaAtiva = r.empresaAtiva == null ? null : Number(r.empresaAtiva);
  const allowed = empresaAtiva != null && (empresas.includes(empresaAtiva)
    || (!!sql.platform && grantsOf(r.roles, r.permissoesExtras, r.todosCargos ?? r.cargos ?? []).permissoes.has(sql.platform)));
  if (!userActive({ ativo: r.usuarioAtivo }) || empresaAtiva == null || !allowed || !empresaUsable({ status: r.empresaStatus }) || r.ambienteAtivo === false) {
    return { ...none, end: true };
  }
  const session: Session = {
    id: Number(r.id), usuarioId: Number(r.usuarioId), login: String(r.login), ambienteId: Number(r.empresaAmbiente ?? r.ambienteId),
    empresaAtiva, empresas, ...grantsOf(r.roles, r.permissoesExtras, r.cargos ?? []),
  };
  return { session, end: false, validUntil: new Date(r.dataValidoAte).getTime(), lastAccess: r.dataUltimoAcesso ? new Date(r.dataUltimoAcesso).getTime() : 0 };
}

/** The live session of a token: from the cache, else one query (cached while listening). `end` is called
 *  when the row is live but its user or company no longer may (the caller ends the row). */
export async function cachedSession(
  em: EntityManager, token: string, verify: (t: string) => Promise<number | null>, end: (sid: number) => Promise<void>,
  /** Given: a hit is handed out unverified, with the check the request must settle before it answers. */
  defer?: (check: SessionCheck) => void,
): Promise<Session | null> {
  const now = Date.now();
  const cache = caches.get(em.config);
  const hit = cache?.listening ? cache.byToken.get(token) : undefined;
  const fresh = !!hit && hit.validUntil > now && now - hit.cachedAt < TTL_MS;
  // Deferred only on the pg bus: the statement's extra column reads the database counter, not Redis's.
  if (fresh && defer && cache!.bus === 'pg') {
    cache!.hits++;
    defer(new SessionCheck(cache!, token, hit, cache!.version));
    if (now - hit.lastAccess > TOUCH_MS) { hit.lastAccess = now; touch(em, hit.session.id, now); }
    return hit.session;
  }
  // Another process (or plain SQL) may have changed the session just before this request: wait until the
  // notifications committed so far are in, then use the entry only if it survived them.
  if (fresh && (await cache!.barrier().then(() => true, () => false)) && cache!.byToken.get(token) === hit) {
    cache!.hits++;
    if (now - hit.lastAccess > TOUCH_MS) { hit.lastAccess = now; touch(em, hit.session.id, now); }
    return hit.session;
  }
  if (hit) cache!.byToken.delete(token);
  const sid = await verify(token);
  if (!sid) return null;
  // Bring the counter up to date before reading, so an entry is never dropped for a change it already contains
  // (and, if the barrier fails, never stored).
  const synced = cache?.listening ? await cache.barrier().then(() => true, () => false) : false;
  const gen = cache?.generation;
  if (cache) cache.misses++;
  const r = await resolve(em, sid, now);
  if (r.end) { await end(sid); return null; }
  if (!r.session) return null;
  let lastAccess = r.lastAccess;
  if (now - lastAccess > TOUCH_MS) { lastAccess = now; touch(em, sid, now); }
  // Stored only when nothing was invalidated meanwhile (the row read may predate that change).
  if (synced && cache?.listening && cache.generation === gen) cache.set(token, { session: r.session, validUntil: r.validUntil, lastAccess, cachedAt: now });
  return r.session;
}

function touch(em: EntityManager, sid: number, now: number): void {
  const s = em.getMetadata().find(ormName(em, entityByKey('sessao')!))!;
  const col = s.properties['dataUltimoAcesso' as never].fieldNames[0];
  em.getConnection().execute(`update ${(s.schema ? q(s.schema) + '.' : '') + q(s.tableName)} set ${q(col)} = ? where ${q(s.properties['id' as never].fieldNames[0])} = ?`, [new Date(now), sid])
    .catch(() => undefined);
}
