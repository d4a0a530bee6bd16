// An entity whose list is a screen's (listScreen: a provider tab lists the register) and alias routes returning to
// another screen (back, e.g. /adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos/:id → …/eventos): the route
// table, what the model carries for the runtime, and the pt-BR refusals.
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
const problemsOf = async (p: TempProject) => {
  try { await gen(p); } catch (e) { if (e instanceof MetadataError) return e.problems; throw e; }
  return [];
};

const ENTITY = `
key: item_teste
table: item_teste
label: { singular: Item, plural: Itens }
route: /tlm/cfg/biblioteca/biblioteca_do_evento
permission: tlm.cfg.biblioteca.item_teste
listScreen: biblioteca
scope: global
fields:
  - { name: nome, type: string, label: Nome, required: true }
  - { name: familia, type: string, label: Família }
`;

describe('listScreen and absolute aliases', () => {
  it('the libraries: no list route of the registers (the screen tabs list them), forms below the tabs and at /adm/bib', async () => {
    const p = project();
    await gen(p);
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    const of = (key: string) => model.routes.filter((r) => r.entity === key).map((r) => `${r.view} ${r.path}`);
    expect(of('biblioteca_evento')).toEqual([
      'create /tlm/cfg/biblioteca/biblioteca_do_evento/adicionar',
      'edit /tlm/cfg/biblioteca/biblioteca_do_evento/:id/editar',
      'show /tlm/cfg/biblioteca/biblioteca_do_evento/:id/visualizar',
      'create /adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos/adicionar',
      'edit /adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos/:id',
    ]);
    expect(of('biblioteca_periferico')).toEqual([
      'create /tlm/cfg/biblioteca/biblioteca_de_periferico/adicionar',
      'edit /tlm/cfg/biblioteca/biblioteca_de_periferico/:id/editar',
      'show /tlm/cfg/biblioteca/biblioteca_de_periferico/:id/visualizar',
    ]);
    expect(model.routes.find((r) => r.path === '/tlm/cfg/biblioteca/biblioteca_de_parametros')).toMatchObject({ screen: 'biblioteca', view: 'screen' });
    const e = model.entities.find((x) => x.key === 'biblioteca_evento')!;
    expect(e.listScreen).toBe('biblioteca');
    expect(e.aliases![0]).toEqual({
      path: '/adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos/adicionar', view: 'create', defaults: { tecnologia: 'tecnology' }, back: '/adm/bib/biblioteca_de_eventos/:tecnology/:model/eventos',
    });
    const tabs = model.screens.find((s) => s.key === 'biblioteca')!.list!.tabs!.options;
    expect(tabs.map((o) => [o.path, o.entity, o.entityId])).toEqual([
      ['biblioteca_do_evento', 'biblioteca_evento', 'registro'], ['biblioteca_de_periferico', 'biblioteca_periferico', 'registro'], ['biblioteca_de_parametros', 'biblioteca_parametro', 'registro'],
    ]);
    // menu: the screens, not the registers
    const menu = JSON.stringify(model.menu);
    expect(menu).not.toContain('Biblioteca do evento');
  });

  it('refuses a list screen that is unknown or not at the entity route, and a back route with unknown parameters', async () => {
    const p = project();
    const file = join(p.metadata, 'tlm/item_teste.yaml');
    writeFile(file, ENTITY.replace('listScreen: biblioteca', 'listScreen: nao_existe').replace('biblioteca_do_evento', 'item_teste'));
    expect(await problemsOf(p)).toContain('metadata/tlm/item_teste.yaml: /listScreen: tela desconhecida: nao_existe');
    writeFile(file, ENTITY.replace('/tlm/cfg/biblioteca/biblioteca_do_evento', '/tlm/cfg/biblioteca/outra'));
    expect(await problemsOf(p)).toContain('metadata/tlm/item_teste.yaml: /listScreen: a rota /tlm/cfg/biblioteca/outra não é uma rota da tela biblioteca');
    writeFile(file, `${ENTITY.replace('/tlm/cfg/biblioteca/biblioteca_do_evento', '/tlm/cfg/biblioteca/outra').replace('listScreen: biblioteca\n', '')}aliases:
  - { path: '/adm/bib/teste/:x/adicionar', view: create, back: '/adm/bib/teste/:y' }
  - { path: '/adm/bib/teste/:x', view: show, back: '/adm/bib/teste' }
`);
    const problems = await problemsOf(p);
    expect(problems).toEqual(expect.arrayContaining([
      'metadata/tlm/item_teste.yaml: /aliases/0/back: parâmetro :y não está na rota /adm/bib/teste/:x/adicionar',
      'metadata/tlm/item_teste.yaml: /aliases/1/back: back só vale para view: create ou edit',
    ]));
  });
});
