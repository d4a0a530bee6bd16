import { describe, expect, it } from 'vitest';
import { recapLines } from './recap-reporter.ts';

describe('recap at the end of the run', () => {
  it('says nothing when nothing failed', () => {
    expect(recapLines([], [], '/r')).toEqual([]);
  });

  it('lists failed tests with the first line of their error, and unhandled errors with where they came from', () => {
    const lines = recapLines(
      [{ file: '/r/server/a.test.ts', name: 'lists › pages', error: { message: '\nexpected 2 to be 3\n  diff…' } }],
      [{ name: 'Error', message: 'Cannot use a pool after calling end on the pool', stack: 'Error: Cannot use…\n    at Pool.query (pg-pool/index.js:1:1)\n    at poll (server/x.ts:2:2)', VITEST_TEST_PATH: '/r/server/ingest/flood.test.ts' }],
      '/r');
    expect(lines).toEqual([
      '',
      '== Recapitulação: 1 teste(s) falharam, 1 erro(s) não tratados',
      '✗ server/a.test.ts › lists › pages: expected 2 to be 3',
      '! Error: Cannot use a pool after calling end on the pool',
      '    at Pool.query (pg-pool/index.js:1:1)',
      '    at poll (server/x.ts:2:2)',
      '    durante server/ingest/flood.test.ts (fora de um teste: ganchos ou entre testes)',
    ]);
  });
});
