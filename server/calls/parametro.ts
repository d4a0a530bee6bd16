// GET /api/adm/parametro/{parametro}: one parameter of the active company (register parametro), by its name.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { route } from '../crud/pipeline.ts';
import { HttpError, ok } from '../http/envelope.ts';

export default (api: Hono<AppEnv>) => {
  route(api, 'get', '/adm/parametro/:parametro', { permission: ['adm.sis.cadastro.parametro.lista', 'adm.sis.cadastro.parametro.visualizar'], scope: 'empresa' }, async (c) => {
    const s = c.get('session');
    const [row] = (await c.get('em').getConnection().execute(
      'select chave, valor, descricao from parametro where empresa_id = ? and chave = ?', [s.empresaAtiva, c.req.param('parametro')],
    )) as { chave: string; valor: string | null; descricao: string | null }[];
    if (!row) throw new HttpError(404, 'Parâmetro não encontrado');
    return ok(c, row);
  });
};
