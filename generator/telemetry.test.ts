// The telemetria kind (generator/telemetry.ts): schema + normalisation problems, the emitted column lists, and the
// providers' SQL over telemetry tables checked against the described columns.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel, render } from './generate.ts';
import { loadMetadata, type SourceFile } from './load.ts';
import { editYaml, metadataProblems, tempProjects } from './test-helpers.ts';
import { buildTelemetry, checkTelemetryRefs, emitTelemetry } from './telemetry.ts';

const file = (data: unknown, name = 'x'): SourceFile => ({ file: `metadata/telemetria/${name}.yaml`, area: 'telemetria', data });
const table = (over: Record<string, unknown> = {}) => ({
  kind: 'telemetria', key: 'x', label: 'X', app: 'select', scope: 'empresa',
  columns: [{ name: 'serial', type: 'text', notNull: true }, { name: 't', type: 'timestamptz', notNull: true }, { name: 'empresa_id', type: 'integer' }],
  primaryKey: ['serial', 't'], partition: { column: 't', interval: 'month' }, indexes: [{ name: 'x_empresa', columns: ['empresa_id', 't'] }],
  ...over,
});

describe('kind telemetria', () => {
  it('normalises a table: defaults of the partition, sorted output, emitted lists and types', () => {
    const { tables, problems } = buildTelemetry([file(table())]);
    expect(problems).toEqual([]);
    expect(tables[0]).toMatchObject({ table: 'telemetria.x', partition: { column: 't', interval: 'month', monthsBehind: 1, monthsAhead: 2 }, scope: 'empresa', app: 'select' });
    const out = emitTelemetry(tables);
    expect(out).toContain('export const X_COLUMNS = ["serial", "t", "empresa_id"] as const;');
    expect(out).toContain('export const X_TYPES = { serial: "text", t: "timestamptz", empresa_id: "integer" } as const;');
    expect(out).toContain('export type XColumn = (typeof X_COLUMNS)[number];');
  });

  it('a covering index keeps its INCLUDE columns apart from its key; they must be columns outside the key', () => {
    const ok = buildTelemetry([file(table({ indexes: [{ name: 'x_t', columns: ['t'], include: ['empresa_id', 'serial'] }] }))]);
    expect(ok.problems).toEqual([]);
    expect(ok.tables[0]!.indexes).toEqual([{ name: 'x_t', columns: ['t'], include: ['empresa_id', 'serial'] }]);
    const bad = buildTelemetry([file(table({ indexes: [{ name: 'x_t', columns: ['t'], include: ['t', 'nada'] }] }))]);
    expect(bad.problems).toEqual([
      'metadata/telemetria/x.yaml: /indexes/0/include/0: coluna já na chave do índice: t',
      'metadata/telemetria/x.yaml: /indexes/0/include/1: coluna desconhecida: nada',
    ]);
  });

  it('refuses what PostgreSQL or the scope could not have, in pt-BR with the path', () => {
    const { problems } = buildTelemetry([
      file(table({ key: 'y' })),
      file(table({ primaryKey: ['serial', 'nada'], columns: [{ name: 'serial', type: 'text', notNull: true }, { name: 't', type: 'timestamptz', notNull: true }, { name: 't', type: 'text' }], fillfactor: 70 })),
      file({ ...table(), columns: [{ name: 'serial', type: 'varchar' }] }, 'z'),
    ]);
    expect(problems).toEqual([
      'metadata/telemetria/x.yaml: /key: deve ser igual ao nome do arquivo (x)',
      'metadata/telemetria/x.yaml: /columns/2/name: coluna repetida: t',
      'metadata/telemetria/x.yaml: /primaryKey/1: coluna desconhecida: nada',
      'metadata/telemetria/x.yaml: /indexes/0/columns/0: coluna desconhecida: empresa_id',
      // the last column of a repeated name counts
      'metadata/telemetria/x.yaml: /partition/column: a partição mensal exige uma coluna timestamptz',
      'metadata/telemetria/x.yaml: /primaryKey: a chave primária de uma tabela particionada deve incluir t',
      'metadata/telemetria/x.yaml: /fillfactor: fillfactor não se aplica a uma tabela particionada',
      'metadata/telemetria/x.yaml: /scope: o escopo empresa exige a coluna empresa_id (integer)',
      'metadata/telemetria/z.yaml: /columns/0/type: deve ser um de: text, integer, bigint, smallint, real, double precision, boolean, timestamptz, jsonb',
      // names are unique in the schema (tables and indexes)
      'metadata/telemetria/x.yaml: /: nome repetido no schema telemetria: x_empresa (também em metadata/telemetria/x.yaml)',
    ]);
  });
});

describe('kind telemetria in the generator (registered kind)', () => {
  const project = tempProjects();

  it('emits server/generated/telemetry.ts and keeps the tables out of model.json', async () => {
    const out = await render(project().metadata);
    expect(out.server.get('telemetry.ts')).toContain('export const POSICAO_COLUMNS = ["serial", "fix_time", "tipo", "received_at", "empresa_id"');
    // the tables' description (columns, partitions, policies) is the server's: no kind of its own in the model, and
    // a column only the table description names (providers' SQL may name the tables) is nowhere in it
    const model = out.server.get('model.json')!;
    expect(Object.keys(JSON.parse(model))).not.toContain('telemetria');
    expect(model).not.toContain('received_at');
  });

  it('stops the generation with the problems of a telemetry file', async () => {
    const p = project();
    editYaml(p, 'telemetria/posicao.yaml', (d) => { d.primaryKey = ['serial', 'tipo']; });
    expect(await metadataProblems(() => buildModel(p.metadata))).toEqual([
      'metadata/telemetria/posicao.yaml: /primaryKey: a chave primária de uma tabela particionada deve incluir fix_time',
    ]);
  });

  it('stops the generation when SQL of the metadata names a column the telemetry tables lack', async () => {
    const p = project();
    editYaml(p, 'telemetria/ultimo_estado.yaml', (d) => { d.columns = d.columns.filter((c: { name: string }) => c.name !== 'motorista_id'); });
    expect(await metadataProblems(() => buildModel(p.metadata))).toEqual([
      expect.stringMatching(/^metadata\/tlm\/ativo\.yaml: \/list\/columns\/\d+\/sql: coluna desconhecida em telemetria\.ultimo_estado: motorista_id$/),
      // its from joins the driver (motoristaNome) on motorista_id too
      'modules/rastreamento/metadata/tlm/ultimo_estado.yaml: /sql/from: coluna desconhecida em telemetria.ultimo_estado: motorista_id',
      'modules/rastreamento/metadata/tlm/ultimo_estado.yaml: /sql/columns/motoristaId: coluna desconhecida em telemetria.ultimo_estado: motorista_id',
      // the last records report names the driver of the latest state
      'modules/relatorios/metadata/rel/ultimo_registro.yaml: /sql/from: coluna desconhecida em telemetria.ultimo_estado: motorista_id',
    ]);
  });
});

describe('providers over telemetry tables', () => {
  const { tables } = buildTelemetry(loadMetadata(resolve(import.meta.dirname, '../metadata')).kinds?.telemetria ?? []);
  const provider = (sql: unknown) => ({ file: 'modules/m/metadata/tlm/p.yaml', area: 'tlm', data: { kind: 'provider', key: 'p', sql } });

  it('name only described columns of described tables', () => {
    expect(checkTelemetryRefs([provider({
      from: 'telemetria.posicao p LEFT JOIN ativo a ON a.id = p.ativo_id', tiebreak: ['id'],
      columns: { fixTime: 'p.fix_time', velocidade: 'p.speed', odometro: 'p.odometro', placa: 'a.placa' },
      filters: { ignicao: 'p."ignicao" = {value}' },
    }), provider({ from: 'telemetria.nao_descrita v', tiebreak: ['id'] })], tables)).toEqual([
      'modules/m/metadata/tlm/p.yaml: /sql/columns/odometro: coluna desconhecida em telemetria.posicao: odometro',
      'modules/m/metadata/tlm/p.yaml: /sql/filters/ignicao: coluna desconhecida em telemetria.posicao: ignicao',
      'modules/m/metadata/tlm/p.yaml: /sql/from: tabela de telemetria desconhecida: telemetria.nao_descrita (metadata/telemetria)',
    ]);
  });

  it('and computed columns of entities too', () => {
    const entity = { file: 'metadata/tlm/e.yaml', area: 'tlm', data: { key: 'e', columns: [{ source: 'a' }, {
      source: 'm', virtual: true, sql: '(SELECT u.motorista FROM telemetria.ultimo_estado u WHERE u.ativo_id = {this}.id)' }] } };
    expect(checkTelemetryRefs([entity], tables)).toEqual(['metadata/tlm/e.yaml: /columns/1/sql: coluna desconhecida em telemetria.ultimo_estado: motorista']);
  });

  it('the committed metadata agrees with metadata/telemetria (providers, computed columns)', () => {
    const meta = loadMetadata(resolve(import.meta.dirname, '../metadata'));
    const files = [...meta.entities, ...(meta.providers ?? [])];
    expect(files.filter((f) => JSON.stringify(f.data).includes('telemetria.')).map((f) => f.file)).toContain('metadata/tlm/ativo.yaml');
    expect(checkTelemetryRefs(files, tables)).toEqual([]);
  });
});
