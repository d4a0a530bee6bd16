// TypeScript types from the entity schemas (json-schema-to-typescript).
import { compile } from 'json-schema-to-typescript';
import type { Model } from '../../shared/model.ts';
import { HEADER, pascal } from './names.ts';
import { entitySchema, recordSchema, type Schema } from './schemas.ts';

// json2ts names a type after each `title`; drop titles and x-* annotations so we name them ourselves.
function plain(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(plain);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'title' || k === '$schema' || k.startsWith('x-')) continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, plain(s)]));
    else if (k === 'items') out[k] = plain(v);
    else out[k] = v;
  }
  return out;
}

async function toTs(schema: Schema, name: string): Promise<string> {
  return compile(plain(schema) as any, name, {
    bannerComment: '', additionalProperties: false, format: false, declareExternallyReferenced: true,
    strictIndexSignatures: true, unknownAny: true,
  });
}

export async function emitTypes(model: Model): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const index: string[] = [HEADER('metadata/')];
  for (const e of model.entities) {
    const name = pascal(e.key);
    const body = await toTs(entitySchema(e, model), name);
    const record = await toTs(recordSchema(e, model), `${name}Record`);
    files.set(`types/${e.key}.ts`, `${HEADER(e.file)}\n/** Writable body of ${e.label.singular}. */\n${body}\n/** A row of ${e.label.singular} as the API answers it. */\n${record}`);
    index.push(`export type { ${name}, ${name}Record } from './${e.key}.ts';`);
  }
  files.set('types/index.ts', index.join('\n') + '\n');
  return files;
}

