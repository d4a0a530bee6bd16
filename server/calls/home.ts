// GET /api/home/resumo: counts of the company-scoped registers the caller may list (landing page).
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { can, findEmpresa } from '../auth/users.ts';
import { getModel, ormName } from '../core/registry.ts';
import { ok } from '../http/envelope.ts';
import { route } from '../core/pipeline.ts';
import { scopeWhere } from '../tenancy/scope.ts';

export default (api: Hono<AppEnv>) => {
  // Counts only the registers the caller may list (checked per entity below).
  route(api, 'get', '/home/resumo', { permission: 'self', scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const em = c.get('em');
    const contagens = [];
    for (const e of getModel().entities) {
      if (e.scope !== 'empresa' || !can(s, `${e.permission}.lista`)) continue;
      const total = await em.count(ormName(em, e), scopeWhere(e, s) as never);
      contagens.push({ key: e.key, label: e.label.plural, route: e.route, total });
    }
    const empresa = await findEmpresa(em, s.empresaAtiva);
    return ok(c, { empresa: empresa ? { id: empresa.id, fantasia: empresa.fantasia } : null, contagens });
  });
};
