import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

const err = (message: string, o: Record<string, unknown> = {}) => Object.assign(new Error(message), o);

describe('isDatabaseUnavailable', () => {
  it('knows a stopped, restarting or unreachable server, also wrapped', () => {
    expect(isDatabaseUnavailable(err('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(err('terminating connection due to administrator command', { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(err('the database system is starting up', { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnavailable(err('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(err('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(err('query failed', { cause: err('x', { code: '08006' }) }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([err('a', { code: 'ECONNREFUSED' })], 'all failed'))).toBe(true);
  });
  it('leaves bugs and data errors alone', () => {
    expect(isDatabaseUnavailable(err('duplicate key value', { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(err('invalid input syntax for type integer', { code: '22P02' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
