import { describe, expect, it } from 'vitest';
import type { EntityMeta } from '../../../../shared/model';
import { bulkActions, bulkOutcome, toggledPage } from './bulk';

describe('bulk actions of the generic list', () => {
  it('offers only the bulk actions the caller has the key of', () => {
    const entity = { actions: [
      { name: 'bloqueia_motor', label: 'Bloquear motor', permission: 'tlm.fro.ativo.bloqueia_motor', bulk: true },
      { name: 'desbloqueia_motor', label: 'Desbloquear motor', permission: 'tlm.fro.ativo.bloqueia_motor', bulk: true },
      { name: 'altera', label: 'Alterar', permission: 'tlm.fro.ativo.altera', bulk: false },
    ] } as unknown as EntityMeta;
    expect(bulkActions(entity, () => true).map((a) => a.name)).toEqual(['bloqueia_motor', 'desbloqueia_motor']);
    expect(bulkActions(entity, (k) => k !== 'tlm.fro.ativo.bloqueia_motor')).toEqual([]);
  });

  it('tells how many rows went through and why each refused one was refused', () => {
    const names: Record<number, string> = { 1: 'ABC1D23', 2: 'XYZ9K88', 3: 'QWE2R34' };
    const msg = bulkOutcome({ label: 'Bloquear motor' }, [
      { id: 1, status: 201, payload: [] },
      { id: 2, status: 422, msg: 'O ativo não tem equipamento vinculado' },
      { id: 3, status: 201, payload: [] },
    ], (id) => names[id as number]);
    expect(msg).toBe('Bloquear motor: 2 executados, 1 recusado: XYZ9K88: O ativo não tem equipamento vinculado');
    expect(bulkOutcome({ label: 'X' }, [{ id: 1, status: 200 }], String)).toBe('X: 1 executado');
    expect(bulkOutcome({ label: 'X' }, [{ id: 7, status: 404 }, { id: 8, status: 409, msg: 'não' }], String)).toBe('X: 0 executados, 2 recusados: 7: erro 404; 8: não');
  });

  it("'Selecionar todos' selects the page's rows, then unselects them keeping other pages' selection", () => {
    expect(toggledPage([9], [1, 2, 3])).toEqual([9, 1, 2, 3]);
    expect(toggledPage([9, 2], [1, 2, 3])).toEqual([9, 2, 1, 3]);
    expect(toggledPage([9, 1, 2, 3], [1, 2, 3])).toEqual([9]);
    expect(toggledPage([], [])).toEqual([]);
  });
});
