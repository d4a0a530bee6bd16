import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoTimestamp, pgTimestampIso, pgTimestampMs } from './values.ts';

/** The text PostgreSQL gives a timestamptz in a UTC session: microseconds, trailing zeros of the fraction dropped. */
function pgText(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const frac = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''}+00`;
}

describe('pgTimestampIso', () => {
  it('answers what Date#toISOString answers, for any instant of years 1000-9999 and any microseconds', () => {
    fc.assert(fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), fc.integer({ min: 0, max: 999 }), (ms, micros) => {
      const text = pgText(ms, micros);
      expect(pgTimestampIso(text)).toBe(new Date(ms).toISOString());
      expect(isoTimestamp(text)).toBe(new Date(ms).toISOString());
    }), { numRuns: 2000 });
  });
  it('rewrites the usual forms and falls back to Date for others', () => {
    expect(pgTimestampIso('2026-11-28 21:59:21+00')).toBe('2026-11-28T21:59:21.000Z');
    expect(pgTimestampIso('2026-11-28 21:59:21.6+00')).toBe('2026-11-28T21:59:21.600Z');
    expect(pgTimestampIso('2026-11-28 21:59:21.603999+00')).toBe('2026-11-28T21:59:21.603Z');
    // another offset (a session not in UTC) and a colon offset: through Date
    expect(pgTimestampIso('2026-11-28 21:59:21.5-03')).toBe('2026-11-29T00:59:21.500Z');
    expect(pgTimestampIso('2026-11-28 21:59:21+05:30')).toBe('2026-11-28T16:29:21.000Z');
    expect(isoTimestamp('texto qualquer')).toBe('texto qualquer');
    expect(isoTimestamp(null)).toBeNull();
  });
});

describe('pgTimestampMs', () => {
  it('answers Date#getTime of the instant, for any instant of years 1000-9999 and any microseconds', () => {
    fc.assert(fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), fc.integer({ min: 0, max: 999 }), (ms, micros) => {
      expect(pgTimestampMs(pgText(ms, micros))).toBe(ms);
    }), { numRuns: 2000 });
  });
  it('other offsets and forms through Date; not a timestamp is an error', () => {
    expect(pgTimestampMs('2026-11-28 21:59:21+00')).toBe(Date.UTC(2026, 10, 28, 21, 59, 21));
    expect(pgTimestampMs('2026-11-28 21:59:21.5-03')).toBe(Date.UTC(2026, 10, 29, 0, 59, 21, 500));
    expect(pgTimestampMs('2026-11-28 21:59:21+05:30')).toBe(Date.UTC(2026, 10, 28, 16, 29, 21));
    expect(pgTimestampMs('0099-01-01 00:00:00+00')).toBe(Date.parse('0099-01-01T00:00:00Z'));
    expect(() => pgTimestampMs('texto qualquer')).toThrow(RangeError);
  });
});
