// Values the read engine reads as text (the driver's type parsers are off) and answers as the API's JSON does.

/** PostgreSQL's text of a timestamp with time zone. */
const PG_TIMESTAMPTZ = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d(:\d\d)?$/;

/** A timestamp with time zone as ISO 8601 in UTC (like the datetime fields); anything else as it is. */
export function isoTimestamp(v: unknown): unknown {
  if (v == null) return null;
  return typeof v === 'string' && PG_TIMESTAMPTZ.test(v) ? new Date(v.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString() : v;
}
