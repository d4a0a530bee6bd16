import { describe, expect, it } from 'vitest';
import { clampWidth, initials, keyWidth, loadWidth, saveWidth } from './splitter';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('tab splitter width', () => {
  it('is clamped to 60..300 px, default 300', () => {
    expect([clampWidth(10), clampWidth(60), clampWidth(181.6), clampWidth(300), clampWidth(900), clampWidth(Number.NaN)]).toEqual([60, 60, 182, 300, 300, 300]);
  });
  it('is kept per register and read back clamped', () => {
    const s = memory();
    expect(loadWidth(s, 'ativo')).toBe(300);
    expect(saveWidth(s, 'ativo', 100)).toBe(100);
    expect(saveWidth(s, 'motorista', 20)).toBe(60);
    expect([loadWidth(s, 'ativo'), loadWidth(s, 'motorista'), loadWidth(s, 'garagem')]).toEqual([100, 60, 300]);
    s.m.set('rastro.abas.largura.ativo', '5000');
    expect(loadWidth(s, 'ativo')).toBe(300);
    expect(loadWidth(undefined, 'ativo')).toBe(300);
  });
  it('moves 10 px per arrow key, Home/End to the limits, and ignores other keys', () => {
    expect([keyWidth(300, 'ArrowRight'), keyWidth(300, 'ArrowLeft'), keyWidth(65, 'ArrowLeft'), keyWidth(200, 'Home'), keyWidth(200, 'End'), keyWidth(200, 'a')]).toEqual([300, 290, 60, 60, 300, undefined]);
  });
  it('abbreviates tab labels for the narrow column', () => {
    expect([initials('Informações'), initials('Controle de acesso'), initials('Motorista temporário'), initials('Voltar')]).toEqual(['I', 'CA', 'MT', 'V']);
  });
});
