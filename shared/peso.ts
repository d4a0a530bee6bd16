// Weights a vehicle reports over its CAN bus (kg): the axle weights (decoded as detailedInformation-axleWeight1..7,
// catalogues.md CAN parameters) and the gross vehicle weight (grossVehicleWeight). The trips keep their mean
// (peso1oEixo, peso2oEixo, carga of the report catalogues): carga is the vehicle's measured total, the CAN gross
// weight when reported, else the sum of the axles reported at that fix. Here once for code and SQL.

export const AXLE_WEIGHT_KEYS = [1, 2, 3, 4, 5, 6, 7].map((i) => `detailedInformation-axleWeight${i}`);
export const GROSS_WEIGHT_KEY = 'grossVehicleWeight';
/** Above this a reading is not a weight (J1939 sends 0xFFFF… "not available" as a huge value); 0 or less: no sensor. */
export const MAX_AXLE_KG = 60_000;
export const MAX_GROSS_KG = 200_000;

export interface Weights {
  /** kg on the 1st and 2nd axle; null: not reported */
  axle1: number | null;
  axle2: number | null;
  /** kg of the whole vehicle */
  gross: number | null;
}

const kg = (v: unknown, max: number): number | null => (typeof v === 'number' && v > 0 && v <= max ? v : null);

/** The weights of one message's attributes, or null when it reports none. */
export function weightsOf(a: Record<string, unknown>): Weights | null {
  let sum = 0, axles = 0;
  for (const k of AXLE_WEIGHT_KEYS) {
    const w = kg(a[k], MAX_AXLE_KG);
    if (w !== null) { sum += w; axles++; }
  }
  const gross = kg(a[GROSS_WEIGHT_KEY], MAX_GROSS_KG) ?? (axles ? sum : null);
  if (gross === null) return null;
  return { axle1: kg(a[AXLE_WEIGHT_KEYS[0]!], MAX_AXLE_KG), axle2: kg(a[AXLE_WEIGHT_KEYS[1]!], MAX_AXLE_KG), gross };
}

/** SQL of a plausible weight read from the jsonb `attrs` at `key` (NULL otherwise). */
function kgSql(attrs: string, key: string, max: number): string {
  return `CASE WHEN jsonb_typeof(${attrs}->'${key}') = 'number' AND (${attrs}->>'${key}')::float8 > 0
    AND (${attrs}->>'${key}')::float8 <= ${max} THEN (${attrs}->>'${key}')::float8 END`;
}

/** SQL select items of weightsOf() over the jsonb expression `attrs`: axle1, axle2, gross (aliases given). */
export function weightsSql(attrs: string): { axle1: string; axle2: string; gross: string } {
  const axles = AXLE_WEIGHT_KEYS.map((k) => kgSql(attrs, k, MAX_AXLE_KG));
  // sum of the axles reported (NULL when none: the sum of NULLs under coalesce would be 0)
  const sum = `(SELECT sum(w) FROM (VALUES ${axles.map((x) => `(${x})`).join(', ')}) s(w))`;
  return { axle1: axles[0]!, axle2: axles[1]!, gross: `coalesce(${kgSql(attrs, GROSS_WEIGHT_KEY, MAX_GROSS_KG)}, ${sum})` };
}
