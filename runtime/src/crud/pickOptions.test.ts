import { describe, expect, it } from 'vitest';
import { filterOptions, fold, groupOptions, permissionOptions, selectAll, toggle, unselect } from './pickOptions';

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
