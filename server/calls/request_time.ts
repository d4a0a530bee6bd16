// POST /api/request_time (spec section 7): the web client reports a request that took more than 10 s
// (duracao, url, method, parametros, idEmpresa). Stored as a `requisicao_lenta` row of the active company,
// listed by administrators at /adm/sis/requisicao_lenta.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { route } from '../core/pipeline.ts';
import { badRequest, HttpError, ok } from '../http/envelope.ts';
import { tenantOnly } from '../tenancy/scope.ts';
import { requestEm } from '../db/context.ts';

export const SLOW_REQUEST_MS = 10_000;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const MAX_PARAMS = 10_000;

export default (api: Hono<AppEnv>) => {
  // Any signed-in user's client reports its own slow requests.
  route(api, 'post', '/request_time', { permission: 'self', scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const b = await c.req.json().catch(() => { throw badRequest('Requisição inválida: JSON malformado'); }) as Record<string, unknown>;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Informe duracao, url e method');
    const duracao = b.duracao;
    if (typeof duracao !== 'number' || !Number.isFinite(duracao) || duracao < 0 || duracao > 2_147_483_647) throw badRequest('O campo duracao deve ser um número de milissegundos');
    if (duracao <= SLOW_REQUEST_MS) throw badRequest(`Só são registradas requisições acima de ${SLOW_REQUEST_MS} ms`);
    if (typeof b.url !== 'string' || !b.url.trim() || b.url.length > 2000) throw badRequest('O campo url é obrigatório (até 2000 caracteres)');
    const method = typeof b.method === 'string' ? b.method.toUpperCase() : '';
    if (!METHODS.has(method)) throw badRequest('O campo method deve ser um método HTTP');
    if (b.idEmpresa != null && Number(b.idEmpresa) !== s.empresaAtiva) {
      throw new HttpError(403, 'A empresa informada não corresponde à empresa ativa da sessão');
    }
    const p = b.parametros;
    const parametros = p == null ? null : (typeof p === 'string' ? p : JSON.stringify(p)).slice(0, MAX_PARAMS);
    const em = requestEm(c);
    const e = entityByKey('requisicao_lenta')!;
    const row = em.create(ormName(em, e), {
      ...tenantOnly(e, s), duracao: Math.round(duracao), url: b.url, method, parametros, usuario: s.usuarioId,
    } as never) as { id: number };
    await em.flush();
    return ok(c, { id: row.id }, 'Registrado', 201);
  });
};
