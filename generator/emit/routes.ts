// Hono route modules (server/generated/routes): each mounts the server's generic CRUD handler.
import type { Model } from '../model.ts';
import type { ImportPaths } from './index.ts';
import { HEADER } from './names.ts';

const ident = (key: string) => (/^[a-z_$][a-z0-9_$]*$/i.test(key) ? key : `_${key}`);

export function emitRoutes(model: Model, imports: Pick<ImportPaths, 'serverSrc' | 'generatorFromServer'>): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of model.entities) {
    files.set(`routes/${e.key}.ts`, [
      HEADER(e.file),
      `import { crudRoutes } from '../${imports.serverSrc}/crud/routes.ts';`,
      `import type { EntityMeta } from '../${imports.generatorFromServer}/model.ts';`,
      '',
      `export const entity: EntityMeta = ${JSON.stringify(e, null, 2)};`,
      '',
      'export default crudRoutes(entity);',
      '',
    ].join('\n'));
  }
  files.set('routes/index.ts', [
    HEADER('metadata/'),
    `import type { Hono } from 'hono';`,
    `import type { AppEnv } from '../${imports.serverSrc}/app/env.ts';`,
    ...(model.entities.some((e) => e.parent) ? [`import { nestedRoutes } from '../${imports.serverSrc}/crud/nested.ts';`] : []),
    ...model.entities.map((e) => e.parent
      ? `import ${ident(e.key)}, { entity as ${ident(e.key)}Entity } from './${e.key}.ts';`
      : `import ${ident(e.key)} from './${e.key}.ts';`),
    '',
    '/** One CRUD app per entity, to mount under /api/{key}; nested lists (metadata parent) under /api/{parent}/:parent/{key}. */',
    'export const routes: { key: string; app: Hono<AppEnv> }[] = [',
    ...model.entities.map((e) => `  { key: ${JSON.stringify(e.key)}, app: ${ident(e.key)} },`),
    ...model.entities.filter((e) => e.parent).map((e) => `  { key: ${JSON.stringify(e.parent!.api)}, app: nestedRoutes(${ident(e.key)}Entity) },`),
    '];',
    '',
  ].join('\n'));
  return files;
}
