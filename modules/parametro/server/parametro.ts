// GET /api/adm/parametro/{parametro}: one parameter of the active company (register parametro), by its name.
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { parametro as p } from '../../../server/generated/columns.ts';
import { HttpError, ok } from '../../../server/http/envelope.ts';

export default (api: Hono<AppEnv>) => {
  route(api, 'get', '/adm/parametro/:parametro', { permission: ['adm.sis.cadastro.parametro.lista', 'adm.sis.cadastro.parametro.visualizar'], scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const [row] = (await c.get('em').getConnection().execute(
      `select ${p.chave} AS chave, ${p.valor} AS valor, ${p.descricao} AS descricao from ${p.table} where ${p.empresaId} = ? and ${p.chave} = ?`, [s.empresaAtiva, c.req.param('parametro')],
    )) as { chave: string; valor: string | null; descricao: string | null }[];
    if (!row) throw new HttpError(404, 'Parâmetro não encontrado');
    return ok(c, row);
  });
};
