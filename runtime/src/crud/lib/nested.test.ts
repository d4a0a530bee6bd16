import { describe, expect, it } from 'vitest';
import type { EntityMeta } from '../../../../shared/model';
import { nestedOf } from './nested';

const ativo = { key: 'ativo', parent: { entity: 'garagem', field: 'idGaragem', by: 'id', permission: 'tlm.fro.garagem', route: '/tlm/fro/garagem/:id/ativos', api: 'garagem/:parent/ativo' } } as EntityMeta;
const fila = { key: 'fila_processamento', parent: { entity: 'equipamento', field: 'serial', by: 'serial', permission: 'adm.cfg.equipamentos', route: '/adm/cfg/equipamentos/:serial/fila_processamento', api: 'equipamento/:parent/fila_processamento' } } as EntityMeta;

describe('nestedOf', () => {
  it('names the parent from the nested route, and nothing on the entity own route', () => {
    expect(nestedOf(ativo, '/tlm/fro/garagem/7/ativos')).toEqual({ resource: 'garagem/7/ativo', field: 'idGaragem', value: 7, parent: 'garagem' });
    expect(nestedOf(ativo, '/tlm/fro/ativo')).toBeNull();
    expect(nestedOf({ ...ativo, parent: undefined } as EntityMeta, '/tlm/fro/garagem/7/ativos')).toBeNull();
    expect(nestedOf(fila, '/adm/cfg/equipamentos/865000000000001/fila_processamento')).toEqual({
      resource: 'equipamento/865000000000001/fila_processamento', field: 'serial', value: '865000000000001', parent: 'equipamento',
    });
  });
});
