// Declared pt-BR validation messages of the generated JSON Schemas, shared by the server (server/crud/validation.ts)
// and the form (runtime/src/crud/schemaUi.ts) so both say the same: a cross-field rule's `x-message` (allOf item,
// if/then) or a field's `x-rangeMessage` (minimum, maximum and the zeroDisables gap). Pure: no node imports.
const RANGE = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'not']);

type Json = Record<string, unknown>;

/** The message declared for an ajv error of `field` (keyword, schemaPath as ajv reports them), if any. */
export function declaredMessage(schema: Json, field: string, keyword: string, schemaPath: string): string | undefined {
  const rule = /^#\/allOf\/(\d+)\/then\//.exec(schemaPath);
  if (rule) return ((schema.allOf as Json[] | undefined)?.[Number(rule[1])]?.['x-message'] as string | undefined);
  if (!RANGE.has(keyword)) return undefined;
  return ((schema.properties ?? {}) as Record<string, Json>)[field]?.['x-rangeMessage'] as string | undefined;
}

/** ajv's wrapper errors that only repeat an inner failure (if/then). */
export const isWrapperError = (keyword: string) => keyword === 'if';
