// Providers (kind: provider) and their named calls in the OpenAPI document, with their parameters.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Model, ProviderMeta } from '../shared/model.ts';
import { emitOpenApi } from './emit/openapi.ts';
import { buildModel } from './generate.ts';
import { REPO } from './test-helpers.ts';

const provider: ProviderMeta = {
  key: 'posicoes_teste', file: 'metadata/tlm/posicoes_teste.yaml', area: 'tlm', label: 'Posições de teste', one: true,
  permission: ['tlm.ras.registros', 'tlm.fro.ativo.lista'], scope: 'empresa',
  path: '/teste/{tecnologia}/{serial}',
  params: [
    { name: 'tecnologia', label: 'Tecnologia', type: 'string', values: 'tecnologias' },
    { name: 'serial', label: 'Serial', type: 'string' },
    { name: 'ativo', label: 'Ativo', type: 'integer' },
  ],
  columns: [
    { name: 'serial', label: 'Serial', type: 'string', sortable: true, default: true },
    { name: 'fixTime', label: 'Data', type: 'datetime', sortable: true, default: true, sortKey: 'data' },
    { name: 'velocidade', label: 'Velocidade', type: 'number', sortable: false, default: true },
    { name: 'atributos', label: 'Atributos', type: 'json', sortable: false, default: false },
  ],
  filters: [
    { name: 'q', label: 'Busca', type: 'search', multiple: false },
    { name: 'evento', label: 'Evento', type: 'integer', multiple: true },
  ],
  sort: { field: 'fixTime', order: 'DESC' },
  calls: [{ path: '/teste/ultima/{ativo}', op: 'one', query: ['evento'], notFound: 'Sem posição' }],
};
const model = { entities: [], screens: [], providers: [provider], permissions: [], menu: [], routes: [] } as Model;

describe('OpenAPI of providers', () => {
  const doc = emitOpenApi(model) as any;

  it('documents the list path: route params, filters, sorts, range and the row schema from the columns', () => {
    const item = doc.paths['/api/teste/{tecnologia}/{serial}'];
    expect(item.parameters).toEqual([
      { name: 'tecnologia', in: 'path', required: true, description: 'Tecnologia: uma tecnologia conhecida (metadata/_tecnologias.yaml); outro valor: 404', schema: { type: 'string' } },
      { name: 'serial', in: 'path', required: true, description: 'Serial', schema: { type: 'string' } },
    ]);
    const get = item.get;
    expect([get.operationId, get['x-permission'], get['x-permissions']]).toEqual(['list_posicoes_teste', 'tlm.ras.registros', ['tlm.ras.registros', 'tlm.fro.ativo.lista']]);
    const [filter, sort, range] = get.parameters;
    expect(filter.content['application/json'].schema).toEqual({
      type: 'object', additionalProperties: false,
      properties: {
        q: { title: 'Busca', type: 'string', description: 'busca rápida' },
        evento: { title: 'Evento', oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] },
      },
    });
    expect(sort.content['application/json'].schema.prefixItems).toEqual([{ enum: ['serial', 'fixTime', 'data'] }, { enum: ['ASC', 'DESC'] }]);
    expect(sort.description).toBe('JSON ["campo","ASC"|"DESC"]; padrão ["fixTime","DESC"]');
    expect(range.name).toBe('range');
    expect(get.responses[200].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/PosicoesTesteLinha' } });
    expect(doc.components.schemas.PosicoesTesteLinha).toEqual({
      type: 'object', title: 'Posições de teste',
      properties: {
        serial: { title: 'Serial', type: ['string', 'null'] },
        fixTime: { title: 'Data', type: ['string', 'null'], format: 'date-time' },
        velocidade: { title: 'Velocidade', type: ['number', 'null'] },
        atributos: { title: 'Atributos' },
      },
    });
    expect(Object.keys(doc.paths['/api/teste/{tecnologia}/{serial}/export'])).toEqual(['parameters', 'get']);
    expect(doc.paths['/api/teste/{tecnologia}/{serial}/{id}'].parameters.map((p: any) => p.name)).toEqual(['tecnologia', 'serial', 'id']);
    expect(doc.tags).toContainEqual({ name: 'Posições de teste' });
  });

  it('documents each named call: its path params, query params and the envelope', () => {
    const item = doc.paths['/api/teste/ultima/{ativo}'];
    expect(item.parameters).toEqual([{ name: 'ativo', in: 'path', required: true, description: 'Ativo', schema: { type: 'integer', minimum: 1 } }]);
    expect(item.get.parameters).toEqual([{ name: 'evento', in: 'query', description: 'Evento', schema: { type: 'integer' } }]);
    expect(item.get.operationId).toBe('one_posicoes_teste_chamada');
    expect(item.get.responses[200].content['application/json'].schema).toEqual({
      allOf: [{ $ref: '#/components/schemas/Envelope' }, { properties: { payload: { $ref: '#/components/schemas/PosicoesTesteLinha' } } }],
    });
    expect(item.get.responses[404].description).toBe('Sem posição');
  });

  it("documents a list call's columns and table format", () => {
    const m = buildModel(join(REPO, 'metadata'));
    const get = (emitOpenApi(m).paths as Record<string, any>)['/api/rastreamento/ultimo_estado'].get;
    expect(get.parameters.map((x: any) => x.name)).toEqual(['ativoId', 'columns', 'format']);
    expect(get.parameters[1].content['application/json'].schema.items.enum).toEqual(expect.arrayContaining(['id', 'serial', 'placa', 'ultimaComunicacao']));
    expect(get.parameters[2].schema).toEqual({ type: 'string', enum: ['table'] });
    const payload = get.responses[200].content['application/json'].schema.allOf[1].properties.payload;
    expect(payload.oneOf.map((x: any) => x.type)).toEqual(['array', 'object']);
  });

  it('covers every provider of the metadata: its list path (when declared) and every call', () => {
    const m = buildModel(join(REPO, 'metadata'));
    const paths = emitOpenApi(m).paths as Record<string, any>;
    expect(m.providers.length).toBeGreaterThan(5);
    for (const p of m.providers) {
      for (const path of [...(p.path ? [p.path] : []), ...p.calls.map((c) => c.path)]) {
        expect(paths[`/api${path}`]?.get?.['x-permission'], `${p.key} ${path}`).toBe(p.permission[0]);
      }
    }
  });

  it('gives lookup options their any-of keys (x-permissions), not one joined string', () => {
    const m = buildModel(join(REPO, 'metadata'));
    const e = m.entities.find((x) => x.fields.some((f) => f.lookup))!;
    const f = e.fields.find((x) => x.lookup)!;
    const paths = emitOpenApi(m).paths as Record<string, any>;
    const get = paths[Object.keys(paths).find((k) => k.startsWith(`/api/${e.key}`) && k.endsWith(`/opcoes/${f.name}`))!].get;
    expect([get['x-permission'], get['x-permissions']]).toEqual([`${e.permission}.lista`, ['lista', 'visualizar', 'adicionar', 'editar'].map((k) => `${e.permission}.${k}`)]);
  });
});
