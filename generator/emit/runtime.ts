// The runtime's index (runtime/src/generated/index.ts): what cannot be data — lazy imports of each entity's
// JSON Schema and of each screen's component. The entities themselves are described once, in model.json
// (runtime/src/model.ts builds their views from it).
import type { Model } from '../../shared/model.ts';
import type { ImportPaths } from './index.ts';
import { HEADER } from './names.ts';

/** Where a screen's component lives, relative to the runtime sources (runtime/src): under screens/, or — for a
 *  screen declared in modules/<name>/metadata/ whose component starts with ./ — relative to its module folder
 *  (./screens/Importacao.tsx); a module screen may still name a core one (provider/ProviderScreen.tsx). */
export function screenSource(t: { file: string; component: string }): string {
  const mod = /^modules\/[^/]+\//.exec(t.file)?.[0];
  return mod && t.component.startsWith('./') ? `../../${mod}${t.component.slice(2)}` : `screens/${t.component}`;
}

/** Import specifier of a screen component from the runtime output root. */
export function screenImport(runtimeSrc: string, component: string, file = ''): string {
  const base = runtimeSrc.startsWith('.') ? runtimeSrc : `./${runtimeSrc}`;
  return `${base}/${screenSource({ file, component })}`;
}

export function emitRuntimeIndex(model: Model, imports: Pick<ImportPaths, 'runtimeSrc'>): string {
  return [
    HEADER('metadata/'),
    `import type { ComponentType } from 'react';`,
    `import type { JSONSchema7 } from 'json-schema';`,
    '',
    'const schema = (m: { default: unknown }) => m.default as JSONSchema7;',
    '',
    '/** JSON Schema of each entity\'s writable body (the same file the server validates with), loaded on first use. */',
    'export const schemas: Record<string, () => Promise<JSONSchema7>> = {',
    ...model.entities.map((e) => `  ${JSON.stringify(e.key)}: () => import('./schemas/${e.key}.json').then(schema),`),
    '};',
    '',
    'export interface ScreenModule { default: ComponentType }',
    '',
    '/** Every non-CRUD screen (metadata kind: tela): its hand-written component under runtime/src/screens/, loaded on first use. */',
    'export const screens: { key: string; route: string; permission: string; public?: boolean; load: () => Promise<ScreenModule> }[] = [',
    ...(model.screens ?? []).map((t) => `  { key: ${JSON.stringify(t.key)}, route: ${JSON.stringify(t.route)}, permission: ${JSON.stringify(t.permission)}, ${t.public ? 'public: true, ' : ''}load: () => import(${JSON.stringify(screenImport(imports.runtimeSrc, t.component, t.file))}) },`),
    '];',
    '',
  ].join('\n');
}
