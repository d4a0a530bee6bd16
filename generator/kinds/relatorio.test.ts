// The report-family kind (kind: relatorio): the viagem family is normalised into model.relatorios (parameters with the
// date picker's shortcuts, the params JSON Schema, columns, the family's key and route); a bad family is refused with
// pt-BR messages naming file and path (catalogue keys, the /rel key, parameters bound in SQL, company conditions,
// telemetry columns).
import { describe, expect, it } from 'vitest';
import { generate } from '../generate.ts';
import { editYaml, metadataProblems, tempProjects, type TempProject } from '../test-helpers.ts';
import { expandIn, paramsSchema } from './relatorio.ts';

const project = tempProjects();
const gen = (p: TempProject) => generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime });
const FILE = 'modules/relatorios/metadata/rel/viagem.yaml';
const edit = (p: TempProject, fn: (doc: any) => void) => editYaml(p, `../${FILE}`, fn);
const problems = async (fn: (doc: any) => void) => {
  const p = project();
  edit(p, fn);
  return metadataProblems(() => gen(p));
};

describe('kind relatorio', () => {
  it('normalises the viagem family: key and route of the /rel tree, parameters, schema, columns, SQL', async () => {
    const { model } = await gen(project());
    const viagem = model.relatorios!.find((f) => f.key === 'viagem')!;
    expect(viagem).toMatchObject({ label: 'Viagem', permission: 'rel.rel.relatorios.viagem', route: '/rel/rel/relatorios/viagem', file: FILE });
    expect(model.permissions).toContainEqual({ key: 'rel.rel.relatorios.viagem', label: 'Relatórios: Viagem' });
    expect(model.routes).toContainEqual({ path: '/rel/rel/relatorios/viagem', name: 'rel.rel.relatorios.viagem', screen: 'relatorios', view: 'screen' });
    const det = viagem.tipos.find((t) => t.key === 'detalhado')!;
    expect(det.params[0]).toEqual({ name: 'periodo', label: 'Período', type: 'periodo', required: true, maxDias: 186,
      shortcuts: ['Hoje', 'Ontem', 'Ontem e hoje', 'Últimos 7 dias', 'Últimos 30 dias', 'Último trimestre', 'Último semestre'] });
    expect(det.params[1]).toEqual({ name: 'ativos', label: 'Ativos', type: 'registros', reference: 'ativo', required: false });
    expect(det.columns.find((c) => c.name === 'velocidadeMaxima')).toEqual({ name: 'velocidadeMaxima', label: 'Velocidade máxima', type: 'number', unit: 'km/h', decimals: 1, sortable: true, default: true });
    expect(det.sort).toEqual({ field: 'dataInicial', order: 'ASC' });
    // {in:…} is expanded; the company conditions stay {scope:x} for the read engine
    expect(det.sql.from).toContain('({param:ativos}::int[] IS NULL OR v.ativo_id = ANY({param:ativos}::int[]))');
    expect(det.sql.from).not.toContain('{in:');
    expect(det.schema).toEqual(paramsSchema(det.params));
    expect(viagem.tipos.find((t) => t.key === 'resumido_motorista')!.params[3]).toMatchObject({ name: 'garagens', label: 'Garagens do motorista' });
  });

  it('the parameters’ JSON Schema: the period required, register lists of ids, the grouping’s values', () => {
    expect(paramsSchema([
      { name: 'periodo', label: 'Período', type: 'periodo', required: true },
      { name: 'motoristas', label: 'Motoristas', type: 'registros', reference: 'motorista', required: true },
      { name: 'agrupamento', label: 'Agrupamento', type: 'agrupamento', required: false, options: [{ value: 'mes', label: 'Mês' }, { value: 'dia', label: 'Dia' }], default: 'dia' },
    ])).toEqual({
      type: 'object', additionalProperties: false, required: ['periodo', 'motoristas'],
      properties: {
        periodo: { type: 'object', title: 'Período', additionalProperties: false, required: ['inicio', 'fim'], properties: { inicio: { type: 'string', format: 'date-time', title: 'Início' }, fim: { type: 'string', format: 'date-time', title: 'Fim' } } },
        motoristas: { type: 'array', title: 'Motoristas', uniqueItems: true, maxItems: 5000, items: { type: 'integer', minimum: 1 }, minItems: 1 },
        agrupamento: { type: 'string', title: 'Agrupamento', enum: ['mes', 'dia'], default: 'dia' },
      },
    });
    expect(expandIn('x AND {in:garagens:a.id_garagem}')).toBe('x AND ({param:garagens}::int[] IS NULL OR a.id_garagem = ANY({param:garagens}::int[]))');
  });

  it('refuses a family outside the /rel key, a column outside the catalogue, a kind without period', async () => {
    expect(await problems((d) => {
      d.permission = 'rel.rel.viagem';
      d.tipos[0].columns[0].name = 'dataBonita';
      d.tipos[0].sql.columns.dataBonita = d.tipos[0].sql.columns.dataInicial;
      delete d.tipos[0].sql.columns.dataInicial;
      d.tipos[0].sort.field = 'ativo';
      d.tipos[1].params = ['ativos', 'motoristas', 'garagens', 'grupos'];
    })).toEqual([
      `${FILE}: /permission: deve ser rel.rel.relatorios.viagem (árvore /rel de core.md)`,
      `${FILE}: /tipos/0/columns/0/name: coluna fora do catálogo de relatórios (catalogues.md 3.9): dataBonita`,
      `${FILE}: /tipos/1/params: todo relatório declara o parâmetro periodo`,
      `${FILE}: /tipos/1/sql: {param:inicio} não é um parâmetro do tipo (declare em params; periodo dá inicio e fim)`,
      `${FILE}: /tipos/1/sql: {param:fim} não é um parâmetro do tipo (declare em params; periodo dá inicio e fim)`,
    ]);
  });

  it('refuses parameters not bound in SQL, SQL naming undeclared ones, columns without SQL, bad shortcuts', async () => {
    expect(await problems((d) => {
      d.tipos[0].params.push('agrupamento');
      d.tipos[0].params[0] = { name: 'periodo', shortcuts: ['Hoje', 'Amanhã'] };
      d.tipos[2].params = d.tipos[2].params.filter((p: unknown) => p !== 'ativos');
      delete d.tipos[3].sql.columns.qtdViagens;
      d.tipos[3].columns.push({ name: 'placa', label: 'Placa', type: 'string', decimals: 2 });
    })).toEqual([
      `${FILE}: /tipos/0/params/0/shortcuts/1: atalho desconhecido do seletor de datas: Amanhã (use Hoje, Ontem, Ontem e hoje, Últimos 7 dias, Últimos 30 dias, Último trimestre, Último semestre)`,
      `${FILE}: /tipos/0/sql/from: parâmetro declarado e não usado na SQL: agrupamento`,
      `${FILE}: /tipos/2/sql: {param:ativos} não é um parâmetro do tipo (declare em params; periodo dá inicio e fim)`,
      `${FILE}: /tipos/3/columns/11/decimals: decimals vale só para colunas number`,
      `${FILE}: /tipos/3/columns/4/name: coluna sem expressão em sql.columns: qtdViagens`,
      `${FILE}: /tipos/3/columns/11/name: coluna sem expressão em sql.columns: placa`,
    ]);
  });

  it('refuses a company condition written by hand or a table read without {scope:x}', async () => {
    expect(await problems((d) => {
      d.tipos[0].sql.from = d.tipos[0].sql.from.replace('LEFT JOIN motorista m ON m.id = v.motorista_id AND {scope:m}', 'LEFT JOIN motorista m ON m.id = v.motorista_id AND m.empresa_id = v.empresa_id');
      d.tipos[3].sql.from = d.tipos[3].sql.from.replace('AND {scope:af}', '');
    })).toEqual([
      `${FILE}: /tipos/0/sql/from: a condição de empresa se escreve {scope:alias}, não empresa_id/ambiente_id`,
      `${FILE}: /tipos/0/sql/from: a tabela motorista (m) sem {scope:m}`,
      `${FILE}: /tipos/3/sql/from: a tabela ativo (af) sem {scope:af}`,
    ]);
  });

  it('refuses what the metadata schema does not know, and telemetry columns metadata/telemetria does not describe', async () => {
    expect(await problems((d) => { d.tipos[0].cor = 'azul'; d.tipos[1].columns[0].unit = 'milhas'; })).toEqual([
      `${FILE}: /tipos/0: propriedade não permitida: cor`,
      `${FILE}: /tipos/1/columns/0/unit: deve ser um de: km, km/h, h, %, L, km/L, L/h, kg`,
    ]);
    expect(await problems((d) => { d.tipos[0].sql.columns.serial = 'v.numero_serie'; })).toEqual([
      `${FILE}: /tipos/0/sql/columns/serial: coluna desconhecida em telemetria.viagem: numero_serie`,
    ]);
  });

  it('sql.plataforma: a register without company is read without {scope:x}; a company register or an unread table is refused', async () => {
    const lib = 'LEFT JOIN LATERAL (SELECT b.description FROM biblioteca_evento b WHERE b.event = v.serial LIMIT 1) bib ON TRUE';
    const { model } = await gen((() => { const p = project(); edit(p, (d) => { d.tipos[0].sql.from += ` ${lib}`; d.tipos[0].sql.plataforma = ['biblioteca_evento']; }); return p; })());
    expect(model.relatorios!.find((f) => f.key === 'viagem')!.tipos[0].sql.plataforma).toEqual(['biblioteca_evento']);
    expect(await problems((d) => { d.tipos[0].sql.from += ` ${lib}`; })).toEqual([
      `${FILE}: /tipos/0/sql/from: a tabela biblioteca_evento (b) sem {scope:b}`,
    ]);
    expect(await problems((d) => {
      d.tipos[0].sql.from = d.tipos[0].sql.from.replace('LEFT JOIN motorista m ON m.id = v.motorista_id AND {scope:m}', 'LEFT JOIN motorista m ON m.id = v.motorista_id');
      d.tipos[0].sql.plataforma = ['motorista', 'cerca'];
    })).toEqual([
      `${FILE}: /tipos/0/sql/plataforma/1: tabela não lida na SQL: cerca`,
      `${FILE}: /tipos/0/sql/plataforma/0: motorista não é um cadastro da plataforma (sem empresa): leia-o com {scope:apelido}`,
      `${FILE}: /tipos/0/sql/plataforma/1: cerca não é um cadastro da plataforma (sem empresa): leia-o com {scope:apelido}`,
    ]);
  });
});
