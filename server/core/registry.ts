// Runtime registry: the model, the JSON schemas and the ORM entity names, set once at start-up.
// The routes (server/app/bundle.ts) are built from this same model; they resolve everything here lazily.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, Model } from '../../shared/model.ts';

export const GENERATED_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../generated');

interface Runtime { model: Model; schemas: Record<string, Record<string, unknown>>; dir?: string }
let rt: Runtime | undefined;

export function setRuntime(r: Runtime): void { rt = r; }

/** The generated dir in use (schemas/, openapi.json). */
export function generatedDir(): string { return rt?.dir ?? GENERATED_DIR; }

export function getModel(): Model {
  if (!rt) throw new Error('runtime not initialised (call setRuntime)');
  return rt.model;
}

export function entityByKey(key: string): EntityMeta | undefined {
  return getModel().entities.find((e) => e.key === key);
}

export function schemaFor(key: string): Record<string, unknown> {
  if (!rt) throw new Error('runtime not initialised');
  if (!rt.schemas[key]) {
    rt.schemas[key] = JSON.parse(fs.readFileSync(path.join(rt.dir ?? GENERATED_DIR, 'schemas', `${key}.json`), 'utf8'));
  }
  return rt.schemas[key];
}

const names = new Map<string, string>();
/** ORM entity (by name) of a model entity, found by its table name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function ormName(em: EntityManager, e: EntityMeta): EntityName<any> {
  let n = names.get(e.table);
  if (!n) {
    for (const meta of em.getMetadata().getAll().values()) {
      if (meta.tableName === e.table && !meta.embeddable) { n = meta.className; break; }
    }
    if (!n) throw new Error(`no ORM entity for table ${e.table}`);
    names.set(e.table, n);
  }
  return n as unknown as EntityName<any>;
}
export function resetNames(): void { names.clear(); }
