import { describe, expect, it } from 'vitest';
import type { EntityMeta } from '../../../../shared/model';
import { nextSort, UNSORTED } from './sort';
import { initialChoices, moveChoice } from './useColumnChoices';
import { zoomFor, isMobile } from '../../layout/zoom';

const entity = {
  columns: ['a', 'b', 'c', 'd'].map((k, i) => ({ source: k, label: k.toUpperCase(), sortable: true, default: i < 3 })),
} as unknown as EntityMeta;

describe('shared table helpers', () => {
  it('cycles a column through asc, desc and no sort', () => {
    let s = nextSort({ field: 'descricao', order: 'ASC' }, 'placa');
    expect(s).toEqual({ field: 'placa', order: 'ASC' });
    s = nextSort(s, 'placa');
    expect(s).toEqual({ field: 'placa', order: 'DESC' });
    s = nextSort(s, 'placa');
    expect(s).toEqual(UNSORTED);
    expect(nextSort(s, 'placa')).toEqual({ field: 'placa', order: 'ASC' });
    // a column whose first order is DESC
    expect(nextSort(undefined, 'data', 'DESC')).toEqual({ field: 'data', order: 'DESC' });
    expect(nextSort({ field: 'data', order: 'DESC' }, 'data', 'DESC')).toEqual({ field: 'data', order: 'ASC' });
    expect(nextSort({ field: 'data', order: 'ASC' }, 'data', 'DESC')).toEqual(UNSORTED);
  });

  it('moves a column to the place of another and restores the saved order', () => {
    const list = initialChoices(entity);
    expect(list.map((c) => c.key)).toEqual(['a', 'b', 'c', 'd']);
    expect(moveChoice(list, 'c', 'a').map((c) => c.key)).toEqual(['c', 'a', 'b', 'd']);
    expect(moveChoice(list, 'a', 'c').map((c) => c.key)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveChoice(list, 'a', 'x')).toBe(list);
    // saved order first; columns added to the metadata later come after, in metadata order
    const saved = [{ key: 'c', label: 'C', selected: true }, { key: 'a', label: 'A', selected: false }, { key: 'gone', label: '?', selected: true }];
    expect(initialChoices(entity, saved).map((c) => [c.key, c.selected])).toEqual([['c', true], ['a', false], ['b', true], ['d', false]]);
  });

  it('zooms by screen height (75% ≤ 768, 80% ≤ 900, else 100%; mobile 100%)', () => {
    expect([600, 768, 769, 900, 901, 1080].map((h) => zoomFor(h, false))).toEqual([0.75, 0.75, 0.8, 0.8, 1, 1]);
    expect(zoomFor(700, true)).toBe(1);
    expect(isMobile({ userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile Safari' })).toBe(true);
    expect(isMobile({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130' })).toBe(false);
    expect(isMobile({ userAgent: 'x', userAgentData: { mobile: true } })).toBe(true);
  });
});
