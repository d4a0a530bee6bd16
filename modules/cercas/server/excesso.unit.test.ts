// Speeding in fences (excesso.ts): one excursion per stretch over the limit, per fence.
import { describe, expect, it } from 'vitest';
import { eventoLinha, excessoDescricao, excursions, kmh } from '../excesso.ts';

const limits = new Map([[1, 60], [2, 40], [3, 0]]);

describe('excursions', () => {
  it('50, 80, 85, 40, 90 inside a 60 km/h fence: excursions open at 80 and at 90', () => {
    const over = new Map<number, number>();
    const opened = [50, 80, 85, 40, 90].map((v, i) => excursions(over, [1], limits, v, i * 1000));
    expect(opened).toEqual([[], [1], [], [], [1]]);
    expect([...over]).toEqual([[1, 4000]]);
  });

  it('exactly at the limit is not over; no speed closes the excursion', () => {
    const over = new Map<number, number>();
    expect(excursions(over, [1], limits, 60, 0)).toEqual([]);
    expect(excursions(over, [1], limits, 60.1, 1)).toEqual([1]);
    expect(excursions(over, [1], limits, null, 2)).toEqual([]);
    expect(over.size).toBe(0);
    expect(excursions(over, [1], limits, 61, 3)).toEqual([1]);
  });

  it('leaving the fence (or it going out of force) ends the excursion; back in over the limit opens a new one', () => {
    const over = new Map<number, number>();
    expect(excursions(over, [1, 2], limits, 70, 0)).toEqual([1, 2]);
    expect(excursions(over, [2], limits, 70, 1)).toEqual([]);
    expect([...over]).toEqual([[2, 0]]);
    expect(excursions(over, [1, 2], limits, 70, 2)).toEqual([1]);
    expect(excursions(over, [1, 2], limits, 50, 3)).toEqual([]);
    expect([...over]).toEqual([[2, 0]]);
  });

  it('a fence without limit (0 or none) never opens one', () => {
    const over = new Map<number, number>();
    expect(excursions(over, [3, 9], limits, 200, 0)).toEqual([]);
    expect(over.size).toBe(0);
  });
});

describe('description', () => {
  it('pt-BR numbers', () => {
    expect(kmh(80)).toBe('80');
    expect(kmh(80.44)).toBe('80,4');
    expect(excessoDescricao('Pátio', 85, 60)).toBe('Velocidade excedida na cerca Pátio (85 km/h, limite 60 km/h)');
  });
});

describe('a row of the fence map’s latest events', () => {
  const base = { cercaDescricao: 'Pátio', ativoDescricao: 'Caminhão 7', placa: 'ABC1D23', velocidade: 92.46, limite: 60 };
  it('entries and exits: fence · vehicle (plate); speeding adds the speed against the limit', () => {
    expect(eventoLinha({ ...base, tipo: 'Entrada' })).toBe('Pátio · Caminhão 7 (ABC1D23)');
    expect(eventoLinha({ ...base, tipo: 'Velocidade excedida' })).toBe('Pátio · Caminhão 7 (ABC1D23) · 92,5 km/h (limite 60 km/h)');
    expect(eventoLinha({ ...base, tipo: 'Velocidade excedida', ativoDescricao: null, placa: null, limite: null })).toBe('Pátio · Sem ativo · 92,5 km/h');
  });
});
