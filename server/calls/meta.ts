// GET /api/meta: the entities, fields, columns and actions the caller may use.
import type { Hono } from 'hono';
import type { MenuNode } from '../../shared/model.ts';
import type { AppEnv } from '../app/env.ts';
import { can } from '../auth/users.ts';
import { getModel } from '../core/registry.ts';
import { route } from '../core/pipeline.ts';

export default (api: Hono<AppEnv>) => {
  // What the caller may use is filtered by their keys below: the route itself needs the session only.
  route(api, 'get', '/meta', { permission: 'self', scope: 'global' }, (c) => {
    const s = c.get('session');
    const model = getModel();
    const entities = model.entities
      .filter((e) => e.permissions.some((p) => can(s, p.key)))
      .map((e) => ({
        ...e,
        fields: e.fields.filter((f) => !f.hidden),
        actions: e.actions.filter((a) => can(s, a.permission)),
        permissions: e.permissions.filter((p) => can(s, p.key)),
      }));
    const prune = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => {
      const children = n.children ? prune(n.children) : undefined;
      if (n.permission && !can(s, n.permission)) return [];
      if (n.children && !children?.length && !n.route) return [];
      return [{ ...n, ...(children ? { children } : {}) }];
    });
    return c.json({ entities, menu: prune(model.menu), routes: model.routes.filter((r) => can(s, r.name)) });
  });
};
