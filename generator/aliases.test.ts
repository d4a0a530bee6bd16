// Metadata `aliases`: a second screen route of one view of a register, below its route or absolute ('/…'), with a
// title, a fixed list filter and add-form values taken from the route; checked against the fields and the route table.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();
const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));

describe('aliases', () => {
  it('puts the absolute aliases in the route table with the view key and the alias index', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const at = (path: string) => m.routes.filter((r) => r.path === path).map((r) => [r.entity, r.view, r.name, r.alias]);
    expect(at('/adm/con/controle')).toEqual([['fila_processamento', 'list', 'adm.cfg.equipamentos.fila_processamento.lista', 0]]);
    expect(at('/adm/cfg/sincronizacao')).toEqual([['fila_processamento', 'list', 'adm.cfg.equipamentos.fila_processamento.lista', 1]]);
    expect(at('/adm/cfg/sincronizacao/visualizar')).toEqual([['fila_processamento', 'show', 'adm.cfg.equipamentos.fila_processamento.visualizar', 2]]);
    expect(at('/adm/cfg/simcard')).toEqual([['sim_card', 'list', 'adm.sis.sim_card.lista', 0]]);
    expect(at('/adm/cfg/equipamentos/:id/adicionar_equipamento')).toEqual([['equipamento_ativo', 'create', 'adm.cfg.equipamentos.vinculo.adicionar', 0]]);
    // Relative aliases keep working below the route.
    expect(at('/adm/sis/integracao/conexoes/mix')).toEqual([['conexao_integracao', 'create', 'adm.sis.integracao.conexoes.adicionar', 0]]);
    // Below route parameters: the alias list gets its own navigation levels; the edit alias offers the apply action.
    expect(m.routes.filter((r) => r.entity === 'modelo_de_configuracao' && r.alias !== undefined).map((r) => [r.path, r.view, r.level, r.alias])).toEqual([
      ['/adm/cfg/configurar_equipamentos', 'params', 0, 0],
      ['/adm/cfg/configurar_equipamentos/:tecnology', 'params', 1, 0],
      ['/adm/cfg/configurar_equipamentos/:tecnology/:model', 'list', undefined, 0],
      ['/adm/cfg/configurar_equipamentos/:tecnology/:model/:id/editar', 'edit', undefined, 1],
    ]);
    const fila = m.entities.find((e) => e.key === 'fila_processamento')!;
    expect(fila.aliases?.[1]).toEqual({ path: '/adm/cfg/sincronizacao', view: 'list', label: 'Sincronização de configurações', filter: { event: ['sync', 'readConfig', 'writeConfig'] } });
    expect(m.entities.find((e) => e.key === 'equipamento_ativo')!.aliases?.[0].defaults).toEqual({ ativoId: 'id', dataInicio: '$now' });
  });

  it('refuses unknown fields, a filter off a list, defaults off the route and a route already taken', async () => {
    const p = project();
    editYaml(p, 'hdw/fila_processamento.yaml', (d) => {
      d.aliases = [
        { path: '/adm/con/controle', view: 'list', filter: { inexistente: 1 } },
        { path: '/adm/con/outra', view: 'show', filter: { event: 'sync' } },
        { path: '/adm/cfg/equipamentos', view: 'list' },
      ];
    });
    editYaml(p, 'hdw/equipamento_ativo.yaml', (d) => {
      d.aliases = [{ path: '/adm/cfg/equipamentos/:id/adicionar_equipamento', view: 'create', defaults: { ativoId: 'ativo', nada: 'id', serial: '$now' } }];
    });
    editYaml(p, 'adm/historico_de_login.yaml', (d) => { d.aliases = [{ path: '/adm/x/login', view: 'create' }]; });
    editYaml(p, 'adm/modelo_de_configuracao.yaml', (d) => {
      d.aliases = [
        { path: '/adm/cfg/configurar_equipamentos/:model/:tecnology', view: 'list' },
        { path: '/adm/cfg/configurar/:id/editar', view: 'edit' },
      ];
    });
    const out = await problems(p);
    expect(out).toEqual(expect.arrayContaining([
      'metadata/hdw/fila_processamento.yaml: /aliases/0/filter: campo desconhecido: inexistente',
      'metadata/hdw/fila_processamento.yaml: /aliases/1/filter: filter só vale para view: list',
      'metadata/hdw/equipamento_ativo.yaml: /aliases/0/defaults: parâmetro :ativo não está na rota /adm/cfg/equipamentos/:id/adicionar_equipamento',
      'metadata/hdw/equipamento_ativo.yaml: /aliases/0/defaults: campo desconhecido: nada',
      'metadata/hdw/equipamento_ativo.yaml: /aliases/0/defaults: $now só vale para campo date ou datetime: serial',
      'metadata/adm/historico_de_login.yaml: /aliases/0/view: cadastro somente leitura: só a lista e a visualização',
      'metadata/adm/modelo_de_configuracao.yaml: /aliases/0/path: a rota deve ter os parâmetros :tecnology/:model no fim',
      'metadata/adm/modelo_de_configuracao.yaml: /aliases/1/path: a rota deve ter os parâmetros :tecnology/:model',
    ]));
    expect(out.length).toBe(8);
    // Once the others are right, a route taken by another screen is refused.
    const q = project();
    editYaml(q, 'hdw/fila_processamento.yaml', (d) => { d.aliases = [{ path: '/adm/cfg/equipamentos', view: 'list' }]; });
    expect(await problems(q)).toEqual(['metadata/hdw/fila_processamento.yaml: /aliases/0/path: rota já usada por outra tela: /adm/cfg/equipamentos']);
  });
});
