// Metadata `importable`: the registers offered by the import screens (server/calls/importacao.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();
const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));

describe('importable', () => {
  it('marks the declared registers only', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    expect(m.entities.filter((e) => e.importable).map((e) => e.key).sort()).toEqual(['ativo', 'garagem', 'motorista', 'passageiro', 'pontuacao_de_eventos', 'prestadora']);
  });

  it('refuses a register outside scope empresa or read-only', async () => {
    const p = project();
    editYaml(p, 'adm/empresa.yaml', (d) => { d.importable = true; });
    editYaml(p, 'adm/historico_de_login.yaml', (d) => { d.importable = true; });
    const out = await problems(p);
    expect(out).toContain('metadata/adm/empresa.yaml: /importable: importable exige scope: empresa');
    expect(out.some((x) => x.startsWith('metadata/adm/historico_de_login.yaml: /importable:'))).toBe(true);
  });
});
