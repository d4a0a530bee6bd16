// react-admin resource modules (runtime/src/generated/resources): thin wrappers around the
// shared generic components of runtime/src/crud, loaded lazily through index.ts.
import type { Model } from '../model.ts';
import type { ImportPaths } from './index.ts';
import { HEADER } from './names.ts';

/** Import specifier of a screen component from the runtime output root. */
export function screenImport(runtimeSrc: string, component: string): string {
  const base = runtimeSrc.startsWith('.') ? runtimeSrc : `./${runtimeSrc}`;
  return `${base}/screens/${component}`;
}

export function emitResources(model: Model, imports: Pick<ImportPaths, 'runtimeSrc' | 'generatorFromRuntime'>): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of model.entities) {
    const ro = e.readOnlyResource;
    files.set(`resources/${e.key}.tsx`, [
      HEADER(e.file),
      `import type { JSONSchema7 } from 'json-schema';`,
      `import { GenericCreate, GenericEdit, GenericList, GenericShow } from '../${imports.runtimeSrc}/crud/index.ts';`,
      `import type { EntityMeta } from '../${imports.generatorFromRuntime}/model.ts';`,
      `import schemaJson from '../schemas/${e.key}.json';`,
      '',
      `export const entity: EntityMeta = ${JSON.stringify(e, null, 2)};`,
      'export const schema = schemaJson as JSONSchema7;',
      '',
      'export const list = () => <GenericList entity={entity} schema={schema} />;',
      ro ? 'export const create = undefined;' : 'export const create = () => <GenericCreate entity={entity} schema={schema} />;',
      ro ? 'export const edit = undefined;' : 'export const edit = () => <GenericEdit entity={entity} schema={schema} />;',
      'export const show = () => <GenericShow entity={entity} schema={schema} />;',
      '',
      'export default { list, create, edit, show };',
      '',
    ].join('\n'));
  }
  files.set('index.ts', [
    HEADER('metadata/'),
    `import type { ComponentType } from 'react';`,
    '',
    'export interface ResourceModule {',
    '  default: { list: ComponentType; create?: ComponentType; edit?: ComponentType; show: ComponentType };',
    '}',
    '',
    '/** Every resource, loaded on first use (one chunk per entity). */',
    'export const resources: { key: string; route: string; load: () => Promise<ResourceModule> }[] = [',
    ...model.entities.map((e) => `  { key: ${JSON.stringify(e.key)}, route: ${JSON.stringify(e.route)}, load: () => import('./resources/${e.key}.tsx') },`),
    '];',
    '',
    'export interface ScreenModule { default: ComponentType }',
    '',
    '/** Every non-CRUD screen (metadata kind: tela): its hand-written component under runtime/src/screens/, loaded on first use. */',
    'export const screens: { key: string; route: string; permission: string; load: () => Promise<ScreenModule> }[] = [',
    ...(model.screens ?? []).map((t) => `  { key: ${JSON.stringify(t.key)}, route: ${JSON.stringify(t.route)}, permission: ${JSON.stringify(t.permission)}, load: () => import(${JSON.stringify(screenImport(imports.runtimeSrc, t.component))}) },`),
    '];',
    '',
  ].join('\n'));
  return files;
}
