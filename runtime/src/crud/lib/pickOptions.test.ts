import { describe, expect, it } from 'vitest';
import { clearAll, pickerGroups, filterOptions, fold, groupOptions, permissionOptions, selectAll, toggle, unselect, withObrig, type PickOption } from './pickOptions';

const model = {
  entities: [
    { key: 'ativo', permission: 'tlm.fro.ativo', label: { singular: 'Ativo', plural: 'Ativos' }, menu: { group: 'Frota', order: 10 } },
    { key: 'garagem', permission: 'tlm.fro.garagem', label: { singular: 'Garagem', plural: 'Garagens' }, menu: { group: 'Frota', order: 30 } },
    { key: 'equipamento', permission: 'adm.cfg.equipamentos', label: { singular: 'Equipamento', plural: 'Equipamentos' }, menu: { group: 'Configuração', order: 20 } },
    { key: 'fila_processamento', permission: 'adm.cfg.equipamentos.fila_processamento', label: { singular: 'Comando', plural: 'Fila de processamento' } },
  ],
  screens: [{ key: 'mapa', permission: 'tlm.ras.mapa', label: 'Mapa', menu: { group: 'Rastreamento', order: 10 } }],
  menu: [
    { label: 'Frota', children: [{ label: 'Ativos', route: '/a', permission: 'tlm.fro.ativo.lista' }, { label: 'Garagens', route: '/g', permission: 'tlm.fro.garagem.lista' }] },
    { label: 'Rastreamento', children: [{ label: 'Mapa', route: '/m', permission: 'tlm.ras.mapa' }] },
    { label: 'Configuração', children: [{ label: 'Equipamentos', route: '/e', permission: 'adm.cfg.equipamentos.lista' }] },
  ],
} as any;

const catalogue: [string, string][] = [
  ['adm.cfg.equipamentos.fila_processamento.cancela', 'Fila de processamento: Cancelar'],
  ['adm.cfg.equipamentos.fila_processamento.lista', 'Fila de processamento: Listar'],
  ['adm.cfg.equipamentos.lista', 'Equipamentos: Listar'],
  ['tlm.fro.ativo.bloqueia_motor', 'Ativos: Bloquear motor'],
  ['tlm.fro.ativo.excluir', 'Ativos: Excluir'],
  ['tlm.fro.ativo.lista', 'Ativos: Listar'],
  ['tlm.fro.ativo.visualizar', 'Ativos: Visualizar'],
  ['tlm.fro.garagem.lista', 'Garagens: Listar'],
  ['tlm.ras.mapa', 'Mapa: Visualizar mapa'],
];

describe('permission catalogue in the picker', () => {
  const opts = permissionOptions(catalogue.map((c) => c[0]), catalogue.map((c) => c[1]), model);

  it('groups by menu area and register, in menu order, standard actions first', () => {
    expect(opts.map((o) => [o.group, o.subgroup, o.short])).toEqual([
      ['Frota', 'Ativos', 'Listar'],
      ['Frota', 'Ativos', 'Visualizar'],
      ['Frota', 'Ativos', 'Excluir'],
      ['Frota', 'Ativos', 'Bloquear motor'],
      ['Frota', 'Garagens', 'Listar'],
      ['Rastreamento', 'Mapa', 'Visualizar mapa'],
      ['Configuração', 'Equipamentos', 'Listar'],
      // a register without a menu entry follows the register it belongs to
      ['Configuração', 'Fila de processamento', 'Listar'],
      ['Configuração', 'Fila de processamento', 'Cancelar'],
    ]);
    expect(groupOptions(opts).map((g) => [g.group, g.subgroups.map((s) => s.subgroup)])).toEqual([
      ['Frota', ['Ativos', 'Garagens']],
      ['Rastreamento', ['Mapa']],
      ['Configuração', ['Equipamentos', 'Fila de processamento']],
    ]);
  });

  it('filters without case or accents, on area, register and action', () => {
    expect(fold('Situação')).toBe('situacao');
    expect(filterOptions(opts, 'FROTA listar').map((o) => o.value)).toEqual(['tlm.fro.ativo.lista', 'tlm.fro.garagem.lista']);
    expect(filterOptions(opts, 'configuracao cancelar').map((o) => o.value)).toEqual(['adm.cfg.equipamentos.fila_processamento.cancela']);
    expect(filterOptions(opts, '')).toBe(opts);
  });

  it('selects all filtered, clears, toggles', () => {
    const sel = selectAll(['tlm.fro.ativo.lista'], filterOptions(opts, 'ativos'));
    expect(sel).toEqual(['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.excluir', 'tlm.fro.ativo.bloqueia_motor']);
    expect(unselect(sel, filterOptions(opts, 'excluir'))).toEqual(['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.bloqueia_motor']);
    expect(toggle([1, 2], 2)).toEqual([1]);
    expect(toggle([1], '2')).toEqual([1, '2']);
  });
});

describe('mandatory items (obrig)', () => {
  const items: PickOption[] = [{ value: 1, label: 'Alfa' }, { value: 2, label: 'Beta', obrig: true }, { value: 3, label: 'Gama' }];
  it('are added to the selection, after the chosen ones', () => {
    expect(withObrig([3], items)).toEqual([3, 2]);
    const full = [2, 3];
    expect(withObrig(full, items)).toBe(full);
  });
  it('cannot be unticked, unselected by group or cleared', () => {
    expect(toggle([1, 2], 2, items)).toEqual([1, 2]);
    expect(toggle([1, 2], 1, items)).toEqual([2]);
    expect(toggle([1], 2, items)).toEqual([1, 2]);
    expect(unselect([1, 2, 3], items)).toEqual([2]);
    expect(clearAll(items)).toEqual([2]);
    expect(clearAll(items.filter((o) => !o.obrig))).toEqual([]);
  });
});

describe('asset picker groups (metadata picker)', () => {
  const rows: PickOption[] = [
    { value: 1, label: 'Caminhão 1', group: 'Sul' }, { value: 2, label: 'Caminhão 2' },
    { value: 3, label: 'Caminhão 3', group: 'Norte' }, { value: 4, label: 'Caminhão 4', group: 'Sul' },
  ];
  it('groups by garage name in pt-BR order, rows without one last under Sem garagem', () => {
    expect(pickerGroups(rows, (o) => o.group, true, 'ATIVOS').map((o) => [o.group, o.value])).toEqual([['Norte', 3], ['Sul', 1], ['Sul', 4], ['Sem garagem', 2]]);
  });
  it('or lists every row flat under ATIVOS, in the order given', () => {
    expect(pickerGroups(rows, (o) => o.group, false, 'ATIVOS').map((o) => [o.group, o.value])).toEqual([['ATIVOS', 1], ['ATIVOS', 2], ['ATIVOS', 3], ['ATIVOS', 4]]);
  });
});

