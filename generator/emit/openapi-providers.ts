// OpenAPI of the providers (metadata `kind: provider`, served by server/crud/provider.ts): the list path with its
// route params, filters (the JSON `filter` query), sorts and the row schema from the columns; export and by id; and
// the named calls (`calls[]`) with their query params, answering the envelope. A provider opens with any one of its
// keys: `x-permission` is the first, `x-permissions` all of them (server/app/docs.ts keeps what the caller holds).
import type { ProviderColumn, ProviderFilter, ProviderMeta, ProviderParam } from '../../shared/model.ts';
import { pascal } from './names.ts';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));

/** Component schema name of a provider's row. */
export const providerRowName = (p: ProviderMeta) => `${pascal(p.key)}Linha`;
/** `/rastreamento/{serial}` → `/api/rastreamento/{serial}` (OpenAPI and the metadata write params the same way). */
const apiPath = (path: string) => `/api${path}`;

const COLUMN_SCHEMA: Record<ProviderColumn['type'], Json> = {
  string: { type: ['string', 'null'] }, integer: { type: ['integer', 'null'] }, number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] }, date: { type: ['string', 'null'], format: 'date' },
  datetime: { type: ['string', 'null'], format: 'date-time' }, json: {},
};
const FILTER_SCHEMA: Record<ProviderFilter['type'], Json> = {
  search: { type: 'string' }, string: { type: 'string' }, integer: { type: 'integer' }, boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' }, datetime: { type: 'string', format: 'date-time' },
};

export function providerRowSchema(p: ProviderMeta): Json {
  return {
    type: 'object', title: p.label,
    properties: Object.fromEntries(p.columns.map((c) => [c.name, { title: c.label, ...COLUMN_SCHEMA[c.type] }])),
  };
}

function paramSchema(p: ProviderParam): Json {
  if (p.type === 'integer') return { type: 'integer', minimum: 1 };
  if (p.type === 'date') return { type: 'string', format: 'date' };
  if (p.enum) return { type: 'string', enum: p.enum };
  return { type: 'string' };
}
const VALUES_TEXT = { tecnologias: 'uma tecnologia conhecida (metadata/_tecnologias.yaml)', modelos: 'um modelo da tecnologia anterior' };

function pathParameters(p: ProviderMeta, path: string): Json[] {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return names.map((n) => {
    const d = p.params.find((x) => x.name === n)!;
    const unknown = d.enum || d.values ? '; outro valor: 404' : '';
    return { name: n, in: 'path', required: true, description: `${d.label}${d.values ? `: ${VALUES_TEXT[d.values]}` : ''}${unknown}`, schema: paramSchema(d) };
  });
}

function filterSchema(f: ProviderFilter): Json {
  const one = { title: f.label, ...FILTER_SCHEMA[f.type], ...(f.type === 'search' ? { description: 'busca rápida' } : {}) };
  return f.multiple ? { title: f.label, oneOf: [FILTER_SCHEMA[f.type], { type: 'array', items: FILTER_SCHEMA[f.type] }] } : one;
}

function listParameters(p: ProviderMeta): Json[] {
  const sortable = p.columns.filter((c) => c.sortable).flatMap((c) => (c.sortKey ? [c.name, c.sortKey] : [c.name]));
  return [
    {
      name: 'filter', in: 'query', description: p.filters.length ? 'JSON: filtros declarados (outros: 400)' : 'JSON: nenhum filtro declarado (qualquer chave: 400)',
      content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: Object.fromEntries(p.filters.map((f) => [f.name, filterSchema(f)])) } } },
    },
    {
      name: 'sort', in: 'query', description: `JSON ["campo","ASC"|"DESC"]; padrão ${JSON.stringify([p.sort.field, p.sort.order])}`,
      content: { 'application/json': { schema: { type: 'array', prefixItems: [{ enum: sortable }, { enum: ['ASC', 'DESC'] }], minItems: 2, maxItems: 2 } } },
    },
    { name: 'range', in: 'query', description: 'JSON [início, fim] (inclusivo); padrão [0,24]', schema: { type: 'string' }, example: '[0,24]' },
  ];
}

function permissionOf(p: ProviderMeta): Json {
  return { 'x-permission': p.permission[0], ...(p.permission.length > 1 ? { 'x-permissions': p.permission } : {}) };
}

export function providerPaths(p: ProviderMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const tags = [p.label];
  const row = ref(providerRowName(p));
  const scope = p.scope === 'empresa' ? ' Somente linhas da empresa ativa.' : '';
  if (p.path) {
    const params = pathParameters(p, p.path);
    const base = apiPath(p.path);
    out[base] = {
      ...(params.length ? { parameters: params } : {}),
      get: {
        tags, operationId: `list_${p.key}`, summary: `Lista ${p.label}`, description: `Provider ${p.key} (linhas vindas do código).${scope}`,
        ...permissionOf(p), parameters: listParameters(p),
        responses: {
          200: {
            description: 'Página de linhas',
            headers: { 'Content-Range': { description: `${p.key} início-fim/total`, schema: { type: 'string' } } },
            content: { 'application/json': { schema: { type: 'array', items: row } } },
          },
          ...errors(400, 401, 403, 404),
        },
      },
    };
    out[`${base}/export`] = {
      ...(params.length ? { parameters: params } : {}),
      get: {
        tags, operationId: `export_${p.key}`, summary: `Exporta ${p.label} (csv, xlsx)`, ...permissionOf(p),
        parameters: [
          ...listParameters(p).filter((x) => x.name !== 'range'),
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv' } },
          { name: 'columns', in: 'query', description: 'JSON: colunas exportadas (padrão: todas)', content: { 'application/json': { schema: { type: 'array', items: { enum: p.columns.map((c) => c.name) } } } } },
        ],
        responses: { 200: { description: 'Arquivo', content: { 'text/csv': {}, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {} } }, ...errors(400, 401, 403, 404) },
      },
    };
    if (p.one) {
      out[`${base}/{id}`] = {
        parameters: [...params, { name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { tags, operationId: `get_${p.key}`, summary: `Lê uma linha de ${p.label}`, ...permissionOf(p), responses: { 200: { description: 'Linha', content: { 'application/json': { schema: row } } }, ...errors(401, 403, 404) } },
      };
    }
  }
  p.calls.forEach((c, i) => {
    const params = pathParameters(p, c.path);
    const query: Record<string, unknown>[] = c.query.map((name) => {
      const f = p.filters.find((x) => x.name === name)!;
      return { name, in: 'query', description: f.label, schema: FILTER_SCHEMA[f.type] };
    });
    const list = { type: 'array', items: row };
    if (c.op === 'list') {
      query.push(
        { name: 'columns', in: 'query', description: 'JSON: só estas colunas, nesta ordem (padrão: todas)', content: { 'application/json': { schema: { type: 'array', minItems: 1, items: { enum: ['id', ...p.columns.map((x) => x.name)] } } } } },
        { name: 'format', in: 'query', description: 'table: as linhas como tabela {columns, rows} (cada linha, os valores na ordem de columns)', schema: { type: 'string', enum: ['table'] } },
      );
    }
    const table = { type: 'object', required: ['columns', 'rows'], properties: { columns: { type: 'array', items: { type: 'string' } }, rows: { type: 'array', items: { type: 'array' } } } };
    const payload = c.op === 'one' ? row : { oneOf: [list, table] };
    out[apiPath(c.path)] = {
      ...(params.length ? { parameters: params } : {}),
      get: {
        tags, operationId: `${c.op}_${p.key}_chamada${i ? `_${i}` : ''}`,
        summary: c.op === 'one' ? `Uma linha de ${p.label}` : `Linhas de ${p.label}`,
        description: `Chamada nomeada do provider ${p.key}: a resposta vem no envelope {status, msg, payload, errorMsg}.${scope}`,
        ...permissionOf(p),
        ...(query.length ? { parameters: query } : {}),
        responses: {
          200: { description: 'Envelope', content: { 'application/json': { schema: { allOf: [ref('Envelope'), { properties: { payload } }] } } } },
          ...errors(400, 401, 403),
          ...(c.op === 'one' ? { 404: { description: c.notFound ?? 'Registro não encontrado', content: { 'application/json': { schema: ref('Envelope') } } } } : errors(404)),
        },
      },
    };
  });
  return out;
}
