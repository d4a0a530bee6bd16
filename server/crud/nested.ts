// Nested lists (metadata `parent`): the rows of an entity that belong to one parent record, mounted at
// /api/{parent}/:parent/{key} (mounted by server/app/bundle.ts). Chain: session → the parent's visualizar key → this
// entity's key → company scope → the parent row, visible to the caller (404 otherwise) → handler, whose SQL carries
// `{field} = the parent's value`. Edit/delete/actions stay on the entity's own routes.
import { Hono, type Context } from 'hono';
import type { EntityMeta } from '../../generator/model.ts';
import type { AppEnv } from '../app/env.ts';
import { notFound } from '../http/envelope.ts';
import { emitChange } from '../realtime/events.ts';
import { addComputed } from './computed.ts';
import { history, plain } from './history.ts';
import { permissionStep, scopeStep, sessionStep } from './pipeline.ts';
import { parseId, parseJson, parseRange, readBody, sendPage } from './protocol.ts';
import { buildOrder, buildWhere, findVisible, relationFields, scopeWhere, serialize, type Row } from './query.ts';
import { entityByKey, ormName } from './registry.ts';
import { mapDbError, prepare } from './write.ts';
import type { PermissionKey } from '../generated/permissions.ts';

export function nestedRoutes(entity: EntityMeta): Hono<AppEnv> {
  const p = entity.parent;
  if (!p) throw new Error(`${entity.key} não declara parent`);
  const app = new Hono<AppEnv>();
  const e = () => entityByKey(entity.key) ?? entity;
  const parentPerm = permissionStep([`${p.permission}.visualizar` as PermissionKey]);
  const perm = (k: string) => permissionStep([`${entity.permission}.${k}` as PermissionKey]);
  const scope = scopeStep(entity.scope);

  /** The parent's value the rows carry (its id, or its `by` field), once the parent is visible to the caller. */
  async function parentValue(c: Context<AppEnv>): Promise<unknown> {
    const parent = entityByKey(p!.entity);
    if (!parent) throw notFound();
    const raw = c.req.param('parent') ?? '';
    let cond: Row;
    if (p!.by === 'id') {
      if (!/^\d{1,15}$/.test(raw)) throw notFound();
      cond = { id: Number(raw) };
    } else {
      if (!raw || raw.length > 200) throw notFound();
      cond = { [p!.by]: raw };
    }
    const em = c.get('em');
    const row = await em.findOne(ormName(em, parent), { $and: [cond, scopeWhere(parent, c.get('session'))] } as never) as Row | null;
    if (!row) throw notFound('Registro pai não encontrado');
    return p!.by === 'id' ? Number(row.id) : row[p!.by];
  }

  app.use('*', sessionStep());

  app.get('/', parentPerm, perm('lista'), scope, async (c) => {
    const value = await parentValue(c);
    const s = c.get('session');
    const ent = e();
    const where = { $and: [buildWhere(ent, parseJson(c.req.query('filter'), 'filter'), s), { [p.field]: value }] };
    const orderBy = buildOrder(ent, parseJson(c.req.query('sort'), 'sort'));
    const { offset, limit } = parseRange(c.req.query('range'));
    const em = c.get('em');
    const [rows, total] = await em.findAndCount(ormName(em, ent), where as never, { orderBy: orderBy as never, limit, offset, populate: relationFields(em, ent) as never[] });
    const out = rows.map((r) => serialize(ent, r as Row));
    await addComputed(em, ent, out);
    return sendPage(c, ent.key, offset, out, total);
  });

  app.get('/:id', parentPerm, perm('visualizar'), scope, async (c) => {
    const value = await parentValue(c);
    const ent = e();
    const row = serialize(ent, await findVisible(c.get('em'), ent, c.get('session'), parseId(c)));
    if (row[p.field] !== value) throw notFound();
    await addComputed(c.get('em'), ent, [row]);
    return c.json(row);
  });

  if (entity.readOnlyResource) return app;

  // Creates carry the parent: its value replaces whatever the body says.
  app.post('/', parentPerm, perm('adicionar'), scope, async (c) => {
    const value = await parentValue(c);
    const s = c.get('session');
    const ent = e();
    const body = await readBody(c);
    const em = c.get('em');
    const created = await em.transactional(async (tx) => {
      const data = await prepare(tx, ent, s, body && typeof body === 'object' && !Array.isArray(body) ? { ...body, [p.field]: value } : body, null);
      const tenant: Row = ent.scope === 'empresa' ? { empresaId: s.empresaAtiva } : ent.scope === 'ambiente' ? { ambienteId: s.ambienteId } : {};
      const row = tx.create(ormName(tx, ent), { ...data, ...tenant } as never) as Row;
      await tx.flush();
      history(tx, ent, s, Number(row.id), 'create', null, plain(ent, row));
      await tx.flush();
      return row;
    }).catch((err) => mapDbError(ent, err));
    emitChange({ entity: ent.key, id: Number(created.id), op: 'create', before: null, after: plain(ent, created) });
    return c.json(serialize(ent, created), 201);
  });

  return app;
}
