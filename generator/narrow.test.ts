// Metadata field `narrow`: a reference whose rows must carry this row's values (atualizacao_firmware.equipamento:
// the list's technology and model) — in the model as declared, refused when a side names no field.
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
