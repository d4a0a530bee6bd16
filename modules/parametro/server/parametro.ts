// GET /api/adm/parametro/{parametro}: one parameter of the active company (register parametro), by its name.
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { parametro as p } from '../../../server/generated/columns.ts';
import { HttpError, ok } from '../../../server/http/envelope.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { qParams, scopeSql } from '../../../server/tenancy/scope.ts';
import { requestEm } from '../../../server/db/context.ts';

export default (api: Hono<AppEnv>) => {
  route(api, 'get', '/adm/parametro/:parametro', { permission: ['adm.sis.cadastro.parametro.lista', 'adm.sis.cadastro.parametro.visualizar'], scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const q = qParams();
    const [row] = (await requestEm(c).getConnection().execute(
      `select x.${p.chave} AS chave, x.${p.valor} AS valor, x.${p.descricao} AS descricao from ${p.table} x
        where ${scopeSql(entityByKey('parametro')!, s, 'x', q)} and x.${p.chave} = ${q.add(c.req.param('parametro'))}`, q.values,
    )) as { chave: string; valor: string | null; descricao: string | null }[];
    if (!row) throw new HttpError(404, 'Parâmetro não encontrado');
    return ok(c, row);
  });
};
