// Loads the generated model and ORM entities (server/generated, by npm run generate) and builds the routes from
// the model: each entity is described once (model.json), its API is the generic CRUD (and nested list) of it.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EntitySchema } from '@mikro-orm/core';
import type { Hono } from 'hono';
import type { Model } from '../../shared/model.ts';
import type { AppEnv } from './env.ts';
import { GENERATED_DIR } from '../core/registry.ts';
import { crudRoutes } from '../crud/routes.ts';
import { nestedRoutes } from '../crud/nested.ts';
import { namedRoutes } from '../crud/named.ts';
// The modules (their write hooks among them) are registered before the CRUD routes are built.
import '../calls/index.ts';

export interface Bundle {
  source: 'generated';
  model: Model;
  entities: EntitySchema[];
  routes: { key: string; app: Hono<AppEnv> }[];
  schemas: Record<string, Record<string, unknown>>;
  /** The generated dir it came from (schemas/, openapi.json). */
  dir: string;
}

export function hasGenerated(dir = GENERATED_DIR): boolean {
  return ['model.json', 'entities/index.ts'].every((f) => fs.existsSync(path.join(dir, f)));
}

export async function loadBundle(dir = GENERATED_DIR): Promise<Bundle> {
  dir = path.resolve(dir);
  if (hasGenerated(dir)) {
    const model = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8')) as Model;
    const { entities } = await import(pathToFileURL(path.join(dir, 'entities/index.ts')).href);
    return { source: 'generated', model, entities, routes: modelRoutes(model), schemas: {}, dir };
  }
  throw new Error(`server/generated ausente ou incompleto em ${dir}: execute npm run generate`);
}

/** One CRUD app per entity, mounted under /api/{key} (below its route parameters when it has them, metadata params:
 *  /api/{key}/:tecnology/:model); nested lists (metadata parent) under /api/{parent}/:parent/{key};
 *  named calls (metadata calls) under /api{calls}. */
export function modelRoutes(model: Model): { key: string; app: Hono<AppEnv> }[] {
  return [
    ...model.entities.map((e) => ({ key: e.api ?? e.key, app: crudRoutes(e) })),
    ...model.entities.flatMap((e) => (e.parent ? [{ key: e.parent.api, app: nestedRoutes(e) }] : [])),
    // Named calls (metadata calls): the entity's routes again below /api{calls}, answering the envelope.
    ...model.entities.flatMap((e) => (e.calls ? [{ key: e.calls.slice(1), app: namedRoutes(e) }] : [])),
  ];
}
