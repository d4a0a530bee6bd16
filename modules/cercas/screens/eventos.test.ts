import { describe, expect, it } from 'vitest';
import { CARD, mergeEventos, type Evento } from './eventos';

const ev = (id: string, fixTime: string, tipo = 'Entrada'): Evento =>
  ({ id, fixTime, tipo, cercaId: 1, cercaDescricao: 'Pátio', ativoDescricao: 'Caminhão 7', placa: 'ABC1D23', velocidade: null, limite: null });

describe('mergeEventos', () => {
  it('adds the pushed events newest first, each once, the card size at most', () => {
    const cur = [ev('a', '2026-11-28T10:00:00.000Z'), ev('b', '2026-11-28T09:00:00.000Z')];
    const out = mergeEventos(cur, [ev('c', '2026-11-28T11:00:00.000Z', 'Saída'), ev('a', '2026-11-28T10:00:00.000Z'), ev('d', '2026-11-28T09:30:00.000Z')]);
    expect(out.map((e) => e.id)).toEqual(['c', 'a', 'd', 'b']);
    expect(out[0]!.tipo).toBe('Saída');
    const many = Array.from({ length: 30 }, (_, i) => ev(`x${i}`, new Date(Date.UTC(2026, 10, 29, 0, i)).toISOString()));
    const capped = mergeEventos(cur, many);
    expect(capped).toHaveLength(CARD);
    expect(capped[0]!.id).toBe('x29');
    expect(capped.at(-1)!.id).toBe('x10');
  });
});
