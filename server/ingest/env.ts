// Numbers from the environment (gateway ports, limits, batching): one parser, one clear message for a bad value.
// Callers read them before anything is opened, so a typo stops the start instead of running with NaN.

export interface EnvNumberRule {
  /** Smallest accepted value (default 0). */
  min?: number;
  /** Largest accepted value. */
  max?: number;
  /** Whole numbers only (default true). */
  integer?: boolean;
}

/** process.env[name] as a number; unset or empty → def; anything else not a number within the rule → Error. */
export function envNumber(name: string, def: number, rule: EnvNumberRule = {}): number {
  const v = process.env[name];
  if (v === undefined || v.trim() === '') return def;
  const { min = 0, max, integer = true } = rule;
  const n = Number(v);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || (max !== undefined && n > max)) {
    const kind = integer ? 'um número inteiro' : 'um número';
    const range = max === undefined ? `≥ ${min}` : `entre ${min} e ${max}`;
    throw new Error(`${name} inválido: ${v} (esperado ${kind} ${range})`);
  }
  return n;
}

/** A port from the environment: unset → def, "off"/"none" → null (not opened), else 0–65535 (0 = any free port). */
export function envPort(name: string, def: number | null): number | null {
  const v = process.env[name];
  if (v === 'off' || v === 'none') return null;
  if (v === undefined || v.trim() === '') return def;
  return envNumber(name, 0, { max: 65535 });
}
