// Every generated file, as relative path -> content, for server/generated and runtime/src/generated.
import type { Model } from '../model.ts';
import { emitEntities } from './entities.ts';
import { json } from './names.ts';
import { emitOpenApi } from './openapi.ts';
import { emitResources } from './resources.ts';
import { emitRoutes } from './routes.ts';
import { entitySchema } from './schemas.ts';
import { emitTypes } from './types.ts';

export interface Output { server: Map<string, string>; runtime: Map<string, string> }

/** Import paths of the generated modules, relative to the output roots (posix). The defaults fit
 *  server/generated and runtime/src/generated; other output dirs pass their own (generate.ts). */
export interface ImportPaths {
  serverSrc: string;            // from the server output root to server/ (crud/, app/)
  generatorFromServer: string;  // from the server output root to generator/
  runtimeSrc: string;           // from the runtime output root to runtime/src/ (crud/)
  generatorFromRuntime: string; // from the runtime output root to generator/
}
export const DEFAULT_IMPORTS: ImportPaths = {
  serverSrc: '..', generatorFromServer: '../../generator', runtimeSrc: '..', generatorFromRuntime: '../../../generator',
};

export async function emitAll(model: Model, imports: ImportPaths = DEFAULT_IMPORTS): Promise<Output> {
  const server = new Map<string, string>();
  const runtime = new Map<string, string>();
  const modelJson = json(model);
  server.set('model.json', modelJson);
  runtime.set('model.json', modelJson);
  for (const e of model.entities) {
    const schema = json(entitySchema(e, model));
    server.set(`schemas/${e.key}.json`, schema);
    runtime.set(`schemas/${e.key}.json`, schema);
  }
  for (const [k, v] of await emitTypes(model)) server.set(k, v);
  for (const [k, v] of emitEntities(model)) server.set(k, v);
  for (const [k, v] of emitRoutes(model, imports)) server.set(k, v);
  server.set('openapi.json', json(emitOpenApi(model)));
  server.set('permissions.json', json(model.permissions));
  server.set('menu.json', json(model.menu));
  server.set('routes.json', json(model.routes));
  for (const [k, v] of emitResources(model, imports)) runtime.set(k, v);
  return { server, runtime };
}
