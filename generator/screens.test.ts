// Screens declared in metadata (kind: tela): route table, permission catalogue, menu and the runtime's
// lazy index carry them; the component must exist under runtime/src/screens/.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from './generate.ts';
import type { Model } from '../shared/model.ts';
import { metadataProblems, tempProjects, writeFile, type TempProject } from './test-helpers.ts';

const project = tempProjects();
const gen = (p: TempProject) => generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime });

const problems = (p: TempProject) => metadataProblems(() => gen(p));

const TELA = `
kind: tela
key: painel_teste
label: Painel de teste
route: /tlm/ras/painel_teste
permission: tlm.ras.painel_teste
permissions:
  - { key: exporta, label: Exportar }
menu: { group: Frota, order: 1, icon: Map }
component: teste/PainelTeste.tsx
`;

describe('screens (kind: tela)', () => {
  it('adds route, permission keys, menu entry and a lazy import of the component', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/painel_teste.yaml'), TELA);
    writeFile(join(p.root, 'runtime/src/screens/teste/PainelTeste.tsx'), 'export default () => null;\n');
    await gen(p);
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    expect(model.screens.find((s) => s.key === 'painel_teste')).toMatchObject({
      area: 'tlm', label: 'Painel de teste', route: '/tlm/ras/painel_teste', component: 'teste/PainelTeste.tsx',
      permissions: [
        { key: 'tlm.ras.painel_teste', label: 'Painel de teste: Acessar' },
        { key: 'tlm.ras.painel_teste.exporta', label: 'Painel de teste: Exportar' },
      ],
    });
    const perms = JSON.parse(readFileSync(join(p.outServer, 'permissions.json'), 'utf8')) as { key: string }[];
    expect(perms.map((x) => x.key)).toEqual(expect.arrayContaining(['tlm.ras.painel_teste', 'tlm.ras.painel_teste.exporta']));
    expect(perms.map((x) => x.key)).toEqual([...perms.map((x) => x.key)].sort());
    const routes = JSON.parse(readFileSync(join(p.outServer, 'routes.json'), 'utf8'));
    expect(routes).toContainEqual({ path: '/tlm/ras/painel_teste', name: 'tlm.ras.painel_teste', screen: 'painel_teste', view: 'screen' });
    const menu = JSON.parse(readFileSync(join(p.outServer, 'menu.json'), 'utf8'));
    const ras = menu.find((g: any) => g.key === 'tlm').children.find((g: any) => g.key === 'tlm/ras');
    expect(ras.children.find((n: any) => n.route === '/tlm/ras/painel_teste')).toEqual({ label: 'Painel de teste', route: '/tlm/ras/painel_teste', permission: 'tlm.ras.painel_teste', icon: 'Map' });
    // The cargo form offers the screen keys (permission catalogue of the JSON Schemas).
    const cargo = JSON.parse(readFileSync(join(p.outServer, 'schemas/cargo.json'), 'utf8'));
    expect(JSON.stringify(cargo)).toContain('"tlm.ras.painel_teste.exporta"');
    const index = readFileSync(join(p.outRuntime, 'index.ts'), 'utf8');
    expect(index).toContain(`{ key: "painel_teste", route: "/tlm/ras/painel_teste", permission: "tlm.ras.painel_teste", load: () => import("../screens/teste/PainelTeste.tsx") }`);
  });

  it('refuses a menu icon @mui/icons-material lacks (the generated icon map imports each one)', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/painel_teste.yaml'), TELA.replace('icon: Map', 'icon: NaoExisteIcone'));
    writeFile(join(p.root, 'runtime/src/screens/teste/PainelTeste.tsx'), 'export default () => null;\n');
    expect(await problems(p)).toEqual(['metadata/tlm/painel_teste.yaml: /menu/icon: ícone desconhecido: NaoExisteIcone (não existe em @mui/icons-material)']);
  });

  it('ships the live tracking screen of the spec', async () => {
    const p = project();
    await gen(p);
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    expect(model.routes).toContainEqual({ path: '/tlm/ras/rastreamento_ao_vivo', name: 'tlm.ras.rastreamento_ao_vivo', screen: 'rastreamento_ao_vivo', view: 'screen' });
    expect(model.permissions.map((x) => x.key)).toContain('tlm.ras.rastreamento_ao_vivo');
  });

  it('stops on a missing component, clashes with entities, unknown groups and schema errors', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/painel_teste.yaml'), TELA);
    expect(await problems(p)).toEqual(['metadata/tlm/painel_teste.yaml: /component: arquivo não encontrado: '
      + join(p.root, 'runtime/src/screens/teste/PainelTeste.tsx').replace(`${process.cwd()}/`, '')]);

    writeFile(join(p.root, 'runtime/src/screens/teste/PainelTeste.tsx'), 'export default () => null;\n');
    writeFile(join(p.metadata, 'tlm/painel_teste.yaml'), TELA
      .replace('route: /tlm/ras/painel_teste', 'route: /tlm/fro/ativo')
      .replace('permission: tlm.ras.painel_teste', 'permission: tlm.fro.ativo.lista')
      .replace('group: Frota', 'group: Inexistente'));
    const out = await problems(p);
    expect(out).toEqual(expect.arrayContaining([
      'metadata/tlm/painel_teste.yaml: /route: route "/tlm/fro/ativo" já usado em metadata/tlm/ativo.yaml',
      'metadata/tlm/painel_teste.yaml: /permission: permissão "tlm.fro.ativo.lista" já usado em metadata/tlm/ativo.yaml',
      expect.stringMatching(/^metadata\/tlm\/painel_teste\.yaml: \/menu\/group: grupo de menu desconhecido: Inexistente/),
    ]));

    writeFile(join(p.metadata, 'tlm/painel_teste.yaml'), TELA.replace('component: teste/PainelTeste.tsx', 'component: ../fora.tsx').replace('label: Painel de teste', 'rotulo: x'));
    const bad = await problems(p);
    expect(bad).toEqual(expect.arrayContaining([
      'metadata/tlm/painel_teste.yaml: /: propriedade não permitida: rotulo',
      'metadata/tlm/painel_teste.yaml: /: propriedade obrigatória ausente: label',
      expect.stringMatching(/^metadata\/tlm\/painel_teste\.yaml: \/component: /),
    ]));
    rmSync(join(p.metadata, 'tlm/painel_teste.yaml'));
    await gen(p);
  });
});
