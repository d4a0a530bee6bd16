import { describe, expect, it } from 'vitest';
import { totaisPorDia, type Parada, type Viagem } from './totais';

const v = (inicio: string, km: number, s: number, ocioso = 0, max = 50): Viagem => ({
  id: inicio, inicio, fim: inicio, duracao: s, distancia: km, velocidadeMaxima: max, velocidadeMedia: 0, tempoOcioso: ocioso,
  motoristaNome: null, latitudeInicio: 0, longitudeInicio: 0, latitudeFim: 0, longitudeFim: 0,
});
const p = (inicio: string, s: number): Parada => ({ id: inicio, inicio, fim: inicio, duracao: s, ignicao: false, tempoLigado: 0, latitude: 0, longitude: 0 });

describe('day totals', () => {
  it('adds trips and stops by the local day of their start, oldest day first', () => {
    const local = (d: number, h: number) => new Date(2026, 10, d, h, 0, 0).toISOString();
    const t = totaisPorDia([v(local(27, 8), 10.25, 600, 60, 80), v(local(27, 14), 5.1, 300), v(local(26, 23), 1.2, 120)], [p(local(27, 9), 1200), p(local(25, 12), 60)]);
    expect(t).toEqual([
      { dia: '2026-11-25', viagens: 0, distancia: 0, conducao: 0, ocioso: 0, paradas: 1, parado: 60, velocidadeMaxima: 0 },
      { dia: '2026-11-26', viagens: 1, distancia: 1.2, conducao: 120, ocioso: 0, paradas: 0, parado: 0, velocidadeMaxima: 50 },
      { dia: '2026-11-27', viagens: 2, distancia: 15.35, conducao: 900, ocioso: 60, paradas: 1, parado: 1200, velocidadeMaxima: 80 },
    ]);
  });
});
