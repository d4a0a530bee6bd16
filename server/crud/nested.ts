// Nested lists (metadata `parent`): the rows of an entity that belong to one parent record, mounted at
// /api/{parent}/:parent/{key} (mounted by server/app/bundle.ts). Chain: session → the parent's visualizar key → this
// entity's key → company scope → the parent row, visible to the caller (404 otherwise) → handler, whose SQL carries
// `{field} = the parent's value`. Edit/delete/actions stay on the entity's own routes.
import { Hono, type Context } from 'hono';
import type { EntityMeta } from '../../shared/model.ts';
import type { AppEnv } from '../app/env.ts';
import { notFound } from '../http/envelope.ts';
import { permissionStep, scopeStep, sessionStep } from '../core/pipeline.ts';
import { readFields, type Row } from '../read/index.ts';
import { entityByKey } from '../core/registry.ts';
import { createHandler, listHandler, oneHandler, type ParentOf } from './routes.ts';
import type { PermissionKey } from '../generated/permissions.ts';
import { requestDb } from '../db/context.ts';

export function nestedRoutes(entity: EntityMeta): Hono<AppEnv> {
  const p = entity.parent;
  if (!p) throw new Error(`${entity.key} não declara parent`);
  const app = new Hono<AppEnv>();
  const e = () => entityByKey(entity.key) ?? entity;
  const parentPerm = permissionStep([`${p.permission}.visualizar` as PermissionKey]);
  const perm = (k: string) => permissionStep([`${entity.permission}.${k}` as PermissionKey]);
  const scope = scopeStep(entity.scope);
  // Reads settle a session handed out from the cache in their last statement (as the entity's own list and by id).
  const scopeRead = scopeStep(entity.scope, { sessionInSql: true });

  /** The parent named by the route: its entity and its condition (404 for a malformed value). */
  function named(c: Context<AppEnv>): { entity: EntityMeta; where: Row } {
    const parent = entityByKey(p!.entity);
    if (!parent) throw notFound();
    const raw = c.req.param('parent') ?? '';
    if (p!.by === 'id') {
      if (!/^\d{1,15}$/.test(raw)) throw notFound();
      return { entity: parent, where: { id: Number(raw) } };
    }
    if (!raw || raw.length > 200) throw notFound();
    return { entity: parent, where: { [p!.by]: raw } };
  }

  /** The list's condition when the route's value is the one the rows carry (all but refId): the parent's visibility
   *  is then checked in the list's statement, no round trip before it. */
  const known: ParentOf | undefined = p.refId ? undefined : (c) => {
    const { entity: parent, where } = named(c);
    return { narrow: { [p!.field]: where[p!.by] }, parent: { entity: parent, where } };
  };

  /** `{field: the parent's value}` (its id, or its `by` field unless the field references the parent), once the parent is visible to the caller. */
  async function parent(c: Context<AppEnv>): Promise<Row> {
    const { entity: parent, where: cond } = named(c);
    const row = await readFields(requestDb(c), parent, c.get('session'), cond, p!.by === 'id' ? ['id'] : ['id', p!.by]);
    if (!row) throw notFound('Registro pai não encontrado');
    return { [p!.field]: p!.by === 'id' || p!.refId ? Number(row.id) : row[p!.by] };
  }

  // The keys of the parent's record tabs that show this list (metadata record) are required too.
  const tabSteps = (p.tabKeys ?? []).map((k) => permissionStep([k as PermissionKey]));
  app.use('*', sessionStep({ credentials: entity.credentials }), ...tabSteps);
  app.get('/', parentPerm, perm('lista'), scopeRead, listHandler(e, parent, known));
  app.get('/:id', parentPerm, perm('visualizar'), scopeRead, oneHandler(e, parent));
  if (entity.readOnlyResource) return app;
  // Creates carry the parent: its value replaces whatever the body says.
  app.post('/', parentPerm, perm('adicionar'), scope, createHandler(e, parent));
  return app;
}
