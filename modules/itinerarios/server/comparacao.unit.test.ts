import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compara, instanteNoDia, reconhece, type Fix } from '../comparacao.ts';

// an east-west line at São Paulo's latitude, ~10.2 km, corridor 100 m wide
const LAT = -23.55;
const linha = { coordinates: [[-46.70, LAT], [-46.60, LAT]] as [number, number][], largura: 100 };
const T0 = Date.parse('2026-11-27T11:00:00Z'); // 08:00 in São Paulo (UTC-3)
const fix = (min: number, lon: number, dLat = 0): Fix => ({ t: T0 + min * 60_000, lon, lat: LAT + dLat });

// one fix a minute along the line; minutes 4..6 drift 0.002° north (~222 m off the line)
const trip: Fix[] = Array.from({ length: 11 }, (_, i) => fix(i, -46.70 + i * 0.01, i >= 4 && i <= 6 ? 0.002 : 0));

describe('compara', () => {
  it('lists the deviation: where, how long, how far', () => {
    const c = compara(trip, linha, []);
    expect(c.desvios).toHaveLength(1);
    const d = c.desvios[0]!;
    expect(d.inicio).toBe(T0 + 4 * 60_000);
    expect(d.fim).toBe(T0 + 7 * 60_000); // back inside at the 7th minute
    expect(d.duracao).toBe(180);
    expect(d.distanciaMaxima).toBe(222);
    expect(d.trecho).toHaveLength(3);
    expect(c.tempoFora).toBe(180);
    expect(c.dentro).toBe(72.7); // 8 of 11 fixes
  });

  it('a deviation still open at the end lasts until the last fix', () => {
    const c = compara([fix(0, -46.70), fix(1, -46.69, 0.01), fix(2, -46.68, 0.01)], linha, []);
    expect(c.desvios.map((d) => [d.duracao, d.distanciaMaxima])).toEqual([[60, 1112]]);
  });

  it('arrival and lateness per stop point, in order, at the local wall time', () => {
    const pontos = [
      { ordem: 2, descricao: 'Terminal', horario: '08:08', raio: 100, posicao: [-46.60, LAT] as [number, number] },
      { ordem: 1, descricao: 'Praça', horario: '08:03', raio: 100, posicao: [-46.67, LAT] as [number, number] },
      { ordem: 3, descricao: 'Fora da rota', horario: '08:20', raio: 50, posicao: [-46.50, LAT] as [number, number] },
    ];
    const c = compara(trip, linha, pontos);
    expect(c.pontos.map((p) => [p.ordem, p.descricao, new Date(p.previsto).toISOString(), p.chegada && new Date(p.chegada).toISOString(), p.atraso])).toEqual([
      [1, 'Praça', '2026-11-27T11:03:00.000Z', '2026-11-27T11:03:00.000Z', 0],
      [2, 'Terminal', '2026-11-27T11:08:00.000Z', '2026-11-27T11:10:00.000Z', 120],
      [3, 'Fora da rota', '2026-11-27T11:20:00.000Z', null, null],
    ]);
    expect(c.pontos[2]!.distanciaMinima).toBe(10193); // 0.1° of longitude at -23.55: 111,195 m × cos 23.55° / 10
  });

  it('instanteNoDia: the wall time of the local day (late evening UTC is still the local day before)', () => {
    expect(new Date(instanteNoDia(Date.parse('2026-11-28T01:30:00Z'), '22:15')).toISOString()).toBe('2026-11-28T01:15:00.000Z');
    expect(new Date(instanteNoDia(Date.parse('2026-11-28T01:30:00Z'), '07:00')).toISOString()).toBe('2026-11-27T10:00:00.000Z');
  });

  it('property: a track kept within the corridor has no deviation; the time outside never exceeds the trip', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.double({ min: -46.70, max: -46.60, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true })), { minLength: 1, maxLength: 60 }), (pts) => {
      const fixes = pts.map(([lon, dy], i) => ({ t: T0 + i * 1000, lon, lat: LAT + dy / 111_195 }));
      expect(compara(fixes, linha, []).desvios).toEqual([]);
    }));
    fc.assert(fc.property(fc.array(fc.tuple(fc.double({ min: -46.75, max: -46.55, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true })), { minLength: 1, maxLength: 60 }), (pts) => {
      const fixes = pts.map(([lon, dy], i) => ({ t: T0 + i * 1000, lon, lat: LAT + dy / 111_195 }));
      const c = compara(fixes, linha, []);
      expect(c.tempoFora).toBeLessThanOrEqual(pts.length - 1);
      for (const d of c.desvios) expect(d.distanciaMaxima).toBeGreaterThan(49);
    }));
  });
});

describe('reconhece', () => {
  const outra = { coordinates: [[-46.70, LAT], [-46.70, LAT + 0.1]] as [number, number][], largura: 100 };
  const metade = { coordinates: [[-46.70, LAT], [-46.65, LAT]] as [number, number][], largura: 100 };
  it('the line the track ran scores best; a part of it or another line less', () => {
    const r = reconhece(trip, [{ id: 7, linha: outra }, { id: 3, linha }, { id: 5, linha: metade }]);
    expect(r.map((x) => x.linha)).toEqual([3, 5, 7]);
    expect(r[0]!.linhaPercorrida).toBe(0.647); // the drift passes ~4 km of it more than 50 m away
    expect(r[0]!.trilhaNoCorredor).toBeCloseTo(0.6, 1); // the drift's 4 of 10 segments have their midpoint outside
    expect(r[1]!.trilhaNoCorredor).toBeLessThan(0.5);
    expect(r[2]!.aderencia).toBeLessThan(0.05);
  });
});
