// Metadata field `widget`: core editors — questionnaire/answers for json, code (monospace, full width) for text.
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';
import { buildUiSchema } from '../runtime/src/crud/lib/schemaUi.ts';
import { entitySchema } from './emit/schemas.ts';

const project = tempProjects();

describe('field widgets', () => {
  it('code: a text field edited in the code area (modelo.comandosConfiguracao)', async () => {
    const model = await buildModel(project().metadata);
    const modelo = model.entities.find((e) => e.key === 'modelo')!;
    const f = modelo.fields.find((x) => x.name === 'comandosConfiguracao')!;
    expect([f.type, f.widget]).toEqual(['text', 'code']);
    expect(buildUiSchema(modelo, entitySchema(modelo, model) as never).comandosConfiguracao).toMatchObject({ 'ui:widget': 'code', 'ui:options': { rows: 8 } });
  });

  it('refuses code on a field that is not text, and questionnaire on one that is not json', async () => {
    const p = project();
    editYaml(p, 'cfg/modelo.yaml', (d) => {
      d.fields.find((x: any) => x.name === 'descricao').widget = 'code';
      d.fields.find((x: any) => x.name === 'comandosConfiguracao').widget = 'questionnaire';
    });
    const problems = await metadataProblems(() => buildModel(p.metadata));
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/modelo\.yaml: \/fields\/1\/widget: widget code vale só para campos text$/),
      expect.stringMatching(/modelo\.yaml: \/fields\/4\/widget: widget vale só para campos json sem items\/options$/),
    ]));
  });
});
