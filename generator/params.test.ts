// Metadata `params` (route parameters bound to fields), `rules` (cross-field limits), zeroDisables/rangeMessage and
// metadata/_tecnologias.yaml (the known values of the parameters).
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { buildModel } from './generate.ts';
import { entitySchema } from './emit/schemas.ts';
import { schemaKeywords } from './keywords.ts';
import { declaredMessage } from '../shared/messages.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from './test-helpers.ts';

const project = tempProjects();
const problems = (p: TempProject) => metadataProblems(() => buildModel(p.metadata));
const FILE = 'adm/modelo_de_configuracao.yaml';

describe('route parameters (params)', () => {
  it('normalizes the configuration models: route, base, API mount, navigation levels, menu entry and technologies', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const e = m.entities.find((x) => x.key === 'modelo_de_configuracao')!;
    expect(e.params).toEqual([
      { name: 'tecnology', field: 'tecnologia', label: 'Tecnologia', values: 'tecnologias' },
      { name: 'model', field: 'modelo', label: 'Modelo', values: 'modelos' },
    ]);
    expect([e.route, e.base, e.api]).toEqual(['/adm/bib/modelos_de_configuracao/:tecnology/:model', '/adm/bib/modelos_de_configuracao', 'modelo_de_configuracao/:tecnology/:model']);
    expect(m.routes.filter((r) => r.entity === 'modelo_de_configuracao').map((r) => [r.path, r.name, r.view, r.level])).toEqual([
      ['/adm/bib/modelos_de_configuracao', 'adm.bib.modelos_de_configuracao.lista', 'params', 0],
      ['/adm/bib/modelos_de_configuracao/:tecnology', 'adm.bib.modelos_de_configuracao.lista', 'params', 1],
      ['/adm/bib/modelos_de_configuracao/:tecnology/:model', 'adm.bib.modelos_de_configuracao.lista', 'list', undefined],
      ['/adm/bib/modelos_de_configuracao/:tecnology/:model/adicionar', 'adm.bib.modelos_de_configuracao.adicionar', 'create', undefined],
      ['/adm/bib/modelos_de_configuracao/:tecnology/:model/:id/editar', 'adm.bib.modelos_de_configuracao.editar', 'edit', undefined],
      ['/adm/bib/modelos_de_configuracao/:tecnology/:model/:id/visualizar', 'adm.bib.modelos_de_configuracao.visualizar', 'show', undefined],
      // the same register again below /adm/cfg/configurar_equipamentos (absolute aliases), with its own navigation levels
      ['/adm/cfg/configurar_equipamentos', 'adm.bib.modelos_de_configuracao.lista', 'params', 0],
      ['/adm/cfg/configurar_equipamentos/:tecnology', 'adm.bib.modelos_de_configuracao.lista', 'params', 1],
      ['/adm/cfg/configurar_equipamentos/:tecnology/:model', 'adm.bib.modelos_de_configuracao.lista', 'list', undefined],
      ['/adm/cfg/configurar_equipamentos/:tecnology/:model/:id/editar', 'adm.bib.modelos_de_configuracao.editar', 'edit', undefined],
    ]);
    const flat = (ns: typeof m.menu): typeof m.menu => ns.flatMap((n) => (n.children ? flat(n.children) : [n]));
    const menu = flat(m.menu).find((n) => n.permission === 'adm.bib.modelos_de_configuracao.lista');
    expect(menu?.route).toBe('/adm/bib/modelos_de_configuracao');
    expect(m.tecnologias?.map((t) => [t.id, t.modelos.map((x) => x.id)])).toEqual([
      ['queclink', ['gv50cg', 'gv58cg', 'gv350ceu', 'gv300', 'gv310lau', 'gv350m', 'gv55', 'gv55w', 'gv56', 'gv600m', 'gl300', 'gl300m', 'cv100lg']], ['legacy', ['legacy']], ['vdo', ['vdo_telemetria', 'vdo_compact', 'mix']],
    ]);
  });

  it('refuses params that do not match the route, unknown or non-required fields, modelos without tecnologias', async () => {
    const p = project();
    editYaml(p, FILE, (d) => { d.params = [{ name: 'model', field: 'modelo' }, { name: 'tecnology', field: 'tecnologia' }]; });
    editYaml(p, 'adm/fabricante_de_ativo.yaml', (d) => {
      d.route = '/adm/sis/cadastro/fabricante_de_ativo/{marca}/{linha}';
      d.fields.push({ name: 'linha', type: 'string', label: 'Linha' });
      d.params = [{ name: 'marca', field: 'inexistente' }, { name: 'linha', field: 'linha', values: 'modelos' }];
    });
    editYaml(p, 'adm/categoria_de_ativo.yaml', (d) => { d.route = `${d.route}/{grupo}`; });
    const out = await problems(p);
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /params: os parâmetros da rota ({tecnology}, {model}) devem ser os de params, na mesma ordem');
    expect(out).toContain('metadata/adm/fabricante_de_ativo.yaml: /params/0/field: campo desconhecido: inexistente');
    expect(out).toContain('metadata/adm/fabricante_de_ativo.yaml: /params/1/field: deve ser um campo string ou enum obrigatório: linha');
    expect(out).toContain('metadata/adm/fabricante_de_ativo.yaml: /params/1/values: modelos exige o parâmetro anterior com values: tecnologias');
    expect(out).toContain('metadata/adm/categoria_de_ativo.yaml: /route: os parâmetros da rota ({grupo}) devem ser os de params, na mesma ordem');
    // the configurar_equipamentos aliases of the register follow its params, so the swap breaks them too
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /aliases/0/path: a rota deve ter os parâmetros :model/:tecnology no fim');
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /aliases/1/path: a rota deve ter os parâmetros :model/:tecnology');
    expect(out.length).toBe(7);
  });

  it('refuses a bad route pattern and unknown values through the JSON Schema, with file and path', async () => {
    const p = project();
    editYaml(p, FILE, (d) => { d.route = '/adm/bib/{tecnology}/modelos'; d.params[0].values = 'fabricantes'; });
    const out = await problems(p);
    expect(out.some((x) => x.startsWith('metadata/adm/modelo_de_configuracao.yaml: /route: '))).toBe(true);
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /params/0/values: deve ser um de: tecnologias, modelos');
  });

  it('checks _tecnologias.yaml: repeated ids, and values without any technology', async () => {
    const p = project();
    writeFileSync(join(p.metadata, '_tecnologias.yaml'), 'tecnologias:\n  - { id: a, label: A, modelos: [{ id: m, label: M }, { id: m, label: N }] }\n  - { id: a, label: B, modelos: [{ id: x, label: X }] }\n');
    let out = await problems(p);
    expect(out).toEqual([
      'metadata/_tecnologias.yaml: /tecnologias/0/modelos/1/id: modelo repetido: m',
      'metadata/_tecnologias.yaml: /tecnologias/1/id: tecnologia repetida: a',
    ]);
    writeFileSync(join(p.metadata, '_tecnologias.yaml'), 'tecnologias: []\n');
    out = await problems(p);
    // every entity with known-value params says so (others use them too, e.g. cfg/firmware.yaml)
    expect(out).toEqual(expect.arrayContaining([
      'metadata/adm/modelo_de_configuracao.yaml: /params/0/values: nenhuma tecnologia declarada em metadata/_tecnologias.yaml',
      'metadata/adm/modelo_de_configuracao.yaml: /params/1/values: nenhuma tecnologia declarada em metadata/_tecnologias.yaml',
    ]));
    expect(out.every((l) => /: \/params\/\d\/values: nenhuma tecnologia declarada em metadata\/_tecnologias\.yaml$/.test(l))).toBe(true);
  });
});

describe('provider params with known values', () => {
  it('carries values on the library provider and refuses modelos without tecnologias, values with enum, show on a non-json column', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const lista = m.providers.find((x) => x.key === 'biblioteca_lista')!;
    expect(lista.params.map((x) => [x.name, x.values])).toEqual([['tecnologia', 'tecnologias'], ['modelo', 'modelos'], ['lista', undefined]]);
    expect(lista.columns.find((c) => c.name === 'unit')).toMatchObject({ show: 'short', tooltip: 'full' });
    const p = project();
    editYaml(p, '../modules/biblioteca/metadata/adm/biblioteca_lista.yaml', (d) => {
      d.params[0].values = undefined;
      d.params[2].values = 'tecnologias';
      d.columns.find((c: any) => c.name === 'event').show = 'short';
    });
    const out = await problems(p);
    expect(out).toContain('modules/biblioteca/metadata/adm/biblioteca_lista.yaml: /params/1/values: modelos exige o parâmetro anterior com values: tecnologias');
    expect(out).toContain('modules/biblioteca/metadata/adm/biblioteca_lista.yaml: /params/2/values: values não combina com enum nem com type: integer');
    expect(out).toContain('modules/biblioteca/metadata/adm/biblioteca_lista.yaml: /columns/1: show/tooltip valem só para colunas json');
    expect(out.length).toBe(3);
  });
});

describe('screens that are a provider list (list)', () => {
  it('normalizes the library screens and refuses unknown providers, params and tab values', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    expect(m.screens.find((s) => s.key === 'biblioteca_de_eventos')?.list).toEqual({
      provider: 'biblioteca_lista', params: { tecnology: 'tecnologia', model: 'modelo' },
      tabs: { param: 'lista', options: [{ value: 'eventos', label: 'Eventos', path: 'eventos', entity: 'biblioteca_evento', entityId: 'registro' }, { value: 'parametros', label: 'Parâmetros', path: 'parametros' }] },
    });
    expect(m.screens.find((s) => s.key === 'biblioteca')?.list?.tabs?.options.map((o) => [o.value, o.path])).toEqual([
      ['eventos', 'biblioteca_do_evento'], ['perifericos', 'biblioteca_de_periferico'], ['parametros', 'biblioteca_de_parametros'],
    ]);
    const p = project();
    editYaml(p, '../modules/biblioteca/metadata/adm/biblioteca_de_eventos.yaml', (d) => {
      d.list.params = { tecnology: 'tecnologia', serial: 'modelo' };
      d.list.tabs.options.push({ value: 'alarmes', label: 'Alarmes' });
    });
    editYaml(p, '../modules/biblioteca/metadata/tlm/biblioteca.yaml', (d) => { d.list.provider = 'nao_existe'; });
    const out = await problems(p);
    expect([...out].sort()).toEqual([
      'modules/biblioteca/metadata/adm/biblioteca_de_eventos.yaml: /list/params/serial: parâmetro de rota desconhecido (veja subroutes): serial',
      'modules/biblioteca/metadata/adm/biblioteca_de_eventos.yaml: /list/tabs/options/2/value: deve ser um de: eventos, parametros',
      'modules/biblioteca/metadata/tlm/biblioteca.yaml: /list/provider: provider desconhecido: nao_existe',
    ]);
  });
});

describe('device limits: zeroDisables, rangeMessage and rules', () => {
  it('emits one schema whose failures carry the declared pt-BR messages', async () => {
    const m = await buildModel(join(import.meta.dirname, '../metadata'));
    const schema = entitySchema(m.entities.find((x) => x.key === 'modelo_de_configuracao')!, m) as Record<string, unknown>;
    const ajv = new Ajv({ allErrors: true, strict: true, keywords: [...schemaKeywords] });
    const validate = ajv.compile(schema);
    const messagesOf = (body: Record<string, unknown>) => {
      validate({ descricao: 'x', tecnologia: 'queclink', modelo: 'gv50cg', ...body });
      return [...new Set((validate.errors ?? []).map((e) => declaredMessage(schema, e.instancePath.slice(1) || String(e.params.missingProperty ?? ''), e.keyword, e.schemaPath)).filter(Boolean))];
    };
    expect(messagesOf({ tempoAntifurto: 0 })).toEqual([]);
    expect(messagesOf({ tempoAntifurto: 19 })).toEqual(['O tempo do antifurto não pode ser menor que 20 segundos (0 desativa; máximo 3600)']);
    expect(messagesOf({ intervaloSnapshot: 0 })).toEqual([]);
    expect(messagesOf({ intervaloSnapshot: 300 })).toEqual(['O intervalo de amostragem do snapshot deve ser de 1 a 250 segundos (0 não envia)']);
    expect(messagesOf({ alarmeMudancaDirecao: true, anguloMudancaDirecao: 0, velocidadeMudancaDirecao: 5 })).toEqual([
      'Com o alarme de mudança de direção ligado, o ângulo não pode ser 0 (o alarme não seria enviado)',
      'Com o alarme de mudança de direção ligado, a velocidade mínima deve ser de ao menos 20 km/h (abaixo dela a direção não é confiável)',
    ]);
    expect(messagesOf({ alarmeMudancaDirecao: false, anguloMudancaDirecao: 0, velocidadeMudancaDirecao: 5 })).toEqual([]);
  });

  it('refuses zeroDisables without min > 0, limits on text fields and rules on unknown or non-number fields', async () => {
    const p = project();
    editYaml(p, FILE, (d) => {
      d.fields.find((f: any) => f.name === 'tempoAntifurto').min = 0;
      d.fields.find((f: any) => f.name === 'descricao').rangeMessage = 'Texto';
      d.rules = [{ when: { naoExiste: true }, then: { descricao: { min: 1 } }, message: 'Regra' }];
    });
    const out = await problems(p);
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /fields/5/zeroDisables: zeroDisables exige min maior que 0');
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /fields/0: rangeMessage/zeroDisables valem só para campos integer ou number');
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /rules/0/when/naoExiste: campo desconhecido: naoExiste');
    expect(out).toContain('metadata/adm/modelo_de_configuracao.yaml: /rules/0/then/descricao: deve ser um campo integer ou number: descricao');
    expect(out.length).toBe(4);
  });
});
