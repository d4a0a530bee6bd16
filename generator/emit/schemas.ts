// JSON Schema (draft-07) of the writable body of an entity: the single source for the server's
// ajv validation and the rjsf forms. Custom x-* keywords are listed in generator/keywords.ts.
import type { JSONSchema7 } from 'json-schema';
import type { EntityMeta, FieldMeta, Model } from '../../shared/model.ts';

export type Schema = JSONSchema7 & Record<`x-${string}`, unknown>;

export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
const GEOJSON_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'];

/** URLs answered by POST /api/upload/* (server/calls/upload.ts). */
export const UPLOADED_FILE = '^/api/upload/file/[0-9a-f]{32}\\.[a-z0-9]{1,5}$';
export const UPLOADED_IMAGE = '^/api/upload/file/[0-9a-f]{32}\\.png$';

export const isWritable = (f: FieldMeta) => !f.system && !f.readOnly && !f.hidden;
export const isReadable = (f: FieldMeta) => !f.hidden && !f.writeOnly;

function valueSchema(f: FieldMeta, model: Model): Schema {
  switch (f.type) {
    case 'string': case 'text': case 'password': case 'file': case 'image': {
      const s: Schema = { type: 'string' };
      if (f.minLength !== undefined) s.minLength = f.minLength;
      else if (f.required) s.minLength = 1;
      if (f.maxLength !== undefined) s.maxLength = f.maxLength;
      if (f.pattern !== undefined) s.pattern = f.pattern;
      if (f.format !== undefined) s.format = f.format;
      if (f.upperCase) s['x-upperCase'] = true;
      if (f.patternMessage !== undefined) s['x-patternMessage'] = f.patternMessage;
      // An image or file is the URL of a file uploaded to the company (POST /api/upload/*), never any address.
      if ((f.type === 'image' || f.type === 'file') && f.pattern === undefined) {
        s.pattern = f.type === 'image' ? UPLOADED_IMAGE : UPLOADED_FILE;
        s['x-patternMessage'] ??= f.type === 'image' ? `Envie a imagem do campo ${f.label} pelo botão Selecionar imagem` : `Envie o arquivo do campo ${f.label} pelo botão Selecionar arquivo`;
      }
      return s;
    }
    case 'integer': case 'number': {
      const s: Schema = { type: f.type };
      if (f.min !== undefined) s.minimum = f.min;
      if (f.max !== undefined) s.maximum = f.max;
      // 0 disables the feature: accepted below min, the gap (0, min) refused.
      if (f.zeroDisables) Object.assign(s, { minimum: 0, not: { exclusiveMinimum: 0, exclusiveMaximum: f.min } });
      if (f.rangeMessage !== undefined) s['x-rangeMessage'] = f.rangeMessage;
      return s;
    }
    case 'boolean': return { type: 'boolean' };
    case 'date': return { type: 'string', format: 'date' };
    case 'datetime': return { type: 'string', format: 'date-time' };
    case 'time': return { type: 'string', pattern: TIME_PATTERN, 'x-patternMessage': 'Hora inválida: use o formato HH:mm' };
    case 'enum': return { type: 'string', enum: f.options!.map((o) => o.value), 'x-enumNames': f.options!.map((o) => o.label) };
    case 'reference': return { type: 'integer', minimum: 1, 'x-reference': f.reference };
    case 'referenceList':
      return { type: 'array', items: { type: 'integer', minimum: 1 }, uniqueItems: true, 'x-reference': f.reference };
    case 'geometry':
      return {
        type: 'object', required: ['type'],
        properties: { type: { type: 'string', enum: GEOJSON_TYPES }, coordinates: { type: 'array' }, geometries: { type: 'array' } },
      };
    case 'json': {
      if (f.widget) return { type: 'array', ...(f.required ? { minItems: 1 } : {}), maxItems: 200, items: { type: 'object' }, 'x-widget': f.widget };
      if (!f.items) return {};
      const items: Schema = { type: f.items };
      const options = f.optionsFrom === 'permissions'
        ? model.permissions.map((p) => ({ value: p.key, label: p.label }))
        : f.options;
      if (options) {
        items.enum = options.map((o) => o.value);
        items['x-enumNames'] = options.map((o) => o.label);
      }
      const s: Schema = { type: 'array', items, uniqueItems: true };
      if (f.optionsFrom) s['x-optionsFrom'] = f.optionsFrom;
      return s;
    }
  }
}

// Optional fields accept null (ra-data-simple-rest sends the whole record back on edit).
function nullable(s: Schema): Schema {
  if (s.type === undefined) return s;
  const out: Schema = { ...s, type: [s.type as 'string', 'null'] };
  if (s.enum) out.enum = [...s.enum, null];
  return out;
}

export function fieldSchema(f: FieldMeta, model: Model, required = f.required): Schema {
  const value = valueSchema(f, model);
  const s: Schema = { title: f.label, ...(required ? value : nullable(value)) };
  if (f.help !== undefined) s.description = f.help;
  if (f.default !== undefined) s.default = f.default as Schema['default'];
  if (f.example !== undefined) s.examples = [f.example as NonNullable<Schema['default']>];
  if (f.writeOnly) s.writeOnly = true;
  s['x-type'] = f.type;
  return s;
}

export function entitySchema(e: EntityMeta, model: Model): Schema {
  const fields = e.fields.filter(isWritable);
  const s: Schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: e.label.singular,
    type: 'object',
    additionalProperties: false,
    required: fields.filter((f) => f.required).map((f) => f.name),
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f, model)])),
  };
  if (e.rules?.length) s.allOf = e.rules.map((r) => ruleSchema(r, e));
  // checked by the x-compare keyword (shared/messages.ts compareKeyword, on the server's and the form's ajv)
  if (e.compare?.length) s['x-compare'] = e.compare.map((c) => ({ field: c.field, op: c.op, other: c.other, message: c.message }));
  return s;
}

/** A cross-field rule as if/then: when every `when` field equals its value, each `then` field is a number within its limits. */
function ruleSchema(r: NonNullable<EntityMeta['rules']>[number], e: EntityMeta): Schema {
  const type = (name: string) => (e.fields.find((f) => f.name === name)?.type === 'number' ? 'number' : 'integer');
  return {
    if: { properties: Object.fromEntries(Object.entries(r.when).map(([k, v]) => [k, { const: v }])), required: Object.keys(r.when) },
    then: {
      properties: Object.fromEntries(Object.entries(r.then).map(([k, lim]) => [k, {
        type: type(k), ...(lim.min !== undefined ? { minimum: lim.min } : {}), ...(lim.max !== undefined ? { maximum: lim.max } : {}),
      }])),
      required: Object.keys(r.then),
    },
    'x-message': r.message,
  };
}

// Shape of a row as the API answers it (system and read-only fields included, hidden ones out).
export function recordSchema(e: EntityMeta, model: Model): Schema {
  const fields = e.fields.filter(isReadable);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: e.label.singular,
    type: 'object',
    additionalProperties: false,
    required: fields.filter((f) => f.required).map((f) => f.name),
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f, model)])),
  };
}
