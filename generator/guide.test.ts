// The README's configurators' guide runs: its YAML blocks (first line: the file) are added to a copy of metadata/,
// the generator runs, and the routes, screens, API mounts and permission keys the guide promises exist.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from './generate.ts';
import type { Model } from '../shared/model.ts';
import { REPO, tempProjects, writeFile } from './test-helpers.ts';

const project = tempProjects();

function guideBlocks(): { file: string; yaml: string }[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf("## Configurators' guide");
  const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
  return [...section.matchAll(/```yaml\n# (metadata\/\S+)\n([\s\S]*?)```/g)].map((m) => ({ file: m[1], yaml: m[2] }));
}

describe("README configurators' guide", () => {
  it('has the register, the nested list and the provider as YAML blocks', () => {
    expect(guideBlocks().map((b) => b.file)).toEqual(['metadata/tlm/oficina.yaml', 'metadata/tlm/mecanico.yaml', 'metadata/tlm/servicos_oficina.yaml']);
  });

  it('generates what the guide says: screens, nested list, tabs, provider, action and their keys', async () => {
    const p = project();
    for (const b of guideBlocks()) writeFile(join(p.root, b.file), b.yaml);
    await generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime });
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    const paths = model.routes.filter((r) => r.path.startsWith('/tlm/fro/oficina') || r.path.startsWith('/tlm/fro/mecanico')).map((r) => `${r.view} ${r.path}`);
    // the record page's editar tab takes over the edit route
    expect(paths).toEqual([
      'list /tlm/fro/mecanico', 'create /tlm/fro/mecanico/adicionar', 'edit /tlm/fro/mecanico/:id/editar', 'show /tlm/fro/mecanico/:id/visualizar',
      'list /tlm/fro/oficina', 'create /tlm/fro/oficina/adicionar', 'show /tlm/fro/oficina/:id/visualizar',
      'record /tlm/fro/oficina/:id', 'record /tlm/fro/oficina/:id/mecanicos', 'record /tlm/fro/oficina/:id/servicos', 'record /tlm/fro/oficina/:id/editar',
    ]);
    const keys = model.permissions.map((x) => x.key);
    expect(keys).toEqual(expect.arrayContaining([
      'tlm.fro.oficina.lista', 'tlm.fro.oficina.adicionar', 'tlm.fro.oficina.editar', 'tlm.fro.oficina.visualizar', 'tlm.fro.oficina.excluir',
      'tlm.fro.oficina.fechar', 'tlm.fro.oficina.servicos', 'tlm.fro.mecanico.lista',
    ]));
    const oficina = model.entities.find((e) => e.key === 'oficina')!;
    expect(oficina.actions.map((a) => [a.name, a.handler, a.confirm])).toEqual([['fechar', 'fecha_oficina', 'Deseja fechar esta oficina?']]);
    expect(model.entities.find((e) => e.key === 'mecanico')!.parent).toMatchObject({ entity: 'oficina', field: 'idOficina', route: '/tlm/fro/oficina/:id/mecanicos' });
    expect(model.providers.find((x) => x.key === 'servicos_oficina')).toMatchObject({ path: '/servicos_oficina/{id}', permission: ['tlm.fro.oficina.servicos'] });
    expect(JSON.stringify(model.menu)).toContain('/tlm/fro/oficina');
  });
});
