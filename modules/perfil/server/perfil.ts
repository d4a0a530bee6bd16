// The signed-in user's own profile (screen /perfil): GET/PUT /api/usuario/perfil {nome, email}; the password changes
// through POST /api/auth/changepwd, which ends the user's sessions.
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { findUser, updateOwnUser } from '../../../server/auth/users.ts';
import { entityByKey, schemaFor } from '../../../server/core/registry.ts';
import { route } from '../../../server/core/pipeline.ts';
import { history } from '../../../server/crud/history.ts';
import { compile, messages } from '../../../server/crud/validation.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { requestEm } from '../../../server/db/context.ts';

export default (api: Hono<AppEnv>) => {
  const perfil = (u: Record<string, any> | null) => ({ login: u?.login ?? null, nome: u?.nome ?? null, email: u?.email ?? null });
  route(api, 'get', '/usuario/perfil', { permission: 'self', scope: 'ambiente' }, async (c) => ok(c, perfil(await findUser(requestEm(c), c.get('session').usuarioId))));

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
    const em = requestEm(c);
    const before = perfil(await findUser(em, s.usuarioId));
    await updateOwnUser(em, s, { nome: data.nome, email: data.email ?? null });
    const after = { ...before, nome: data.nome, email: data.email ?? null };
    history(em, ent, s, s.usuarioId, 'perfil', before, after);
    await em.flush();
    return ok(c, after, 'Perfil salvo');
  });
};
