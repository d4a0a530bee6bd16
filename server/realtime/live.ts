// Live rows pushed (issue 21): a module declares that a provider's rows change with the latest-state bus
// (ServerModule.live, e.g. the live map's ultimo_estado keyed by serial). Each API process hears the bus (./bus.ts),
// coalesces the serials per company within a window (WINDOW_MS: a socket is in one company, so it gets at most
// 1000/WINDOW_MS messages a second whatever the fleet size), reads the changed rows once per company through the read
// engine (the provider's declared SQL, company condition + RLS of that company) and emits them to its own sockets of
// that company that hold one of the provider's keys (room `live:<event>:<empresa>`, joined at join_room).
import type { Server } from 'socket.io';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Session } from '../app/env.ts';
import { can } from '../auth/users.ts';
import { getModel } from '../core/registry.ts';
import { withCompany } from '../db/rls.ts';
import { readDeclaredColumns, VERSION } from '../read/provider.ts';
import { feedSnapshots, feedToken, withIdFilter } from '../read/snapshot.ts';
import type { EstadoMessage } from './bus.ts';

export const WINDOW_MS = Number(process.env.LIVE_PUSH_MS ?? 500);
const MAX_ROWS = 100_000;

/** What a module declares: push `event` with the rows of `provider` whose column `key` the bus names. */
export interface LivePush { event: string; provider: string; key: string; recent?: { filter: string; ms: number; limit: number } }

/** The push's body: the company, the rows changed (the provider's row shape), `completo` when they are all of it. */
export interface LiveMessage { empresaId: number; rows: Record<string, unknown>[]; completo: boolean }

export const liveRoom = (event: string, empresa: number) => `live:${event}:${empresa}`;
/** The event of a live room's name. */
export const liveEventOf = (room: string) => room.slice(5, room.lastIndexOf(':'));

interface Pending { serials: Set<string> | null; timer: NodeJS.Timeout }

export interface LiveHub {
  /** A bus message. */
  notify(m: EstadoMessage): void;
  /** The live rooms a session may be in for a company (its keys; only its active company). */
  roomsFor(s: Session, empresa: number): string[];
  close(): void;
}

export function liveHub(io: Server, o: { orm: MikroORM; log: Logger; pushes: LivePush[] }): LiveHub {
  const pushes = o.pushes.flatMap((p) => {
    const meta = getModel().providers.find((m) => m.key === p.provider);
    if (!meta?.sql || meta.scope !== 'empresa' || !meta.columns.some((c) => c.name === p.key)
      || (p.recent && !meta.filters.some((f) => f.name === p.recent!.filter))) {
      o.log.error({ push: p }, 'envio ao vivo: provider sem sql declarado, sem escopo empresa, sem a coluna chave ou sem o filtro de período');
      return [];
    }
    // The key as an internal filter (a list: = ANY), whatever the YAML's filters.
    return [{ ...p, meta, withKey: withIdFilter(meta, p.key), pending: new Map<number, Pending>(), last: new Map<number, number>() }];
  });
  let closed = false;

  const localSockets = (room: string) => io.of('/').adapter.rooms.get(room)?.size ?? 0;

  const flush = async (p: (typeof pushes)[number], empresa: number) => {
    const x = p.pending.get(empresa);
    if (!x || closed) return;
    const room = liveRoom(p.event, empresa);
    // At most one message per window per company, measured from the previous emit.
    const wait = (p.last.get(empresa) ?? 0) + WINDOW_MS - Date.now();
    if (wait > 0) { x.timer = setTimeout(() => void flush(p, empresa), wait); x.timer.unref(); return; }
    p.pending.delete(empresa);
    if (!localSockets(room)) return;
    p.last.set(empresa, Date.now());
    try {
      const filter: Record<string, unknown> = x.serials ? { [p.key]: [...x.serials] } : {};
      if (p.recent) filter[p.recent.filter] = new Date(Date.now() - p.recent.ms).toISOString();
      const q = { params: {}, filter, sort: p.meta.sort };
      const em = o.orm.em.fork();
      const versions = !!p.meta.sql!.versions;
      const token = feedToken(em, p.provider, empresa);
      const read = await withCompany(empresa, () => readDeclaredColumns(em, p.withKey, p.meta.sql!, q, empresa, undefined, p.recent?.limit ?? MAX_ROWS, { version: versions }));
      if (closed) return;
      // the rows just read, with their versions, refresh the company's kept whole list (server/read/snapshot.ts)
      if (versions) feedSnapshots(em, p.meta, p.meta.sql!, empresa, read, token);
      const rows = versions ? read.map(({ [VERSION]: _, ...r }) => r) : read;
      const msg: LiveMessage = { empresaId: empresa, rows, completo: x.serials === null };
      io.local.to(room).emit(p.event, msg);
    } catch (err) {
      o.log.error({ err, event: p.event, empresa }, 'envio ao vivo: falha ao ler as linhas alteradas');
    }
  };

  return {
    notify(m) {
      if (closed) return;
      for (const p of pushes) {
        // Nobody of that company listens in this process: nothing to read.
        if (!localSockets(liveRoom(p.event, m.empresaId))) continue;
        const x = p.pending.get(m.empresaId);
        if (x) {
          if (x.serials && m.serials) for (const s of m.serials) x.serials.add(s);
          else x.serials = null;
          continue;
        }
        const timer = setTimeout(() => void flush(p, m.empresaId), WINDOW_MS);
        timer.unref();
        p.pending.set(m.empresaId, { serials: m.serials ? new Set(m.serials) : null, timer });
      }
    },
    roomsFor(s, empresa) {
      if (empresa !== s.empresaAtiva) return [];
      return pushes.filter((p) => p.meta.permission.some((k) => can(s, k))).map((p) => liveRoom(p.event, empresa));
    },
    close() {
      closed = true;
      for (const p of pushes) { for (const x of p.pending.values()) clearTimeout(x.timer); p.pending.clear(); }
    },
  };
}
