// Report spool, sharing and scheduled e-mails.
// - Job relatorio_gera: exportReport in the background (progress pushed by server/jobs), the file kept in the uploads
//   storage and listed for the user in relatorio_gerado (/rel/rel/relatorios/gerados); GET /api/spool/get/{id}/{formato}
//   answers it (another user's or company's row: 404 — the row is read through the owner/company scope).
// - Another format of a spooled report: POST /api/spool/gera/{id}/{formato} starts job relatorio_formato, which exports
//   it from the row's request (pedido) into the storage too (relatorio_gerado.formatos[formato]); the row's state goes
//   to the user's sockets (push `relatorio_gerado`, the list's refreshOn) — never exported inside a request.
// - POST /api/spool/share/{id} { usuarios }: a row of their own for colleagues of the same company (+ a notificacao);
//   { link: true, dias }: a share link, GET /api/report/get/{token} with no sign-in (random token, only its SHA-256
//   kept, expires after `dias` days or with the row, revoked by DELETE /api/spool/share/{id}).
// - POST /api/spool/{id}/comment { comentario }: the owner's note on the row.
// - agendamento_relatorio: the minute tick (start) claims due schedules, starts job relatorio_agendado as the schedule's
//   author (their keys today), which spools the file and e-mails it; the same tick deletes expired spool rows/files.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context, Hono } from 'hono';
import type { AppEnv, Session } from '../../../server/app/env.ts';
import { can, findUser, rolesAndPermissions } from '../../../server/auth/users.ts';
import { trySendMail } from '../../../server/auth/mail.ts';
import type { ModuleStart } from '../../../server/core/module.ts';
import crypto from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { publicRoute, route } from '../../../server/core/pipeline.ts';
import { sha256 } from '../../../server/auth/tokens.ts';
import { clientIp } from '../../../server/auth/routes.ts';
import { sessionFromCookie } from '../../../server/auth/middleware.ts';
import { empresaUsable, findEmpresa } from '../../../server/auth/users.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { invalid, type WriteHook } from '../../../server/crud/hooks.ts';
import { readPayload, type ActionHandler } from '../../../server/crud/actions.ts';
import { serialize, type Row } from '../../../server/crud/query.ts';
import { withCompany } from '../../../server/db/rls.ts';
import { perOrm } from '../../../server/db/per-orm.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { JobCancelled, JobError, defineJob, queued, startJob, type JobContext } from '../../../server/jobs/index.ts';
import { inCompany, qParams, scopeSql, scopeWhere, tenantOnly } from '../../../server/tenancy/scope.ts';
import { userRoom } from '../../../server/realtime/index.ts';
import type { Server as SocketServer } from 'socket.io';
import { newKey, type Storage } from '../../../server/uploads/storage.ts';
import { REPORTS_KEY } from '../../../shared/relatorio.ts';
import { REPORT_FORMATS, exportReport, type ReportFile, type ReportFormat } from './export.ts';
import { checkParams, findReport, type ReportRequest } from './reports.ts';
import { PERIODOS, fusoHorario, periodoRelativo, proximoEnvio, type PeriodoRelativo } from './periodo.ts';
import { requestEm } from '../../../server/db/context.ts';

export const SPOOL_KEY = 'rel.rel.relatorios.gerados';
const spoolDias = () => Number(process.env.RELATORIO_SPOOL_DIAS ?? 7);
const tickMs = () => Number(process.env.AGENDAMENTO_TICK_MS ?? 60_000);
const mailTries = () => Number(process.env.AGENDAMENTO_TENTATIVAS ?? 3);
const NAO_ENCONTRADO = 'Relatório gerado não encontrado';

let storage: Storage | undefined;
const store = () => { if (!storage) throw new Error('armazenamento de relatórios não iniciado'); return storage; };
let sockets: SocketServer | undefined;
/** Socket push to the row's user when a format of theirs changes state (the list reads its page again). */
export const SPOOL_PUSH = 'relatorio_gerado';

const ent = (key: string) => entityByKey(key)!;

/** The author's session in the job's company: their roles and keys as they are now. */
async function sessionOf(em: EntityManager, empresa: number, usuario: number | null): Promise<Session> {
  const u = usuario ? await findUser(em, usuario) : null;
  if (!u || u.ativo === false) throw new JobError('O usuário que pediu o relatório não existe mais ou está inativo');
  const { roles, permissoes } = await rolesAndPermissions(em, u, empresa);
  const [{ ambiente }] = await em.getConnection().execute('SELECT ambiente_id AS ambiente FROM empresa WHERE id = ?', [empresa]) as { ambiente: number }[];
  return { id: 0, usuarioId: Number(u.id), login: String(u.login), ambienteId: Number(ambiente), empresaAtiva: empresa, empresas: [empresa], roles, permissoes };
}

const kb = (n: number) => (n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} KB` : `${(n / (1 << 20)).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`);

interface Spooled { row: Row; file: Pick<ReportFile, 'title' | 'filename' | 'contentType' | 'total' | 'parametros'>; body: Buffer }

/** Exports the report as the job's author (progress reported to the job) and keeps the file in the storage. */
async function render(ctx: JobContext<any>, session: Session, req: ReportRequest, formato: ReportFormat): Promise<{ file: ReportFile; body: Buffer; key: string }> {
  let pending: Promise<void> = Promise.resolve();
  const file = await exportReport({ em: ctx.em, session }, req, formato, (d, t) => {
    pending = pending.then(() => ctx.progress(d, t, `${d.toLocaleString('pt-BR')} de ${t.toLocaleString('pt-BR')} linhas`));
  });
  const parts: Buffer[] = [];
  for await (const chunk of file.chunks) {
    parts.push(Buffer.from(chunk));
    await pending;
  }
  await pending;
  const body = Buffer.concat(parts);
  const key = newKey(formato);
  await store().put(key, body, file.contentType);
  return { file, body, key };
}

/** Exports the report as the job's author and keeps it in the spool (again from the start when re-run: a row of this
 *  job already written is answered as is). */
async function spool(ctx: JobContext<any>, session: Session, req: ReportRequest, formato: ReportFormat): Promise<Spooled> {
  const e = ent('relatorio_gerado');
  const name = ormName(ctx.em, e);
  const done = (await ctx.em.findOne(name, { tarefa: ctx.id, compartilhadoPor: null, ...scopeWhere(e, session) } as never)) as Row | null;
  if (done) {
    const body = await store().get(String(done.arquivo));
    if (body) return { row: done, body, file: { title: String(done.titulo), filename: String(done.nomeArquivo), contentType: '', total: Number(done.linhas), parametros: [] } };
  }
  const { file, body, key } = await render(ctx, session, req, formato);
  const now = new Date();
  const row = ctx.em.create(name, {
    ...tenantOnly(e, session), usuario: session.usuarioId, titulo: file.title.slice(0, 200), familia: req.familia, tipo: req.tipo,
    parametros: file.parametros.map(([k, v]) => `${k}: ${v}`).join('; ') || '—', formato, tamanho: body.length, linhas: file.total,
    situacao: 'disponivel', arquivo: key, nomeArquivo: file.filename, tarefa: ctx.id, geradoEm: now,
    expiraEm: new Date(now.getTime() + spoolDias() * 86_400_000),
    pedido: { familia: req.familia, tipo: req.tipo, params: req.params, colunas: req.colunas ?? null, sort: req.sort ?? null, fuso: req.fuso ?? null },
  } as never) as Row;
  await ctx.em.flush();
  return { row, file, body };
}

// ---------- job: generate into the spool ----------

interface GeraData { familia: string; tipo: string; params: Record<string, unknown>; colunas?: string[]; sort?: ReportRequest['sort']; fuso?: string; formato: ReportFormat }

const labelOf = (familia: string, tipo: string) => {
  try { const { family, kind } = findReport(familia, tipo); return `${family.label} — ${kind.label}`; } catch { return `${familia}/${tipo}`; }
};

export const geraJob = defineJob<GeraData>({
  name: 'relatorio_gera',
  permission: REPORTS_KEY as PermissionKey,
  describe: (d) => `Gerar relatório ${labelOf(d.familia, d.tipo)} (${d.formato.toUpperCase()})`,
  prepare: async (raw, { session }) => {
    const b = (raw ?? {}) as Partial<GeraData>;
    const formato = (b.formato ?? 'xlsx') as ReportFormat;
    if (!REPORT_FORMATS.includes(formato)) throw badRequest('Formato de exportação inválido: use xlsx, csv ou pdf');
    const { family, kind } = findReport(String(b.familia ?? ''), String(b.tipo ?? ''));
    if (!can(session, family.permission)) throw new HttpError(403, 'Você não tem permissão para fazer isso');
    if (!can(session, `${SPOOL_KEY}.lista`)) throw new HttpError(403, 'Você não tem permissão para fazer isso');
    checkParams(family, kind, b.params);
    return { familia: family.key, tipo: kind.key, params: b.params as Record<string, unknown>, colunas: b.colunas, sort: b.sort, fuso: b.fuso, formato };
  },
  handler: async (ctx) => {
    const session = await sessionOf(ctx.em, ctx.empresa, ctx.usuario);
    const d = ctx.data;
    const { family } = findReport(d.familia, d.tipo);
    if (!can(session, family.permission)) throw new JobError('Você não tem mais permissão para este relatório');
    const s = await spool(ctx, session, { familia: d.familia, tipo: d.tipo, params: d.params, colunas: d.colunas, sort: d.sort, fuso: d.fuso }, d.formato);
    return `Relatório gerado: ${s.file.total.toLocaleString('pt-BR')} linhas, ${kb(s.body.length)}`;
  },
});

// ---------- job: another format of a spooled report ----------

/** A format of a row besides its own file (relatorio_gerado.formatos[formato]). */
export interface FormatoGerado {
  estado: 'gerando' | 'disponivel' | 'falhou';
  tarefa?: number | null; arquivo?: string; tamanho?: number; nomeArquivo?: string; erro?: string;
}
type Pedido = ReportRequest & { colunas?: string[] | null; sort?: ReportRequest['sort'] | null; fuso?: string | null };

const formatosOf = (row: Row): Partial<Record<ReportFormat, FormatoGerado>> =>
  (typeof row.formatos === 'string' ? JSON.parse(row.formatos) : row.formatos) ?? {};
const upper = (f: string) => f.toUpperCase();

/**
 * Writes formatos[formato] (null: removes it) of a row the session's scope sees. With `se`, only while the entry is
 * still in that state (estado and tarefa; null: no entry): answers whether it was written — two requests for the
 * same format start one job.
 */
async function setFormato(em: EntityManager, session: Session, id: number, formato: ReportFormat, v: FormatoGerado | null,
  se?: { estado: string | null; tarefa: number | null }): Promise<boolean> {
  const e = ent('relatorio_gerado');
  // `?` placeholders: values are added in the order they appear in the text
  const p = qParams();
  const set = v
    ? `coalesce(r.formatos, '{}'::jsonb) || jsonb_build_object(${p.add(formato)}::text, ${p.add(JSON.stringify(v))}::jsonb)`
    : `coalesce(r.formatos, '{}'::jsonb) - ${p.add(formato)}::text`;
  let where = `r.id = ${p.add(id)} AND ${scopeSql(e, session, 'r', p)}`;
  if (se) {
    where += ` AND coalesce(r.formatos -> ${p.add(formato)} ->> 'estado', '') = ${p.add(se.estado ?? '')}`
      + ` AND coalesce(r.formatos -> ${p.add(formato)} ->> 'tarefa', '') = ${p.add(se.tarefa == null ? '' : String(se.tarefa))}`;
  }
  const rows = await em.getConnection().execute(`UPDATE ${e.table} r SET formatos = ${set} WHERE ${where} RETURNING r.id`, p.values);
  return rows.length > 0;
}

/** Tells the row's user's sockets that a format changed state (the list of Relatórios gerados reads its page again). */
function pushFormato(usuario: number, id: number, formato: ReportFormat, estado: FormatoGerado['estado'] | null): void {
  sockets?.to(userRoom(usuario)).emit(SPOOL_PUSH, { id, formato, estado });
}

/** The pedido of a row and its family, or why another format cannot be produced (404 / 403). */
function pedidoOf(row: Row, session: Session): Pedido {
  const pedido = row.pedido as Pedido | null;
  if (!pedido?.familia) throw new HttpError(404, `Este relatório está disponível só em ${upper(String(row.formato))}`);
  const { family } = findReport(pedido.familia, pedido.tipo);
  if (!can(session, family.permission)) throw new HttpError(403, 'Você não tem permissão para fazer isso');
  return pedido;
}

/** The tarefa still working on a format (queued or running), if any. */
async function running(em: EntityManager, session: Session, tarefa: number | null | undefined): Promise<boolean> {
  if (!tarefa) return false;
  const e = ent('tarefa');
  const t = (await em.findOne(ormName(em, e), { id: tarefa, ...scopeWhere(e, session) } as never)) as Row | null;
  return !!t && (t.estado === 'na_fila' || t.estado === 'executando');
}

interface FormatoData { gerado: number; formato: ReportFormat; relatorio: string }

export const formatoJob = defineJob<FormatoData>({
  name: 'relatorio_formato',
  permission: `${SPOOL_KEY}.visualizar` as PermissionKey,
  describe: (d) => `Gerar relatório ${d.relatorio} (${upper(d.formato)})`,
  prepare: async (raw, { em, session }) => {
    const b = (raw ?? {}) as Partial<FormatoData>;
    const formato = b.formato as ReportFormat;
    if (!REPORT_FORMATS.includes(formato)) throw badRequest('Formato de exportação inválido: use xlsx, csv ou pdf');
    const e = ent('relatorio_gerado');
    const id = Number(b.gerado);
    const row = Number.isSafeInteger(id) ? ((await em.findOne(ormName(em, e), { id, ...scopeWhere(e, session) } as never)) as Row | null) : null;
    if (!row) throw new HttpError(404, NAO_ENCONTRADO);
    if (row.formato === formato) throw new HttpError(409, `O relatório em ${upper(formato)} já está disponível`);
    const pedido = pedidoOf(row, session);
    const atual = formatosOf(row)[formato];
    if (atual?.estado === 'disponivel') throw new HttpError(409, `O relatório em ${upper(formato)} já está disponível`);
    // gerando without a job yet: another request is between its claim and its start
    if (atual?.estado === 'gerando' && (!atual.tarefa || await running(em, session, atual.tarefa))) throw new HttpError(409, `O relatório em ${upper(formato)} já está sendo gerado`);
    // claimed only if nobody claimed it meanwhile
    const claimed = await setFormato(em, session, id, formato, { estado: 'gerando', tarefa: null }, { estado: atual?.estado ?? null, tarefa: atual?.tarefa ?? null });
    if (!claimed) throw new HttpError(409, `O relatório em ${upper(formato)} já está sendo gerado`);
    return { gerado: id, formato, relatorio: labelOf(pedido.familia, pedido.tipo) };
  },
  handler: async (ctx) => {
    const session = await sessionOf(ctx.em, ctx.empresa, ctx.usuario);
    const { gerado: id, formato } = ctx.data;
    const e = ent('relatorio_gerado');
    const row = (await ctx.em.findOne(ormName(ctx.em, e), { id, ...scopeWhere(e, session) } as never)) as Row | null;
    if (!row) throw new JobError('O relatório gerado não existe mais (expirou ou foi excluído)');
    const feito = formatosOf(row)[formato];
    if (feito?.estado === 'disponivel' && feito.arquivo && await store().get(feito.arquivo)) return `Relatório em ${upper(formato)} já disponível`;
    const usuario = session.usuarioId; // the row's owner (owner scope)
    await setFormato(ctx.em, session, id, formato, { estado: 'gerando', tarefa: ctx.id });
    pushFormato(usuario, id, formato, 'gerando');
    try {
      const p = pedidoOf(row, session);
      const { file, body, key } = await render(ctx, session, {
        familia: p.familia, tipo: p.tipo, params: p.params, colunas: p.colunas ?? undefined, sort: p.sort ?? undefined, fuso: p.fuso ?? undefined,
      }, formato);
      await setFormato(ctx.em, session, id, formato, { estado: 'disponivel', tarefa: ctx.id, arquivo: key, tamanho: body.length, nomeArquivo: file.filename });
      pushFormato(usuario, id, formato, 'disponivel');
      return `Relatório gerado: ${file.total.toLocaleString('pt-BR')} linhas, ${kb(body.length)}`;
    } catch (err) {
      if (err instanceof JobCancelled || ctx.signal.reason instanceof JobCancelled) {
        await setFormato(ctx.em, session, id, formato, null);
        pushFormato(usuario, id, formato, null);
      } else if (!ctx.signal.aborted) {
        // a server stopping leaves it 'gerando': the job runs again after the restart
        const erro = err instanceof HttpError || err instanceof JobError ? err.message : 'Erro inesperado ao gerar o relatório';
        await setFormato(ctx.em, session, id, formato, { estado: 'falhou', tarefa: ctx.id, erro });
        pushFormato(usuario, id, formato, 'falhou');
        if (err instanceof HttpError) throw new JobError(err.message);
      }
      throw err;
    }
  },
});

// ---------- job: a scheduled report by e-mail ----------

interface AgendadoData { agendamento: number; periodo: { inicio: string; fim: string } }

export const emailsOf = (s: string) => s.split(/[,;\s]+/).map((x) => x.trim()).filter(Boolean);
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** The e-mail's text (pt-BR). */
export function corpoEmail(descricao: string, titulo: string, parametros: [string, string][], formato: string, linhas: number): string {
  return [
    'Olá,',
    '',
    `Segue em anexo o relatório agendado "${descricao}".`,
    '',
    `Relatório: ${titulo}`,
    ...parametros.map(([k, v]) => `${k}: ${v}`),
    `Formato: ${formato.toUpperCase()} (${linhas.toLocaleString('pt-BR')} ${linhas === 1 ? 'linha' : 'linhas'})`,
    '',
    'Este e-mail foi enviado automaticamente pelo Rastro. Para alterar ou cancelar o envio, acesse Relatórios › Agendamentos.',
  ].join('\n');
}

export const agendadoJob = defineJob<AgendadoData>({
  name: 'relatorio_agendado',
  permission: 'rel.rel.agendamento.adicionar' as PermissionKey,
  describe: (d) => `Enviar relatório agendado nº ${d.agendamento}`,
  handler: async (ctx) => {
    const session = await sessionOf(ctx.em, ctx.empresa, ctx.usuario);
    const e = ent('agendamento_relatorio');
    const a = (await ctx.em.findOne(ormName(ctx.em, e), { id: ctx.data.agendamento, ...scopeWhere(e, session) } as never)) as Row | null;
    if (!a) throw new JobError('Agendamento não encontrado');
    const fail = async (msg: string) => {
      ctx.em.assign(a as never, { ultimoErro: msg } as never);
      await ctx.em.flush();
      return new JobError(msg);
    };
    const { family } = findReport(String(a.familia), String(a.tipo));
    if (!can(session, family.permission)) throw await fail(`O autor do agendamento não tem mais permissão para o relatório ${family.label}`);
    let s: Spooled;
    try {
      s = await spool(ctx, session, { familia: String(a.familia), tipo: String(a.tipo), params: { ...(a.parametros as object ?? {}), periodo: ctx.data.periodo }, fuso: fusoHorario() }, a.formato as ReportFormat);
    } catch (err) {
      if (err instanceof HttpError) throw await fail(err.message);
      throw err;
    }
    const parametros = s.file.parametros.length ? s.file.parametros : [['Parâmetros', String(s.row.parametros)] as [string, string]];
    const mail = {
      to: emailsOf(String(a.destinatario)).join(', '), subject: String(a.assuntoEmail),
      text: corpoEmail(String(a.descricao), s.file.title, parametros, String(a.formato), s.file.total),
      attachments: [{ filename: String(s.row.nomeArquivo), content: s.body, contentType: s.file.contentType || undefined }],
    };
    let erro: string | null = null;
    for (let i = 1; i <= mailTries(); i++) {
      erro = await trySendMail(mail, ctx.log);
      if (!erro) break;
      if (i < mailTries()) await new Promise((r) => setTimeout(r, 1000 * i));
    }
    if (erro) throw await fail(`Falha ao enviar o e-mail após ${mailTries()} tentativas: ${erro}`);
    ctx.em.assign(a as never, { ultimoEnvio: new Date(), ultimoErro: null } as never);
    await ctx.em.flush();
    return `Relatório enviado para ${mail.to} (${s.file.total.toLocaleString('pt-BR')} linhas, ${kb(s.body.length)})`;
  },
});

// ---------- schedule register hook ----------

export const agendamentoHook: WriteHook = async ({ data, existing, session }) => {
  const get = (k: string) => (k in data ? data[k] : existing?.[k]);
  if (!existing) {
    if (session.apiKey) throw new HttpError(400, 'Agendamentos são criados por um usuário (não por chave de API)');
    data.usuario = session.usuarioId;
  }
  const familia = String(get('familia') ?? ''), tipo = String(get('tipo') ?? '');
  let found;
  try { found = findReport(familia, tipo); } catch { throw invalid('tipo', 'Tipo', `Relatório desconhecido: ${familia}/${tipo}`); }
  if (!can(session, found.family.permission)) throw new HttpError(403, 'Você não tem permissão para fazer isso');
  const periodo = get('periodo') as PeriodoRelativo;
  const params = get('parametros');
  if (params != null && (typeof params !== 'object' || Array.isArray(params))) throw invalid('parametros', 'Filtros', 'Filtros inválidos');
  try { checkParams(found.family, found.kind, { ...(params as object ?? {}), periodo: periodoRelativo(periodo, new Date()) }); } catch (err) {
    throw invalid('parametros', 'Filtros', (err as Error).message);
  }
  const emails = emailsOf(String(get('destinatario') ?? ''));
  if (!emails.length) throw invalid('destinatario', 'Destinatários', 'Informe ao menos um e-mail');
  const bad = emails.find((x) => !EMAIL.test(x));
  if (bad) throw invalid('destinatario', 'Destinatários', `E-mail inválido: ${bad}`);
  if (emails.length > 20) throw invalid('destinatario', 'Destinatários', 'No máximo 20 destinatários');
  if ('destinatario' in data) data.destinatario = emails.join(', ');
  data.dataEnvio = get('ativo') === false ? null
    : proximoEnvio({ frequencia: get('frequencia') as never, horaEnvio: String(get('horaEnvio')), diaSemana: get('diaSemana') as number, diaMes: get('diaMes') as number }, new Date());
};

// ---------- routes ----------

const MIME: Record<string, string> = {
  csv: 'text/csv; charset=utf-8', pdf: 'application/pdf', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function spoolRoutes(api: Hono<AppEnv>): void {
  // the list's download buttons are plain links the browser opens: its token cookie identifies the session (read-only GET)
  api.get('/spool/get/:id/:formato', sessionFromCookie());
  route(api, 'get', '/spool/get/:id/:formato', { permission: [`${SPOOL_KEY}.visualizar` as PermissionKey], scope: 'empresa' }, async (c) => {
    const e = ent('relatorio_gerado');
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id)) throw new HttpError(404, NAO_ENCONTRADO);
    const row = (await requestEm(c).findOne(ormName(requestEm(c), e), { id, ...scopeWhere(e, c.get('session')) } as never)) as Row | null;
    const formato = c.req.param('formato') as ReportFormat;
    if (!row || !REPORT_FORMATS.includes(formato)) throw new HttpError(404, NAO_ENCONTRADO);
    // the row's own file, or another format a job already produced (a missing one is never exported here: POST gera)
    const outro = row.formato === formato ? null : formatosOf(row)[formato];
    if (outro && outro.estado !== 'disponivel') {
      throw new HttpError(409, outro.estado === 'gerando' ? `O relatório em ${upper(formato)} ainda está sendo gerado` : `A geração do relatório em ${upper(formato)} falhou: ${outro.erro ?? ''}`.trim());
    }
    if (row.formato !== formato && !outro) {
      if (!(row.pedido as Pedido | null)?.familia) throw new HttpError(404, `Este relatório está disponível só em ${upper(String(row.formato))}`);
      throw new HttpError(409, `O relatório em ${upper(formato)} ainda não foi gerado: peça-o em Relatórios gerados`);
    }
    const arquivo = outro ? outro.arquivo : row.arquivo;
    const body = await c.get('storage').get(String(arquivo));
    if (!body) throw new HttpError(404, 'O arquivo deste relatório expirou');
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: { 'Content-Type': MIME[formato], 'Content-Disposition': `attachment; filename="${outro ? outro.nomeArquivo : row.nomeArquivo}"`, 'Cache-Control': 'no-store', 'Content-Length': String(body.length) },
    });
  });

  // Another format of a spooled report: already there → 200 with its address; being produced → 202 with its job;
  // otherwise job relatorio_formato is started (202). The row's state is pushed (SPOOL_PUSH) as it changes.
  route(api, 'post', '/spool/gera/:id/:formato', { permission: [`${SPOOL_KEY}.visualizar` as PermissionKey], scope: 'empresa' }, async (c) => {
    const em = requestEm(c);
    const session = c.get('session');
    const row = await ownRow(c);
    const id = Number(row.id);
    const formato = c.req.param('formato') as ReportFormat;
    if (!REPORT_FORMATS.includes(formato)) throw badRequest('Formato de exportação inválido: use xlsx, csv ou pdf');
    const url = `/api/spool/get/${id}/${formato}`;
    const atual = row.formato === formato ? { estado: 'disponivel' as const } : formatosOf(row)[formato];
    if (atual?.estado === 'disponivel') return ok(c, { estado: 'disponivel', url, tarefa: null }, `O relatório em ${upper(formato)} já está disponível`);
    pedidoOf(row, session);
    if (atual?.estado === 'gerando' && await running(em, session, atual.tarefa)) {
      return ok(c, { estado: 'gerando', url: null, tarefa: atual.tarefa }, `O relatório em ${upper(formato)} está sendo gerado`, 202);
    }
    let started;
    try {
      started = await startJob(em, session, formatoJob.name, { gerado: id, formato });
    } catch (err) {
      // another request claimed it a moment ago: the same answer as above
      if (err instanceof HttpError && err.status === 409) return ok(c, { estado: 'gerando', url: null, tarefa: null }, err.message, 202);
      throw err;
    }
    const tarefa = Number(started.row.id);
    await setFormato(em, session, id, formato, { estado: 'gerando', tarefa }, { estado: 'gerando', tarefa: null });
    queued(started.change);
    pushFormato(session.usuarioId, id, formato, 'gerando');
    return ok(c, { estado: 'gerando', url: null, tarefa }, `Gerando o relatório em ${upper(formato)}`, 202);
  });

  route(api, 'post', '/spool/share/:id', { permission: [`${SPOOL_KEY}.compartilhar` as PermissionKey], scope: 'empresa' }, async (c) => {
    const em = requestEm(c);
    const s = c.get('session');
    const e = ent('relatorio_gerado');
    const src = await ownRow(c);
    const body = (await readPayload(c.req)) as { usuarios?: unknown; link?: unknown; dias?: unknown };
    if (body?.link === true) {
      const token = await newLink(em, src, body.dias);
      return ok(c, { ...serialize(e, src), link: `/api${REPORT_PATH}/${token}` }, 'Link de compartilhamento criado');
    }
    const ids = Array.isArray(body?.usuarios) ? [...new Set(body.usuarios.map(Number))] : [];
    if (!ids.length || !ids.every((x) => Number.isSafeInteger(x) && x > 0)) throw badRequest('Informe os usuários (usuarios: [ids])');
    const ue = ent('usuario');
    const users = (await em.find(ormName(em, ue), { id: { $in: ids }, ...scopeWhere(ue, s) } as never)) as Row[];
    const inCompany = (u: Row) => (Array.isArray(u.empresas) ? u.empresas : []).map((x: unknown) => Number(typeof x === 'object' && x ? (x as Row).id : x)).includes(s.empresaAtiva);
    const ok2 = users.filter((u) => inCompany(u) && u.ativo !== false);
    const missing = ids.filter((x) => !ok2.some((u) => Number(u.id) === x));
    // another company's user reads as unknown (no hint that they exist)
    if (missing.length) throw badRequest(`Usuário não encontrado nesta empresa: ${missing.join(', ')}`);
    if (ok2.some((u) => Number(u.id) === s.usuarioId)) throw badRequest('O relatório já é seu');
    const name = ormName(em, e);
    const ne = ent('notificacao');
    const created: Row[] = [];
    for (const u of ok2) {
      created.push(em.create(name, {
        ...tenantOnly(e, s), usuario: Number(u.id), titulo: src.titulo, familia: src.familia, tipo: src.tipo, parametros: src.parametros,
        formato: src.formato, tamanho: src.tamanho, linhas: src.linhas, situacao: 'compartilhado', arquivo: src.arquivo, nomeArquivo: src.nomeArquivo,
        tarefa: null, compartilhadoPor: s.usuarioId, geradoEm: src.geradoEm, expiraEm: src.expiraEm, pedido: src.pedido ?? null,
        // the formats already produced go along (the files are shared; the others the colleague asks for themself)
        formatos: Object.fromEntries(Object.entries(formatosOf(src)).filter(([, v]) => v?.estado === 'disponivel')),
      } as never) as Row);
      em.create(ormName(em, ne), {
        ...tenantOnly(ne, s), usuario: Number(u.id), dataNotificacao: new Date(), tipo: 'informacao', lido: false,
        notificacao: `${s.login} compartilhou com você o relatório "${src.titulo}" (${String(src.formato).toUpperCase()}). Veja em Relatórios gerados.`,
        payload: { relatorioGerado: null, rota: '/rel/rel/relatorios/gerados' },
      } as never);
    }
    await em.flush();
    return ok(c, created.map((r) => serialize(e, r)), `Relatório compartilhado com ${ok2.length} ${ok2.length === 1 ? 'usuário' : 'usuários'}`);
  });

  route(api, 'delete', '/spool/share/:id', { permission: [`${SPOOL_KEY}.compartilhar` as PermissionKey], scope: 'empresa' }, async (c) => {
    const row = await ownRow(c);
    await revokeLink(requestEm(c), row);
    return ok(c, serialize(ent('relatorio_gerado'), row), 'Link de compartilhamento revogado');
  });

  route(api, 'post', '/spool/:id/comment', { permission: [`${SPOOL_KEY}.comentar` as PermissionKey], scope: 'empresa' }, async (c) => {
    const row = await ownRow(c);
    const body = (await readPayload(c.req)) as { comentario?: unknown };
    await setComment(requestEm(c), row, body?.comentario);
    return ok(c, serialize(ent('relatorio_gerado'), row), 'Comentário salvo');
  });

  publicRoute<Row>(api, REPORT_PATH + '/:token', {
    reason: 'share link of a generated report: its token (random, stored hashed, expiring, revocable) names one file of one company (modules/relatorios)',
    subject: async (c) => {
      const row = await rowOfToken(requestEm(c), c.req.param('token'), clientIp(c));
      return { empresaId: Number((row.empresaId as Row)?.id ?? row.empresaId), subject: row };
    },
  }, async (c) => {
    const row = c.get('publicSubject')!.subject as Row;
    const body = await c.get('storage').get(String(row.arquivo));
    if (!body) throw new HttpError(410, LINK_ENCERRADO);
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: { 'Content-Type': MIME[String(row.formato)], 'Content-Disposition': `attachment; filename="${row.nomeArquivo}"`, 'Cache-Control': 'no-store', 'Content-Length': String(body.length) },
    });
  });
}

// ---------- share links ----------

export const REPORT_PATH = '/report/get';
const LINK_DIAS = 7;
const LINK_TOKEN = /^rel_[A-Za-z0-9_-]{43}$/;
const LINK_ENCERRADO = 'Este link de relatório expirou ou foi revogado.';
const LINK_NAO_ENCONTRADO = 'Link de relatório não encontrado. Confira o endereço recebido.';
// Failed tokens per IP, as failed sign-ins (30 per 15 minutes, then blocked).
const linkFailuresOf = perOrm(() => new RateLimiterMemory({ keyPrefix: 'relatorio_link', points: Number(process.env.RELATORIO_LINK_MAX_FALHAS ?? 30), duration: 900, blockDuration: 900 }));

/** A new share link of the row (a previous one stops): the token, whose SHA-256 alone is kept; valid `dias` days
 *  (default 7, 1 to 30) and never past the row's own expiry. */
async function newLink(em: EntityManager, row: Row, diasIn: unknown): Promise<string> {
  const dias = diasIn === undefined || diasIn === null ? LINK_DIAS : Number(diasIn);
  if (!Number.isInteger(dias) || dias < 1 || dias > 30) throw badRequest('Validade do link inválida: informe de 1 a 30 dias');
  const token = `rel_${crypto.randomBytes(32).toString('base64url')}`;
  const validoAte = new Date(Math.min(Date.now() + dias * 86_400_000, new Date(row.expiraEm as string).getTime()));
  await setLink(em, row, sha256(token), validoAte);
  return token;
}

/** Writes the link columns (the hash is never read back by the app: a native update, then the row's expiry). */
async function setLink(em: EntityManager, row: Row, hash: string | null, validoAte: Date | null): Promise<void> {
  const e = ent('relatorio_gerado');
  await em.nativeUpdate(ormName(em, e), { id: Number(row.id) } as never, { linkToken: hash, linkValidoAte: validoAte } as never);
  em.assign(row as never, { linkValidoAte: validoAte } as never);
  await em.flush();
}

/** Ends the row's link (one is there while linkValidoAte is set: both are written together). */
async function revokeLink(em: EntityManager, row: Row): Promise<void> {
  if (!row.linkValidoAte) throw new HttpError(404, 'Este relatório não tem link de compartilhamento');
  await setLink(em, row, null, null);
}

async function setComment(em: EntityManager, row: Row, v: unknown): Promise<void> {
  if (v !== null && v !== undefined && typeof v !== 'string') throw badRequest('Informe o comentário (comentario)');
  if (typeof v === 'string' && v.length > 1000) throw badRequest('O comentário deve ter no máximo 1000 caracteres');
  em.assign(row as never, { comentario: typeof v === 'string' && v.trim() ? v.trim() : null } as never);
  await em.flush();
}

/** The row's "⋮" actions (metadata actions of relatorio_gerado): the same as the /spool routes. */
export const spoolActions: Record<string, ActionHandler> = {
  relatorio_gerado_link: async ({ tx, entity, row, payload }) => {
    const token = await newLink(tx, row, payload.dias);
    return { body: { ...serialize(entity, row), linkToken: token } };
  },
  relatorio_gerado_revoga: async ({ tx, entity, row }) => {
    await revokeLink(tx, row);
    return { body: serialize(entity, row) };
  },
  relatorio_gerado_comenta: async ({ tx, entity, row, payload }) => {
    await setComment(tx, row, payload.comentario ?? null);
    return { body: serialize(entity, row) };
  },
};

/** The caller's own spool row named by the path (another user's or company's: 404). */
async function ownRow(c: Context<AppEnv>): Promise<Row> {
  const e = ent('relatorio_gerado');
  const id = Number(c.req.param('id'));
  const row = Number.isSafeInteger(id) ? ((await requestEm(c).findOne(ormName(requestEm(c), e), { id, ...scopeWhere(e, c.get('session')) } as never)) as Row | null) : null;
  if (!row) throw new HttpError(404, NAO_ENCONTRADO);
  return row;
}

/** The spool row a share token names (by its hash), or why not: unknown 404 (counted per IP), ended 410. */
async function rowOfToken(em: EntityManager, token: unknown, ip: string): Promise<Row> {
  const linkFailures = linkFailuresOf(em);
  const blocked = await linkFailures.get(ip);
  if (blocked && blocked.consumedPoints >= linkFailures.points) {
    throw new HttpError(429, `Muitas tentativas com links inválidos. Tente novamente em ${Math.max(1, Math.ceil(blocked.msBeforeNext / 60000))} minuto(s).`);
  }
  const e = ent('relatorio_gerado');
  const row = typeof token === 'string' && LINK_TOKEN.test(token)
    ? ((await em.findOne(ormName(em, e), { linkToken: sha256(token) } as never)) as Row | null)
    : null;
  if (!row) {
    await linkFailures.consume(ip).catch(() => undefined);
    throw new HttpError(404, LINK_NAO_ENCONTRADO);
  }
  const now = Date.now();
  const ended = !row.linkValidoAte || new Date(row.linkValidoAte as string).getTime() <= now || new Date(row.expiraEm as string).getTime() <= now;
  if (ended || !empresaUsable(await findEmpresa(em, Number((row.empresaId as Row)?.id ?? row.empresaId)))) throw new HttpError(410, LINK_ENCERRADO);
  return row;
}

// ---------- the minute tick: expiry and due schedules ----------

/** Deletes expired spool rows and the files no row names any longer; answers how many rows went. */
export async function expire(m: Pick<ModuleStart, 'exec'>): Promise<number> {
  const gone = await m.exec('DELETE FROM relatorio_gerado WHERE expira_em < now() RETURNING arquivo, formatos', []);
  const keys = gone.flatMap((r) => [String(r.arquivo), ...Object.values(formatosOf(r)).map((f) => f?.arquivo).filter((k): k is string => !!k)]);
  for (const key of new Set(keys)) {
    const [still] = await m.exec(`SELECT 1 FROM relatorio_gerado r WHERE r.arquivo = ?
      OR EXISTS (SELECT 1 FROM jsonb_each(coalesce(r.formatos, '{}'::jsonb)) f WHERE f.value ->> 'arquivo' = ?) LIMIT 1`, [key, key]);
    if (!still) await store().delete(key);
  }
  return gone.length;
}

/** Starts the job of each active schedule whose time came (claimed by moving dataEnvio on: one process wins). */
export async function runDue(m: ModuleStart, now = new Date()): Promise<number> {
  const due = await m.exec(`SELECT a.id, a.empresa_id AS empresa, e.ambiente_id AS ambiente, a.usuario, a.periodo, a.frequencia, a.hora_envio, a.dia_semana, a.dia_mes, a.data_envio
    FROM agendamento_relatorio a JOIN empresa e ON ${inCompany('a', 'e.id')} WHERE a.ativo AND a.data_envio <= ? ORDER BY a.data_envio LIMIT 100`, [now]);
  let started = 0;
  for (const a of due) {
    const previsto = new Date(a.data_envio as string);
    const next = proximoEnvio({ frequencia: a.frequencia as never, horaEnvio: String(a.hora_envio), diaSemana: a.dia_semana as number, diaMes: a.dia_mes as number }, now);
    const [claimed] = await m.exec('UPDATE agendamento_relatorio SET data_envio = ? WHERE id = ? AND data_envio = ? RETURNING id', [next, a.id, previsto]);
    if (!claimed) continue;
    try {
      await withCompany(Number(a.empresa), async () => {
        const em = m.em();
        const session = await sessionOf(em, Number(a.empresa), a.usuario == null ? null : Number(a.usuario));
        const { change } = await startJob(em, session, agendadoJob.name, { agendamento: Number(a.id), periodo: periodoRelativo(a.periodo as PeriodoRelativo, previsto) });
        queued(change);
      }, Number(a.ambiente));
      started++;
    } catch (err) {
      const msg = err instanceof HttpError || err instanceof JobError ? (err as Error).message : 'Erro ao iniciar o envio';
      m.log.error({ err: (err as Error).message, agendamento: a.id }, 'agendamento: falha ao iniciar');
      await m.exec('UPDATE agendamento_relatorio SET ultimo_erro = ? WHERE id = ?', [msg, a.id]);
    }
  }
  return started;
}

export function startSpool(m: ModuleStart): { stop: () => Promise<void> } {
  storage = m.storage;
  sockets = m.io;
  let busy: Promise<unknown> = Promise.resolve();
  const tick = () => {
    busy = (async () => {
      await expire(m).catch((err) => m.log.error({ err: (err as Error).message }, 'relatórios: falha ao expirar'));
      await runDue(m).catch((err) => m.log.error({ err: (err as Error).message }, 'agendamento: falha'));
    })();
  };
  const timer = setInterval(tick, tickMs());
  timer.unref();
  return { stop: async () => { clearInterval(timer); await busy; } };
}

export { PERIODOS };
