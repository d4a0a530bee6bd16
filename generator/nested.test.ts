// Metadata `parent`: nested lists under the parent's record route, with route parameters (id or a unique field).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();

const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));

describe('nested resources (parent)', () => {
  it('normalizes the garage lists and the queue by serial, with their screen routes and API mounts', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const by = (k: string) => m.entities.find((e) => e.key === k)!;
    expect(by('ativo').parent).toEqual({ entity: 'garagem', field: 'idGaragem', by: 'id', permission: 'tlm.fro.garagem', route: '/tlm/fro/garagem/:id/ativos', api: 'garagem/:parent/ativo' });
    expect(by('motorista').parent?.route).toBe('/tlm/fro/garagem/:id/motoristas');
    expect(by('fila_processamento').parent).toEqual({ entity: 'equipamento', field: 'serial', by: 'serial', permission: 'adm.cfg.equipamentos', route: '/adm/cfg/equipamentos/:serial/fila_processamento', api: 'equipamento/:parent/fila_processamento' });
    // Each nested list is a tab of its parent's record page (record.tabs), which takes over its screen route.
    expect(m.routes.filter((r) => r.parent && ['ativo', 'fila_processamento', 'motorista'].includes(r.entity!))).toEqual([]);
    expect(m.routes.filter((r) => ['/tlm/fro/garagem/:id/ativos', '/adm/cfg/equipamentos/:serial/fila_processamento', '/tlm/fro/garagem/:id/motoristas'].includes(r.path))).toEqual([
      { path: '/adm/cfg/equipamentos/:serial/fila_processamento', name: 'adm.cfg.equipamentos.fila_processamento.lista', entity: 'equipamento', view: 'record', tab: 'fila_processamento' },
      { path: '/tlm/fro/garagem/:id/ativos', name: 'tlm.fro.ativo.lista', entity: 'garagem', view: 'record', tab: 'ativos' },
      { path: '/tlm/fro/garagem/:id/motoristas', name: 'tlm.fro.motorista.lista', entity: 'garagem', view: 'record', tab: 'motoristas' },
    ]);
    expect(m.routes.find((r) => r.path === '/tlm/fro/manutencoes/manutencao/:id/servicos')).toEqual(
      { path: '/tlm/fro/manutencoes/manutencao/:id/servicos', name: 'tlm.fro.manutencoes.manutencao_servicos.lista', entity: 'manutencao', view: 'record', tab: 'servicos' });
  });

  it('refuses an unknown parent, a field that is not a reference to it, and a non-unique by', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => { d.parent = { entity: 'nao_existe', field: 'idGaragem' }; });
    editYaml(p, 'tlm/garagem.yaml', (d) => { delete d.record; });
    editYaml(p, 'tlm/motorista.yaml', (d) => { d.parent = { entity: 'garagem', field: 'nome' }; });
    editYaml(p, 'hdw/equipamento_ativo.yaml', (d) => { d.parent = { entity: 'ativo', field: 'serial', by: 'descricao' }; });
    const out = await problems(p);
    expect(out).toContain('metadata/tlm/ativo.yaml: /parent/entity: entidade desconhecida: nao_existe');
    expect(out).toContain('metadata/tlm/motorista.yaml: /parent/field: deve ser um campo reference para garagem');
    expect(out).toContain('metadata/hdw/equipamento_ativo.yaml: /parent/by: ativo.descricao deve ser unique');
    expect(out.length).toBe(3);
  });
});
