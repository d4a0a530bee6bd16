// Realtime push (spec §4, §7): socket.io at /socket_server on the API's HTTP server, opened with the
// session token (handshake `auth.token` or `Authorization: Bearer`). Client → server: set_user (user id),
// join_room (company id), ouvir (the event names its screens listen to: live rooms only for those). Server → client:
// permissoes_alteradas, sessao_finalizada, estado_frota and the modules' live rows (./live.ts, e.g. ultimo_estado) —
// names in .notes/CONTRACT.md.
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Session } from '../app/env.ts';
import { sessionOfToken } from '../auth/middleware.ts';
import { listenSessions } from '../auth/session-cache.ts';
import { idsOf, strings } from '../../shared/ids.ts';
import { entityByKey, getModel, ormName } from '../core/registry.ts';
import { events, MSG, type RowChange, type SessionEnded } from './events.ts';
import { ESTADO_FROTA, frotaThrottle } from './frota.ts';
import { namespaceOf, subscribeEstado, type EstadoMessage } from './bus.ts';
import { liveEventOf, liveHub, type LivePush } from './live.ts';

export { MSG };

export const SOCKET_PATH = '/socket_server';
export const PUSH = { permissoesAlteradas: 'permissoes_alteradas', sessaoFinalizada: 'sessao_finalizada', estadoFrota: ESTADO_FROTA } as const;
/** Event names an `ouvir` may list. */
const MAX_OUVIR = 100;
export { liveRoom, WINDOW_MS as LIVE_WINDOW_MS, type LiveMessage, type LivePush } from './live.ts';
/** Server-side event (between API processes): review the live rooms of these users' sockets. */
const REVIEW_LIVE = 'rever_salas_ao_vivo';
type Ack = (r: { status: number; msg: string }) => void;
const room = { sessao: (id: number) => `sessao:${id}`, usuario: (id: number) => `usuario:${id}`, empresa: (id: number) => `empresa:${id}` };
/** The room of a user's sockets (every session of theirs): pushes meant for one user (e.g. background jobs). */
export const userRoom = room.usuario;

function tokenOf(socket: Socket): string | undefined {
  const a = socket.handshake.auth as { token?: unknown } | undefined;
  if (typeof a?.token === 'string' && a.token) return a.token.replace(/^bearer\s+/i, '');
  const h = socket.handshake.headers.authorization;
  if (typeof h === 'string' && h.toLowerCase().startsWith('bearer ')) return h.slice(7).trim();
  return undefined;
}

const CLUSTERED = new WeakSet<Server>();
/** Whether the server shares its rooms with other API processes (Redis adapter, REDIS_URL): server-side emits reach
 *  them (io.serverSideEmit); without it they would only warn. */
export const clustered = (io: Server) => CLUSTERED.has(io);

export interface Realtime {
  io: Server;
  /** Calls fn on each message of the latest-state bus heard by this process (the modules' background work). */
  onEstado: (fn: (m: EstadoMessage) => void) => () => void;
  close: () => Promise<void>;
}

export function attachRealtime(http: HttpServer, o: { orm: MikroORM; log: Logger; live?: LivePush[]; redisUrl?: string }): Realtime {
  const io = new Server(http, {
    path: SOCKET_PATH,
    serveClient: false,
    // Other upgrade requests are answered by server/http/upgrade.ts (the video proxy), not dropped after 1 s.
    destroyUpgrade: false,
    // Same origin by default; CORS_ORIGIN (comma-separated) for a front end served elsewhere.
    cors: process.env.CORS_ORIGIN ? { origin: process.env.CORS_ORIGIN.split(','), credentials: true } : undefined,
  });
  // With REDIS_URL, several API processes share rooms through the socket.io Redis adapter: a push to a user, session
  // or link room made in one process reaches the sockets held by the others (channels prefixed by the database, so
  // databases sharing a Redis never mix). Live rows and the fleet counters stay per process (io.local): each process
  // hears the latest-state bus itself.
  const redisUrl = o.redisUrl ?? process.env.REDIS_URL;
  const clientUrl0 = o.orm.config.get('clientUrl') as string | undefined;
  const redis = redisUrl ? [new Redis(redisUrl, { connectionName: 'rastro-socket-pub' }), new Redis(redisUrl, { connectionName: 'rastro-socket-sub' })] : [];
  if (redisUrl) {
    let warned = false;
    for (const r of redis) r.on('error', (err) => { if (!warned) { warned = true; o.log.warn({ err }, 'socket: Redis indisponível; reconectando'); } });
    const db = clientUrl0 ? namespaceOf(clientUrl0) : String(o.orm.config.get('dbName'));
    io.adapter(createAdapter(redis[0], redis[1], { key: `rastro_socket:${db}` }));
    CLUSTERED.add(io);
  }
  const session = async (token: string): Promise<Session | null> => sessionOfToken(o.orm.em.fork(), token);
  // Cross-process session cache invalidation (LISTEN rastro_sessao) lives as long as the server.
  const sessions = listenSessions(o.orm.config, o.log);
  // A company's fleet state changed (telemetria.ultimo_estado written): its sockets read the numbers again.
  // Each process hears the bus and tells its own sockets (io.local: no double delivery through an adapter).
  const frota = frotaThrottle((empresaId) => { io.local.to(room.empresa(empresaId)).emit(PUSH.estadoFrota, { empresaId }); });
  const live = liveHub(io, { orm: o.orm, log: o.log, pushes: o.live ?? [] });
  const estadoListeners = new Set<(m: EstadoMessage) => void>();
  const clientUrl = clientUrl0;
  const bus = subscribeEstado({
    databaseUrl: clientUrl, redisUrl, log: o.log,
    namespace: clientUrl ? namespaceOf(clientUrl) : String(o.orm.config.get('dbName')),
  }, (m) => {
    frota.notify(m.empresaId);
    live.notify(m);
    for (const fn of estadoListeners) {
      try { fn(m); } catch (err) { o.log.error({ err }, 'estado ao vivo: falha de um ouvinte'); }
    }
  });
  // The socket's live rooms: those its session's keys open in its company room (none without one), narrowed to the
  // events its screens listen to once it said which (`ouvir`: a live push is read from the database only for a room
  // someone is in). One review at a time per socket, each from the socket's state then, so the last one stands.
  const liveRooms = (socket: Socket, s: Session): Promise<void> => {
    const run = async () => {
      const empresa = [...socket.rooms].find((r) => r.startsWith('empresa:'));
      const ouve = socket.data.ouve as Set<string> | undefined;
      const want = new Set((empresa ? live.roomsFor(s, Number(empresa.slice(8))) : []).filter((r) => !ouve || ouve.has(liveEventOf(r))));
      for (const r of socket.rooms) if (r.startsWith('live:') && !want.has(r)) await socket.leave(r);
      if (want.size) await socket.join([...want]);
    };
    const next = ((socket.data.liveReview as Promise<void> | undefined) ?? Promise.resolve()).then(run, run);
    socket.data.liveReview = next.catch(() => undefined);
    return next;
  };

  io.use(async (socket, next) => {
    const token = tokenOf(socket);
    try {
      const s = token ? await session(token) : null;
      if (!s) return next(new Error(MSG.sessaoInvalida));
      socket.data.token = token;
      socket.data.session = s;
      next();
    } catch (err) {
      o.log.error({ err }, 'socket: falha ao validar a sessão');
      next(new Error('Erro interno do servidor'));
    }
  });

  io.on('connection', (socket) => {
    const s0 = socket.data.session as Session;
    void socket.join([room.sessao(s0.id), room.usuario(s0.usuarioId)]);
    // Each request re-reads the session: it may have ended, or the user's companies changed.
    const live = async (ack?: Ack): Promise<Session | null> => {
      const s = await session(socket.data.token).catch(() => null);
      if (!s) { ack?.({ status: 401, msg: MSG.sessaoInvalida }); socket.disconnect(true); }
      return s;
    };
    socket.on('set_user', async (id: unknown, ack?: Ack) => {
      const s = await live(ack);
      if (!s) return;
      if (Number(id) !== s.usuarioId) return ack?.({ status: 403, msg: 'O usuário informado não é o da sessão' });
      await socket.join(room.usuario(s.usuarioId));
      ack?.({ status: 200, msg: 'ok' });
    });
    // The events the client's screens listen to now (all its listened names; the live ones count). Before it says,
    // every live room its keys allow.
    socket.on('ouvir', async (eventos: unknown, ack?: Ack) => {
      const s = await live(ack);
      if (!s) return;
      if (!Array.isArray(eventos) || eventos.length > MAX_OUVIR || !eventos.every((e) => typeof e === 'string' && e.length <= 80)) {
        return ack?.({ status: 400, msg: 'Lista de eventos inválida' });
      }
      socket.data.ouve = new Set(eventos as string[]);
      await liveRooms(socket, s);
      ack?.({ status: 200, msg: 'ok' });
    });
    socket.on('join_room', async (id: unknown, ack?: Ack) => {
      const s = await live(ack);
      if (!s) return;
      const empresa = Number(id);
      // The session's active company too: a platform holder's company in another ambiente (server/auth/ambiente.ts).
      if (!Number.isSafeInteger(empresa) || !(s.empresas.includes(empresa) || empresa === s.empresaAtiva)) return ack?.({ status: 403, msg: 'Você não tem acesso a esta empresa' });
      // One active company at a time: leave the previous company room.
      for (const r of socket.rooms) if (r.startsWith('empresa:') && r !== room.empresa(empresa)) await socket.leave(r);
      await socket.join(room.empresa(empresa));
      await liveRooms(socket, s);
      ack?.({ status: 200, msg: 'ok' });
    });
  });

  // Live rows follow the keys at once (not only after the client reloads): each process reviews its own sockets.
  const reviewLiveRooms = (usuarioIds: number[]) => {
    for (const id of usuarioIds) {
      for (const sid of io.of('/').adapter.rooms.get(room.usuario(id)) ?? []) {
        const socket = io.of('/').sockets.get(sid);
        if (!socket) continue;
        void session(socket.data.token).then(async (s) => { if (s) await liveRooms(socket, s); else socket.disconnect(true); })
          .catch((err) => o.log.error({ err }, 'socket: falha ao rever as salas ao vivo'));
      }
    }
  };
  const permissionsChanged = (usuarioIds: number[]) => {
    const ids = [...new Set(usuarioIds)];
    // Through the adapter: the user's sockets on every process.
    for (const id of ids) io.to(room.usuario(id)).emit(PUSH.permissoesAlteradas, { usuarioId: id, msg: MSG.permissoesAlteradas });
    reviewLiveRooms(ids);
    if (clustered(io)) io.serverSideEmit(REVIEW_LIVE, ids);
  };
  io.on(REVIEW_LIVE, (ids: number[]) => { if (Array.isArray(ids)) reviewLiveRooms(ids.map(Number)); });
  const ended = (target: string, payload: Record<string, unknown>) => {
    io.to(target).emit(PUSH.sessaoFinalizada, { ...payload, msg: payload.motivo === 'senha' ? MSG.senhaAlterada : MSG.sessaoFinalizada });
    // Packets are ordered: the client gets the event, then the disconnect.
    io.in(target).disconnectSockets(false);
  };
  const same = (a: unknown, b: unknown, list: (v: unknown) => unknown[]) =>
    JSON.stringify([...list(a)].map(String).sort()) === JSON.stringify([...list(b)].map(String).sort());

  const onChange = async (c: RowChange) => {
    try {
      const b = c.before ?? {}, a = c.after ?? {};
      if (c.entity === 'usuario') {
        if (c.op === 'delete' || (b.ativo !== false && a.ativo === false)) return ended(room.usuario(c.id), { usuarioId: c.id, motivo: 'administrador' });
        if (c.before && c.after && (!same(b.cargos, a.cargos, idsOf) || !same(b.permissoesExtras, a.permissoesExtras, strings) || !same(b.roles, a.roles, strings))) {
          permissionsChanged([c.id]);
        }
        return;
      }
      if (c.entity === 'sessao' && c.before && c.after && b.ativa !== false && a.ativa === false) {
        return ended(room.sessao(c.id), { sessaoId: c.id, motivo: 'administrador' });
      }
      // A role (any entity whose key list users hold through a reference list, i.e. cargo) changed.
      const usuario = entityByKey('usuario');
      const holder = usuario?.fields.find((f) => f.type === 'referenceList' && f.reference === c.entity);
      const keysField = getModel().entities.find((e) => e.key === c.entity)?.fields.find((f) => f.optionsFrom === 'permissions');
      if (!usuario || !holder || !keysField || c.op === 'create') return;
      if (c.op !== 'delete' && same(b[keysField.name], a[keysField.name], strings)) return;
      const em = o.orm.em.fork();
      const rows = (await em.find(ormName(em, usuario), { [holder.name]: { $contains: [c.id] } } as never, { fields: ['id'] as never })) as { id: number }[];
      permissionsChanged(rows.map((r) => Number(r.id)));
    } catch (err) {
      o.log.error({ err, change: { entity: c.entity, id: c.id, op: c.op } }, 'socket: falha ao notificar alteração');
    }
  };
  const onSessionEnded = (e: SessionEnded) => {
    if (e.motivo === 'administrador' || e.motivo === 'senha') ended(room.sessao(e.sessaoId), { sessaoId: e.sessaoId, usuarioId: e.usuarioId, motivo: e.motivo });
    else io.in(room.sessao(e.sessaoId)).disconnectSockets(false);
  };
  events.on('change', onChange);
  events.on('sessionEnded', onSessionEnded);

  return {
    io,
    onEstado: (fn) => { estadoListeners.add(fn); return () => { estadoListeners.delete(fn); }; },
    close: async () => {
      events.off('change', onChange);
      events.off('sessionEnded', onSessionEnded);
      await sessions.close();
      frota.close();
      live.close();
      await bus.close();
      await io.close();
      await Promise.all(redis.map((r) => Promise.race([r.quit().catch(() => undefined), new Promise((res) => setTimeout(res, 2000).unref())])));
      for (const r of redis) r.disconnect();
    },
  };
}
