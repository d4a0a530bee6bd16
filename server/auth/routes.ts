// /api/auth/*: login, logout, get_session, changepwd, recover, token_valido, company switch;
// /api/adm/sessao/*: session list and forced logout.
import crypto from 'node:crypto';
import { Hono, type Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { verify } from '@node-rs/argon2';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { AppEnv, Session } from '../app/env.ts';
import { hashPassword } from './password.ts';
import { scopeWhere } from '../tenancy/scope.ts';
import { endUserSessions } from './sessions.ts';
import { entityByKey, ormName, schemaFor } from '../core/registry.ts';
import { RecuperacaoSenhaSchema } from '../db/system-entities.ts';
import { HttpError, badRequest, fail, ok, unauthorized } from '../http/envelope.ts';
import { sendMail } from './mail.ts';
import { emitSessionEnded } from '../realtime/events.ts';
import { endSession, loadSession, sessaoName } from './middleware.ts';
import { empresaDoAmbiente, inActiveAmbiente, switchSession } from './ambiente.ts';
import { withCompany } from '../db/rls.ts';
import { ambienteOf, inAmbienteRow } from '../tenancy/scope.ts';
import { route, sessionStep } from '../core/pipeline.ts';
import { sha256, signSession } from './tokens.ts';
import { parametrosDaEmpresa } from './parametros.ts';
import { can, empresaUsable, findEmpresa, findEmpresas, findUser, findUserByLogin, rolesAndPermissions, userActive, type Row } from './users.ts';
import { idOf, idsOf, strings } from '../../shared/ids.ts';
import { requestEm } from '../db/context.ts';

export interface AuthOptions {
  log: Logger;
  publicUrl?: string;
  maxFailsPerLogin?: number;
  maxFailsPerIp?: number;
  blockSeconds?: number;
}

const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Jb0bRsXAGqg0j9B8ciN3DO1qLrhXfQ6ShRCWUHdxHeo';

export function clientIp(c: Context): string {
  const fwd = c.req.header('x-forwarded-for');
  if (fwd && process.env.TRUST_PROXY === '1') return fwd.split(',')[0].trim();
  try { return getConnInfo(c).remote.address ?? 'desconhecido'; } catch { return 'desconhecido'; }
}

async function body(c: Context): Promise<Row> {
  let b: unknown;
  try { b = await c.req.json(); } catch { throw badRequest('Corpo da requisição inválido: JSON malformado'); }
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Corpo da requisição inválido: esperado um objeto JSON');
  return b as Row;
}

function str(b: Row, k: string, label: string, max = 200): string {
  const v = b[k];
  if (v == null || v === '') throw new HttpError(400, `O campo ${label} é obrigatório`, [{ field: k, label, message: `O campo ${label} é obrigatório` }]);
  if (typeof v !== 'string' || v.length > max) throw badRequest(`O campo ${label} é inválido`);
  return v;
}

function minPasswordLength(): number {
  try {
    const p = (schemaFor('usuario').properties as Row | undefined)?.senha as Row | undefined;
    return Number(p?.minLength ?? 6);
  } catch { return 6; }
}

/** Records a login attempt in historico_de_login (only with the fields the entity declares). */
async function recordLogin(em: EntityManager, log: Logger, data: Row, user: Row | null): Promise<number | null> {
  const e = entityByKey('historico_de_login');
  if (!e) return null;
  try {
    const has = (n: string) => e.fields.some((f) => f.name === n);
    const row: Row = {};
    for (const [k, v] of Object.entries(data)) if (has(k)) row[k] = v;
    if (e.scope === 'ambiente') {
      row.ambienteId = user?.ambienteId != null ? idOf(user.ambienteId) : (await em.findOne(ormName(em, entityByKey('ambiente')!), { id: { $gt: 0 } } as never, { orderBy: { id: 'ASC' } as never }) as Row | null)?.id;
      if (row.ambienteId == null) return null;
    }
    if (e.scope === 'empresa') {
      row.empresaId = data.empresaId ?? (user ? idOf(user.empresaAtiva) ?? idsOf(user.empresas)[0] : null);
      if (row.empresaId == null) return null;
    }
    const created = em.create(ormName(em, e), row as never) as Row;
    await em.flush();
    return Number(created.id);
  } catch (err) {
    log.error({ err }, 'falha ao registrar histórico de login');
    return null;
  }
}

async function endHistory(em: EntityManager, usuarioId: number) {
  const e = entityByKey('historico_de_login');
  if (!e || !['estaLogado', 'usuario'].every((n) => e.fields.some((f) => f.name === n))) return;
  await em.nativeUpdate(ormName(em, e), { usuario: usuarioId, estaLogado: true } as never, { estaLogado: false } as never);
}

/** payload.user of login and get_session. */
export async function sessionUser(em: EntityManager, s: Session, user?: Row | null) {
  const u = user ?? (await findUser(em, s.usuarioId));
  // The app bar offers the current ambiente's companies only (the active one is among them, even a platform
  // holder's company of another ambiente's).
  const empresas = (await findEmpresas(em, [...new Set([...s.empresas, s.empresaAtiva])])).filter((e) => inAmbienteRow(e, s.ambienteId));
  const permissoes = [...s.permissoes].sort();
  const { inatividadeSegundos } = await parametrosDaEmpresa(em, s.empresaAtiva, ['inatividadeSegundos']);
  return {
    id: s.usuarioId,
    _id: s.usuarioId,
    nome: u?.nome ?? s.login,
    login: s.login,
    email: u?.email ?? null,
    ambienteId: s.ambienteId,
    empresas: empresas.map((e) => ({ id: e.id, _id: e.id, fantasia: e.fantasia, status: e.status ?? 'ativa' })),
    empresaAtiva: s.empresaAtiva,
    roles: s.roles,
    permissoes,
    ui: u?.ui ?? {},
    sessaoId: s.id,
    // the front end's inactivity sign-out (spec: timeToDisconnect / timeToShow, 5 s of warning)
    inatividade: { desconectar: inatividadeSegundos, aviso: inatividadeSegundos - 5 },
  };
}

export function authRoutes(o: AuthOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const block = o.blockSeconds ?? 15 * 60;
  const perLogin = new RateLimiterMemory({ keyPrefix: 'login', points: o.maxFailsPerLogin ?? 5, duration: block, blockDuration: block });
  const perIp = new RateLimiterMemory({ keyPrefix: 'ip', points: o.maxFailsPerIp ?? 30, duration: block, blockDuration: block });
  const tooMany = (ms: number) => new HttpError(429, `Muitas tentativas de login sem sucesso. Tente novamente em ${Math.max(1, Math.ceil(ms / 60000))} minuto(s).`);

  app.post('/login', async (c) => {
    const b = await body(c);
    const login = str(b, 'login', 'Login', 120).trim();
    const senha = str(b, 'senha', 'Senha', 200);
    const ip = clientIp(c);
    const key = login.toLowerCase();
    const [rl, ri] = await Promise.all([perLogin.get(key), perIp.get(ip)]);

    const em = requestEm(c);
    const user = await findUserByLogin(em, login, true);
    const now = new Date();
    const base = { nome: user?.nome ?? login, login, dataLogin: now, ip, estaLogado: false, sucesso: false };
    // Refused by the rate limit: recorded like any failed attempt (the password is not checked).
    const limited = rl && rl.consumedPoints >= perLogin.points ? rl : ri && ri.consumedPoints >= perIp.points ? ri : null;
    if (limited) {
      await recordLogin(em, o.log, { ...base, motivo: 'limite_de_tentativas', usuario: user ? Number(user.id) : null }, user);
      throw tooMany(limited.msBeforeNext);
    }
    const failed = async (status: 401 | 403, msg: string, motivo: string) => {
      await recordLogin(em, o.log, { ...base, motivo, usuario: user ? Number(user.id) : null }, user);
      if (status === 401) {
        await Promise.all([perLogin.penalty(key, 1), perIp.penalty(ip, 1)]);
      }
      return fail(c, status, msg);
    };
    const okPwd = await verify(user?.senha ?? DUMMY_HASH, senha).catch(() => false);
    if (!user || !okPwd) return failed(401, 'Login ou senha inválidos', 'senha_invalida');
    if (!userActive(user)) return failed(403, 'Usuário desativado. Procure o administrador do sistema.', 'usuario_desativado');
    const empresas = idsOf(user.empresas);
    const rows = await findEmpresas(em, empresas);
    const usableRows = await inActiveAmbiente(em, rows.filter(empresaUsable));
    const usable = usableRows.map((e) => Number(e.id));
    const preferred = idOf(user.empresaAtiva);
    const empresaAtiva = preferred != null && usable.includes(preferred) ? preferred : usable[0];
    if (empresaAtiva == null) return failed(403, 'Acesso bloqueado: a empresa está suspensa ou desativada.', 'empresa_bloqueada');

    await perLogin.delete(key);
    // The session's lifetime: the company's parameter sessao.duracao_horas, else SESSION_HOURS.
    const { sessaoHoras } = await parametrosDaEmpresa(em, empresaAtiva, ['sessaoHoras'], (msg, x) => o.log.warn(x, msg));
    const expiraEm = new Date(now.getTime() + sessaoHoras * 3600_000);
    await recordLogin(em, o.log, { ...base, sucesso: true, estaLogado: true, dataValidoAte: expiraEm, usuario: Number(user.id) }, user);
    // The session's ambiente is its active company's (server/auth/ambiente.ts).
    const ambienteId = ambienteOf(usableRows.find((e) => Number(e.id) === empresaAtiva)) ?? Number(idOf(user.ambienteId));
    const sessao = em.create(sessaoName(em), {
      ambienteId, usuario: Number(user.id), login: String(user.login), empresaAtiva, ip,
      userAgent: (c.req.header('user-agent') ?? '').slice(0, 400) || null,
      dataInicio: now, dataUltimoAcesso: now, dataValidoAte: expiraEm, ativa: true, dataFim: null,
    } as never) as Row;
    await em.flush();
    const token = await signSession(Number(sessao.id), expiraEm);
    const { roles, permissoes } = await rolesAndPermissions(em, user, empresaAtiva);
    const s: Session = { id: Number(sessao.id), usuarioId: Number(user.id), login: String(user.login), ambienteId, empresaAtiva, empresas, roles, permissoes };
    o.log.info({ login, sessao: sessao.id }, 'login');
    return ok(c, { token, user: await sessionUser(em, s, user) }, 'Login efetuado com sucesso');
  });

  app.post('/logout', async (c) => {
    const s = await loadSession(c);
    if (s) {
      const em = requestEm(c);
      await endSession(em, s.id, 'logout');
      await endHistory(em, s.usuarioId);
      emitSessionEnded({ sessaoId: s.id, usuarioId: s.usuarioId, motivo: 'logout' });
    }
    return ok(c, null, 'Sessão encerrada');
  });

  route(app, 'get', '/get_session', { permission: 'self', scope: 'ambiente' }, async (c) => {
    const s = c.get('session');
    return ok(c, { user: await sessionUser(requestEm(c), s) });
  });

  route(app, 'get', '/permissoes', { permission: 'self', scope: 'ambiente' }, (c) => ok(c, [...c.get('session').permissoes].sort()));

  app.get('/token_valido', async (c) => {
    const rec = c.req.query('token');
    if (rec) {
      const row = await requestEm(c).findOne(RecuperacaoSenhaSchema, { tokenHash: sha256(rec) });
      const valido = !!row && !row.usadaEm && row.expiraEm > new Date();
      return ok(c, { valido }, valido ? 'Token válido' : 'Token inválido ou expirado');
    }
    const s = await loadSession(c);
    if (!s) return fail(c, 401, 'Sessão inválida ou expirada. Entre novamente.', { valido: false });
    return ok(c, { valido: true }, 'Token válido');
  });

  app.post('/changepwd', async (c) => {
    const b = await body(c);
    const em = requestEm(c);
    const nova = str(b, 'novaSenha', 'Nova senha', 200);
    const min = minPasswordLength();
    if (nova.length < min) throw badRequest(`A nova senha deve ter no mínimo ${min} caracteres`);
    if (b.confirmacao != null && b.confirmacao !== nova) throw badRequest('A confirmação não confere com a nova senha');
    let usuarioId: number;
    if (b.token != null) {
      const token = str(b, 'token', 'Token', 200);
      const row = await em.findOne(RecuperacaoSenhaSchema, { tokenHash: sha256(token) });
      if (!row || row.usadaEm || row.expiraEm <= new Date()) throw badRequest('Link de recuperação inválido ou expirado');
      row.usadaEm = new Date();
      usuarioId = row.usuarioId;
    } else {
      const s = await loadSession(c);
      if (!s) throw unauthorized('Sessão inválida ou expirada. Entre novamente.');
      const atual = str(b, 'senhaAtual', 'Senha atual', 200);
      const u = await findUser(em, s.usuarioId, true);
      if (!u || !(await verify(String(u.senha ?? DUMMY_HASH), atual).catch(() => false))) throw badRequest('Senha atual incorreta');
      usuarioId = s.usuarioId;
    }
    const hashed = await hashPassword(nova);
    // Every session of the user ends with a password change (this one too), their sockets with it.
    const ended = await em.transactional(async (tx) => {
      await tx.nativeUpdate(ormName(tx, entityByKey('usuario')!), { id: usuarioId } as never, { senha: hashed } as never);
      return endUserSessions(tx, usuarioId);
    });
    ended.notify();
    return ok(c, null, 'Senha alterada com sucesso. Entre novamente com a nova senha.');
  });

  app.post('/recover', async (c) => {
    const b = await body(c);
    const ident = str(b, b.login != null ? 'login' : 'email', b.login != null ? 'Login' : 'E-mail', 160).trim();
    const em = requestEm(c);
    const generic = 'Se o usuário existir e tiver e-mail cadastrado, enviaremos as instruções para alterar a senha.';
    const ip = clientIp(c);
    const r = await perIp.get(`recover:${ip}`);
    if (r && r.consumedPoints >= perIp.points) throw tooMany(r.msBeforeNext);
    await perIp.penalty(`recover:${ip}`, 1);
    const name = ormName(em, entityByKey('usuario')!);
    // The link must point at the configured address, never at the request's Host header.
    const origin = o.publicUrl ?? process.env.PUBLIC_URL;
    if (!origin) {
      o.log.error('PUBLIC_URL não definida: link de alteração de senha não enviado');
      throw new HttpError(503, 'Recuperação de senha indisponível: o endereço público do sistema (PUBLIC_URL) não está configurado. Procure o administrador do sistema.');
    }
    const user = ((await findUserByLogin(em, ident)) ?? (ident.includes('@') ? await em.findOne(name, { email: ident } as never) : null)) as Row | null;
    if (user?.email && userActive(user)) {
      const token = crypto.randomBytes(32).toString('base64url');
      em.create(RecuperacaoSenhaSchema, { tokenHash: sha256(token), usuarioId: Number(user.id), expiraEm: new Date(Date.now() + 3600_000), criadaEm: new Date(), usadaEm: null });
      await em.flush();
      const link = `${origin.replace(/\/$/, '')}/alterar_senha/${token}`;
      await sendMail({
        to: String(user.email),
        subject: 'Rastro — alteração de senha',
        text: `Olá, ${user.nome ?? user.login}.\n\nRecebemos um pedido para alterar a sua senha. Use o link abaixo (válido por 1 hora):\n\n${link}\n\nSe não foi você, ignore esta mensagem.`,
        html: `<p>Olá, ${escapeHtml(String(user.nome ?? user.login))}.</p><p>Recebemos um pedido para alterar a sua senha. Use o link abaixo (válido por 1 hora):</p><p><a href="${link}">${link}</a></p><p>Se não foi você, ignore esta mensagem.</p>`,
      }, o.log);
    }
    return ok(c, null, generic);
  });

  app.post('/empresa/:id', sessionStep({ credentials: true }), async (c) => {
    const s = c.get('session');
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || !s.empresas.includes(id)) throw new HttpError(403, 'Você não tem acesso a esta empresa');
    const em = requestEm(c);
    if (!empresaUsable(await findEmpresa(em, id))) throw new HttpError(403, 'Empresa suspensa ou desativada');
    return switched(c, id, 'Empresa alterada');
  });

  // Entering another ambiente (also /api/adm/ambiente/seleciona/{id}, server/calls/ambiente.ts).
  route(app, 'post', '/ambiente/:ambiente/select', { permission: 'self', scope: 'global', credentials: true },
    async (c) => switched(c, await empresaDoAmbiente(requestEm(c), c.get('session'), c.req.param('ambiente') ?? ''), 'Ambiente alterado'));

  return app;
}

/** Moves the session to company `empresa` (checked by the caller) and answers the session as it is there, read in
 *  that company (its row security, its parameters). */
export async function switched(c: Context<AppEnv>, empresa: number, msg: string) {
  const { next, user } = await switchSession(c, empresa);
  const payload = await withCompany(next.empresaAtiva, () => sessionUser(requestEm(c), next, user), next.ambienteId);
  return ok(c, { user: payload }, msg);
}

/** /api/adm/sessao: list live sessions of the ambiente, force a logout. */
export function sessaoRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  route(app, 'get', '/lista', { permission: ['adm.sis.sessao.lista'], scope: 'ambiente' }, async (c) => {
    const s = c.get('session');
    const em = requestEm(c);
    const rows = (await em.find(sessaoName(em), { ...scopeWhere(entityByKey('sessao')!, s), ativa: true, dataValidoAte: { $gt: new Date() } } as never,
      { orderBy: { dataUltimoAcesso: 'DESC' } as never, limit: 1000 })) as Row[];
    return ok(c, rows.map((r) => ({ id: r.id, usuario: idOf(r.usuario), login: r.login, empresaAtiva: idOf(r.empresaAtiva), ip: r.ip, dataInicio: r.dataInicio, dataUltimoAcesso: r.dataUltimoAcesso })));
  });
  route(app, 'post', '/elimina/:id', { permission: ['adm.sis.sessao.elimina'], scope: 'ambiente', credentials: true }, async (c) => {
    const s = c.get('session');
    const id = Number(c.req.param('id'));
    const em = requestEm(c);
    const row = Number.isSafeInteger(id) ? ((await em.findOne(sessaoName(em), { $and: [{ id }, scopeWhere(entityByKey('sessao')!, s)] } as never)) as Row | null) : null;
    if (!row) throw new HttpError(404, 'Sessão não encontrada');
    if (row.ativa !== false) {
      await endSession(em, id, 'administrador');
      await endHistory(em, Number(idOf(row.usuario)));
      emitSessionEnded({ sessaoId: id, usuarioId: Number(idOf(row.usuario)), motivo: 'administrador' });
    }
    return ok(c, null, 'Sessão encerrada');
  });
  return app;
}

export { sha256 } from './tokens.ts';
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (m) => `&#${m.charCodeAt(0)};`);
export { strings };
