// Cloud messages (spec sections 1 and 7): /adm/cloudMessage/topicos lists the company's topics with their
// subscribers, /adm/cloudMessage/send sends a message to a topic — by Web Push to every subscribed browser and as an
// in-app notification (register notificacao, pushed as `notificacao` on the user's socket room) to each subscriber.
// The browser's side: /cloudMessage/vapid (the application server key), /cloudMessage/inscricao (subscribe with
// topics / unsubscribe), for any signed-in user, their own rows only.
import type { Hono } from 'hono';
import type { Server as SocketServer } from 'socket.io';
import type { AppEnv, Session } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { emitChange } from '../../../server/realtime/events.ts';
import { badRequest, HttpError, notFound, ok } from '../../../server/http/envelope.ts';
import { scopeWhere, tenantOnly } from '../../../server/tenancy/scope.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { checkEndpoint, sendPush, vapidKeys } from './push.ts';
import { requestEm } from '../../../server/db/context.ts';

type Row = Record<string, any>;
const topico = () => entityByKey('topico_mensagem')!;
const inscricao = () => entityByKey('inscricao_push')!;
const notificacao = () => entityByKey('notificacao')!;
const PARALLEL = 10;

let io: SocketServer | undefined;
export const setIo = (s: SocketServer | undefined) => { io = s; };

async function body(c: { req: { json(): Promise<unknown> } }): Promise<Row> {
  const b = await c.req.json().catch(() => { throw badRequest('Requisição inválida: JSON malformado'); });
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Requisição inválida: envie um objeto JSON');
  return b as Row;
}

const topicsOf = async (em: EntityManager, s: Session): Promise<Row[]> =>
  await em.find(ormName(em, topico()), scopeWhere(topico(), s) as never, { orderBy: { nome: 'ASC' } as never }) as Row[];

const text = (v: unknown, label: string, max: number, required = true): string | null => {
  if (v == null || v === '') { if (required) throw badRequest(`O campo ${label} é obrigatório`); return null; }
  if (typeof v !== 'string') throw badRequest(`O campo ${label} deve ser um texto`);
  if (v.length > max) throw badRequest(`O campo ${label} deve ter no máximo ${max} caracteres`);
  return v;
};

export function mensagemRoutes(api: Hono<AppEnv>) {
  const self = { permission: 'self' as const, scope: 'empresa' as const };

  route(api, 'get', '/cloudMessage/vapid', self, (c) => ok(c, { publicKey: vapidKeys().publicKey }));

  route(api, 'post', '/cloudMessage/inscricao', self, async (c) => {
    const s = c.get('session');
    if (s.apiKey) throw new HttpError(403, 'Inscrições são de um navegador de um usuário: uma chave de API não as tem');
    const b = await body(c);
    const endpoint = checkEndpoint(b.endpoint);
    if (!endpoint) throw badRequest('Endereço de push inválido: use o endereço do serviço de push do navegador');
    const p256dh = text(b.keys?.p256dh, 'keys.p256dh', 200)!;
    const auth = text(b.keys?.auth, 'keys.auth', 100)!;
    if (Buffer.from(p256dh, 'base64url').length !== 65 || Buffer.from(auth, 'base64url').length < 16) throw badRequest('Chaves de push inválidas');
    const em = requestEm(c);
    const todos = await topicsOf(em, s);
    let topicos: string[];
    if (b.topicos === undefined) topicos = todos.filter((t) => t.padrao).map((t) => String(t.nome));
    else {
      if (!Array.isArray(b.topicos) || !b.topicos.every((t: unknown) => typeof t === 'string')) throw badRequest('O campo topicos deve ser uma lista de tópicos');
      const unknown = (b.topicos as string[]).filter((t) => !todos.some((x) => x.nome === t));
      if (unknown.length) throw badRequest(`Tópico desconhecido: ${unknown.join(', ')}`);
      topicos = [...new Set(b.topicos as string[])];
    }
    const e = inscricao();
    const navegador = text(b.navegador, 'navegador', 400, false) ?? c.req.header('user-agent')?.slice(0, 400) ?? null;
    // One browser, one subscriber: the endpoint held by another user of the company (the browser changed hands) moves.
    const held = await em.findOne(ormName(em, e), { ...tenantOnly(e, s), endpoint } as never) as Row | null;
    if (held && Number(held.usuario?.id ?? held.usuario) !== s.usuarioId) { em.remove(held); await em.flush(); }
    const mine = held && Number(held.usuario?.id ?? held.usuario) === s.usuarioId ? held : null;
    const row = mine ?? em.create(ormName(em, e), { ...tenantOnly(e, s), usuario: s.usuarioId, endpoint } as never) as Row;
    em.assign(row as never, { p256dh, auth, navegador, topicos } as never);
    await em.flush();
    return ok(c, { id: Number(row.id), topicos }, mine ? 'Inscrição atualizada' : 'Navegador inscrito', mine ? 200 : 201);
  });

  route(api, 'delete', '/cloudMessage/inscricao', self, async (c) => {
    const s = c.get('session');
    const endpoint = checkEndpoint((await body(c)).endpoint);
    if (!endpoint) throw badRequest('Endereço de push inválido: use o endereço do serviço de push do navegador');
    const em = requestEm(c);
    const row = await em.findOne(ormName(em, inscricao()), { $and: [{ endpoint }, scopeWhere(inscricao(), s)] } as never);
    if (!row) throw notFound('Inscrição não encontrada');
    await em.remove(row).flush();
    return ok(c, { endpoint }, 'Inscrição removida');
  });

  route(api, 'get', '/adm/cloudMessage/topicos', { permission: ['adm.sis.cloud_message.topicos.lista', 'adm.sis.cloud_message.topicos.envia'], scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const em = requestEm(c);
    const subs = await em.find(ormName(em, inscricao()), tenantOnly(inscricao(), s) as never, { fields: ['topicos', 'usuario'] as never }) as Row[];
    return ok(c, (await topicsOf(em, s)).map((t) => {
      const of = subs.filter((x) => Array.isArray(x.topicos) && x.topicos.includes(t.nome));
      return { id: Number(t.id), nome: t.nome, descricao: t.descricao ?? null, padrao: !!t.padrao, inscricoes: of.length, usuarios: new Set(of.map((x) => Number(x.usuario?.id ?? x.usuario))).size };
    }));
  });

  route(api, 'post', '/adm/cloudMessage/send', { permission: ['adm.sis.cloud_message.topicos.envia'], scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const b = await body(c);
    const nome = text(b.topico, 'Tópico', 60)!;
    const titulo = text(b.titulo, 'Título', 120)!;
    const mensagem = text(b.mensagem, 'Mensagem', 2000)!;
    const url = text(b.url, 'URL', 500, false);
    if (url && (!url.startsWith('/') || url.startsWith('//'))) throw badRequest('URL inválida: informe uma tela do sistema (ex.: /tlm/fro/ativo)');
    const em = requestEm(c);
    const t = (await topicsOf(em, s)).find((x) => x.nome === nome);
    if (!t) throw notFound('Tópico não encontrado');
    const subs = (await em.find(ormName(em, inscricao()), tenantOnly(inscricao(), s) as never) as Row[])
      .filter((x) => Array.isArray(x.topicos) && x.topicos.includes(nome));

    let enviados = 0, falhas = 0;
    const gone: Row[] = [];
    const sent: Row[] = [];
    for (let i = 0; i < subs.length; i += PARALLEL) {
      await Promise.all(subs.slice(i, i + PARALLEL).map(async (x) => {
        const r = await sendPush({ endpoint: x.endpoint, keys: { p256dh: x.p256dh, auth: x.auth } }, { titulo, mensagem, url, topico: nome });
        if (r.status >= 200 && r.status < 300) { enviados++; sent.push(x); } else { falhas++; if (r.gone) gone.push(x); }
      }));
    }
    for (const x of gone) em.remove(x);
    for (const x of sent) x.ultimoEnvio = new Date();
    // The in-app notification: one per subscribed user (not per browser).
    const n = notificacao();
    const usuarios = [...new Set(subs.map((x) => Number(x.usuario?.id ?? x.usuario)))];
    const rows = usuarios.map((u) => em.create(ormName(em, n), {
      ...tenantOnly(n, s), usuario: u, dataNotificacao: new Date(), notificacao: `${titulo}: ${mensagem}`.slice(0, 2000), tipo: 'informacao', lido: false,
      payload: { topico: nome, titulo, url },
    } as never) as Row);
    await em.flush();
    for (const r of rows) {
      emitChange({ entity: 'notificacao', id: Number(r.id), op: 'create', before: null, after: { id: Number(r.id) } });
      io?.to(`usuario:${Number(r.usuario?.id ?? r.usuario)}`).emit('notificacao', { id: Number(r.id), titulo, mensagem, url, topico: nome });
    }
    c.get('log')?.info({ topico: nome, inscricoes: subs.length, enviados, falhas, removidas: gone.length }, 'cloud message');
    return ok(c, { topico: nome, inscricoes: subs.length, enviados, falhas, removidas: gone.length, notificacoes: rows.length }, 'Mensagem enviada');
  });
}
