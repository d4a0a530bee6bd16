// The screens of one entity, built from its description (model.json) and its JSON Schema: the generic list and
// forms of ./index.ts, loaded on first use together with the schema.
import type { ComponentType } from 'react';
import type { JSONSchema7 } from 'json-schema';
import type { AliasMeta, EntityMeta } from '../../../shared/model';

export type View = 'list' | 'create' | 'edit' | 'show';

/** The component of one view of an entity; null when the entity has no such view (read-only resources). */
/** `alias`: the view opened on a second route (metadata aliases: title, fixed filter, defaults from the route). */
export async function loadView(entity: EntityMeta, view: View, schema: () => Promise<JSONSchema7>, alias?: AliasMeta): Promise<ComponentType | null> {
  if (entity.readOnlyResource && (view === 'create' || view === 'edit')) return null;
  const [crud, s] = await Promise.all([import('./index'), schema()]);
  const Generic = { list: crud.GenericList, create: crud.GenericCreate, edit: crud.GenericEdit, show: crud.GenericShow }[view];
  return function EntityView() { return <Generic entity={entity} schema={s} alias={alias} />; };
}

/** The record page of an entity (metadata record) showing one tab (and one tab of a group entry). */
export async function loadRecord(entity: EntityMeta, schema: () => Promise<JSONSchema7>, tab?: string, sub?: string): Promise<ComponentType> {
  const [{ RecordPage }, s] = await Promise.all([import('./RecordPage'), schema()]);
  return function EntityRecord() { return <RecordPage entity={entity} schema={s} tab={tab} sub={sub} />; };
}
