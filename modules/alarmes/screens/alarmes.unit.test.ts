import { describe, expect, it } from 'vitest';
import { aplicar, riscoDe, type Alarme } from './alarmes';

const a = (id: string, dataEvento: string, situacao: Alarme['situacao'] = 'aberto'): Alarme => ({
  id, serial: 'S', dataEvento, codigo: 'panic', evento: 'panic', descricao: 'Pânico', risco: 'alto', ativoId: 1, ativoDescricao: 'V',
  placa: 'ABC1D23', latitude: null, longitude: null, velocidade: null, situacao, assumidoPorId: null, assumidoPor: null, assumidoEm: null,
  tratamento: null, encerradoEm: null,
});

describe('console rows', () => {
  it('adds new alarms first, updates taken ones, drops closed ones; only new open ones ring', () => {
    const cur = [a('1', '2026-01-01T10:00:00Z'), a('2', '2026-01-01T11:00:00Z')];
    const r = aplicar(cur, [a('3', '2026-01-01T12:00:00Z'), a('1', '2026-01-01T10:00:00Z', 'assumido'), a('2', '2026-01-01T11:00:00Z', 'encerrado')]);
    expect(r.rows.map((x) => [x.id, x.situacao])).toEqual([['3', 'aberto'], ['1', 'assumido']]);
    expect(r.novos).toEqual(['3']);
    expect(aplicar(r.rows, [a('9', '2026-01-01T09:00:00Z', 'assumido')]).novos).toEqual([]);
  });
  it('colours come from the risk', () => {
    expect(riscoDe('alto').cor).toBe('#d32f2f');
    expect(riscoDe('baixo').label).toBe('Baixo');
    expect(riscoDe(null).label).toBe('Sem risco');
  });
});
