// Metadata `record`: record pages with tabs (spec section 2, asset tab menu) — targets, keys, routes and errors.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();
const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));

describe('record pages (record.tabs)', () => {
  it('normalizes the asset, garage and equipment tabs with their keys and targets', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const by = (k: string) => m.entities.find((e) => e.key === k)!;
    const ativo = by('ativo').record!;
    expect(ativo.route).toBe('/tlm/fro/ativo/:id');
    expect(ativo.tabs.map((t) => [t.name, t.label, t.permission, t.kind])).toEqual([
      ['informacoes', 'Informações', 'tlm.fro.ativo.informacoes', 'form'],
      ['controle_de_acesso', 'Controle de acesso', 'tlm.fro.ativo.controle_acesso', 'provider'],
      ['motorista_temporario', 'Motorista temporário', 'tlm.fro.ativo.motorista_temporario', 'list'],
      ['equipamento', 'Equipamento', 'tlm.fro.ativo.equipamento', 'group'],
      ['bloqueia_motor', 'Bloquear motor', 'tlm.fro.ativo.bloqueia_motor', 'action'],
      ['especial', 'Especiais', 'tlm.fro.ativo.especial', 'form'],
      ['mapa', 'Mapa', 'tlm.ras.mapa_do_ativo', 'screen'],
      ['viagens', 'Viagens', 'tlm.fro.ativo.viagens', 'provider'],
    ]);
    expect(ativo.tabs[0].sections).toEqual(['Identificação', 'Veículo']);
    expect(ativo.tabs[3]).toMatchObject({ entity: 'equipamento', each: 'equipamentosList' });
    expect(ativo.tabs[4].actions).toEqual(['bloqueia_motor', 'desbloqueia_motor']);
    // default keys: what the target needs on the server
    expect(by('garagem').record!.tabs.map((t) => [t.name, t.permission])).toEqual([
      ['ativos', 'tlm.fro.ativo.lista'], ['motoristas', 'tlm.fro.motorista.lista'], ['editar', 'tlm.fro.garagem.editar'],
    ]);
    expect(by('equipamento').record).toMatchObject({ by: 'serial', route: '/adm/cfg/equipamentos/:serial' });
    expect(by('equipamento').record!.tabs.map((t) => [t.name, t.permission])).toEqual([
      ['configuracao', 'adm.cfg.equipamentos.configuracao'], ['fila_processamento', 'adm.cfg.equipamentos.fila_processamento.lista'],
      ['excluir_equipamento', 'adm.cfg.equipamentos.excluir'], ['reiniciar_simcard', 'adm.cfg.equipamentos.reiniciar_simcard'],
      ['remover_equipamento', 'adm.cfg.equipamentos.remover_equipamento'], ['sincronizar_can', 'adm.cfg.equipamentos.sincronizar_can'],
      ['redefinir', 'adm.cfg.equipamentos.redefinir'],
    ]);
    // a list tab's own key joins the nested routes' requirements
    expect(by('motorista_temporario').parent?.tabKeys).toEqual(['tlm.fro.ativo.motorista_temporario']);
    expect(by('ativo').parent?.tabKeys).toBeUndefined();
  });

  it('routes: the record, each tab, each tab of a group entry; a tab replaces the entity route of the same path', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const rec = m.routes.filter((r) => r.view === 'record');
    expect(rec).toContainEqual({ path: '/tlm/fro/ativo/:id', name: 'tlm.fro.ativo.visualizar', entity: 'ativo', view: 'record' });
    expect(rec).toContainEqual({ path: '/tlm/fro/ativo/:id/informacoes', name: 'tlm.fro.ativo.informacoes', entity: 'ativo', view: 'record', tab: 'informacoes' });
    expect(rec).toContainEqual({ path: '/tlm/fro/ativo/:id/equipamento/:serial/fila_processamento', name: 'adm.cfg.equipamentos.fila_processamento.lista', entity: 'ativo', view: 'record', tab: 'equipamento', sub: 'fila_processamento' });
    expect(rec.filter((r) => r.entity === 'ativo').length).toBe(1 + 8 + 7);
    const at = (path: string) => m.routes.filter((r) => r.path === path);
    expect(at('/tlm/fro/garagem/:id/editar')).toEqual([{ path: '/tlm/fro/garagem/:id/editar', name: 'tlm.fro.garagem.editar', entity: 'garagem', view: 'record', tab: 'editar' }]);
    expect(at('/tlm/fro/garagem/:id/ativos')).toEqual([{ path: '/tlm/fro/garagem/:id/ativos', name: 'tlm.fro.ativo.lista', entity: 'garagem', view: 'record', tab: 'ativos' }]);
    expect(new Set(m.routes.map((r) => r.path)).size).toBe(m.routes.length);
  });

  it('refuses a tab with no target or two targets (schema, pt-BR)', async () => {
    const p = project();
    editYaml(p, 'tlm/garagem.yaml', (d) => { d.record.tabs = [{ name: 'x', label: 'X' }, { name: 'y', label: 'Y', form: true, delete: true }]; });
    const out = await problems(p);
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((x) => /^metadata\/tlm\/garagem\.yaml: \/record\/tabs\/[01]/.test(x))).toBe(true);
    expect(out.join('\n')).toMatch(/deve corresponder|propriedade obrigatória ausente/);
  });

  it('refuses unknown sections, lists, actions, columns, keys outside the catalogue and mismatched keys', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => {
      d.record.tabs = [
        { name: 'informacoes', label: 'Informações', form: ['Nada'] },
        { name: 'informacoes', label: 'Repetida', permission: 'tlm.fro.ativo.nao_existe', form: true },
        { name: 'fila', label: 'Fila', list: 'fila_processamento' },
        { name: 'bloqueio', label: 'Bloqueio', action: ['bloqueia_motor', 'voa'] },
        { name: 'bloqueio2', label: 'Bloqueio', permission: 'tlm.fro.ativo.especial', action: ['bloqueia_motor'] },
        { name: 'equipamento', label: 'Equipamento', group: { entity: 'garagem', each: 'naoHa' } },
        { name: 'acesso', label: 'Acesso', provider: 'nao_existe' },
      ];
    });
    expect(await problems(p)).toEqual([
      'metadata/tlm/ativo.yaml: /record/tabs/0/form/0: seção desconhecida no formulário: Nada',
      'metadata/tlm/ativo.yaml: /record/tabs/1/name: aba repetida: informacoes',
      'metadata/tlm/ativo.yaml: /record/tabs/1/permission: permissão fora do catálogo: tlm.fro.ativo.nao_existe',
      'metadata/tlm/ativo.yaml: /record/tabs/2/list: deve ser uma entidade com parent: ativo',
      'metadata/tlm/ativo.yaml: /record/tabs/2/permission: permissão obrigatória para esta aba',
      'metadata/tlm/ativo.yaml: /record/tabs/3/action/1: ação desconhecida: voa',
      'metadata/tlm/ativo.yaml: /record/tabs/4/permission: deve ser a permissão que o servidor exige: tlm.fro.ativo.bloqueia_motor',
      'metadata/tlm/ativo.yaml: /record/tabs/5/group/each: coluna desconhecida: naoHa',
      'metadata/tlm/ativo.yaml: /record/tabs/6/provider: provider desconhecido ou sem path: nao_existe',
      'metadata/tlm/ativo.yaml: /record/tabs/6/permission: permissão obrigatória para esta aba',
    ]);
  });

  it('refuses an action offered in a record page without the sentence saying what it does', async () => {
    const p = project();
    editYaml(p, 'tlm/ativo.yaml', (d) => { delete d.actions.find((a: { name: string }) => a.name === 'desbloqueia_motor').description; });
    expect(await problems(p)).toEqual(['metadata/tlm/ativo.yaml: /record/tabs/4/action/1: a ação desbloqueia_motor precisa de description (uma frase dizendo o que ela faz)']);
  });

  it('refuses a record by a field that is not unique and a group entity without record', async () => {
    const p = project();
    editYaml(p, 'tlm/garagem.yaml', (d) => { d.record.by = 'descricao'; });
    editYaml(p, 'tlm/ativo.yaml', (d) => { d.record.tabs = [{ name: 'g', label: 'G', permission: 'tlm.fro.ativo.equipamento', group: { entity: 'passageiro', each: 'equipamentosList' } }]; });
    const out = await problems(p);
    expect(out).toContain('metadata/tlm/garagem.yaml: /record/by: garagem.descricao deve ser unique');
    expect(out).toContain('metadata/tlm/ativo.yaml: /record/tabs/0/group/entity: passageiro deve declarar record');
  });

  it('mounts a record at another route (record.path) by serial, with a list that refers to its parent by id', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const by = (k: string) => m.entities.find((e) => e.key === k)!;
    expect(by('dispositivo_teclado').record).toMatchObject({ by: 'serial', route: '/esp/tcl/comandos/:serial' });
    expect(by('dispositivo_teclado').record!.tabs.map((t) => [t.name, t.kind, t.permission])).toEqual([
      ['mensagens', 'list', 'esp.tcl.comandos.lista'], ['macros', 'action', 'esp.tcl.dispositivos.enviar_macro'],
      ['logs', 'provider', 'esp.tcl.comandos.lista'], ['informacoes', 'form', 'esp.tcl.dispositivos.editar'],
    ]);
    expect(by('comando_teclado').parent).toMatchObject({ field: 'dispositivo', by: 'serial', refId: true, route: '/esp/tcl/comandos/:serial/mensagens' });
    // the list's own route stays the entity's; the console's routes are the record's
    const paths = m.routes.filter((r) => r.path.startsWith('/esp/tcl/comandos')).map((r) => `${r.path} ${r.view}`);
    expect(paths).toEqual(expect.arrayContaining(['/esp/tcl/comandos list', '/esp/tcl/comandos/:serial record', '/esp/tcl/comandos/:serial/mensagens record', '/esp/tcl/comandos/:serial/logs record']));
  });

  it('refuses a list referring to its parent by id under a route by serial that no record tab shows', async () => {
    const p = project();
    editYaml(p, '../modules/teclado/metadata/esp/dispositivo_teclado.yaml', (d) => { d.record.tabs = d.record.tabs.filter((t: any) => t.name !== 'mensagens'); });
    const out = await problems(p);
    expect(out).toContain('modules/teclado/metadata/esp/comando_teclado.yaml: /parent: comando_teclado refere dispositivo_teclado pelo id numa rota por serial: declare-a numa aba do record de dispositivo_teclado com o caminho /esp/tcl/comandos/:serial/mensagens');
  });
});
