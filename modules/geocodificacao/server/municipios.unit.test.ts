import { describe, expect, it } from 'vitest';
import { MunicipioIndex, distanceKm, municipioLabel, municipios } from './municipios.ts';

describe('nearest municipality (IBGE seats shipped with the app)', () => {
  it('answers the city and UF of real coordinates', () => {
    expect(municipios().all).toHaveLength(5570);
    expect(municipioLabel(-23.5505, -46.6333)).toBe('São Paulo/SP');
    expect(municipioLabel(-22.9068, -43.1729)).toBe('Rio de Janeiro/RJ');
    expect(municipioLabel(-15.7939, -47.8828)).toBe('Brasília/DF');
    expect(municipioLabel(-30.0346, -51.2177)).toBe('Porto Alegre/RS');
    expect(municipioLabel(-3.119, -60.0217)).toBe('Manaus/AM');
    // Campinas centre, 90 km from São Paulo
    expect(municipioLabel(-22.9056, -47.0608)).toBe('Campinas/SP');
  });

  it('finds the nearest seat across grid cells and far from every seat', () => {
    const idx = new MunicipioIndex([
      { codigoIbge: 1, nome: 'A', uf: 'XX', lat: -10.01, lon: -50.01 },
      { codigoIbge: 2, nome: 'B', uf: 'YY', lat: -9.99, lon: -49.5 },
      { codigoIbge: 3, nome: 'C', uf: 'ZZ', lat: -20, lon: -40 },
    ]);
    // just north of the cell line: B's cell, but A is nearer
    expect(idx.nearest(-9.995, -50.0)?.municipio.nome).toBe('A');
    expect(idx.nearest(-19, -41)?.municipio.nome).toBe('C');
    expect(idx.nearest(Number.NaN, 0)).toBeUndefined();
    // brute force agrees on the real table
    const all = municipios().all;
    for (const [lat, lon] of [[-8.05, -34.9], [-1.45, -48.5], [-25.43, -49.27], [-12.97, -38.5], [-5.5, -45.1]]) {
      const brute = all.reduce((b, m) => (distanceKm(lat, lon, m.lat, m.lon) < distanceKm(lat, lon, b.lat, b.lon) ? m : b));
      expect(municipios().nearest(lat, lon)?.municipio.codigoIbge).toBe(brute.codigoIbge);
    }
  });
});
