// GET /api/home/resumo: counts of the company registers the caller administers (holds the key to list and to change
// them) and can open from the menu, with the menu section each sits in (landing page; a read-only user gets none).
// The operator's numbers (vehicles, alarms, commands, pending devices) are modules/inicio's calls.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import type { MenuNode } from '../../shared/model.ts';
import { can, findEmpresa } from '../auth/users.ts';
import { getModel, ormName } from '../core/registry.ts';
import { ok } from '../http/envelope.ts';
import { route } from '../core/pipeline.ts';
import { scopeWhere } from '../tenancy/scope.ts';
import { requestEm } from '../db/context.ts';

/** Menu route → the labels of the sections above it (area › section). */
function sectionsByRoute(nodes: MenuNode[], above: string[] = [], out = new Map<string, string>()): Map<string, string> {
  for (const n of nodes) {
    if (n.children) sectionsByRoute(n.children, [...above, n.label], out);
    else if (n.route) out.set(n.route, above.join(' › '));
  }
  return out;
}

export default (api: Hono<AppEnv>) => {
  // Counts only the registers the caller may list and change (checked per entity below).
  route(api, 'get', '/home/resumo', { permission: 'self', scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const em = requestEm(c);
    const model = getModel();
    const sections = sectionsByRoute(model.menu);
    const contagens = [];
    for (const e of model.entities) {
      const at = e.base ?? e.route;
      if (e.scope !== 'empresa' || e.readOnlyResource || !sections.has(at)) continue;
      if (!can(s, `${e.permission}.lista`) || !(can(s, `${e.permission}.editar`) || can(s, `${e.permission}.adicionar`))) continue;
      const total = await em.count(ormName(em, e), scopeWhere(e, s) as never);
      contagens.push({ key: e.key, label: e.label.plural, route: at, secao: sections.get(at), total });
    }
    const empresa = await findEmpresa(em, s.empresaAtiva);
    return ok(c, { empresa: empresa ? { id: empresa.id, fantasia: empresa.fantasia } : null, contagens });
  });
};
