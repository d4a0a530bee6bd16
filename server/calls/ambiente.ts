// Ambientes (spec section 7): GET /api/adm/ambiente/corrente, GET /api/adm/ambiente/lista,
// POST /api/adm/ambiente/seleciona/{id_ambiente} (also POST /api/auth/ambiente/{ambiente}/select, server/auth/routes.ts).
// Rules in server/auth/ambiente.ts. The calls act on the caller's own session: key 'self'; the switch writes a
// session (credentials: no API key).
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { ambienteCorrente, ambientesPermitidos, empresaDoAmbiente } from '../auth/ambiente.ts';
import { switched } from '../auth/routes.ts';
import { route } from '../core/pipeline.ts';
import { ok } from '../http/envelope.ts';
import { documentCalls } from '../app/docs.ts';
import { requestEm } from '../db/context.ts';

const TAG = ['Ambientes'];
const env = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } });
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
const select = (operationId: string, param: string) => ({
  post: {
    tags: TAG, operationId, 'x-self': true, summary: 'Entrar no ambiente (a sessão passa à primeira empresa do usuário nele)',
    parameters: [idParam(param), { $ref: '#/components/parameters/companyId' }],
    responses: { 200: env('Sessão no novo ambiente: payload.user como em /api/auth/get_session'), 401: env('Sem sessão'), 403: env('Ambiente não permitido ou desativado'), 404: env('Ambiente não encontrado') },
  },
});
documentCalls({
  '/api/adm/ambiente/corrente': { get: { tags: TAG, operationId: 'ambiente_corrente', 'x-self': true, summary: 'Ambiente atual da sessão', responses: { 200: env('payload: { id, descricao, atual }'), 401: env('Sem sessão') } } },
  '/api/adm/ambiente/lista': { get: { tags: TAG, operationId: 'ambiente_lista', 'x-self': true, summary: 'Ambientes que o usuário pode acessar', responses: { 200: env('payload: [{ id, descricao, atual }]'), 401: env('Sem sessão') } } },
  '/api/adm/ambiente/seleciona/{id}': select('ambiente_seleciona', 'id'),
  '/api/auth/ambiente/{ambiente}/select': select('ambiente_select', 'ambiente'),
});

export default (api: Hono<AppEnv>) => {
  route(api, 'get', '/adm/ambiente/corrente', { permission: 'self', scope: 'global' },
    async (c) => ok(c, await ambienteCorrente(requestEm(c), c.get('session'))));
  route(api, 'get', '/adm/ambiente/lista', { permission: 'self', scope: 'global' },
    async (c) => ok(c, await ambientesPermitidos(requestEm(c), c.get('session'))));
  route(api, 'post', '/adm/ambiente/seleciona/:id', { permission: 'self', scope: 'global', credentials: true },
    async (c) => switched(c, await empresaDoAmbiente(requestEm(c), c.get('session'), c.req.param('id') ?? ''), 'Ambiente alterado'));
};
