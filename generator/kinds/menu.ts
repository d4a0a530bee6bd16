// The menu (metadata/_menu.yaml, metadata/_schema/menu.schema.json): the entries come from the kinds that declare
// `menu` (entities, screens, hubs and registered kinds); the tree follows the spec's routes: area (first segment,
// /tlm) → section (second segment, /tlm/fro) → entries, labels and order from _menu.yaml `areas`. Without `areas`
// the entries are grouped by their menu.group as before.
import type { EntityMeta, HubMeta, MenuNode, ScreenMeta } from '../../shared/model.ts';

export interface RawMenu {
  groups: { name: string; order: number; icon?: string }[];
  areas?: { name: string; label: string; icon?: string; sections?: { name: string; label: string }[] }[];
}
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
  if (menu.areas) return routeTree(items, menu);
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

/** Entries in their group's order (group order, then the entry's order, then key). */
const byMenuOrder = (menu: RawMenu) => {
  const group = new Map(menu.groups.map((g) => [g.name, g.order]));
  return (a: MenuItem, b: MenuItem) => (group.get(a.menu!.group) ?? 0) - (group.get(b.menu!.group) ?? 0)
    || a.menu!.order - b.menu!.order || a.key.localeCompare(b.key);
};

function routeTree(items: MenuItem[], menu: RawMenu): MenuNode[] {
  const leaf = (e: MenuItem): MenuNode => ({ ...e.node, ...(e.menu!.icon ? { icon: e.menu!.icon } : {}) });
  const inMenu = items.filter((e) => e.menu && e.node.route).sort(byMenuOrder(menu));
  const seg = (e: MenuItem) => e.node.route!.split('/').filter(Boolean);
  const areas = menu.areas!;
  const top = inMenu.filter((e) => !areas.some((a) => a.name === seg(e)[0])).map(leaf);
  const tree = areas.map((a) => {
    const mine = inMenu.filter((e) => seg(e)[0] === a.name);
    const sections = (a.sections ?? []).map((s): MenuNode => ({
      label: s.label, key: `${a.name}/${s.name}`,
      children: mine.filter((e) => seg(e)[1] === s.name && seg(e).length > 2).map(leaf),
    })).filter((s) => s.children!.length > 0);
    const loose = mine.filter((e) => !(a.sections ?? []).some((s) => s.name === seg(e)[1] && seg(e).length > 2)).map(leaf);
    const node: MenuNode = { label: a.label, key: a.name, children: [...sections, ...loose] };
    if (a.icon) node.icon = a.icon;
    return node;
  }).filter((a) => a.children!.length > 0);
  return [...top, ...tree];
}
