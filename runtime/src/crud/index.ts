// Shared generic components of the entity views (built from model.json by ./views.tsx).
// The form views are lazy: a resource module serves its list without loading rjsf/ajv (the routes render
// every view inside Suspense, App.tsx / AdminApp.tsx).
import { lazy } from 'react';
export { GenericList, useGenericList } from './GenericList';
export type { GenericProps } from './GenericForms';

const forms = () => import('./GenericForms');
export const GenericCreate = lazy(() => forms().then((m) => ({ default: m.GenericCreate })));
export const GenericEdit = lazy(() => forms().then((m) => ({ default: m.GenericEdit })));
export const GenericShow = lazy(() => forms().then((m) => ({ default: m.GenericShow })));
