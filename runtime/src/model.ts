// Access to the generated model: entities, route table and menu, plus path helpers.
import { schemas, screens } from '@rastro/generated';
import modelJson from '@rastro/generated/model.json';
import type { AliasMeta, BrowserModel, EntityMeta, MenuNode, Model, RouteEntry, ScreenMeta } from '../../shared/model';

export type { EntityMeta, MenuNode, Model, RouteEntry, ScreenMeta };
/** The browser's copy: no server SQL (a read of `sql` here does not type-check). */
export const model: BrowserModel = modelJson;
export { schemas, screens };

const byKey = new Map(model.entities.map((e) => [e.key, e]));
export const entityByKey = (key: string) => byKey.get(key);

/** The views of an entity (its CRUD routes). */
export type View = 'list' | 'create' | 'edit' | 'show';
export type { RouteParamMeta, TecnologiaMeta } from '../../shared/model';

// Screen paths of spec section 2 built from the entity route; `params` fills its route parameters (metadata params).
export function pathFor(key: string, view: View, id?: string | number, params?: Record<string, string>): string {
  const e = byKey.get(key);
  const r = (e?.route ?? `/${key}`).replace(/:([A-Za-z0-9_]+)/g, (m, n: string) => (params?.[n] !== undefined ? encodeURIComponent(params[n]) : m));
  switch (view) {
    case 'list':
      return r;
    case 'create':
      return `${r}/adicionar`;
    case 'edit':
      return `${r}/${id}/editar`;
    case 'show':
      return `${r}/${id}/visualizar`;
  }
}

/** Path of an absolute alias route for one row: its :id filled, or ?id= when it has none (a show alias like
 *  /adm/cfg/simcard/visualizar). */
export function aliasPath(alias: AliasMeta, id: string | number, params?: Record<string, string>): string {
  const enc = encodeURIComponent(String(id));
  const path = alias.path.replace(/:([A-Za-z0-9_]+)/g, (m, n: string) => (n === 'id' ? enc : params?.[n] !== undefined ? encodeURIComponent(params[n]) : m));
  return alias.path.includes(':id') ? path : `${path}?id=${enc}`;
}

/** Record page of a row (metadata record): {record route}/{value of record.by}[/{tab}]. */
export function recordPath(e: EntityMeta, value: unknown, tab?: string): string {
  const base = `${e.record ? e.record.route.slice(0, e.record.route.lastIndexOf('/')) : e.route}/${encodeURIComponent(String(value))}`;
  return tab ? `${base}/${tab}` : base;
}

// Permission key (= route name) of an entity view.
export function permissionFor(e: EntityMeta, view: View | 'excluir'): string {
  const suffix = { list: 'lista', create: 'adicionar', edit: 'editar', show: 'visualizar', excluir: 'excluir' }[view];
  return `${e.permission}.${suffix}`;
}

export function routeTable(): RouteEntry[] {
  if (model.routes?.length) return model.routes;
  return model.entities.flatMap((e) =>
    (['list', 'create', 'edit', 'show'] as View[]).map((view) => ({
      path: pathFor(e.key, view, ':id'),
      name: permissionFor(e, view),
      entity: e.key,
      view,
    })),
  );
}
