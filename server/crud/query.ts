// What the write paths (MikroORM) share with the read engine (server/read/): the JSON of an ORM row (serialize, the
// engine's jsonValue per field) and the visible row by id a write starts from. Reads never come through here.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { notFound } from '../http/envelope.ts';
import { ormName } from '../core/registry.ts';
import { scopeWhere, type Where } from '../tenancy/scope.ts';
import { jsonValue, visibleFields, type Row } from '../read/engine.ts';

export type { Row, Where };
export { escapeLike, fieldOf } from '../read/where.ts';

export const SYSTEM = new Set(['id', 'empresaId', 'ambienteId', 'createdAt', 'updatedAt']);

export const fmt = (f: FieldMeta, v: unknown): unknown => jsonValue(f, v);

/** The JSON a client sees of an ORM row: hidden, write-only and password fields never leave the server. */
export function serialize(e: EntityMeta, row: Row): Row {
  const out: Row = {};
  for (const f of visibleFields(e)) out[f.name] = jsonValue(f, row[f.name]);
  return out;
}

/** The row by id the session may see (and that meets `extra`, e.g. a nested route's parent), before a write; 404 otherwise. */
export async function findVisible(em: EntityManager, e: EntityMeta, s: Session, id: number, extra?: Where): Promise<Row> {
  const row = await em.findOne(ormName(em, e), { $and: [{ id }, scopeWhere(e, s), ...(extra ? [extra] : [])] } as never);
  if (!row) throw notFound();
  return row as Row;
}
