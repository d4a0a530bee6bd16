// Metadata for actions with a server handler: handler, payload schema, permission key, bulk.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();

const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));

describe('handler actions', () => {
  it('normalizes ativo.bloqueia_motor: handler, payload, declared key (no second catalogue entry), bulk', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const ativo = m.entities.find((e) => e.key === 'ativo')!;
    const a = ativo.actions.find((x) => x.name === 'bloqueia_motor')!;
    expect(a).toMatchObject({ handler: 'bloqueia_motor', permission: 'tlm.fro.ativo.bloqueia_motor', bulk: true, payload: { type: 'object', additionalProperties: false } });
    expect(a.set).toBeUndefined();
    expect(ativo.permissions.filter((p) => p.key === 'tlm.fro.ativo.bloqueia_motor')).toEqual([{ key: 'tlm.fro.ativo.bloqueia_motor', label: 'Ativos: Bloquear motor' }]);
    // set actions keep their own key
    const empresa = m.entities.find((e) => e.key === 'empresa')!;
    expect(empresa.actions.find((x) => x.name === 'suspende')).toMatchObject({ permission: 'adm.sis.empresa.suspende', bulk: false, set: expect.any(Object) });
  });

  it('refuses set together with handler (schema)', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => { d.actions = [{ name: 'um', label: 'Um', handler: 'bloqueia_motor', set: { cor: 'x' } }]; });
    const out = await problems(p);
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((x) => x.startsWith('metadata/tlm/ativo.yaml: /actions/0'))).toBe(true);
  });

  it('refuses an undeclared permission and a payload that is not an object schema', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => {
      delete d.record;
      d.actions = [
        { name: 'dois', label: 'Dois', handler: 'bloqueia_motor', permission: 'nao_existe' },
        { name: 'tres', label: 'Três', handler: 'bloqueia_motor', payload: { type: 'array' } },
      ];
    });
    expect(await problems(p)).toEqual([
      'metadata/tlm/ativo.yaml: /actions/0/permission: permissão não declarada em permissions: nao_existe',
      'metadata/tlm/ativo.yaml: /actions/1/payload: o payload deve ser um JSON Schema com type: object',
    ]);
  });
});
