import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import schema from './normalized.schema.json' with { type: 'json' };
import { isDecodeError, toJson, type DecodeError, type DecodeResult } from './types.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('normalized.schema.json', () => {
  it('accepts a result and an error, rejects junk', () => {
    const r: DecodeResult = {
      protocol: 'x', deviceId: '1', type: 'T', reply: Buffer.from([1, 2]),
      positions: [{ fixTime: '2024-01-01T00:00:00.000Z', latitude: 1, longitude: 2, speedKmh: 0, course: 0, valid: true }],
      events: [{ code: 'A', key: 'a', description: '' }], attributes: { a: 1, b: { c: [true] } },
    };
    const e: DecodeError = { protocol: 'x', error: 'bad', errorCode: 'MALFORMED' };
    expect(validate(toJson(r)), JSON.stringify(validate.errors)).toBe(true);
    expect(toJson(r).replyHex).toBe('0102');
    expect(validate(toJson(e))).toBe(true);
    expect(isDecodeError(e)).toBe(true);
    expect(isDecodeError(r)).toBe(false);
    expect(validate({})).toBe(false);
  });
});
