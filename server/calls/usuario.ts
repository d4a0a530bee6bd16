// GET /api/usuario/permissoes, PUT /api/usuario {_id, ui} (the caller's own column choices). The profile calls
// (GET/PUT /api/usuario/perfil) belong to modules/perfil.
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { findUser, updateOwnUser } from '../auth/users.ts';
import { getModel } from '../core/registry.ts';
import { choiceColumns, choiceProblem } from '../../shared/column-choices.ts';
import type { Model } from '../../shared/model.ts';
import { HttpError, badRequest, ok } from '../http/envelope.ts';
import { route } from '../core/pipeline.ts';
import { requestEm } from '../db/context.ts';

const columnsOf = new WeakMap<Model, ReturnType<typeof choiceColumns>>();
const columns = (m: Model) => columnsOf.get(m) ?? columnsOf.set(m, choiceColumns(m)).get(m)!;

export default (api: Hono<AppEnv>) => {
  route(api, 'get', '/usuario/permissoes', { permission: 'self', scope: 'global' }, (c) => ok(c, [...c.get('session').permissoes].sort()));

  route(api, 'put', '/usuario', { permission: 'self', scope: 'empresa', credentials: true }, async (c) => {
    const s = c.get('session');
    let b: any;
    try { b = await c.req.json(); } catch { throw badRequest('Corpo da requisição inválido: JSON malformado'); }
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Corpo da requisição inválido');
    const extra = Object.keys(b).filter((k) => k !== '_id' && k !== 'id' && k !== 'ui');
    if (extra.length) throw badRequest(`Campo desconhecido: ${extra[0]}`);
    const id = Number(b._id ?? b.id ?? s.usuarioId);
    if (id !== s.usuarioId) throw new HttpError(403, 'Só é possível alterar as próprias preferências');
    if (!b.ui || typeof b.ui !== 'object' || Array.isArray(b.ui)) throw badRequest('O campo ui deve ser um objeto');
    if (JSON.stringify(b.ui).length > 256 * 1024) throw badRequest('Preferências grandes demais');
    // the chooser keeps one column selected; the server too (a client's empty list would blank the list)
    const problem = choiceProblem(columns(getModel()), b.ui);
    if (problem) throw badRequest(problem);
    const em = requestEm(c);
    const u = await findUser(em, s.usuarioId);
    const ui = { ...((u?.ui && typeof u.ui === 'object') ? u.ui : {}), ...b.ui };
    await updateOwnUser(em, s, { ui });
    return ok(c, { _id: s.usuarioId, ui }, 'Preferências salvas');
  });
};
