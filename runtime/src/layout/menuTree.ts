// Pure helpers of the side menu (unit-tested in layout.test.ts): accent-insensitive search and the sections
// that hold a route.
import type { MenuNode } from '../../../shared/model';

export const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();

/** Entries whose label contains the query (accents and case ignored); sections left empty go away. */
export function searchMenu(nodes: MenuNode[], q: string): MenuNode[] {
  const t = fold(q);
  if (!t) return nodes;
  return nodes
    .map((n) => (n.children ? { ...n, children: searchMenu(n.children, q) } : n))
    .filter((n) => (n.children ? n.children.length > 0 : fold(n.label).includes(t)));
}

/** Keys of the sections above the entry with this route. */
export function sectionsOf(nodes: MenuNode[], route: string | undefined, above: string[] = []): string[] {
  if (!route) return [];
  for (const n of nodes) {
    if (n.children) {
      const found = sectionsOf(n.children, route, [...above, n.key ?? n.label]);
      if (found.length) return found;
    } else if (n.route === route) return above;
  }
  return [];
}
