import { describe, expect, it } from 'vitest';
import { fromTables } from './sql-from.ts';

describe('fromTables', () => {
  it('names each table of a FROM of joins with its alias', () => {
    expect(fromTables(`telemetria.ultimo_estado u LEFT JOIN ativo a ON a.id = u.ativo_id AND {scope:a}
      LEFT JOIN garagem AS g ON g.id = a.id_garagem JOIN motorista m ON m.id = u.motorista_id`)).toEqual([
      { table: 'telemetria.ultimo_estado', alias: 'u' }, { table: 'ativo', alias: 'a' }, { table: 'garagem', alias: 'g' }, { table: 'motorista', alias: 'm' },
    ]);
  });
  it('a join without alias reads its ON as the alias (the generator then reports it without a version)', () => {
    expect(fromTables('ativo a JOIN garagem ON garagem.id = a.id_garagem').map((t) => t.alias)).toEqual(['a', 'ON']);
  });
});
