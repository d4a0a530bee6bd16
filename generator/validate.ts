// Validates metadata files against their kind's JSON Schema (metadata/_schema/*.schema.json or the module's own);
// messages in pt-BR.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import localizeModule from 'ajv-i18n';
import { MetadataError, problem } from './errors.ts';
import type { LoadedMetadata } from './load.ts';
import { MENU_SCHEMA } from './kinds/menu.ts';
import { kinds } from './kinds/registry.ts';
import { TECNOLOGIAS_SCHEMA } from './kinds/tecnologias.ts';
import type { KindModule } from './kinds/types.ts';

// CJS default-export interop.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import('ajv-formats').default;
const localize = ((localizeModule as any).default ?? localizeModule) as any;

/** One validator per registered kind (by its `kind`), plus the menu and technology files. */
export interface MetadataValidators { kinds: Record<string, ValidateFunction>; menu: ValidateFunction; tecnologias: ValidateFunction }

export function compileValidators(metadataDir: string): MetadataValidators {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  const read = (name: string) => JSON.parse(readFileSync(join(metadataDir, '_schema', name), 'utf8'));
  const schemaOf = (k: KindModule) => {
    const schema = typeof k.schema === 'string' ? read(k.schema) : k.schema;
    return k.withSchema ? k.withSchema(schema) : schema;
  };
  return {
    kinds: Object.fromEntries(kinds().map((k) => [k.kind, ajv.compile(schemaOf(k))])),
    menu: ajv.compile(read(MENU_SCHEMA)),
    tecnologias: ajv.compile(read(TECNOLOGIAS_SCHEMA)),
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
  // Entities first, then the other kinds in registry order (as the files are listed).
  for (const k of kinds()) {
    const validate = validators.kinds[k.kind];
    for (const src of meta.kinds?.[k.kind] ?? []) if (!validate(src.data)) problems.push(...formatErrors(src.file, validate.errors));
  }
  if (problems.length) throw new MetadataError(problems);
}
