import { describe, expect, it } from 'vitest';
import { coloca, tamanhoPara, type Janela } from './grade';

const j = (canal: number): Janela => ({ chave: `1:${canal}`, ativoId: 1, titulo: `ABC — CH${canal}`, canal, url: `/u/${canal}`, modo: 'flv' });

describe('player grid', () => {
  it('4 by default; grows to 4 above 1 channel, 9 above 4, 16 above 9; never shrinks by itself', () => {
    expect([1, 2, 4, 5, 9, 10, 16].map((n) => tamanhoPara(n))).toEqual([4, 4, 4, 9, 9, 16, 16]);
    expect(tamanhoPara(1, 9)).toBe(9);
    expect(tamanhoPara(10, 9)).toBe(16);
  });
  it('places channels in free windows, keeps a playing channel in its window, replaces the oldest when full', () => {
    let g = coloca([], [j(1), j(2)], 4);
    expect(g.map((x) => x?.canal ?? null)).toEqual([1, 2, null, null]);
    g = coloca(g, [j(2), j(3)], 4);
    expect(g.map((x) => x?.canal ?? null)).toEqual([1, 2, 3, null]);
    g = coloca(g, [j(4), j(5)], 4);
    expect(g.map((x) => x?.canal ?? null)).toEqual([2, 3, 4, 5]);
  });
});
