// OpenAPI 3.1 document of the generated CRUD API (ra-data-simple-rest conventions) and of the providers
// (openapi-providers.ts).
import type { EntityMeta, Model } from '../../shared/model.ts';
import { pascal } from './names.ts';
import { providerPaths, providerRowName, providerRowSchema } from './openapi-providers.ts';
import { entitySchema, recordSchema, type Schema } from './schemas.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));
const ERROR_TEXT: Record<number, string> = {
  400: 'Requisição inválida (validação, filtro ou ordenação)', 401: 'Sessão ausente ou expirada',
  403: 'Sem permissão', 404: 'Registro não encontrado', 409: 'Conflito (valor único já existe)',
};

function componentSchema(s: Schema): Schema {
  const { $schema: _drop, ...rest } = s;
  return rest;
}

function paths(e: EntityMeta): Record<string, unknown> {
  const name = pascal(e.key);
  const tag = [e.label.plural];
  const perm = (p: string) => ({ 'x-permission': `${e.permission}.${p}` });
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
  // Route parameters (metadata params): the API lives below them; an unknown value is 404.
  const root = `/api/${(e.api ?? e.key).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
  const routeParams = (e.params ?? []).map((p) => ({ name: p.name, in: 'path', required: true, description: `${p.field} (${p.label})`, schema: { type: 'string' } }));
  const body = { required: true, content: { 'application/json': { schema: ref(name) } } };
  const one = { description: 'Registro', content: { 'application/json': { schema: ref(`${name}Record`) } } };
  const collection: Record<string, unknown> = {
    ...(routeParams.length ? { parameters: routeParams } : {}),
    get: {
      tags: tag, operationId: `list_${e.key}`, summary: `Lista ${e.label.plural}`, ...perm('lista'),
      parameters: [
        { name: 'sort', in: 'query', description: 'JSON ["campo","ASC"|"DESC"]', schema: { type: 'string' }, example: JSON.stringify([e.sort.field, e.sort.order]) },
        { name: 'range', in: 'query', description: 'JSON [início, fim] (inclusivo)', schema: { type: 'string' }, example: '[0,24]' },
        {
          name: 'filter', in: 'query', schema: { type: 'string' }, example: '{"q":"texto"}',
          description: `JSON: "q" busca em ${e.search.join(', ') || '(nenhum campo)'}; "id": [..] busca vários; demais chaves = campo: valor${e.dateRange ? `; ${e.dateRange}_gte / ${e.dateRange}_lte intervalo de datas` : ''}`,
        },
      ],
      responses: {
        200: {
          description: 'Página de registros',
          headers: { 'Content-Range': { description: `${e.key} início-fim/total`, schema: { type: 'string' } } },
          content: { 'application/json': { schema: { type: 'array', items: ref(`${name}Record`) } } },
        },
        ...errors(400, 401, 403),
      },
    },
  };
  const item: Record<string, unknown> = {
    parameters: [...routeParams, idParam],
    get: { tags: tag, operationId: `get_${e.key}`, summary: `Lê ${e.label.singular}`, ...perm('visualizar'), responses: { 200: one, ...errors(401, 403, 404) } },
  };
  if (!e.readOnlyResource) {
    collection.post = {
      tags: tag, operationId: `create_${e.key}`, summary: `Adiciona ${e.label.singular}`, ...perm('adicionar'),
      requestBody: body, responses: { 201: one, ...errors(400, 401, 403, 409) },
    };
    item.put = {
      tags: tag, operationId: `update_${e.key}`, summary: `Edita ${e.label.singular}`, ...perm('editar'),
      requestBody: body, responses: { 200: one, ...errors(400, 401, 403, 404, 409) },
    };
    item.delete = {
      tags: tag, operationId: `delete_${e.key}`, summary: `Exclui ${e.label.singular}`, ...perm('excluir'),
      responses: { 200: one, ...errors(401, 403, 404, 409) },
    };
  }
  const out: Record<string, unknown> = { [root]: collection, [`${root}/{id}`]: item };
  if (e.calls) {
    // Named calls (metadata calls): the same operations below /api{calls}, answering the envelope.
    const named = (ops: Record<string, any>) => Object.fromEntries(Object.entries(ops).map(([m, v]) => [m, m === 'parameters' ? v : {
      ...v, operationId: `${v.operationId}_chamada`, description: 'Chamada nomeada: a resposta vem no envelope {status, msg, payload, errorMsg} (payload = o corpo da rota CRUD).',
    }]));
    out[`/api${e.calls}`] = named(collection);
    out[`/api${e.calls}/{id}`] = named(item);
  }
  if (e.parent) {
    // Nested list (metadata parent): the same list/one/create under one record of the parent.
    const p = e.parent;
    const parentParam = { name: 'parent', in: 'path', required: true, description: `${p.entity}.${p.by}`, schema: p.by === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' } };
    const base = `/api/${p.api.replace(':parent', '{parent}')}`;
    const nestedNote = `Somente os registros de ${p.entity} {parent} (${p.field}); exige também ${p.permission}.visualizar; 404 se o pai não é visível.`;
    const get = collection.get as Record<string, unknown>;
    out[base] = {
      parameters: [parentParam],
      get: { ...get, operationId: `list_${e.key}_by_${p.entity}`, description: nestedNote },
      ...(e.readOnlyResource ? {} : { post: { tags: tag, operationId: `create_${e.key}_in_${p.entity}`, summary: `Adiciona ${e.label.singular} em ${p.entity}`, description: `${p.field} = {parent}. ${nestedNote}`, ...perm('adicionar'), requestBody: body, responses: { 201: one, ...errors(400, 401, 403, 404, 409) } } }),
    };
    out[`${base}/{id}`] = {
      parameters: [parentParam, idParam],
      get: { tags: tag, operationId: `get_${e.key}_in_${p.entity}`, summary: `Lê ${e.label.singular}`, description: nestedNote, ...perm('visualizar'), responses: { 200: one, ...errors(401, 403, 404) } },
    };
  }
  for (const f of e.fields.filter((x) => x.lookup)) {
    // Choices of a lookup field (server/crud/lookup.ts): codes of a register, under the entity's own keys.
    const parent = f.lookup!.parent?.field;
    out[`${root}/opcoes/${f.name}`] = {
      ...(routeParams.length ? { parameters: routeParams } : {}),
      get: {
        tags: tag, operationId: `opcoes_${e.key}_${f.name}`, summary: `Opções de ${f.label}`,
        // Any of these keys opens it (server/app/docs.ts keeps it for a caller holding one).
        'x-permission': `${e.permission}.lista`, 'x-permissions': ['lista', 'visualizar', 'adicionar', 'editar'].map((k) => `${e.permission}.${k}`),
        description: `Códigos de ${f.lookup!.entity}.${f.lookup!.value}${parent ? ` do ${parent} informado` : ''}, por rótulo.`,
        ...(parent ? { parameters: [{ name: parent, in: 'query', required: true, schema: { type: 'string' } }] } : {}),
        responses: {
          200: { description: 'Opções', content: { 'application/json': { schema: { type: 'array', items: { type: 'object', required: ['value', 'label'], properties: { value: { type: 'string' }, label: { type: 'string' } } } } } } },
          ...errors(400, 401, 403),
        },
      },
    };
  }
  for (const a of e.actions) {
    out[`${root}/{id}/${a.name}`] = {
      parameters: [...routeParams, idParam],
      post: {
        tags: tag, operationId: `${a.name}_${e.key}`, summary: a.label, 'x-permission': a.permission,
        description: `${a.set ? `Grava ${JSON.stringify(a.set)}` : `Executa ${a.handler}`}${a.visibleWhen ? `; permitido quando ${JSON.stringify(a.visibleWhen)}` : ''}`,
        ...(a.payload ? { requestBody: { content: { 'application/json': { schema: a.payload } } } } : {}),
        responses: a.handler ? { 201: { description: 'Resultado da ação' }, ...errors(400, 401, 403, 404, 409, 422) } : { 200: one, ...errors(400, 401, 403, 404) },
      },
    };
    if (a.bulk) {
      out[`${root}/${a.name}`] = {
        ...(routeParams.length ? { parameters: routeParams } : {}),
        post: {
          tags: tag, operationId: `${a.name}_${e.key}_bulk`, summary: `${a.label} (selecionados)`, 'x-permission': a.permission,
          requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', items: { type: 'integer' } }, ...(a.payload ? { payload: a.payload } : {}) } } } } },
          responses: { 200: { description: 'Resultado por registro' }, ...errors(400, 401, 403) },
        },
      };
    }
  }
  return out;
}

export function emitOpenApi(model: Model): Record<string, unknown> {
  const schemas: Record<string, unknown> = {
    Envelope: {
      type: 'object', required: ['status', 'msg'],
      properties: {
        status: { type: 'integer' }, msg: { type: 'string' }, errorMsg: { type: ['string', 'null'] },
        payload: { description: 'Dados; em erros de validação, a lista de campos e mensagens' },
      },
    },
  };
  const allPaths: Record<string, unknown> = {};
  for (const e of model.entities) {
    schemas[pascal(e.key)] = componentSchema(entitySchema(e, model));
    schemas[`${pascal(e.key)}Record`] = componentSchema(recordSchema(e, model));
    Object.assign(allPaths, paths(e));
  }
  for (const p of model.providers ?? []) {
    schemas[providerRowName(p)] = providerRowSchema(p);
    Object.assign(allPaths, providerPaths(p));
  }
  const responses = Object.fromEntries(Object.entries(ERROR_TEXT).map(([c, d]) => [
    `E${c}`, { description: d, content: { 'application/json': { schema: ref('Envelope') } } },
  ]));
  return {
    openapi: '3.1.0',
    info: { title: 'Rastro API', version: '1.0.0', description: 'API CRUD gerada a partir de metadata/ (convenções ra-data-simple-rest).' },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [...model.entities.map((e) => ({ name: e.label.plural })), ...(model.providers ?? []).map((p) => ({ name: p.label }))],
    paths: allPaths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      parameters: {
        companyId: { name: 'companyId', in: 'header', description: 'Empresa ativa (obrigatório em escritas)', schema: { type: 'integer' } },
      },
      responses,
      schemas,
    },
  };
}
