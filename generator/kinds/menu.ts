// The menu (metadata/_menu.yaml, metadata/_schema/menu.schema.json): its groups; the entries come from the
// kinds that declare `menu` (entities, screens, hubs and registered kinds).
import type { EntityMeta, HubMeta, MenuNode, ScreenMeta } from '../../shared/model.ts';

export interface RawMenu { groups: { name: string; order: number; icon?: string }[] }
export type MenuItem = { key: string; menu?: { group: string; order: number; icon?: string }; node: MenuNode };
export const MENU_FILE = '_menu.yaml';
export const MENU_SCHEMA = 'menu.schema.json';

export function buildMenu(entities: EntityMeta[], screens: ScreenMeta[], menu: RawMenu, hubs: HubMeta[] = [], more: MenuItem[] = []): MenuNode[] {
  const items = [
    ...hubs.map((h) => ({ key: h.key, menu: h.menu, node: { label: h.label, route: h.route, permission: h.permission } as MenuNode })),
    ...entities.map((e) => ({ key: e.key, menu: e.menu, node: { label: e.label.plural, route: e.base ?? e.route, permission: `${e.permission}.lista` } as MenuNode })),
    // a list alias on a route of its own (e.g. /adm/con/controle) may be an entry too
    ...entities.flatMap((e) => (e.aliases ?? []).filter((a) => a.menu && a.view === 'list' && a.path.startsWith('/'))
      .map((a) => ({ key: `${e.key}:${a.path}`, menu: a.menu, node: { label: a.label ?? e.label.plural, route: a.path, permission: `${e.permission}.lista` } as MenuNode }))),
    ...screens.map((t) => ({ key: t.key, menu: t.menu, node: { label: t.label, route: t.route, ...(t.self ? {} : { permission: t.permission }) } as MenuNode })),
    ...more,
  ];
  return [...menu.groups]
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
    .map((g) => {
      const children = items
        .filter((e) => e.menu?.group === g.name)
        .sort((a, b) => a.menu!.order - b.menu!.order || a.key.localeCompare(b.key))
        .map((e) => {
          const node: MenuNode = { ...e.node };
          if (e.menu!.icon) node.icon = e.menu!.icon;
          return node;
        });
      const node: MenuNode = { label: g.name };
      if (g.icon) node.icon = g.icon;
      node.children = children;
      return node;
    })
    .filter((g) => g.children!.length > 0);
}
