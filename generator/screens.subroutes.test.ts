// Screen subroutes (kind: tela, `subroutes`): child paths below the screen's route, served by the same
// component under the same permission key (e.g. /adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MetadataError } from './errors.ts';
import { generate } from './generate.ts';
import type { Model } from '../shared/model.ts';
import { tempProject, writeFile, type TempProject } from './test-helpers.ts';

const projects: TempProject[] = [];
const project = () => { const p = tempProject(); projects.push(p); return p; };
afterEach(() => { while (projects.length) projects.pop()!.cleanup(); });
const gen = (p: TempProject) => generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime });

const TELA = `
kind: tela
key: painel_sub
label: Painel com sub-rotas
route: /tlm/ras/painel_sub
permission: tlm.ras.painel_sub.lista
subroutes: [':tecnology', ':tecnology/:model/eventos']
component: teste/PainelSub.tsx
`;

describe('screen subroutes', () => {
  it('adds one route entry per subroute with the screen permission', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/painel_sub.yaml'), TELA);
    writeFile(join(p.root, 'runtime/src/screens/teste/PainelSub.tsx'), 'export default () => null;\n');
    await gen(p);
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    expect(model.routes.filter((r) => r.screen === 'painel_sub')).toEqual([
      { path: '/tlm/ras/painel_sub', name: 'tlm.ras.painel_sub.lista', screen: 'painel_sub', view: 'screen' },
      { path: '/tlm/ras/painel_sub/:tecnology', name: 'tlm.ras.painel_sub.lista', screen: 'painel_sub', view: 'screen' },
      { path: '/tlm/ras/painel_sub/:tecnology/:model/eventos', name: 'tlm.ras.painel_sub.lista', screen: 'painel_sub', view: 'screen' },
    ]);
    expect(model.screens.find((s) => s.key === 'painel_sub')?.subroutes).toEqual([':tecnology', ':tecnology/:model/eventos']);
  });

  it('ships the library screens of the spec with their subroutes', async () => {
    const p = project();
    await gen(p);
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    const paths = (key: string) => model.routes.filter((r) => r.screen === key).map((r) => r.path);
    expect(paths('biblioteca_de_eventos')).toEqual([
      '/adm/bib/biblioteca_de_eventos', '/adm/bib/biblioteca_de_eventos/:tecnology', '/adm/bib/biblioteca_de_eventos/:tecnology/:model',
      '/adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos', '/adm/bib/biblioteca_de_eventos/:tecnology/:model/parametros',
    ]);
    expect(paths('biblioteca')).toEqual([
      '/tlm/cfg/biblioteca', '/tlm/cfg/biblioteca/biblioteca_do_evento', '/tlm/cfg/biblioteca/biblioteca_de_periferico', '/tlm/cfg/biblioteca/biblioteca_de_parametros',
    ]);
    expect(model.permissions.map((x) => x.key)).toEqual(expect.arrayContaining(['adm.bib.biblioteca_de_eventos.lista', 'tlm.cfg.biblioteca.lista']));
  });

  it('refuses malformed and clashing subroutes', async () => {
    const p = project();
    writeFile(join(p.root, 'runtime/src/screens/teste/PainelSub.tsx'), 'export default () => null;\n');
    writeFile(join(p.metadata, 'tlm/painel_sub.yaml'), TELA.replace("[':tecnology', ':tecnology/:model/eventos']", "['/abs', 'a b']"));
    let problems: string[] = [];
    try { await gen(p); } catch (e) { if (e instanceof MetadataError) problems = e.problems; else throw e; }
    expect(problems.some((x) => x.startsWith('metadata/tlm/painel_sub.yaml: /subroutes/0'))).toBe(true);

    writeFile(join(p.metadata, 'tlm/painel_sub.yaml'), TELA.replace('route: /tlm/ras/painel_sub', 'route: /tlm/fro').replace("[':tecnology', ':tecnology/:model/eventos']", '[ativo]'));
    problems = [];
    try { await gen(p); } catch (e) { if (e instanceof MetadataError) problems = e.problems; else throw e; }
    expect(problems).toContain('metadata/tlm/painel_sub.yaml: /subroutes/0: route "/tlm/fro/ativo" já usado em metadata/tlm/ativo.yaml');
  });
});
