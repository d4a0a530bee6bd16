// Background jobs (the developers' guide: "Long work runs as a background job with progress"). A module declares its
// job kinds (`jobs:` in server/core/module.ts, `defineJob` below); a job is started by POST /api/tarefa/inicia/{tipo}
// (server/jobs/routes.ts) or by a module's own route/action through `startJob()`. The job's row (register tarefa,
// metadata/adm/tarefa.yaml: company-scoped, RLS) is the truth the screens read; pg-boss (schema `pgboss` of the
// app's database) only carries "run tarefa N" between processes, retries and restarts.
// The handler runs inside the job's company (withCompany: every ORM query as rastro_app with RLS, like the request
// that started it); its progress is written to the row and pushed to the sockets of the user who started it
// (socket push `tarefa`, server/realtime userRoom). Cancelling (action tarefa.cancela) flips the row; the runner
// notices at the handler's next progress report (any process) and aborts ctx.signal.
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import crypto from 'node:crypto';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Server as SocketServer } from 'socket.io';
import type { Session } from '../app/env.ts';
import type { PermissionKey } from '../generated/permissions.ts';
import { can } from '../auth/users.ts';
import { HttpError } from '../http/envelope.ts';
import { withCompany } from '../db/rls.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { tenantOnly } from '../tenancy/scope.ts';
import { serialize, type Row } from '../crud/query.ts';
import { emitChange, events, type RowChange } from '../realtime/events.ts';
import { userRoom } from '../realtime/index.ts';
import { registerActions, type ActionHandler } from '../crud/actions.ts';
import { plain } from '../crud/history.ts';

export type JobState = 'na_fila' | 'executando' | 'concluido' | 'falhou' | 'cancelado';
/** Socket push with a job's state (to the user who started it). */
export const JOB_PUSH = 'tarefa';
/** pg-boss's schema (created and upgraded by pg-boss itself at start: see startJobs). */
export const BOSS_SCHEMA = 'pgboss';

export interface JobContext<D = Record<string, unknown>> {
  /** The job's id (register tarefa). */
  id: number;
  data: D;
  empresa: number;
  usuario: number | null;
  /** Reports progress (done of total, optional pt-BR step text): written to the row and pushed. Throws JobCancelled
   *  when the job was cancelled meanwhile (from any process). */
  progress: (done: number, total: number, message?: string) => Promise<void>;
  /** Aborted on cancel and on server shutdown (the job is then retried from the start after the restart). */
  signal: AbortSignal;
  /** ORM in the job's company (RLS as rastro_app, like a request): name rows with scopeWhere/companyOnly as usual. */
  em: EntityManager;
  /** SQL in the job's company (`?` placeholders, RLS). */
  sql: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  /** The system role's pool, for tables the app role may only read (telemetria.*): the handler writes only rows it
   *  found through `sql`/`em` (the company's). */
  system: pg.Pool;
  log: Logger;
}

export interface JobKind<D = Record<string, unknown>> {
  /** Unique name (register tarefa.tipo, route /api/tarefa/inicia/{name}, pg-boss queue). */
  name: string;
  /** The key that may start it and cancel it. */
  permission: PermissionKey;
  /** pt-BR text of a job of this kind (tarefa.descricao), e.g. 'Recalcular viagens (2 ativos, 01/05 a 07/05)'. */
  describe: (data: D) => string;
  /** Checks and normalizes the start request's data in the caller's company (request em); throws HttpError 4xx. */
  prepare?: (data: unknown, ctx: { em: EntityManager; session: Session }) => Promise<D>;
  /** The work; answers a pt-BR result summary. Must be idempotent: an interrupted job runs again from the start. */
  handler: (ctx: JobContext<D>) => Promise<string | void>;
}

export const defineJob = <D>(k: JobKind<D>): JobKind<D> => k;

/** A failure whose message is for the user (pt-BR); other errors are logged and shown as a generic message. */
export class JobError extends Error {}
export class JobCancelled extends Error { constructor() { super('Tarefa cancelada'); } }
class Shutdown extends Error { constructor() { super('Servidor parando'); } }

const queueOf = (kind: string) => `tarefa.${kind}`;
const MSG = {
  erro: 'Erro inesperado ao executar a tarefa. Tente novamente; se persistir, avise o suporte.',
  retomada: 'Retomada após o reinício do servidor',
  interrompida: 'Interrompida pela parada do servidor; será retomada',
  semTipo: 'Tipo de tarefa desconhecido',
};

const extraKinds: JobKind<any>[] = [];
/** Kinds outside the modules (tests): registered before the server starts. */
export function registerJobKind(k: JobKind<any>): void { extraKinds.push(k); }

/** Every declared kind of this process (modules' and registered ones), filled by startJobs. */
const kindRegistry = new Map<string, JobKind<any>>();
const services = new WeakMap<object, JobService>();
const serviceOf = (em: EntityManager) => {
  const s = services.get(em.getDriver());
  if (!s) throw new Error('tarefas em segundo plano não iniciadas');
  return s;
};

/** The kind named `tipo` (404 pt-BR when unknown). */
export function jobKind(tipo: string): JobKind<any> {
  const k = kindRegistry.get(tipo);
  if (!k) throw new HttpError(404, MSG.semTipo);
  return k;
}

/**
 * Starts a job of kind `tipo` for the caller (403 without the kind's key): writes its row in the caller's company
 * and hands it to pg-boss once the row is committed. With a plain request em, call `queued()` with the answer's
 * change; from an action handler (a transaction), return it in `changes`: the runtime emits it after commit.
 */
export async function startJob(em: EntityManager, session: Session, tipo: string, raw: unknown): Promise<{ row: Row; change: RowChange }> {
  const kind = jobKind(tipo);
  if (!can(session, kind.permission)) throw new HttpError(403, 'Você não tem permissão para fazer isso');
  const service = serviceOf(em);
  const data = kind.prepare ? await kind.prepare(raw, { em, session }) : (raw ?? {}) as never;
  const entity = entityByKey('tarefa')!;
  const row = em.create(ormName(em, entity), {
    ...tenantOnly(entity, session), tipo, descricao: kind.describe(data).slice(0, 200), estado: 'na_fila', progresso: 0, feito: 0,
    usuario: session.apiKey ? null : session.usuarioId, dados: data, permissao: kind.permission, tentativas: 0,
    // this server's mark: its service (not another server's of the same process) sends it after commit
    filaId: service.mark,
  } as never) as Row;
  await em.flush();
  const after = plain(entity, row);
  return { row: serialize(entity, row) as Row, change: { entity: 'tarefa', id: Number(row.id), op: 'create', before: null, after } };
}

/** After a start's row is committed (a plain request em: at once). */
export const queued = (change: RowChange) => emitChange(change);

/** Cancelar (metadata/adm/tarefa.yaml): the kind's key too; the runner stops the handler at its next progress. */
const cancela: ActionHandler = async (ctx) => {
  const { row, session, entity } = ctx;
  if (row.permissao && !can(session, String(row.permissao))) throw new HttpError(403, 'Você não tem permissão para fazer isso');
  const before = plain(entity, row);
  ctx.tx.assign(row as never, { estado: 'cancelado', terminadoEm: new Date(), mensagem: 'Cancelada pelo usuário' } as never);
  await ctx.tx.flush();
  const after = plain(entity, row);
  return { body: serialize(entity, row), changes: [{ entity: 'tarefa', id: Number(row.id), op: 'cancela', before, after }] };
};
registerActions('tarefas', { tarefa_cancela: cancela });

interface TarefaRow {
  id: number; empresa_id: number; usuario_id: number | null; tipo: string; descricao: string; estado: JobState; progresso: number;
  feito: number; total: number | null; mensagem: string | null; resultado: string | null; erro: string | null; dados: unknown; tentativas: number;
  versao: string;
}
// versao: updated_at in microseconds (each update is its own statement, so it grows): a screen keeps the newest push
// of a job whatever order pushes reach it in.
const COLS = `id, empresa_id, usuario AS usuario_id, tipo, descricao, estado, progresso, feito, total, mensagem, resultado, erro, dados, tentativas,
  floor(extract(epoch FROM updated_at) * 1000000)::bigint::text AS versao`;

/** What the socket push carries (the row's API names). */
function pushOf(r: TarefaRow) {
  return { id: r.id, tipo: r.tipo, descricao: r.descricao, estado: r.estado, progresso: r.progresso, feito: r.feito, total: r.total,
    mensagem: r.mensagem, resultado: r.resultado, erro: r.erro, versao: r.versao };
}

export interface JobService {
  kinds: Map<string, JobKind<any>>;
  /** tarefa.fila_id of a row this server wrote and has not sent yet. */
  mark: string;
  /** Sends the row's job to pg-boss (idempotent: a row already sent is skipped). */
  enqueue(id: number): Promise<void>;
  /** Resolves when no handler runs in this process (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  orm: MikroORM; url: string; log: Logger; io: SocketServer; kinds: JobKind<any>[];
  /** Push at most this often per job (ms); the last state always goes. */
  pushEveryMs?: number;
}

/**
 * Starts pg-boss on the app's database and a worker per kind. pg-boss's schema is created (or upgraded) by pg-boss's
 * own migrate at start, not by a committed migration: pg-boss versions its schema itself (pgboss.version and its
 * migration plans, run under an advisory lock, so several processes may start at once) and its DDL is tied to the
 * installed package — a copy in our migrations would go stale at the next pg-boss upgrade and the two would fight.
 * Nothing of ours reads the pgboss schema; rastro_app has no grant on it.
 */
export async function startJobs(o: StartJobsOptions): Promise<JobService> {
  const { orm, log } = o;
  const kinds = new Map<string, JobKind<any>>();
  for (const k of [...o.kinds, ...extraKinds]) {
    if (kinds.has(k.name)) throw new Error(`tarefa '${k.name}' declarada duas vezes`);
    kinds.set(k.name, k);
    kindRegistry.set(k.name, k);
  }
  const mark = `novo:${crypto.randomUUID()}`;
  const system = new pg.Pool({ connectionString: o.url, max: 3, application_name: 'rastro-tarefas' });
  // An idle client's error (the database went away) must not crash the process: the next query fails instead.
  system.on('error', (err) => log.warn({ err: err.message }, 'tarefas: conexão perdida'));
  const q = async <T = TarefaRow>(sql: string, params: unknown[] = []) => (await system.query(sql, params)).rows as T[];
  const boss = new PgBoss({ connectionString: o.url, schema: BOSS_SCHEMA, max: 4, application_name: 'rastro-pgboss', migrate: true, supervise: true, schedule: false });
  boss.on('error', (err) => log.error({ err: (err as Error).message }, 'pg-boss'));
  await boss.start();
  const running = new Map<number, { ac: AbortController; done: Promise<void> }>();
  let stopping = false;
  const lastPush = new Map<number, number>();
  const push = (r: TarefaRow, force = false) => {
    if (!r.usuario_id) return;
    const now = Date.now();
    if (!force && now - (lastPush.get(r.id) ?? 0) < (o.pushEveryMs ?? 200)) return;
    lastPush.set(r.id, now);
    o.io.to(userRoom(r.usuario_id)).emit(JOB_PUSH, pushOf(r));
  };

  const enqueue = async (id: number) => {
    if (stopping) return;
    // claimed first (one sender), then sent; a crash in between leaves it to the next start's sweep
    const [r] = await q<{ tipo: string }>(`UPDATE tarefa SET fila_id = 'enviando' WHERE id = $1 AND fila_id = $2 AND estado = 'na_fila' RETURNING tipo`, [id, mark]);
    if (!r || !kinds.has(r.tipo)) return;
    const jobId = await boss.send(queueOf(r.tipo), { tarefa: id }, { retryLimit: 5, retryDelay: 1 });
    await q('UPDATE tarefa SET fila_id = $2 WHERE id = $1', [id, jobId]);
  };

  const run = async (tarefa: number, signal: AbortSignal, kind: JobKind<any>) => {
    const [start] = await q(`UPDATE tarefa SET estado = 'executando', iniciado_em = coalesce(iniciado_em, now()), tentativas = tentativas + 1,
        mensagem = CASE WHEN tentativas > 0 THEN $2 ELSE mensagem END, updated_at = now()
      WHERE id = $1 AND estado IN ('na_fila', 'executando') RETURNING ${COLS}`, [tarefa, MSG.retomada]);
    if (!start) return; // cancelled (or finished) meanwhile
    push(start, true);
    const ac = new AbortController();
    const onAbort = () => ac.abort(new Shutdown());
    signal.addEventListener('abort', onAbort, { once: true });
    let finish!: () => void;
    running.set(tarefa, { ac, done: new Promise((r) => { finish = r; }) });
    const [{ ambiente_id: ambiente }] = await q<{ ambiente_id: number }>('SELECT ambiente_id FROM empresa WHERE id = $1', [start.empresa_id]);
    let lastWrite = 0;
    const progress = async (done: number, total: number, message?: string) => {
      if (ac.signal.aborted) throw ac.signal.reason;
      const now = Date.now();
      const last = done >= total;
      if (!last && now - lastWrite < 250) return;
      lastWrite = now;
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
      const [r] = await q(`UPDATE tarefa SET feito = $2, total = $3, progresso = $4, mensagem = coalesce($5, mensagem), updated_at = now()
        WHERE id = $1 AND estado = 'executando' RETURNING ${COLS}`, [tarefa, done, total, pct, message ?? null]);
      if (!r) { ac.abort(new JobCancelled()); throw new JobCancelled(); }
      push(r, last);
    };
    try {
      const em = orm.em.fork();
      const result = await withCompany(start.empresa_id, () => kind.handler({
        id: tarefa, data: start.dados as never, empresa: start.empresa_id, usuario: start.usuario_id, progress, signal: ac.signal, em,
        sql: (sql, params = []) => em.getConnection().execute(sql, params) as Promise<Record<string, unknown>[]>,
        system, log: log.child({ tarefa, tipo: kind.name }),
      }), ambiente);
      if (ac.signal.aborted) throw ac.signal.reason;
      const [r] = await q(`UPDATE tarefa SET estado = 'concluido', progresso = 100, feito = coalesce(total, feito), resultado = $2, erro = NULL,
          mensagem = 'Concluída', terminado_em = now(), updated_at = now() WHERE id = $1 AND estado = 'executando' RETURNING ${COLS}`, [tarefa, result || null]);
      if (r) push(r, true);
    } catch (err) {
      const reason = ac.signal.aborted ? ac.signal.reason : err;
      if (reason instanceof Shutdown) {
        // back to the queue: pg-boss retries it (from the start) once a worker runs again
        const [r] = await q(`UPDATE tarefa SET estado = 'na_fila', mensagem = $2, updated_at = now() WHERE id = $1 AND estado = 'executando' RETURNING ${COLS}`, [tarefa, MSG.interrompida]);
        if (r) push(r, true);
        throw reason;
      }
      if (reason instanceof JobCancelled) {
        const [r] = await q(`SELECT ${COLS} FROM tarefa WHERE id = $1`, [tarefa]);
        if (r) push(r, true);
        return;
      }
      const msg = err instanceof JobError || err instanceof HttpError ? (err as Error).message : MSG.erro;
      if (!(err instanceof JobError)) log.error({ err: (err as Error).message, stack: (err as Error).stack, tarefa }, 'tarefa falhou');
      const [r] = await q(`UPDATE tarefa SET estado = 'falhou', erro = $2, mensagem = 'Falhou', terminado_em = now(), updated_at = now()
        WHERE id = $1 AND estado = 'executando' RETURNING ${COLS}`, [tarefa, msg]);
      if (r) push(r, true);
    } finally {
      signal.removeEventListener('abort', onAbort);
      running.delete(tarefa);
      lastPush.delete(tarefa);
      finish();
    }
  };

  for (const kind of kinds.values()) {
    const name = queueOf(kind.name);
    if (!(await boss.getQueue(name))) await boss.createQueue(name, { heartbeatSeconds: 30, expireInSeconds: 6 * 3600, retryLimit: 5, retryDelay: 1 });
    await boss.work<{ tarefa: number }>(name, { pollingIntervalSeconds: 1, localConcurrency: 2 }, async (jobs) => {
      for (const job of jobs) {
        if (stopping) throw new Shutdown();
        await run(job.data.tarefa, job.signal, kind);
      }
    });
  }

  // Rows committed but never handed to pg-boss (their process stopped in between; another live process sends its
  // own within milliseconds, hence the 30 s): sent now.
  const orphans = await q<{ id: number }>(`UPDATE tarefa SET fila_id = $1 WHERE estado = 'na_fila' AND (fila_id IS NULL OR (fila_id LIKE 'novo:%' AND updated_at < now() - interval '30 seconds')) RETURNING id`, [mark]);
  for (const r of orphans.sort((a, b) => a.id - b.id)) await enqueue(r.id).catch((err) => log.error({ err: (err as Error).message }, 'tarefa: falha ao enfileirar'));

  // A committed start (startJob → its change) goes to the queue; a cancel aborts the handler here at once.
  const onChange = (c: RowChange) => {
    if (c.entity !== 'tarefa') return;
    if (c.op === 'create') void enqueue(c.id).catch((err) => log.error({ err: (err as Error).message }, 'tarefa: falha ao enfileirar'));
    if (c.op === 'cancela') running.get(c.id)?.ac.abort(new JobCancelled());
  };
  events.on('change', onChange);

  const service: JobService = {
    kinds, mark,
    enqueue,
    idle: async () => { while (running.size) await Promise.all([...running.values()].map((r) => r.done)); },
    stop: async () => {
      stopping = true;
      events.off('change', onChange);
      // handlers stop at their next progress report; their jobs go back to the queue (retried after the restart)
      for (const r of running.values()) r.ac.abort(new Shutdown());
      await Promise.race([service.idle(), new Promise((r) => setTimeout(r, 10_000))]);
      await boss.stop({ graceful: true, timeout: 2000, close: true }).catch(() => undefined);
      await system.end();
    },
  };
  services.set(orm.em.getDriver(), service);
  return service;
}

