// GET /api/usuario/permissoes, PUT /api/usuario {_id, ui} (the caller's own column choices),
// GET/PUT /api/usuario/perfil {nome, email} (the caller's own profile, screen /perfil; the password changes through
// POST /api/auth/changepwd, which ends the user's sessions).
import type { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { findUser } from '../auth/users.ts';
import { entityByKey, ormName, schemaFor } from '../core/registry.ts';
import { HttpError, badRequest, ok } from '../http/envelope.ts';
import { route } from '../core/pipeline.ts';
import { compile, messages } from '../crud/validation.ts';
import { history } from '../crud/history.ts';

export default (api: Hono<AppEnv>) => {
  route(api, 'get', '/usuario/permissoes', { permission: 'self', scope: 'global' }, (c) => ok(c, [...c.get('session').permissoes].sort()));

  const perfil = (u: Record<string, any> | null) => ({ login: u?.login ?? null, nome: u?.nome ?? null, email: u?.email ?? null });
  route(api, 'get', '/usuario/perfil', { permission: 'self', scope: 'ambiente' }, async (c) => ok(c, perfil(await findUser(c.get('em'), c.get('session').usuarioId))));

  // Only nome and e-mail, validated by the usuario schema's own rules; the change goes to the history.
  route(api, 'put', '/usuario/perfil', { permission: 'self', scope: 'ambiente', credentials: true }, async (c) => {
    const s = c.get('session');
    let b: any;
    try { b = await c.req.json(); } catch { throw badRequest('Corpo da requisição inválido: JSON malformado'); }
    const extra = b && typeof b === 'object' ? Object.keys(b).filter((k) => k !== 'nome' && k !== 'email') : [];
    if (extra.length) throw badRequest(`Campo desconhecido: ${extra[0]}`);
    const ent = entityByKey('usuario')!;
    const props = (schemaFor('usuario').properties ?? {}) as Record<string, unknown>;
    const schema = { type: 'object', additionalProperties: false, required: ['nome'], properties: { nome: props.nome, email: props.email } };
    const data: any = b && typeof b === 'object' && !Array.isArray(b) ? { nome: typeof b.nome === 'string' ? b.nome.trim() : b.nome, email: b.email === '' ? null : b.email } : b;
    if (data && typeof data === 'object' && (data.nome === '' || data.nome == null)) throw new HttpError(400, 'O campo Nome é obrigatório');
    const validate = compile('usuario:perfil', schema);
    const valid: boolean = validate(data);
    if (!valid) {
      const errors = messages(validate.errors ?? [], schema, ent);
      throw new HttpError(400, errors.map((x) => x.message).join('; ') || 'Dados inválidos', errors, 'Erro de validação');
    }
    const em = c.get('em');
    const before = perfil(await findUser(em, s.usuarioId));
    await em.nativeUpdate(ormName(em, ent), { id: s.usuarioId } as never, { nome: data.nome, email: data.email ?? null } as never, { filters: false });
    const after = { ...before, nome: data.nome, email: data.email ?? null };
    history(em, ent, s, s.usuarioId, 'perfil', before, after);
    await em.flush();
    return ok(c, after, 'Perfil salvo');
  });

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
    const em = c.get('em');
    const u = await findUser(em, s.usuarioId);
    const ui = { ...((u?.ui && typeof u.ui === 'object') ? u.ui : {}), ...b.ui };
    await em.nativeUpdate(ormName(em, entityByKey('usuario')!), { id: s.usuarioId } as never, { ui } as never, { filters: false });
    return ok(c, { _id: s.usuarioId, ui }, 'Preferências salvas');
  });
};
