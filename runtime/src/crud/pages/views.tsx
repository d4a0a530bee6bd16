// The screens of one entity, built from its description (model.json) and its JSON Schema: the generic list and
// forms, loaded on first use together with the schema. The form views are lazy: a list does not load rjsf/ajv (the
// routes render every view inside Suspense, App.tsx / AdminApp.tsx).
import { lazy, type ComponentType } from 'react';
import type { JSONSchema7 } from 'json-schema';
import type { AliasMeta, EntityMeta } from '../../../../shared/model';
import type { View } from '../../model';

export type { View };

const forms = () => import('../forms/GenericForms');
const GenericCreate = lazy(() => forms().then((m) => ({ default: m.GenericCreate })));
const GenericEdit = lazy(() => forms().then((m) => ({ default: m.GenericEdit })));
const GenericShow = lazy(() => forms().then((m) => ({ default: m.GenericShow })));

/** The component of one view of an entity; null when the entity has no such view (read-only resources). */
/** `alias`: the view opened on a second route (metadata aliases: title, fixed filter, defaults from the route). */
export async function loadView(entity: EntityMeta, view: View, schema: () => Promise<JSONSchema7>, alias?: AliasMeta): Promise<ComponentType | null> {
  if (entity.readOnlyResource && (view === 'create' || view === 'edit')) return null;
  const [lists, s] = await Promise.all([import('../lists/GenericList'), schema()]);
  const Generic = { list: lists.GenericList, create: GenericCreate, edit: GenericEdit, show: GenericShow }[view];
  return function EntityView() { return <Generic entity={entity} schema={s} alias={alias} />; };
}

/** The record page of an entity (metadata record) showing one tab (and one tab of a group entry). */
export async function loadRecord(entity: EntityMeta, schema: () => Promise<JSONSchema7>, tab?: string, sub?: string): Promise<ComponentType> {
  const [{ RecordPage }, s] = await Promise.all([import('./RecordPage'), schema()]);
  return function EntityRecord() { return <RecordPage entity={entity} schema={s} tab={tab} sub={sub} />; };
}
