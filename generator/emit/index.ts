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

export async function emitAll(model: Model): Promise<Output> {
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
  for (const [k, v] of emitRoutes(model)) server.set(k, v);
  server.set('openapi.json', json(emitOpenApi(model)));
  server.set('permissions.json', json(model.permissions));
  server.set('menu.json', json(model.menu));
  server.set('routes.json', json(model.routes));
  for (const [k, v] of emitResources(model)) runtime.set(k, v);
  return { server, runtime };
}
