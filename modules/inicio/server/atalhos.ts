// Shortcuts (spec section 7, /atalhos/...): a user pins screens, with their filters (the URL's query), to the home
// page, removes and orders them. Any signed-in user manages their own (permission self): every read and write names
// its rows with scopeWhere (the active company and, owner: usuario, the caller), so another user's or company's
// shortcut is 404.
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import type { Session } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { parseId } from '../../../server/crud/protocol.ts';
import { badRequest, HttpError, notFound, ok } from '../../../server/http/envelope.ts';
import { scopeWhere, tenantOnly } from '../../../server/tenancy/scope.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requestEm } from '../../../server/db/context.ts';

export const MAX_ATALHOS = 30;
const ent = () => entityByKey('atalho')!;
type Atalho = { id: number; titulo: string; rota: string; ordem: number };
const answer = (r: Atalho) => ({ id: Number(r.id), titulo: r.titulo, rota: r.rota, ordem: Number(r.ordem) });

async function own(em: EntityManager, s: Session): Promise<Atalho[]> {
  return await em.find(ormName(em, ent()), scopeWhere(ent(), s) as never, { orderBy: { ordem: 'ASC', id: 'ASC' } as never }) as Atalho[];
}

async function body(c: { req: { json(): Promise<unknown> } }): Promise<Record<string, unknown>> {
  const b = await c.req.json().catch(() => { throw badRequest('Requisição inválida: JSON malformado'); });
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Requisição inválida: envie um objeto JSON');
  return b as Record<string, unknown>;
}

/** A screen of this application: a path (with its query) below '/', never another site. */
export function checkRota(v: unknown): string {
  if (typeof v !== 'string' || !v.trim()) throw badRequest('O campo Endereço é obrigatório');
  const rota = v.trim();
  if (rota.length > 500) throw badRequest('O campo Endereço deve ter no máximo 500 caracteres');
  if (!rota.startsWith('/') || rota.startsWith('//') || /[\\\s]/.test(rota) || rota.startsWith('/login') || rota.startsWith('/api/')) {
    throw badRequest('Endereço inválido: informe uma tela do sistema (ex.: /tlm/fro/ativo?filter=...)');
  }
  return rota;
}

function checkTitulo(v: unknown): string {
  if (typeof v !== 'string' || !v.trim()) throw badRequest('O campo Título é obrigatório');
  if (v.trim().length > 80) throw badRequest('O campo Título deve ter no máximo 80 caracteres');
  return v.trim();
}

export function atalhoRoutes(api: Hono<AppEnv>) {
  const spec = { permission: 'self' as const, scope: 'empresa' as const };

  route(api, 'get', '/atalhos/lista', spec, async (c) => ok(c, (await own(requestEm(c), c.get('session'))).map(answer)));

  route(api, 'post', '/atalhos/adiciona', spec, async (c) => {
    const s = c.get('session');
    if (s.apiKey) throw new HttpError(403, 'Atalhos são do usuário: uma chave de API não os tem');
    const b = await body(c);
    const titulo = checkTitulo(b.titulo);
    const rota = checkRota(b.rota);
    const em = requestEm(c);
    const atuais = await own(em, s);
    if (atuais.some((a) => a.rota === rota)) throw new HttpError(409, 'Esta tela já está nos seus atalhos');
    if (atuais.length >= MAX_ATALHOS) throw new HttpError(422, `Você já tem ${MAX_ATALHOS} atalhos: remova um antes de adicionar outro`);
    const e = ent();
    const row = em.create(ormName(em, e), {
      ...tenantOnly(e, s), usuario: s.usuarioId, titulo, rota, ordem: atuais.length ? Math.max(...atuais.map((a) => Number(a.ordem))) + 1 : 0,
    } as never) as Atalho;
    await em.flush();
    return ok(c, answer(row), 'Atalho adicionado', 201);
  });

  route(api, 'put', '/atalhos/ordena', spec, async (c) => {
    const s = c.get('session');
    const ids = (await body(c)).ids;
    if (!Array.isArray(ids) || !ids.every((x) => Number.isSafeInteger(x) && x > 0) || new Set(ids).size !== ids.length) {
      throw badRequest('Informe a nova ordem dos atalhos (ids)');
    }
    const em = requestEm(c);
    const atuais = await own(em, s);
    const byId = new Map(atuais.map((a) => [Number(a.id), a]));
    if (ids.length !== atuais.length || !ids.every((id) => byId.has(id))) {
      throw badRequest('A nova ordem deve conter exatamente os seus atalhos');
    }
    ids.forEach((id, i) => { byId.get(id)!.ordem = i; });
    await em.flush();
    return ok(c, ids.map((id) => answer(byId.get(id)!)), 'Ordem dos atalhos salva');
  });

  route(api, 'put', '/atalhos/:id', spec, async (c) => {
    const s = c.get('session');
    const id = parseId(c);
    const titulo = checkTitulo((await body(c)).titulo);
    const em = requestEm(c);
    const row = await em.findOne(ormName(em, ent()), { $and: [{ id }, scopeWhere(ent(), s)] } as never) as Atalho | null;
    if (!row) throw notFound('Atalho não encontrado');
    row.titulo = titulo;
    await em.flush();
    return ok(c, answer(row), 'Atalho alterado');
  });

  route(api, 'delete', '/atalhos/:id', spec, async (c) => {
    const s = c.get('session');
    const id = parseId(c);
    const em = requestEm(c);
    const row = await em.findOne(ormName(em, ent()), { $and: [{ id }, scopeWhere(ent(), s)] } as never);
    if (!row) throw notFound('Atalho não encontrado');
    await em.remove(row).flush();
    return ok(c, { id }, 'Atalho removido');
  });
}
