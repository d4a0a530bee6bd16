// Reference labels come with the row (server/read/engine.ts LABELS): `_labels: { field: label | null }` for a
// reference, `{ field: (label | null)[] }` in the order of the ids for a referenceList. The runtime shows them and
// reads a referenced register only when the row came without them (a write's answer) and the user may list it.
import type { EntityMeta, FieldMeta } from '../../../../shared/model';
import { pathFor, permissionFor, recordPath } from '../../model';

export const LABELS = '_labels';

type Row = Record<string, unknown> | undefined;

/** The row's labels of `field`, or undefined when the row came without them. */
export function labelsOf(record: Row, field: string): { known: true; value: unknown } | undefined {
  const all = record?.[LABELS];
  if (!all || typeof all !== 'object' || !(field in all)) return undefined;
  return { known: true, value: (all as Record<string, unknown>)[field] };
}

/** id → label of the references the row names in `field` (those whose referenced row the user's company sees). */
export function labelMap(record: Row, f: Pick<FieldMeta, 'name' | 'type'> | undefined): Map<string, string> {
  const m = new Map<string, string>();
  const l = f && labelsOf(record, f.name);
  if (!f || !l) return m;
  const v = record?.[f.name];
  if (f.type === 'reference') {
    if (v != null && typeof l.value === 'string') m.set(String(v), l.value);
  } else if (Array.isArray(v) && Array.isArray(l.value)) {
    v.forEach((id, i) => { const x = (l.value as unknown[])[i]; if (typeof x === 'string') m.set(String(id), x); });
  }
  return m;
}

/** Where a referenced row opens for a user holding `can`'s keys (its record page, edit form or view), else false. */
export function referencePath(target: EntityMeta, id: unknown, can: (key: string) => boolean): string | false {
  if (target.params?.length || id == null) return false;
  if (target.record) return target.record.by === 'id' && can(permissionFor(target, 'show')) ? recordPath(target, id) : false;
  if (!target.readOnlyResource && can(permissionFor(target, 'edit'))) return pathFor(target.key, 'edit', id as number);
  if (can(permissionFor(target, 'show'))) return pathFor(target.key, 'show', id as number);
  return false;
}

/** The user may read the register's rows (its list: what getList/getMany ask). */
export const canList = (target: EntityMeta | undefined, can: (key: string) => boolean) => !!target && can(permissionFor(target, 'list'));
