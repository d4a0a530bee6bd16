// Shared generic components used by the generated resources (runtime/src/generated/resources/*.tsx).
export { GenericList, useGenericList } from './GenericList';
export { GenericCreate, GenericEdit, GenericShow, useGenericCreate, useGenericEdit, type GenericProps } from './GenericForms';
export { FormPanel } from './FormPanel';
