import { describe, expect, it } from 'vitest';
import { isTabela, linhasDe, tabelaDe } from './tabela.ts';

describe('tabela', () => {
  const rows = [{ serial: 'A1', placa: 'ABC-1234', velocidade: 42.5, ignicao: true }, { serial: 'B2', placa: null, velocidade: 0, ignicao: false }];
  it('writes each row as its values in the columns\' order, absent values as null', () => {
    expect(tabelaDe(rows, ['velocidade', 'serial', 'motorista'])).toEqual({ columns: ['velocidade', 'serial', 'motorista'], rows: [[42.5, 'A1', null], [0, 'B2', null]] });
  });
  it('reads the table back into the same objects', () => {
    const t = tabelaDe(rows, ['serial', 'placa', 'velocidade', 'ignicao']);
    expect(linhasDe(JSON.parse(JSON.stringify(t)))).toEqual(rows);
    expect(JSON.stringify(t).length).toBeLessThan(JSON.stringify(rows).length);
  });
  it('tells a table from a list', () => {
    expect(isTabela({ columns: ['a'], rows: [] })).toBe(true);
    expect(isTabela([{ columns: ['a'], rows: [] }])).toBe(false);
    expect(isTabela({ columns: ['a'] })).toBe(false);
    expect(isTabela(null)).toBe(false);
  });
});
