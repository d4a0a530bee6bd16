import { describe, expect, it } from 'vitest';
import { itinerarioEm, localAt, type Itinerario } from './itinerario.ts';

const it0 = (o: Partial<Itinerario>): Itinerario => ({ id: 1, ativos: [7], diasSemana: [], inicioIda: null, fimIda: null, inicioVolta: null, fimVolta: null, ...o });
// 2026-11-23 is a Monday; 10:00 UTC = 07:00 in São Paulo
const SEG_07 = Date.parse('2026-11-23T10:00:00Z');

describe('the itinerary a vehicle is on', () => {
  it('local week day and minutes in the zone', () => {
    expect(localAt(SEG_07, 'America/Sao_Paulo')).toEqual({ dia: 'seg', min: 7 * 60 });
  });
  it('the window holding the time gives the itinerary and its direction (30 min of slack)', () => {
    const its = [it0({ id: 1, inicioIda: '06:00', fimIda: '06:45', inicioVolta: '17:00', fimVolta: '18:00' }), it0({ id: 2, inicioIda: '12:00', fimIda: '13:00', inicioVolta: '06:50', fimVolta: '08:00' })];
    expect(itinerarioEm(its, 7, SEG_07, 'America/Sao_Paulo')).toEqual({ id: 2, direcao: 'volta' });
    expect(itinerarioEm([its[0]!], 7, SEG_07, 'America/Sao_Paulo')).toEqual({ id: 1, direcao: 'ida' });
  });
  it('only itineraries listing the asset, on that week day when days are listed', () => {
    const its = [it0({ id: 1, diasSemana: ['sab', 'dom'], inicioIda: '07:00', fimIda: '08:00' }), it0({ id: 2, diasSemana: ['seg'], inicioIda: '15:00', fimIda: '16:00' })];
    expect(itinerarioEm(its, 7, SEG_07, 'America/Sao_Paulo')).toEqual({ id: 2, direcao: 'ida' });
    expect(itinerarioEm(its, 8, SEG_07, 'America/Sao_Paulo')).toBeNull();
    expect(itinerarioEm(its, null, SEG_07, 'America/Sao_Paulo')).toBeNull();
    expect(itinerarioEm([it0({ id: 5 })], 7, SEG_07, 'America/Sao_Paulo')).toEqual({ id: 5, direcao: null });
  });
});
