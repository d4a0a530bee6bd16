// Providers declared in metadata (kind: provider): validated against metadata/_schema/provider.schema.json,
// normalized into model.providers; errors name the file, the path and say what is wrong in pt-BR.
// Also the generated permission union (server/generated/permissions.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from './generate.ts';
import type { Model } from '../shared/model.ts';
import { metadataProblems, tempProjects, writeFile, type TempProject } from './test-helpers.ts';

const project = tempProjects();
const gen = (p: TempProject) => generate({ metadata: p.metadata, outServer: p.outServer, outRuntime: p.outRuntime });

const problems = (p: TempProject) => metadataProblems(() => gen(p));

const PROVIDER = `
kind: provider
key: posicoes_teste
label: Posições de teste
path: /teste/{serial}/posicoes
permission: [tlm.fro.ativo.lista]
scope: empresa
params:
  - { name: serial, label: Serial }
columns:
  - { name: id, label: Identificador, type: integer, sortable: true }
  - { name: fixTime, label: Data, type: datetime, sortable: true, sortKey: data }
  - { name: velocidade, label: Velocidade, type: number, default: false }
filters:
  - { name: q, type: search }
  - { name: evento, type: string, multiple: true, label: Evento }
sort: { field: fixTime, order: DESC }
calls:
  - { path: '/teste/{serial}/ultima', op: one, query: [evento], notFound: Sem posição }
`;

describe('providers (kind: provider)', () => {
  it('are normalized into model.providers with their defaults', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/posicoes_teste.yaml'), PROVIDER);
    await gen(p);
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    expect(model.providers.find((x) => x.key === 'posicoes_teste')).toEqual({
      key: 'posicoes_teste', file: 'metadata/tlm/posicoes_teste.yaml', area: 'tlm', label: 'Posições de teste',
      path: '/teste/{serial}/posicoes', one: false, permission: ['tlm.fro.ativo.lista'], scope: 'empresa',
      params: [{ name: 'serial', label: 'Serial', type: 'string' }],
      columns: [
        { name: 'id', label: 'Identificador', type: 'integer', sortable: true, default: true },
        { name: 'fixTime', label: 'Data', type: 'datetime', sortable: true, default: true, sortKey: 'data' },
        { name: 'velocidade', label: 'Velocidade', type: 'number', sortable: false, default: false },
      ],
      filters: [
        { name: 'q', label: 'q', type: 'search', multiple: false },
        { name: 'evento', label: 'Evento', type: 'string', multiple: true },
      ],
      sort: { field: 'fixTime', order: 'DESC' },
      calls: [{ path: '/teste/{serial}/ultima', op: 'one', query: ['evento'], notFound: 'Sem posição' }],
    });
    // The libraries and the gateway calls are providers of the real metadata.
    expect(model.providers.map((x) => x.key)).toEqual(expect.arrayContaining(['biblioteca_lista', 'biblioteca_familia', 'vinculo_equipamento', 'ultimo_estado']));
  });

  it('rejects keys outside the catalogue, undeclared parameters and filters, bad sorts and taken paths', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/posicoes_teste.yaml'), PROVIDER
      .replace('[tlm.fro.ativo.lista]', '[tlm.ras.rastreamento_ao_vivo.lista]')
      .replace("'/teste/{serial}/ultima'", "'/teste/{placa}/ultima'")
      .replace('query: [evento]', 'query: [motorista]')
      .replace('sort: { field: fixTime', 'sort: { field: velocidade'));
    writeFile(join(p.metadata, 'tlm/outro_teste.yaml'), PROVIDER.replace('key: posicoes_teste', 'key: outro_teste').replace('/teste/{serial}/posicoes', '/ativo'));
    const f = 'metadata/tlm/posicoes_teste.yaml';
    expect(await problems(p)).toEqual(expect.arrayContaining([
      `${f}: /permission/0: permissão fora do catálogo: tlm.ras.rastreamento_ao_vivo.lista`,
      `${f}: /calls/0/path: parâmetro {placa} não declarado em params`,
      `${f}: /calls/0/query/0: filtro não declarado em filters: motorista`,
      `${f}: /sort/field: deve ser uma coluna com sortable: true: velocidade`,
      'metadata/tlm/outro_teste.yaml: /path: caminho "/ativo" já usado em metadata/tlm/ativo.yaml',
    ]));
  });

  it('declared SQL (`sql:`) reaches the model, and names only declared columns and filters', async () => {
    const ok = project();
    const sql = "sql:\n  from: telemetria.posicao p\n  scope: p\n  columns: { fixTime: p.fix_time, velocidade: p.speed }\n  filters: { evento: 'p.tipo = {value}' }\n  search: [id]\n  tiebreak: [id]\n";
    writeFile(join(ok.metadata, 'tlm/posicoes_teste.yaml'), PROVIDER + sql);
    await gen(ok);
    const model = JSON.parse(readFileSync(join(ok.outServer, 'model.json'), 'utf8'));
    expect(model.providers.find((x: { key: string }) => x.key === 'posicoes_teste').sql).toEqual({
      from: 'telemetria.posicao p', scope: 'p', columns: { fixTime: 'p.fix_time', velocidade: 'p.speed' },
      filters: { evento: 'p.tipo = {value}' }, search: ['id'], tiebreak: ['id'],
    });
    const bad = project();
    writeFile(join(bad.metadata, 'tlm/posicoes_teste.yaml'), PROVIDER + sql
      .replace('velocidade: p.speed', 'altitude: p.altitude').replace('evento:', 'placa:').replace('search: [id]', 'search: [serial]').replace('  scope: p\n', ''));
    const f = 'metadata/tlm/posicoes_teste.yaml';
    expect(await problems(bad)).toEqual(expect.arrayContaining([
      `${f}: /sql/columns: coluna não declarada em columns: altitude`,
      `${f}: /sql/filters: filtro não declarado em filters: placa`,
      `${f}: /sql: coluna não declarada em columns: serial`,
      `${f}: /sql/scope: um provider de escopo empresa declara em sql.scope o alias das linhas da empresa`,
    ]));
  });

  it('versions (the kept whole list) name every table of from, the first one first, and columns that read only them', async () => {
    const f = 'metadata/tlm/posicoes_teste.yaml';
    const list = PROVIDER.replace("op: one, query: [evento], notFound: Sem posição", 'op: list');
    const from = 'telemetria.posicao p LEFT JOIN ativo a ON a.id = p.ativo_id AND {scope:a} LEFT JOIN garagem g ON g.id = a.id_garagem';
    const sql = (o: { from?: string; versions: string; columns?: string; calls?: boolean }) => (o.calls === false ? PROVIDER : list)
      + `sql:\n  from: ${o.from ?? from}\n  scope: p\n  columns: ${o.columns ?? '{ id: p.serial, fixTime: p.fix_time, velocidade: a.velocidade_maxima }'}\n  tiebreak: [id]\n  versions: ${o.versions}\n`;
    const ok = project();
    writeFile(join(ok.metadata, 'tlm/posicoes_teste.yaml'), sql({ versions: '[p, a, g]' }));
    await gen(ok);
    const model = JSON.parse(readFileSync(join(ok.outServer, 'model.json'), 'utf8')) as Model;
    expect(model.providers.find((x) => x.key === 'posicoes_teste')!.sql!.versions).toEqual(['p', 'a', 'g']);
    const cases: [Parameters<typeof sql>[0], string][] = [
      [{ versions: '[p, a]' }, `${f}: /sql/versions: alias de from sem versão: g`],
      [{ versions: '[p, a, g, m]' }, `${f}: /sql/versions: alias que não está em from: m`],
      [{ versions: '[a, p, g]' }, `${f}: /sql/versions: a primeira versão é a da primeira tabela de from, o alias de sql.scope: p`],
      [{ versions: '[p, a, g]', columns: '{ id: a.id, fixTime: p.fix_time }' }, `${f}: /sql/columns/id: com versions, o id é uma coluna de p`],
      [{ versions: '[p, a, g]', columns: '{ id: p.serial, fixTime: now() }' }, `${f}: /sql/columns/fixTime: com versions, uma coluna só lê as tabelas de from (sem subconsulta, relógio nem parâmetro)`],
      [{ versions: '[p, a, g]', columns: "{ id: p.serial, velocidade: '(SELECT max(speed) FROM telemetria.posicao)' }" }, `${f}: /sql/columns/velocidade: com versions, uma coluna só lê as tabelas de from (sem subconsulta, relógio nem parâmetro)`],
      [{ versions: '[x]', from: '(SELECT * FROM telemetria.posicao) x' }, `${f}: /sql/versions: versions exige um from de tabelas (sem subconsulta)`],
      [{ versions: '[p, a, g]', calls: false }, `${f}: /sql/versions: versions serve a chamada nomeada de op list: declare uma em calls`],
    ];
    for (const [o, problem] of cases) {
      const bad = project();
      writeFile(join(bad.metadata, 'tlm/posicoes_teste.yaml'), sql(o));
      expect(await problems(bad)).toEqual(expect.arrayContaining([problem]));
    }
  });

  it('schema errors name the file and the path in pt-BR', async () => {
    const p = project();
    writeFile(join(p.metadata, 'tlm/posicoes_teste.yaml'), PROVIDER.replace('scope: empresa', 'scope: ambiente').replace('op: one', 'op: todos'));
    const got = await problems(p);
    expect(got).toEqual(expect.arrayContaining([
      'metadata/tlm/posicoes_teste.yaml: /scope: deve ser um de: empresa, global',
      'metadata/tlm/posicoes_teste.yaml: /calls/0/op: deve ser um de: one, list',
    ]));
  });

  it('emits the catalogue as a TypeScript union of permission keys', async () => {
    const p = project();
    await gen(p);
    const ts = readFileSync(join(p.outServer, 'permissions.ts'), 'utf8');
    const model = JSON.parse(readFileSync(join(p.outServer, 'model.json'), 'utf8')) as Model;
    expect(ts).toContain('export type PermissionKey = (typeof PERMISSION_KEYS)[number];');
    const keys = [...ts.matchAll(/^ {2}"([^"]+)",$/gm)].map((m) => m[1]);
    expect(keys).toEqual(model.permissions.map((x) => x.key));
    expect(keys).toContain('tlm.ras.rastreamento_ao_vivo');
    expect(keys).not.toContain('tlm.ras.rastreamento_ao_vivo.lista');
  });
});
