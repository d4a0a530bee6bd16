// Values the read engine reads as text (the driver's type parsers are off) and answers as the API's JSON does.

/** PostgreSQL's text of a timestamp with time zone. */
const PG_TIMESTAMPTZ = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?[+-]\d\d(:\d\d)?$/;

/** PostgreSQL's text of a timestamptz as Date#toISOString answers it. The sessions run in UTC (forceUtcTimezone), so
 *  the usual text ('2026-11-28 21:59:21.603456+00') is rewritten without a Date (a list page has a hundred of them;
 *  the fraction is cut to milliseconds, as Date does); any other form goes through Date. */
export function pgTimestampIso(s: string): string {
  const n = s.length;
  if (n >= 22 && s.charCodeAt(4) === 45 && s.charCodeAt(10) === 32 && s.endsWith('+00')) {
    const base = `${s.slice(0, 10)}T${s.slice(11, 19)}`;
    if (n === 22) return `${base}.000Z`;
    if (s.charCodeAt(19) === 46 && n <= 29) return `${base}.${(s.slice(20, n - 3) + '00').slice(0, 3)}Z`;
  }
  return new Date(PG_TIMESTAMPTZ.test(s) ? s.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00') : s).toISOString();
}

const digits = (s: string, from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) { const d = s.charCodeAt(i) - 48; if (d < 0 || d > 9) return NaN; n = n * 10 + d; }
  return n;
};

/** PostgreSQL's text of a timestamptz as milliseconds since 1970 (Date#getTime, the fraction cut to milliseconds):
 *  the usual UTC text read digit by digit — a replay reads 250,000 of them —, any other form through Date. */
export function pgTimestampMs(s: string): number {
  const n = s.length;
  if (n >= 22 && s.charCodeAt(4) === 45 && s.charCodeAt(10) === 32 && s.endsWith('+00') && (n === 22 || (s.charCodeAt(19) === 46 && n <= 29))) {
    const ms = n === 22 ? 0 : digits((s.slice(20, n - 3) + '00').slice(0, 3), 0, 3);
    const y = digits(s, 0, 4);
    const t = Date.UTC(y, digits(s, 5, 7) - 1, digits(s, 8, 10), digits(s, 11, 13), digits(s, 14, 16), digits(s, 17, 19), ms);
    // Date.UTC reads years 0-99 as 1900-1999
    if (Number.isFinite(t) && y >= 100) return t;
  }
  return Date.parse(pgTimestampIso(s));
}

/** A timestamp with time zone as ISO 8601 in UTC (like the datetime fields); anything else as it is. */
export function isoTimestamp(v: unknown): unknown {
  if (v == null) return null;
  return typeof v === 'string' && PG_TIMESTAMPTZ.test(v) ? pgTimestampIso(v) : v;
}
