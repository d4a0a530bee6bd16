// Entity `editRoute: ':id'`: the edit screen sits at {route}/:id (spec: add and edit share one form at /:_id).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';

describe('editRoute', () => {
  it('puts the accessories edit screen at /adm/bib/acessorios/:id and keeps :id/editar elsewhere', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const views = (key: string) => m.routes.filter((r) => r.entity === key).map((r) => [r.path, r.name, r.view]);
    expect(views('acessorio')).toEqual([
      ['/adm/bib/acessorios', 'adm.bib.acessorios.lista', 'list'],
      ['/adm/bib/acessorios/adicionar', 'adm.bib.acessorios.adicionar', 'create'],
      ['/adm/bib/acessorios/:id', 'adm.bib.acessorios.editar', 'edit'],
      ['/adm/bib/acessorios/:id/visualizar', 'adm.bib.acessorios.visualizar', 'show'],
    ]);
    expect(m.entities.find((e) => e.key === 'acessorio')!.editRoute).toBe(':id');
    expect(m.entities.find((e) => e.key === 'imei')!.editRoute).toBeUndefined();
    expect(views('imei')).toContainEqual(['/adm/cfg/imei/:id/editar', 'adm.cfg.imei.editar', 'edit']);
  });
});
