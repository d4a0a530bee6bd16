// Checks across entities: a narrowed reference (metadata `narrow`: the referenced rows carry this row's values,
// atualizacao_firmware.equipamento → tecnologia and modelo) and the tenant column a computed column's {scope:x} compares.
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';

const project = tempProjects();

describe('narrowed references', () => {
  it('are in the model with both sides', async () => {
    const model = await buildModel(project().metadata);
    const upd = model.entities.find((e) => e.key === 'atualizacao_firmware')!;
    const f = (n: string) => upd.fields.find((x) => x.name === n)!;
    expect(f('equipamento').narrow).toEqual({ tecnologia: 'tecnologia', modelo: 'modelo' });
    expect(f('firmware').narrow).toEqual({ tecnologia: 'tecnologia', modelo: 'modelo' });
    expect(f('observacao').narrow).toBeUndefined();
  });

  it('refuses an unknown field on either side and a field that is not a reference', async () => {
    const p = project();
    editYaml(p, '../modules/firmware/metadata/cfg/atualizacao_firmware.yaml', (d) => {
      const f = (n: string) => d.fields.find((x: any) => x.name === n);
      f('equipamento').narrow = { protocolo: 'tecnologia' };
      f('firmware').narrow = { tecnologia: 'fabricante' };
      f('observacao').narrow = { tecnologia: 'tecnologia' };
    });
    expect(await metadataProblems(() => buildModel(p.metadata))).toEqual(expect.arrayContaining([
      expect.stringMatching(/atualizacao_firmware\.yaml: \/fields\/0\/narrow: campo desconhecido em equipamento: protocolo$/),
      expect.stringMatching(/atualizacao_firmware\.yaml: \/fields\/1\/narrow: campo desconhecido em atualizacao_firmware: fabricante$/),
      expect.stringMatching(/atualizacao_firmware\.yaml: \/fields\/2\/narrow: narrow vale só para campos reference e referenceList$/),
    ]));
  });
});

describe('company conditions of computed columns', () => {
  it('refuses {scope:x} on a table without the row\'s tenant column (usuario has no empresa_id)', async () => {
    const p = project();
    editYaml(p, '../modules/firmware/metadata/cfg/atualizacao_firmware.yaml', (d) => {
      d.list.columns.push({ source: 'quemPediu', label: 'Usuário', virtual: true,
        sql: '(SELECT u.nome FROM fila_processamento f JOIN usuario u ON u.id = f.usuario AND {scope:u} WHERE f.id = {this}.comando AND {scope:f})' });
    });
    const problems = await metadataProblems(() => buildModel(p.metadata));
    expect(problems).toEqual([expect.stringMatching(/atualizacao_firmware\.yaml: \/list\/columns\/\d+\/sql: \{scope:u\}: a tabela usuario não tem a coluna empresa_id \(cadastro por ambiente\)$/)]);
  });
});
