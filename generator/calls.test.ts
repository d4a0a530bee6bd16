// Named-call bases (entity `calls`): carried into the model; a base inside another entity's API path is refused.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitOpenApi } from './emit/openapi.ts';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';

const project = tempProjects();

describe('entity calls', () => {
  it('are in the model for the /adm/cad registers of the spec', () => {
    const m = buildModel(join(import.meta.dirname, '..', 'metadata'));
    const calls = Object.fromEntries(m.entities.filter((e) => e.calls).map((e) => [e.key, e.calls]));
    expect(calls).toMatchObject({ pais: '/adm/cad/pais', grupo_alerta: '/adm/cad/gruposAlerta', template: '/adm/cad/templates', aplicacao: '/adm/aplicacao', usuario: '/adm/cad/usuario' });
    expect(new Set(Object.values(calls)).size).toBe(Object.keys(calls).length);
    // Documented in openapi.json with the entity's operations and keys.
    const doc = emitOpenApi(m) as { paths: Record<string, any> };
    expect(doc.paths['/api/adm/cad/pais'].get).toMatchObject({ operationId: 'list_pais_chamada', 'x-permission': 'adm.sis.cadastro.pais.lista' });
    expect(doc.paths['/api/adm/cad/pais/{id}'].delete).toMatchObject({ operationId: 'delete_pais_chamada', 'x-permission': 'adm.sis.cadastro.pais.excluir' });
  });

  it('refuses a base under an entity key or used twice', async () => {
    const p = project();
    editYaml(p, 'adm/cad/pais.yaml', (d) => { d.calls = '/ativo/paises'; });
    editYaml(p, 'adm/cad/estado.yaml', (d) => { d.calls = '/adm/cad/municipio'; });
    const problems = await metadataProblems(() => buildModel(p.metadata));
    expect(problems).toEqual(expect.arrayContaining([
      'metadata/adm/cad/pais.yaml: /calls: caminho "/ativo/paises" já usado em metadata/tlm/ativo.yaml',
    ]));
    expect(problems.some((x) => /(estado|municipio)\.yaml: \/calls: caminho "\/adm\/cad\/municipio" já usado/.test(x))).toBe(true);
  });
});
