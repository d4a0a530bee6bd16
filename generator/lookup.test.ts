// Metadata field `lookup`: string codes of a register (equipamento.tecnologia → protocolo.codigo, equipamento.modelo →
// modelo.codigo narrowed by tecnologia through modelo.protocolo): normalized into the model, refused when it cannot
// be served.
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { emitOpenApi } from './emit/openapi.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';

const project = tempProjects();

describe('lookup fields', () => {
  it('are in the model with their register, code field and parent', async () => {
    const model = await buildModel(project().metadata);
    const eq = model.entities.find((e) => e.key === 'equipamento')!;
    const f = (n: string) => eq.fields.find((x) => x.name === n)!;
    expect([f('tecnologia').type, f('tecnologia').lookup]).toEqual(['string', { entity: 'protocolo', value: 'codigo' }]);
    expect(f('modelo').lookup).toEqual({ entity: 'modelo', value: 'codigo', parent: { field: 'tecnologia', via: 'protocolo' } });
    expect(f('modelo').options).toBeUndefined();
    // their choices are documented: GET /api/equipamento/opcoes/modelo?tecnologia=...
    const doc = emitOpenApi(model) as { paths: Record<string, any> };
    expect(doc.paths['/api/equipamento/opcoes/modelo'].get).toMatchObject({
      operationId: 'opcoes_equipamento_modelo', parameters: [{ name: 'tecnologia', in: 'query', required: true }],
    });
    expect(doc.paths['/api/equipamento/opcoes/tecnologia'].get.parameters).toBeUndefined();
  });

  it('refuses an unknown register, a code field that is not unique text, a parent without lookup and a wrong via', async () => {
    const p = project();
    editYaml(p, 'hdw/equipamento.yaml', (d) => {
      const f = (n: string) => d.fields.find((x: any) => x.name === n);
      f('tecnologia').lookup = { entity: 'protocolo', value: 'descricao' };
      f('modelo').lookup = { entity: 'modelo', value: 'codigo', parent: { field: 'serial', via: 'fabricante' } };
      f('firmware').lookup = { entity: 'nao_existe', value: 'codigo' };
      f('ativado').lookup = { entity: 'protocolo', value: 'codigo' };
    });
    const problems = await metadataProblems(() => buildModel(p.metadata));
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/equipamento\.yaml: \/fields\/\d+\/lookup: lookup vale só para campos string$/),
      expect.stringMatching(/equipamento\.yaml: \/fields\/1\/lookup: protocolo\.descricao deve ser um campo string unique$/),
      expect.stringMatching(/equipamento\.yaml: \/fields\/2\/lookup: parent\.field deve ser um campo com lookup de equipamento: serial$/),
      expect.stringMatching(/equipamento\.yaml: \/fields\/3\/lookup: entidade desconhecida: nao_existe$/),
    ]));
  });

  it('inUseWhileEmpty names an optional field of the entity (an ended link is history)', async () => {
    const model = await buildModel(project().metadata);
    const ea = model.entities.find((e) => e.key === 'equipamento_ativo')!;
    expect(ea.fields.find((f) => f.name === 'serial')!.lookup).toEqual({ entity: 'equipamento', value: 'serial', inUseWhileEmpty: 'dataFim' });
    const p = project();
    editYaml(p, 'hdw/equipamento_ativo.yaml', (d) => { d.fields.find((x: any) => x.name === 'serial').lookup.inUseWhileEmpty = 'dataInicio'; });
    expect(await metadataProblems(() => buildModel(p.metadata))).toEqual([
      expect.stringMatching(/equipamento_ativo\.yaml: \/fields\/0\/lookup: inUseWhileEmpty deve ser um campo opcional de equipamento_ativo: dataInicio$/),
    ]);
  });
});
