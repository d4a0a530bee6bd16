// GET /api/garagem/por_empresa/{id}, GET /api/ativo/por_empresa/{id} (id = the active company).
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { idOf } from '../../shared/ids.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { HttpError, ok } from '../http/envelope.ts';
import { route } from '../core/pipeline.ts';
import type { PermissionKey } from '../generated/permissions.ts';
import { scopeWhere } from '../tenancy/scope.ts';
import { requestEm } from '../db/context.ts';

const lists: Record<string, string[]> = {
  garagem: ['descricao', 'nome', 'grupoSuperior'],
  ativo: ['descricao', 'placa', 'idGaragem', 'numeroFrota'],
};

export default (api: Hono<AppEnv>) => {
  for (const [key, fields] of Object.entries(lists)) {
    const keys = (): PermissionKey[] => {
      const e = entityByKey(key);
      if (!e) throw new HttpError(404, 'Rota não encontrada');
      return [`${e.permission}.lista` as PermissionKey, `${e.permission}.visualizar` as PermissionKey];
    };
    route(api, 'get', `/${key}/por_empresa/:id`, { permission: keys, scope: 'empresa' }, async (c) => {
      const s = c.get('session');
      const e = entityByKey(key)!;
      if (Number(c.req.param('id')) !== s.empresaAtiva) throw new HttpError(403, 'A empresa informada não é a empresa ativa da sessão');
      const em = requestEm(c);
      const known = fields.filter((f) => e.fields.some((x) => x.name === f));
      const rows = (await em.find(ormName(em, e), scopeWhere(e, s) as never, { orderBy: { [known[0] ?? 'id']: 'ASC', id: 'ASC' } as never, fields: ['id', ...known] as never })) as Record<string, unknown>[];
      return ok(c, rows.map((r) => {
        const o: Record<string, unknown> = { id: r.id, _id: r.id };
        for (const f of known) o[f] = e.fields.find((x) => x.name === f)?.type === 'reference' ? idOf(r[f]) : r[f] ?? null;
        return o;
      }));
    });
  }
};
