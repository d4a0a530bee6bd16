// Lists mounted under their parent's record (metadata parent): which parent the current route names.
import { matchPath } from 'react-router-dom';
import type { EntityMeta } from '../../../../shared/model';

/** resource: the ra resource = the nested API path below /api; field/value: the parent condition. */
export interface Nested { resource: string; field: string; value: string | number; parent: string }

export function nestedOf(entity: EntityMeta, pathname: string): Nested | null {
  const p = entity.parent;
  if (!p) return null;
  const raw = matchPath(p.route, pathname)?.params[p.by];
  if (raw == null) return null;
  return { resource: `${p.entity}/${encodeURIComponent(raw)}/${entity.key}`, field: p.field, value: p.by === 'id' ? Number(raw) : raw, parent: p.entity };
}
