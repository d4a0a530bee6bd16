// The menu's icons (runtime/src/generated/icons.tsx): exactly the @mui/icons-material icons the metadata names.
import type { MenuNode, Model } from '../../shared/model.ts';
import { HEADER } from './names.ts';

/** Icon names used by the menu (groups, entities, screens), sorted. */
export function menuIcons(model: Model): string[] {
  const used = new Set<string>();
  const walk = (nodes: MenuNode[]) => nodes.forEach((n) => { if (n.icon) used.add(n.icon); walk(n.children ?? []); });
  walk(model.menu);
  return [...used].sort();
}

// Local names get a suffix so an icon named like a global (Map, Router...) never shadows it.
export function emitIcons(model: Model): string {
  const names = menuIcons(model);
  return [
    HEADER('metadata/ (menu icons)'),
    `import type { ReactElement } from 'react';`,
    ...names.map((n) => `import ${n}Icon from '@mui/icons-material/${n}';`),
    '',
    '/** Menu icons by name (metadata menu.icon). */',
    'export const icons: Record<string, ReactElement> = {',
    ...names.map((n) => `  ${n}: <${n}Icon />,`),
    '};',
    '',
  ].join('\n');
}
