import { describe, expect, it, vi } from 'vitest';
import type { Model, TabMeta } from '../../../../shared/model';
import modelJson from '../../generated/model.json';
import { TAB_KINDS } from '../../../../shared/tabs';
import { tabKinds } from './tabs';

// runtime/src/model.ts reads the generated model through the bundler's alias
vi.mock('@rastro/generated', () => ({ schemas: {}, screens: [] }));
vi.mock('@rastro/generated/model.json', async () => ({ default: (await import('../../generated/model.json')).default }));
const model = modelJson as unknown as Model;

describe('record-tab kinds (pages/tabs.tsx)', () => {
  it('every kind either shows content or navigates, never both', () => {
    expect(Object.keys(tabKinds).sort()).toEqual([...TAB_KINDS].sort());
    expect(Object.keys(tabKinds).sort()).toEqual(['action', 'delete', 'form', 'group', 'list', 'provider', 'route', 'screen']);
    for (const [kind, k] of Object.entries(tabKinds)) expect([kind, !!k.Content !== !!k.route]).toEqual([kind, true]);
    expect(Object.entries(tabKinds).filter(([, k]) => k.group).map(([n]) => n)).toEqual(['group']);
  });

  it('covers the kinds the model uses; a route tab fills its path from the record; a list tab needs the list key', () => {
    const used = new Set(model.entities.flatMap((e) => e.record?.tabs ?? []).map((t) => t.kind));
    expect(used.size).toBeGreaterThan(4);
    for (const k of used) expect(tabKinds[k]).toBeDefined();
    const route = { name: 'mapa', label: 'Mapa', permission: 'x', kind: 'route', route: '/tlm/ras/mapa/{serial}' } as TabMeta;
    expect(tabKinds.route.route!(route, { serial: 'A B' })).toBe('/tlm/ras/mapa/A%20B');
    const list = model.entities.flatMap((e) => e.record?.tabs ?? []).find((t) => t.kind === 'list')!;
    const child = model.entities.find((e) => e.key === list.entity)!;
    expect(tabKinds.list.keys!(list)).toEqual([`${child.permission}.lista`]);
  });
});
