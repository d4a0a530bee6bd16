// ajv validation of request bodies against the generated JSON Schema, with pt-BR messages.
import { Ajv, type ErrorObject, type KeywordDefinition, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { EntityMeta } from '../../shared/model.ts';
import { compareKeyword, declaredMessage, isWrapperError } from '../../shared/messages.ts';

const addFormats = (addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport;

export interface FieldError { field: string; label: string; message: string }

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, coerceTypes: false });
addFormats(ajv);
ajv.addKeyword({ keyword: 'x-patternMessage', schemaType: 'string' });
ajv.addKeyword({ keyword: 'x-rangeMessage', schemaType: 'string' });
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
ajv.addKeyword(compareKeyword as unknown as KeywordDefinition);

const cache = new Map<string, ValidateFunction>();

const typeNames: Record<string, string> = {
  string: 'um texto', integer: 'um número inteiro', number: 'um número', boolean: 'verdadeiro ou falso',
  array: 'uma lista', object: 'um objeto', null: 'vazio',
};
const formatNames: Record<string, string> = {
  email: 'um e-mail válido', uri: 'um endereço (URL) válido', date: 'uma data válida (AAAA-MM-DD)',
  'date-time': 'uma data e hora válidas', time: 'um horário válido (HH:mm)',
};

export function compile(cacheKey: string, schema: Record<string, unknown>): ValidateFunction {
  let v = cache.get(cacheKey);
  if (!v) { v = ajv.compile(schema); cache.set(cacheKey, v); }
  return v;
}
export function clearValidators(): void { cache.clear(); }

function labelOf(schema: Record<string, unknown>, entity: EntityMeta, field: string): string {
  const props = (schema.properties ?? {}) as Record<string, { title?: string }>;
  return props[field]?.title ?? entity.fields.find((f) => f.name === field)?.label ?? field;
}

/** Turns ajv errors into one pt-BR message per field. */
export function messages(errors: ErrorObject[], schema: Record<string, unknown>, entity: EntityMeta): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let field = e.instancePath.split('/')[1] ?? '';
    if (e.keyword === 'required') field = (e.params as { missingProperty: string }).missingProperty;
    if (e.keyword === 'additionalProperties') field = (e.params as { additionalProperty: string }).additionalProperty;
    if (isWrapperError(e.keyword) || seen.has(field)) continue;
    const label = labelOf(schema, entity, field);
    const p = e.params as Record<string, unknown>;
    const sub = ((schema.properties ?? {}) as Record<string, Record<string, unknown>>)[field] ?? {};
    let message = declaredMessage(schema, field, e.keyword, e.schemaPath, e.params as Record<string, unknown>);
    if (message === undefined) switch (e.keyword) {
      case 'required': message = `O campo ${label} é obrigatório`; break;
      case 'additionalProperties': message = `Campo desconhecido: ${field}`; break;
      case 'type': message = `O campo ${label} deve ser ${typeNames[String(p.type).split(',')[0]] ?? p.type}`; break;
      case 'maxLength': message = `O campo ${label} deve ter no máximo ${p.limit} caracteres`; break;
      case 'minLength': message = `O campo ${label} deve ter no mínimo ${p.limit} caracteres`; break;
      case 'maximum': message = `O campo ${label} deve ser no máximo ${p.limit}`; break;
      case 'minimum': message = `O campo ${label} deve ser no mínimo ${p.limit}`; break;
      case 'exclusiveMaximum': message = `O campo ${label} deve ser menor que ${p.limit}`; break;
      case 'exclusiveMinimum': message = `O campo ${label} deve ser maior que ${p.limit}`; break;
      case 'maxItems': message = `O campo ${label} aceita no máximo ${p.limit} itens`; break;
      case 'minItems': message = p.limit === 1 ? `O campo ${label} é obrigatório` : `O campo ${label} exige ao menos ${p.limit} itens`; break;
      case 'format': message = `O campo ${label} deve ser ${formatNames[String(p.format)] ?? 'válido'}`; break;
      case 'pattern': message = typeof sub['x-patternMessage'] === 'string' ? String(sub['x-patternMessage']) : `O campo ${label} está em formato inválido`; break;
      case 'enum': message = `O campo ${label} deve ser um dos valores: ${(p.allowedValues as unknown[]).join(', ')}`; break;
      case 'const': message = `O campo ${label} tem um valor inválido`; break;
      default: message = `O campo ${label} é inválido`;
    }
    seen.add(field);
    out.push({ field, label, message });
  }
  return out;
}
