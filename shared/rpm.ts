// The engine speed (rpm) of a message: the CAN reading, else the sensor's, else a plain `rpm` attribute — the first
// present, kept only when it reads as a non-negative number. The gateway stores it in telemetria.posicao.rpm, so the
// replay reads it from the covering index instead of each row's attributes; here once for code and SQL (the
// migration that added the column filled the older rows with the SQL).

export const RPM_KEYS = ['engine_speed_can', 'engine_speed_sensor', 'rpm'] as const;
const RPM_TEXT = /^[0-9]+(\.[0-9]+)?$/;

/** rpm of one message's attributes, or null. */
export function rpmOf(a: Record<string, unknown>): number | null {
  for (const k of RPM_KEYS) {
    const v = a[k];
    if (v === null || v === undefined) continue;
    // as PostgreSQL's ->> gives it: the first key with a value decides, whatever it holds
    const t = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
    return RPM_TEXT.test(t) ? Number(t) : null;
  }
  return null;
}

/** SQL of rpmOf() over the jsonb expression `attrs` (float8 or NULL). */
export function rpmSql(attrs: string): string {
  const text = `coalesce(${RPM_KEYS.map((k) => `${attrs}->>'${k}'`).join(', ')})`;
  return `CASE WHEN ${text} ~ '^[0-9]+(\\.[0-9]+)?$' THEN ${text}::float8 END`;
}
