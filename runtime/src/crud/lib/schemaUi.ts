// Pure helpers: uiSchema derived from the entity, pt-BR ajv messages, error filtering.
import type { ErrorSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import { declaredMessage, isWrapperError } from '../../../../shared/messages';

export const requiredMessage = (label: string) => `O campo ${label} é obrigatório`;

export function writableFields(entity: EntityMeta, schema: JSONSchema7): FieldMeta[] {
  const props = schema.properties ?? {};
  return entity.fields.filter((f) => f.name in props);
}

// `creating`: the add form (a password field's help about keeping the current password does not apply).
export function buildUiSchema(entity: EntityMeta, schema: JSONSchema7, opts: { creating?: boolean } = {}): UiSchema {
  const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  const order = entity.form.sections.flatMap((s) => s.fields).filter((n) => n in (schema.properties ?? {}));
  ui['ui:order'] = [...order, '*'];
  for (const f of writableFields(entity, schema)) {
    const u: Record<string, unknown> = {};
    const prop = (schema.properties?.[f.name] ?? {}) as JSONSchema7 & Record<string, unknown>;
    if (f.help && !prop.description && !(opts.creating && f.type === 'password')) u['ui:help'] = f.help;
    const items = prop.items as (JSONSchema7 & Record<string, unknown>) | undefined;
    if (items && Array.isArray(items.enum)) {
      // array of fixed values (e.g. roles): chips select with the enum labels
      const names = (items['x-enumNames'] as string[] | undefined) ?? [];
      u['ui:widget'] = 'enumMulti';
      u['ui:options'] = { options: items.enum.map((v, i) => ({ value: String(v), label: names[i] ?? String(v) })) };
      ui[f.name] = u;
      continue;
    }
    if (f.type === 'json' && f.widget) {
      // core widgets (shared/questionnaire.ts): the question editor; answers are written by the questionnaire's view
      u['ui:field'] = f.widget;
      if (f.readOnly) u['ui:readonly'] = true;
      ui[f.name] = u;
      continue;
    }
    if (f.type === 'json' && items?.type === 'string') {
      // free list of codes (badges, passenger tags): chips typed in
      u['ui:widget'] = 'tags';
      if (f.readOnly) u['ui:readonly'] = true;
      ui[f.name] = u;
      continue;
    }
    if (f.readOnly) u['ui:readonly'] = true;
    // Bound to a route parameter (metadata params): carried by the route, not typed.
    if (entity.params?.some((p) => p.field === f.name)) {
      ui[f.name] = { 'ui:widget': 'hidden' };
      continue;
    }
    if (f.lookup) {
      // codes of a register: choices from GET /api/{entity}/opcoes/{field} (runtime/src/crud/lookup.tsx)
      ui[f.name] = { ...u, 'ui:widget': 'lookup' };
      continue;
    }
    switch (f.type) {
      case 'reference':
        u['ui:widget'] = 'reference';
        break;
      case 'referenceList':
        u['ui:widget'] = 'referenceList';
        break;
      case 'enum':
        u['ui:widget'] = 'enumSelect';
        u['ui:options'] = { options: f.options ?? [] };
        break;
      case 'text':
        u['ui:widget'] = f.widget === 'code' ? 'code' : 'textarea';
        u['ui:options'] = { rows: f.widget === 'code' ? 8 : 4 };
        break;
      case 'password':
        u['ui:widget'] = 'password';
        break;
      case 'date':
        u['ui:widget'] = 'date';
        break;
      case 'datetime':
        u['ui:widget'] = 'datetime';
        break;
      case 'time':
        u['ui:widget'] = 'time';
        break;
      case 'geometry':
        // metadata map: drawn on a map (widgets/GeometryMap.tsx); else the GeoJSON typed
        u['ui:field'] = f.map ? 'geometry' : 'json';
        break;
      case 'json':
        u['ui:field'] = 'json';
        break;
      case 'boolean':
        u['ui:widget'] = 'checkbox';
        break;
      case 'image':
        u['ui:widget'] = 'imageUpload';
        break;
      case 'file':
        u['ui:widget'] = 'fileUpload';
        if (f.upload) u['ui:options'] = { ...(u['ui:options'] as object | undefined), upload: f.upload };
        break;
      default:
        if (f.upperCase) u['ui:widget'] = 'upperCase';
    }
    ui[f.name] = u;
  }
  return ui;
}

// The schema without the descriptions of password fields (the add form: there is no current password to keep).
export function withoutPasswordHelp(entity: EntityMeta, schema: JSONSchema7): JSONSchema7 {
  const names = entity.fields.filter((f) => f.type === 'password').map((f) => f.name).filter((n) => (schema.properties?.[n] as JSONSchema7 | undefined)?.description);
  if (!names.length) return schema;
  const properties = { ...schema.properties };
  for (const n of names) {
    const { description: _omit, ...rest } = properties[n] as JSONSchema7;
    properties[n] = rest;
  }
  return { ...schema, properties };
}

// The schema without its cross-field rules (allOf of if/then), for rendering only.
export function withoutRules(schema: JSONSchema7): JSONSchema7 {
  if (!schema.allOf) return schema;
  const { allOf: _rules, ...rest } = schema;
  return rest;
}

// ajv errors -> the spec's pt-BR messages (required: 'O campo {label} é obrigatório').
export function makeTransformErrors(entity: EntityMeta, schema: JSONSchema7) {
  const fields = new Map(entity.fields.map((f) => [f.name, f]));
  const labelOf = (name: string) =>
    fields.get(name)?.label ?? ((schema.properties?.[name] as JSONSchema7 | undefined)?.title ?? name);
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors.filter((e) => !isWrapperError(e.name ?? '')).map((e) => {
      const prop = e.name === 'required' ? String(e.params?.missingProperty ?? '') : (e.property ?? '').replace(/^\./, '').split('.')[0];
      const label = labelOf(prop);
      const f = fields.get(prop);
      const declared = declaredMessage(schema as Record<string, unknown>, prop, e.name ?? '', e.schemaPath ?? '', e.params);
      let message = declared ?? e.message ?? '';
      if (declared === undefined) switch (e.name) {
        case 'required':
          message = requiredMessage(label);
          break;
        case 'maxLength':
          message = `O campo ${label} deve ter no máximo ${e.params?.limit} caracteres`;
          break;
        case 'minLength':
          message = `O campo ${label} deve ter no mínimo ${e.params?.limit} caracteres`;
          break;
        case 'minimum':
          message = `O campo ${label} deve ser maior ou igual a ${e.params?.limit}`;
          break;
        case 'maximum':
          message = `O campo ${label} deve ser menor ou igual a ${e.params?.limit}`;
          break;
        case 'pattern':
          message = f?.patternMessage ?? `O campo ${label} está em formato inválido`;
          break;
        case 'format':
          message = e.params?.format === 'email' ? `O campo ${label} deve ser um e-mail válido` : `O campo ${label} está em formato inválido`;
          break;
        case 'type':
          message = `O campo ${label} é inválido`;
          break;
        case 'enum':
          message = `O campo ${label} tem um valor não permitido`;
          break;
        default:
          message = `O campo ${label} é inválido`;
      }
      return { ...e, property: prop ? `.${prop}` : e.property, message, stack: message };
    });
}

// Keep only the errors of the given top-level fields (touched ones before the first submit).
export function pickErrors(es: ErrorSchema | undefined, names: Set<string> | 'all'): ErrorSchema | undefined {
  if (!es) return undefined;
  if (names === 'all') return es;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(es)) if (k !== '__errors' && names.has(k)) out[k] = v;
  return Object.keys(out).length ? (out as ErrorSchema) : undefined;
}

// Server { field: message } -> rjsf ErrorSchema.
export function serverErrorSchema(errors: Record<string, string> | undefined): ErrorSchema | undefined {
  if (!errors || !Object.keys(errors).length) return undefined;
  return Object.fromEntries(Object.entries(errors).map(([k, m]) => [k, { __errors: [m] }])) as ErrorSchema;
}

// Form data limited to the schema's properties (the writable body).
export function toFormData(record: Record<string, unknown> | undefined, schema: JSONSchema7): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!record) return out;
  for (const k of Object.keys(schema.properties ?? {})) if (record[k] !== undefined) out[k] = record[k];
  return out;
}

/** The top-level defaults of a form schema ({ field: default }). */
export function schemaDefaults(schema: JSONSchema7): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    if (typeof p === 'object' && p.default !== undefined) out[k] = p.default;
  }
  return out;
}

export function isEmptyValue(v: unknown) {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Fields for an action payload's properties that are not fields of the entity (e.g. dispositivo_teclado's
 *  enviar_macro { macro }): read from the payload schema (x-reference → reference picker, enum → select), so the
 *  payload dialog shows the same widgets as a register's form. */
/** The payload properties named like an entity field that does not describe them (another type, other choices: the
 *  transfer's `motivo` text vs the interrupt's reason code): they get their own field and no value from the record. */
export function payloadShadows(entity: EntityMeta, schema: JSONSchema7): Set<string> {
  const out = new Set<string>();
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const f = entity.fields.find((x) => x.name === name);
    if (!f || typeof raw !== 'object') continue;
    const p = raw as JSONSchema7;
    const t = Array.isArray(p.type) ? p.type.find((x) => x !== 'null') : p.type;
    const fits = p.enum ? !!f.options && p.enum.every((v) => f.options!.some((o) => o.value === String(v)))
      : t === 'boolean' ? f.type === 'boolean'
        : t === 'integer' || t === 'number' ? ['integer', 'number', 'reference'].includes(f.type)
          : t === 'array' ? f.type === 'referenceList' || f.type === 'json'
            : true;
    if (!fits) out.add(name);
  }
  return out;
}

export function payloadFields(entity: EntityMeta, schema: JSONSchema7): FieldMeta[] {
  const shadowed = payloadShadows(entity, schema);
  const known = new Set(entity.fields.map((f) => f.name).filter((n) => !shadowed.has(n)));
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).filter(([name, p]) => !known.has(name) && typeof p === 'object').map(([name, raw]) => {
    const p = raw as JSONSchema7 & Record<string, unknown>;
    const t = Array.isArray(p.type) ? p.type.find((x) => x !== 'null') : p.type;
    const names = (p['x-enumNames'] as string[] | undefined) ?? [];
    const itemRef = t === 'array' && p.items && typeof p.items === 'object' && !Array.isArray(p.items) ? (p.items as Record<string, unknown>)['x-reference'] : undefined;
    const reference = p['x-reference'] ?? itemRef;
    const type: FieldMeta['type'] = itemRef ? 'referenceList' : p['x-reference'] ? 'reference' : p.enum ? 'enum' : t === 'boolean' ? 'boolean' : t === 'integer' ? 'integer' : t === 'number' ? 'number' : 'string';
    return {
      name, column: name, type, label: p.title ?? name, required: required.has(name), unique: false, upperCase: false,
      readOnly: false, hidden: false, writeOnly: false, system: false,
      ...(reference ? { reference: String(reference) } : {}),
      ...(p.enum ? { options: p.enum.map((v, i) => ({ value: String(v), label: names[i] ?? String(v) })) } : {}),
    } as FieldMeta;
  });
}
