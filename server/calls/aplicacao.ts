// Applications, modules and menus (spec section 7: /modulo/lista/{idAplicacao}, /menu/...):
//   GET /api/modulo/lista/{idAplicacao}  the active modules of an active application, in their order;
//   GET /api/menu/lista/{idAplicacao}    the application's registered menu (register menu) as a tree, keeping only
//                                        the items whose program the caller may open (any of its keys; none: all);
// (The caller's screen menu, generated from the metadata, is /api/meta's `menu`; /api/menu itself is the register.)
// Catalogues (global registers) every signed-in user's menu reads: key 'self', what is answered is filtered here.
import type { Hono } from 'hono';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppEnv } from '../app/env.ts';
import { can, type Row } from '../auth/users.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { route } from '../core/pipeline.ts';
import { HttpError, ok } from '../http/envelope.ts';
import { idOf, strings } from '../../shared/ids.ts';
import { documentCalls } from '../app/docs.ts';
import { requestEm } from '../db/context.ts';

const env = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } });
const byApp = (operationId: string, summary: string, payload: string) => ({
  get: {
    tags: ['Aplicações'], operationId, 'x-self': true, summary,
    parameters: [{ name: 'idAplicacao', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
    responses: { 200: env(payload), 401: env('Sem sessão'), 404: env('Aplicação não encontrada') },
  },
});
documentCalls({
  '/api/modulo/lista/{idAplicacao}': byApp('modulo_lista', 'Módulos ativos da aplicação', 'payload: [{ id, descricao, sigla, ordem }]'),
  '/api/menu/lista/{idAplicacao}': byApp('menu_lista', 'Menu da aplicação (itens que o usuário pode abrir)', 'payload: [{ id, descricao, icone, ordem, rota, children }]'),
});

export interface MenuItem { id: number; descricao: string; icone: string | null; ordem: number; rota: string | null; children: MenuItem[] }

const byOrder = (a: Row, b: Row) => Number(a.ordem ?? 0) - Number(b.ordem ?? 0) || String(a.descricao).localeCompare(String(b.descricao), 'pt-BR') || Number(a.id) - Number(b.id);

/** The active application of a path id: 404 otherwise. */
async function aplicacao(em: EntityManager, raw: string): Promise<Row> {
  const id = Number(raw);
  const row = Number.isSafeInteger(id) && id > 0 && String(id) === raw.trim()
    ? ((await em.findOne(ormName(em, entityByKey('aplicacao')!), { id } as never)) as Row | null) : null;
  if (!row || row.ativo === false) throw new HttpError(404, 'Aplicação não encontrada');
  return row;
}

export default (api: Hono<AppEnv>) => {
  route(api, 'get', '/modulo/lista/:idAplicacao', { permission: 'self', scope: 'global' }, async (c) => {
    const em = requestEm(c);
    const app = await aplicacao(em, c.req.param('idAplicacao') ?? '');
    const rows = (await em.find(ormName(em, entityByKey('modulo')!), { aplicacao: Number(app.id), ativo: true } as never)) as Row[];
    return ok(c, rows.sort(byOrder).map((m) => ({ id: Number(m.id), descricao: m.descricao, sigla: m.sigla, ordem: Number(m.ordem ?? 0) })));
  });

  route(api, 'get', '/menu/lista/:idAplicacao', { permission: 'self', scope: 'global' }, async (c) => {
    const s = c.get('session');
    const em = requestEm(c);
    const app = await aplicacao(em, c.req.param('idAplicacao') ?? '');
    const items = (await em.find(ormName(em, entityByKey('menu')!), { aplicacao: Number(app.id) } as never)) as Row[];
    const progIds = [...new Set(items.map((m) => idOf(m.programa)).filter((x): x is number => x != null))];
    const programas = new Map(progIds.length
      ? ((await em.find(ormName(em, entityByKey('programa')!), { id: { $in: progIds } } as never)) as Row[]).map((p) => [Number(p.id), p])
      : []);
    const mayOpen = (p: Row) => { const keys = strings(p.permissoes); return !keys.length || keys.some((k) => can(s, k)); };
    const build = (parent: number | null, seen: Set<number>): MenuItem[] => items
      .filter((m) => (idOf(m.menuSuperior) ?? null) === parent && !seen.has(Number(m.id)))
      .sort(byOrder)
      .flatMap((m) => {
        const id = Number(m.id);
        const prog = idOf(m.programa) != null ? programas.get(idOf(m.programa)!) : undefined;
        if (prog && !mayOpen(prog)) return [];
        const children = build(id, new Set([...seen, id]));
        // A section (no program) without any item left is dropped.
        if (!prog && !children.length) return [];
        return [{ id, descricao: String(m.descricao), icone: m.icone ?? null, ordem: Number(m.ordem ?? 0), rota: prog ? String(prog.rota) : null, children }];
      });
    return ok(c, build(null, new Set()));
  });
};
