// Report spool, sharing and scheduled e-mails.
// - Job relatorio_gera: exportReport in the background (progress pushed by server/jobs), the file kept in the uploads
//   storage and listed for the user in relatorio_gerado (/rel/rel/relatorios/gerados); GET /api/spool/get/{id}/{formato}
//   answers it (another user's or company's row: 404 — the row is read through the owner/company scope).
// - POST /api/spool/share/{id} { usuarios }: a row of their own for colleagues of the same company (+ a notificacao).
// - agendamento_relatorio: the minute tick (start) claims due schedules, starts job relatorio_agendado as the schedule's
//   author (their keys today), which spools the file and e-mails it; the same tick deletes expired spool rows/files.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Hono } from 'hono';
import type { AppEnv, Session } from '../../../server/app/env.ts';
import { can, findUser, rolesAndPermissions } from '../../../server/auth/users.ts';
import { trySendMail } from '../../../server/auth/mail.ts';
import type { ModuleStart } from '../../../server/core/module.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { invalid, type WriteHook } from '../../../server/crud/hooks.ts';
import { readPayload } from '../../../server/crud/actions.ts';
import { serialize, type Row } from '../../../server/crud/query.ts';
import { withCompany } from '../../../server/db/rls.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { JobError, defineJob, queued, startJob, type JobContext } from '../../../server/jobs/index.ts';
import { inCompany, scopeWhere, tenantOnly } from '../../../server/tenancy/scope.ts';
import { newKey, type Storage } from '../../../server/uploads/storage.ts';
import { REPORTS_KEY } from '../../../shared/relatorio.ts';
import { REPORT_FORMATS, exportReport, type ReportFile, type ReportFormat } from './export.ts';
import { checkParams, findReport, type ReportRequest } from './reports.ts';
import { PERIODOS, fusoHorario, periodoRelativo, proximoEnvio, type PeriodoRelativo } from './periodo.ts';

export const SPOOL_KEY = 'rel.rel.relatorios.gerados';
const spoolDias = () => Number(process.env.RELATORIO_SPOOL_DIAS ?? 7);
const tickMs = () => Number(process.env.AGENDAMENTO_TICK_MS ?? 60_000);
const mailTries = () => Number(process.env.AGENDAMENTO_TENTATIVAS ?? 3);
const NAO_ENCONTRADO = 'Relatório gerado não encontrado';

let storage: Storage | undefined;
const store = () => { if (!storage) throw new Error('armazenamento de relatórios não iniciado'); return storage; };

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
  const now = new Date();
  const row = ctx.em.create(name, {
    ...tenantOnly(e, session), usuario: session.usuarioId, titulo: file.title.slice(0, 200), familia: req.familia, tipo: req.tipo,
    parametros: file.parametros.map(([k, v]) => `${k}: ${v}`).join('; ') || '—', formato, tamanho: body.length, linhas: file.total,
    situacao: 'disponivel', arquivo: key, nomeArquivo: file.filename, tarefa: ctx.id, geradoEm: now,
    expiraEm: new Date(now.getTime() + spoolDias() * 86_400_000),
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
  route(api, 'get', '/spool/get/:id/:formato', { permission: [`${SPOOL_KEY}.visualizar` as PermissionKey], scope: 'empresa' }, async (c) => {
    const e = ent('relatorio_gerado');
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id)) throw new HttpError(404, NAO_ENCONTRADO);
    const row = (await c.get('em').findOne(ormName(c.get('em'), e), { id, ...scopeWhere(e, c.get('session')) } as never)) as Row | null;
    if (!row || row.formato !== c.req.param('formato')) throw new HttpError(404, NAO_ENCONTRADO);
    const body = await c.get('storage').get(String(row.arquivo));
    if (!body) throw new HttpError(404, 'O arquivo deste relatório expirou');
    return new Response(new Uint8Array(body), {
      status: 200,
      headers: { 'Content-Type': MIME[String(row.formato)], 'Content-Disposition': `attachment; filename="${row.nomeArquivo}"`, 'Cache-Control': 'no-store', 'Content-Length': String(body.length) },
    });
  });

  route(api, 'post', '/spool/share/:id', { permission: [`${SPOOL_KEY}.compartilhar` as PermissionKey], scope: 'empresa' }, async (c) => {
    const em = c.get('em');
    const s = c.get('session');
    const e = ent('relatorio_gerado');
    const id = Number(c.req.param('id'));
    const src = Number.isSafeInteger(id) ? ((await em.findOne(ormName(em, e), { id, ...scopeWhere(e, s) } as never)) as Row | null) : null;
    if (!src) throw new HttpError(404, NAO_ENCONTRADO);
    const body = (await readPayload(c.req)) as { usuarios?: unknown };
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
        tarefa: null, compartilhadoPor: s.usuarioId, geradoEm: src.geradoEm, expiraEm: src.expiraEm,
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
}

// ---------- the minute tick: expiry and due schedules ----------

/** Deletes expired spool rows and the files no row names any longer; answers how many rows went. */
export async function expire(m: Pick<ModuleStart, 'exec'>): Promise<number> {
  const gone = await m.exec('DELETE FROM relatorio_gerado WHERE expira_em < now() RETURNING arquivo', []);
  for (const key of new Set(gone.map((r) => String(r.arquivo)))) {
    const [still] = await m.exec('SELECT 1 FROM relatorio_gerado WHERE arquivo = ? LIMIT 1', [key]);
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
