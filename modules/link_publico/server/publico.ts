// The public link (issue 21): a random token (256 bits, only its SHA-256 stored in link_publico.token) opens
// /public/rastreamento_ao_vivo/query with no sign-in and shows the link's assets live:
//  - GET /api/public/rastreamento_ao_vivo/query?token=… — a declared public route (server/core/pipeline.ts publicRoute):
//    the token names one link, the rest of the request runs in the link's company (RLS) and reads only its assets
//    through the declared provider estado_publico (company condition of that company).
//  - socket.io namespace /publico (handshake auth.token): one room per link, `estado` pushed when the latest-state bus
//    names the company (coalesced per link, WINDOW_MS), `link_encerrado` then disconnect when the link is revoked,
//    gets a new address, is deleted or expires.
// Unknown tokens 404, revoked or expired links 410; failed tokens are counted per IP like failed sign-ins (429).
import type { Context, Hono } from 'hono';
import type { Namespace, Server, Socket } from 'socket.io';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { AppEnv } from '../../../server/app/env.ts';
import { publicRoute } from '../../../server/core/pipeline.ts';
import { entityByKey, getModel, ormName } from '../../../server/core/registry.ts';
import { requestEm, getOrm } from '../../../server/db/context.ts';
import { withCompany } from '../../../server/db/rls.ts';
import { perOrm } from '../../../server/db/per-orm.ts';
import { HttpError, ok } from '../../../server/http/envelope.ts';
import { ofCompany } from '../../../shared/scope-sql.ts';
import { sha256 } from '../../../server/auth/tokens.ts';
import { clientIp } from '../../../server/auth/routes.ts';
import { empresaUsable, findEmpresa } from '../../../server/auth/users.ts';
import { readDeclared } from '../../../server/read/provider.ts';
import { events, type RowChange } from '../../../server/realtime/events.ts';
import { clustered } from '../../../server/realtime/index.ts';
import type { ModuleStart } from '../../../server/core/module.ts';
import type { EntityManager } from '@mikro-orm/postgresql';

export const PUBLIC_PATH = '/public/rastreamento_ao_vivo/query';
export const NAMESPACE = '/publico';
export const MSG = {
  naoEncontrado: 'Link não encontrado. Confira o endereço recebido.',
  encerrado: 'Este link não é mais válido.',
  tentativas: (ms: number) => `Muitas tentativas com links inválidos. Tente novamente em ${Math.max(1, Math.ceil(ms / 60000))} minuto(s).`,
};
const WINDOW_MS = Number(process.env.LIVE_PUSH_MS ?? 500);
const TOKEN = /^rst_[A-Za-z0-9_-]{43}$/;

export interface Link { id: number; empresaId: number; descricao: string; ativos: number[]; validoAte: Date }

// Failed tokens per IP, as failed sign-ins (server/auth/routes.ts: 30 per 15 minutes, then blocked).
const BLOCK_S = 15 * 60;
const failuresOf = perOrm(() => new RateLimiterMemory({ keyPrefix: 'link_publico', points: Number(process.env.LINK_PUBLICO_MAX_FALHAS ?? 30), duration: BLOCK_S, blockDuration: BLOCK_S }));

const ended = (l: { ativo?: unknown; validoAte?: unknown }) => l.ativo === false || new Date(l.validoAte as string).getTime() <= Date.now();

/** The link a token names (any company: read as the system role, by the token's hash), or why not. */
async function linkOfToken(em: EntityManager, token: unknown, ip: string): Promise<Link> {
  const failures = failuresOf(em);
  const blocked = await failures.get(ip);
  if (blocked && blocked.consumedPoints >= failures.points) throw new HttpError(429, MSG.tentativas(blocked.msBeforeNext));
  const e = entityByKey('link_publico')!;
  const row = typeof token === 'string' && TOKEN.test(token)
    ? (await em.findOne(ormName(em, e), { token: sha256(token) } as never)) as Record<string, any> | null
    : null;
  if (!row) {
    await failures.consume(ip).catch(() => undefined);
    throw new HttpError(404, MSG.naoEncontrado);
  }
  const empresaId = Number(row.empresaId?.id ?? row.empresaId);
  if (ended(row) || !empresaUsable(await findEmpresa(em, empresaId))) throw new HttpError(410, MSG.encerrado);
  return { id: Number(row.id), empresaId, descricao: String(row.descricao), ativos: (row.ativos ?? []).map(Number), validoAte: new Date(row.validoAte) };
}

/** The link's assets' latest states, read in its company (the provider's company condition + RLS). */
async function estados(em: EntityManager, l: Link): Promise<Record<string, unknown>[]> {
  const meta = getModel().providers.find((p) => p.key === 'estado_publico')!;
  const q = { params: {}, filter: { ativos: l.ativos }, sort: meta.sort, offset: 0, limit: 1000 };
  return (await readDeclared(em, meta, meta.sql!, q, l.empresaId)).rows;
}

const answer = (l: Link, rows: Record<string, unknown>[]) => ({ descricao: l.descricao, validoAte: l.validoAte.toISOString(), ativos: rows });

export function publicRoutes(api: Hono<AppEnv>): void {
  publicRoute<Link>(api, PUBLIC_PATH, {
    reason: 'public link: the token (random, stored hashed) names one link; its company, its assets only (modules/link_publico)',
    subject: async (c: Context<AppEnv>) => {
      const l = await linkOfToken(requestEm(c), c.req.query('token'), clientIp(c));
      return { empresaId: l.empresaId, subject: l };
    },
  }, async (c) => {
    const l = c.get('publicSubject')!.subject as Link;
    c.header('Cache-Control', 'no-store');
    return ok(c, answer(l, await estados(requestEm(c), l)));
  });
}

interface Live { link: Link; timer?: NodeJS.Timeout; pending?: NodeJS.Timeout; last: number }
const room = (id: number) => `link:${id}`;

/** The /publico namespace: sockets of the public page, one room per link. */
export function startPublic(ctx: ModuleStart): { stop: () => Promise<void> } {
  const io: Server = ctx.io;
  const nsp: Namespace = io.of(NAMESPACE);
  const local = new Map<number, Live>();
  const em = () => getOrm().em.fork();
  const localCount = (id: number) => nsp.adapter.rooms.get(room(id))?.size ?? 0;

  /** Tells every socket of the link (any process, through the adapter) and drops them. */
  const end = (id: number) => {
    nsp.to(room(id)).emit('link_encerrado', { msg: MSG.encerrado });
    nsp.in(room(id)).disconnectSockets(false);
    forget(id);
  };
  const forget = (id: number) => {
    const x = local.get(id);
    if (x) { clearTimeout(x.timer); clearTimeout(x.pending); local.delete(id); }
  };
  /** Ends the link at its expiry (re-read then: it may have been extended elsewhere). */
  const arm = (x: Live) => {
    clearTimeout(x.timer);
    const ms = Math.min(Math.max(0, x.link.validoAte.getTime() - Date.now()), 2 ** 31 - 1);
    x.timer = setTimeout(() => void recheck(x.link.id), ms + 50);
    x.timer.unref();
  };
  const recheck = async (id: number) => {
    const e = entityByKey('link_publico')!;
    const row = (await em().findOne(ormName(em(), e), { id } as never)) as Record<string, any> | null;
    if (!row || ended(row)) return end(id);
    const x = local.get(id);
    if (!x) return;
    x.link = { ...x.link, ativos: (row.ativos ?? []).map(Number), validoAte: new Date(row.validoAte) };
    arm(x);
    push(id, true);
  };
  /** Sends the link's states to its sockets in this process (each process hears the bus itself). */
  const push = (id: number, now = false) => {
    const x = local.get(id);
    if (!x || x.pending) return;
    const wait = now ? 0 : Math.max(0, x.last + WINDOW_MS - Date.now());
    x.pending = setTimeout(async () => {
      x.pending = undefined;
      if (!localCount(id)) return;
      x.last = Date.now();
      try {
        const rows = await withCompany(x.link.empresaId, () => estados(em(), x.link));
        nsp.local.to(room(id)).emit('estado', answer(x.link, rows));
      } catch (err) { ctx.log.error({ err, link: id }, 'link público: falha ao ler os estados'); }
    }, wait);
    x.pending.unref();
  };

  nsp.use(async (socket, next) => {
    try {
      const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      const l = await linkOfToken(em(), token, socket.handshake.address);
      socket.data.link = l;
      next();
    } catch (err) {
      if (err instanceof HttpError) {
        const e = new Error(err.message) as Error & { data?: unknown };
        e.data = { status: err.status };
        return next(e);
      }
      ctx.log.error({ err }, 'link público: falha ao validar o link');
      next(new Error('Erro interno do servidor'));
    }
  });
  nsp.on('connection', (socket: Socket) => {
    const l = socket.data.link as Link;
    void socket.join(room(l.id));
    let x = local.get(l.id);
    if (!x) { x = { link: l, last: 0 }; local.set(l.id, x); arm(x); }
    // The page loads by HTTP and on every (re)connection gets the whole state at once.
    void withCompany(l.empresaId, () => estados(em(), l)).then((rows) => socket.emit('estado', answer(l, rows)))
      .catch((err) => ctx.log.error({ err, link: l.id }, 'link público: falha ao ler os estados'));
    socket.on('disconnect', () => { if (!localCount(l.id)) forget(l.id); });
  });

  const offEstado = ctx.onEstado((m) => {
    for (const x of local.values()) if (ofCompany(x.link, m.empresaId)) push(x.link.id);
  });
  // A write to a link (in this process): revoked, new address, deleted or expired → end it now; else (assets, expiry
  // extended) the open pages get the new state.
  const onChange = (c: RowChange) => {
    if (c.entity !== 'link_publico') return;
    const a = c.after;
    if (c.op === 'delete' || c.op === 'copia' || !a || ended(a)) return end(c.id);
    void recheckAll(c.id);
  };
  // Other processes learn it from this one through the adapter (server-side emit).
  const recheckAll = async (id: number) => { if (clustered(io)) nsp.serverSideEmit('link_alterado', id); await recheck(id); };
  nsp.on('link_alterado', (id: number) => { if (local.has(id)) void recheck(id); });
  events.on('change', onChange);

  return {
    stop: async () => {
      events.off('change', onChange);
      offEstado();
      for (const id of [...local.keys()]) forget(id);
      nsp.disconnectSockets(true);
    },
  };
}
