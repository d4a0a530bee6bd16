// The rjsf form of an entity-shaped schema with the shared widgets, pt-BR messages and server errors
// (state from useSchemaForm), used by the record form (FormPanel) and the action payload dialog (ActionConfirm).
import { useMemo, type ReactNode } from 'react';
import Form from '@rjsf/mui';
import type { TemplatesType } from '@rjsf/utils';
import { validator } from '../lib/validator';
import type { EntityMeta } from '../../../../shared/model';
import type { useSchemaForm } from '../lib/useSchemaForm';
import { fields, widgets } from './widgets';

export function SchemaForm({ entity, form, sections, idPrefix, templates, onSubmit, disabled, children }: {
  entity: EntityMeta;
  form: ReturnType<typeof useSchemaForm>;
  sections?: string[]; // only these form sections (a record page tab; read by the sections template)
  idPrefix?: string; // another form may be on the page (ids root_* by default)
  templates?: Partial<TemplatesType>;
  onSubmit?: () => void;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const fieldMap = useMemo(() => new Map(entity.fields.map((f) => [f.name, f])), [entity]);
  // data: the form's current values, for widgets whose options depend on another field (mandatory picker items)
  // record: the saved row (its references' labels name the current values without reading their registers)
  // patch: a widget that writes several fields (the map of a geometry field: the shape and its radius)
  const formContext = useMemo(() => ({ entity, sections, fields: fieldMap, data: form.data, record: form.record, patch: form.patch }), [entity, sections, fieldMap, form.data, form.record, form.patch]);
  return (
    <Form
      schema={form.schema as any}
      uiSchema={form.uiSchema}
      formData={form.data}
      validator={validator}
      noValidate
      noHtml5Validate
      showErrorList={false}
      extraErrors={form.extraErrors}
      formContext={formContext}
      widgets={widgets}
      fields={fields}
      idPrefix={idPrefix}
      templates={templates}
      onChange={(e) => form.change(e.formData ?? {})}
      onBlur={(id) => form.blur(idPrefix ? id.replace(`${idPrefix}_`, 'root_') : id)}
      onSubmit={onSubmit}
      disabled={disabled}
    >
      {children ?? <></>}
    </Form>
  );
}
