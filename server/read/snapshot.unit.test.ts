import { describe, expect, it } from 'vitest';
import { sinceOf } from './provider.ts';

describe('sinceOf (pg_current_snapshot as the xmin a row shows)', () => {
  it("keeps the snapshot's oldest running transaction", () => {
    expect(sinceOf('21823:21830:21825,21827')).toEqual({ xmin: '21823' });
    expect(sinceOf('21823:21823:')).toEqual({ xmin: '21823' });
  });
  it('takes the 32 bits of an xid8 past the first wraparound', () => {
    expect(sinceOf('4294967298:4294967300:4294967299')).toEqual({ xmin: '2' });
  });
});
