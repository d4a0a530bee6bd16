import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ISSUE_9, OTHERS, expandBullet, formatReport, missingRoutes, owner, specRoutes } from './routes-missing.ts';

describe('routes:missing — spec notation', () => {
  it('expands parentheses, "child", "list"/"index" and prose comments', () => {
    expect(expandBullet('/adm/cfg/sincronizacao (child visualizar); /adm/cfg/imei (list, adicionar, :id/editar)')).toEqual([
      '/adm/cfg/sincronizacao', '/adm/cfg/sincronizacao/visualizar', '/adm/cfg/imei', '/adm/cfg/imei/adicionar', '/adm/cfg/imei/:id/editar',
    ]);
    expect(expandBullet('/adm/bib/acessorios (list), /adm/bib/acessorios/adicionar, /adm/bib/acessorios/:_id (add and edit share one form)')).toEqual([
      '/adm/bib/acessorios', '/adm/bib/acessorios/adicionar', '/adm/bib/acessorios/:_id',
    ]);
    expect(expandBullet('perfil (user profile)')).toEqual(['/perfil']);
  });

  it('expands "plus ... for each of", "each with", "same" and "same as"', () => {
    const cad = expandBullet('/adm/sis/cadastro: index, plus list, adicionar, :id/editar for each of contatos, fornecedor (the last three share one form for add and edit)');
    expect(cad).toEqual(['/adm/sis/cadastro', '/adm/sis/cadastro/contatos', '/adm/sis/cadastro/contatos/adicionar', '/adm/sis/cadastro/contatos/:id/editar',
      '/adm/sis/cadastro/fornecedor', '/adm/sis/cadastro/fornecedor/adicionar', '/adm/sis/cadastro/fornecedor/:id/editar']);
    expect(expandBullet('/cfg/cfg/hardware: firmware, modelo; each with list, adicionar, :id/editar')).toEqual([
      '/cfg/cfg/hardware', '/cfg/cfg/hardware/firmware', '/cfg/cfg/hardware/firmware/adicionar', '/cfg/cfg/hardware/firmware/:id/editar',
      '/cfg/cfg/hardware/modelo', '/cfg/cfg/hardware/modelo/adicionar', '/cfg/cfg/hardware/modelo/:id/editar',
    ]);
    expect(expandBullet('/tlm/cfg/modelos (modelos_de_dispositivo, each list/adicionar/{id}/editar)')).toEqual([
      '/tlm/cfg/modelos', '/tlm/cfg/modelos/modelos_de_dispositivo', '/tlm/cfg/modelos/modelos_de_dispositivo/adicionar', '/tlm/cfg/modelos/modelos_de_dispositivo/{id}/editar',
    ]);
    expect(expandBullet('/tlm/fro/grupo_generico with ativos (list, {id}/editar) and motoristas (same)')).toEqual([
      '/tlm/fro/grupo_generico', '/tlm/fro/grupo_generico/ativos', '/tlm/fro/grupo_generico/ativos/{id}/editar',
      '/tlm/fro/grupo_generico/motoristas', '/tlm/fro/grupo_generico/motoristas/{id}/editar',
    ]);
    expect(expandBullet('/m: a (list, {id}/excluir), b (same as a)')).toEqual(['/m', '/m/a', '/m/a/{id}/excluir', '/m/b', '/m/b/{id}/excluir']);
  });

  it('expands "with children", "sub-pages:", "...", "under it", labels, a lone parameter and deep siblings', () => {
    expect(expandBullet('/adm/cfg/equipamentos with :id/adicionar_equipamento and :serial sub-pages: index, configuracao')).toEqual([
      '/adm/cfg/equipamentos', '/adm/cfg/equipamentos/:id/adicionar_equipamento', '/adm/cfg/equipamentos/:serial', '/adm/cfg/equipamentos/:serial/configuracao',
    ]);
    expect(expandBullet('/cfg/fir/lista: index, :tecnology/:model, .../adicionar, .../:id/editar')).toEqual([
      '/cfg/fir/lista', '/cfg/fir/lista/:tecnology/:model', '/cfg/fir/lista/:tecnology/:model/adicionar', '/cfg/fir/lista/:tecnology/:model/:id/editar',
    ]);
    expect(expandBullet('/adm/sis/empresa (index); under it usuario (list, adicionar); public link at /tlm/ras/link_publico (also under the company area)')).toEqual([
      '/adm/sis/empresa', '/adm/sis/empresa/usuario', '/adm/sis/empresa/usuario/adicionar', '/tlm/ras/link_publico',
    ]);
    expect(expandBullet('/tlm/ras/historico_itinerario and /{id}; /base_layout, /home')).toEqual([
      '/tlm/ras/historico_itinerario', '/tlm/ras/historico_itinerario/{id}', '/base_layout', '/home',
    ]);
    expect(expandBullet('/tlm/fro/ativo (list), adicionar, :id with children index, especial; equipment pages /tlm/fro/ativo/{id}/equipamento/{serial}/configuracao, fila_processamento')).toEqual([
      '/tlm/fro/ativo', '/tlm/fro/ativo/adicionar', '/tlm/fro/ativo/:id', '/tlm/fro/ativo/:id/especial',
      '/tlm/fro/ativo/{id}/equipamento/{serial}/configuracao', '/tlm/fro/ativo/{id}/equipamento/{serial}/fila_processamento',
    ]);
    expect(expandBullet('/tlm/fro/garagem, garagem/adicionar, garagem/{id} with ativos, editar')).toEqual([
      '/tlm/fro/garagem', '/tlm/fro/garagem/adicionar', '/tlm/fro/garagem/{id}', '/tlm/fro/garagem/{id}/ativos', '/tlm/fro/garagem/{id}/editar',
    ]);
  });
});

describe('routes:missing — report', () => {
  const spec = specRoutes(fs.readFileSync('/work/shared/spec/core.md', 'utf8'));

  it('reads every route of section 2 once', () => {
    expect(spec).toHaveLength(307);
    expect(new Set(spec.map((r) => r.path)).size).toBe(spec.length);
    const paths = spec.map((r) => r.path);
    for (const p of ['/login', '/adm/sis/cadastro/fornecedor/:id/editar', '/tlm/fro/manutencoes/manutencao_servicos/{id}/excluir', '/rel/for/formularios/:id', '/esp/tcl/dispositivos/{serial}/informacoes']) expect(paths).toContain(p);
    expect(paths.filter((p) => p.includes(' ') || p.includes('('))).toEqual([]);
  });

  it('groups the routes without a screen by owner; parameters compare by position', () => {
    expect(owner('/adm/sis/cadastro/pais')).toBe(ISSUE_9);
    expect(owner('/cfg/map/analise_viagens')).toBe(OTHERS);
    expect(owner('/tlm/ras/historico_rastreamento')).toBe(OTHERS);
    expect(owner('/tlm/ras/registros')).toBe(ISSUE_9);
    expect(owner('/rel/for/formularios/adicionar')).toBe(ISSUE_9);
    const rep = missingRoutes(
      [{ path: '/adm/cfg/imei/{id}/editar', section: 'A' }, { path: '/adm/cfg/imei', section: 'A' }, { path: '/tlm/vid/download', section: 'T' }, { path: '/login', section: 'P' }],
      [{ path: '/adm/cfg/imei/:id/editar' }],
    );
    expect(rep.total).toBe(4);
    expect(rep.withScreen).toBe(2);
    expect(rep.missing.get(ISSUE_9)!.map((r) => r.path)).toEqual(['/adm/cfg/imei']);
    expect(rep.missing.get(OTHERS)!.map((r) => r.path)).toEqual(['/tlm/vid/download']);
    expect(formatReport(rep)).toContain(`${ISSUE_9}: 1\n  /adm/cfg/imei`);
    // A known value of a route parameter written literally is the parameter route's screen; an unknown one is not.
    const lit = missingRoutes(
      [{ path: '/cfg/fir/lista/vdo/vdo_telemetria', section: 'A' }, { path: '/cfg/fir/lista/vdo/outro', section: 'A' }, { path: '/cfg/fir/lista/vdo/vdo_telemetria/editar', section: 'A' }],
      [{ path: '/cfg/fir/lista/:tecnology/:model' }],
      ['vdo', 'vdo_telemetria'],
    );
    expect(lit.missing.get(ISSUE_9)!.map((r) => r.path)).toEqual(['/cfg/fir/lista/vdo/outro', '/cfg/fir/lista/vdo/vdo_telemetria/editar']);
  });
});
