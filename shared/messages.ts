// Declared pt-BR validation messages of the generated JSON Schemas, shared by the server (server/crud/validation.ts)
// and the form (runtime/src/crud/lib/schemaUi.ts) so both say the same: a cross-field rule's `x-message` (allOf item,
// if/then) or a field's `x-rangeMessage` (minimum, maximum and the zeroDisables gap). Pure: no node imports.
const RANGE = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'not']);

type Json = Record<string, unknown>;

/** The message declared for an ajv error of `field` (keyword, schemaPath as ajv reports them), if any. */
export function declaredMessage(schema: Json, field: string, keyword: string, schemaPath: string, params?: Json): string | undefined {
  if (keyword === 'x-compare') return (schema['x-compare'] as Compare[] | undefined)?.[Number(params?.rule)]?.message;
  const rule = /^#\/allOf\/(\d+)\/then\//.exec(schemaPath);
  if (rule) return ((schema.allOf as Json[] | undefined)?.[Number(rule[1])]?.['x-message'] as string | undefined);
  if (!RANGE.has(keyword)) return undefined;
  return ((schema.properties ?? {}) as Record<string, Json>)[field]?.['x-rangeMessage'] as string | undefined;
}

/** ajv's wrapper errors that only repeat an inner failure (if/then). */
export const isWrapperError = (keyword: string) => keyword === 'if';

// Cross-field comparisons (metadata compare → the schema's `x-compare`): `field` op `other`, a failure reported on
// `field` with the declared message. Null or absent on either side = no check; values of another type are left to
// the fields' own validation. Numbers compare as numbers; dates and date-times as instants (a date is its UTC
// midnight); times ('HH:mm[:ss]') as text. `contains`: the list `field` holds the value of `other`.
interface Compare { field: string; op: 'gt' | 'gte' | 'lt' | 'lte' | 'contains'; other: string; message: string }
const DATE = /^\d{4}-\d{2}-\d{2}/;
const TIME = /^\d{2}:\d{2}(:\d{2})?$/;

function order(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a !== 'string' || typeof b !== 'string') return undefined;
  if (DATE.test(a) && DATE.test(b)) {
    const x = Date.parse(a), y = Date.parse(b);
    return Number.isNaN(x) || Number.isNaN(y) ? undefined : x - y;
  }
  if (TIME.test(a) && TIME.test(b)) return a.padEnd(8, ':00') < b.padEnd(8, ':00') ? -1 : a.padEnd(8, ':00') > b.padEnd(8, ':00') ? 1 : 0;
  return undefined;
}
const holds = { gt: (d: number) => d > 0, gte: (d: number) => d >= 0, lt: (d: number) => d < 0, lte: (d: number) => d <= 0 };

/** The failed comparisons of a row: [index in x-compare, the comparison]. */
export function compareFailures(rules: Compare[], row: Record<string, unknown>): [number, Compare][] {
  const out: [number, Compare][] = [];
  rules.forEach((c, i) => {
    const a = row[c.field], b = row[c.other];
    if (a === null || a === undefined || b === null || b === undefined) return;
    if (c.op === 'contains') {
      if (Array.isArray(a) && !a.some((x) => String(x) === String(b))) out.push([i, c]);
      return;
    }
    const d = order(a, b);
    if (d !== undefined && !holds[c.op](d)) out.push([i, c]);
  });
  return out;
}

type CompareValidate = ((schema: Compare[], data: unknown) => boolean) & { errors?: unknown[] };
/** ajv keyword definition of x-compare (ajv.addKeyword(compareKeyword) or new Ajv({ keywords: [compareKeyword] })). */
export const compareKeyword = {
  keyword: 'x-compare',
  type: 'object' as const,
  schemaType: 'array' as const,
  errors: true,
  validate: ((schema: Compare[], data: unknown) => {
    const failed = compareFailures(schema, data as Record<string, unknown>);
    (compareKeyword.validate as CompareValidate).errors = failed.map(([i, c]) => ({
      keyword: 'x-compare', instancePath: `/${c.field}`, params: { rule: i, field: c.field, other: c.other, op: c.op }, message: c.message,
    }));
    return failed.length === 0;
  }) as CompareValidate,
};
