// Validates metadata files against metadata/_schema/*.schema.json; messages in pt-BR.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import localizeModule from 'ajv-i18n';
import { MetadataError, problem } from './errors.ts';
import type { LoadedMetadata } from './load.ts';

// CJS default-export interop.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import('ajv-formats').default;
const localize = ((localizeModule as any).default ?? localizeModule) as any;

export interface MetadataValidators { entity: ValidateFunction; screen: ValidateFunction; provider: ValidateFunction; hub: ValidateFunction; menu: ValidateFunction; tecnologias: ValidateFunction }

export function compileValidators(metadataDir: string): MetadataValidators {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  const read = (name: string) => JSON.parse(readFileSync(join(metadataDir, '_schema', name), 'utf8'));
  return {
    entity: ajv.compile(read('entity.schema.json')),
    screen: ajv.compile(read('screen.schema.json')),
    provider: ajv.compile(read('provider.schema.json')),
    hub: ajv.compile(read('hub.schema.json')),
    menu: ajv.compile(read('menu.schema.json')),
    tecnologias: ajv.compile(read('tecnologias.schema.json')),
  };
}

function message(e: ErrorObject): string {
  switch (e.keyword) {
    case 'enum':
      return `deve ser um de: ${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    case 'const':
      return `deve ser igual a ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    case 'additionalProperties':
      return `propriedade não permitida: ${(e.params as { additionalProperty: string }).additionalProperty}`;
    case 'required':
      return `propriedade obrigatória ausente: ${(e.params as { missingProperty: string }).missingProperty}`;
    case 'not':
      return 'propriedade não permitida para este tipo de campo';
    default:
      return e.message ?? e.keyword;
  }
}

export function formatErrors(file: string, errors: ErrorObject[] | null | undefined): string[] {
  if (!errors?.length) return [];
  localize['pt-BR'](errors);
  // "if"/"allOf" wrappers only repeat the inner failures.
  const useful = errors.filter((e) => e.keyword !== 'if' && e.keyword !== 'allOf');
  const lines = (useful.length ? useful : errors).map((e) => problem(file, e.instancePath, message(e)));
  return [...new Set(lines)];
}

export function validateMetadata(meta: LoadedMetadata, validators = compileValidators(meta.dir)): void {
  const problems: string[] = [];
  if (!validators.menu(meta.menu.data)) problems.push(...formatErrors(meta.menu.file, validators.menu.errors));
  if (meta.tecnologias && !validators.tecnologias(meta.tecnologias.data)) problems.push(...formatErrors(meta.tecnologias.file, validators.tecnologias.errors));
  for (const src of meta.entities) {
    if (!validators.entity(src.data)) problems.push(...formatErrors(src.file, validators.entity.errors));
  }
  for (const src of meta.screens ?? []) {
    if (!validators.screen(src.data)) problems.push(...formatErrors(src.file, validators.screen.errors));
  }
  for (const src of meta.providers ?? []) {
    if (!validators.provider(src.data)) problems.push(...formatErrors(src.file, validators.provider.errors));
  }
  for (const src of meta.hubs ?? []) {
    if (!validators.hub(src.data)) problems.push(...formatErrors(src.file, validators.hub.errors));
  }
  if (problems.length) throw new MetadataError(problems);
}
