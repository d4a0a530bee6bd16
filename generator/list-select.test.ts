// Metadata list.select (the list panel's select) and entity picker: normalized into the model, refused on fields
// they cannot serve.
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';

const project = tempProjects();

describe('list.select and picker', () => {
  it('are in the model: assets by garage, equipment by technology; assets picked by garage or under ATIVOS', async () => {
    const p = project();
    const model = await buildModel(p.metadata);
    const ativo = model.entities.find((e) => e.key === 'ativo')!;
    expect([ativo.listSelect, model.entities.find((e) => e.key === 'equipamento')!.listSelect]).toEqual(['idGaragem', 'tecnologia']);
    expect(ativo.picker).toEqual({ groupBy: 'idGaragem', flat: 'ATIVOS', secondLabel: 'placa' });
  });

  it('refuses a select on a field that is not enum or reference, and a picker grouped by a non-reference', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => {
      d.list.select = { field: 'placa' };
      d.picker = { groupBy: 'descricao', flat: 'ATIVOS', secondLabel: 'naoExiste' };
    });
    expect(await metadataProblems(() => buildModel(p.metadata))).toEqual([
      'metadata/tlm/ativo.yaml: /list/select/field: o seletor da lista exige campo enum, reference ou com lookup: placa',
      'metadata/tlm/ativo.yaml: /picker/groupBy: deve ser um campo reference: descricao',
      'metadata/tlm/ativo.yaml: /picker/secondLabel: campo desconhecido: naoExiste',
    ]);
  });
});
