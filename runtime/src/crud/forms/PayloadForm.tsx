// The payload form of an action's 'ATENÇÃO' dialog (ActionConfirm): loaded with rjsf/ajv only when an action with a
// payload opens, so the lists that show action buttons do not load the form library.
import { useMemo, useState } from 'react';
import { Button, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import type { JSONSchema7 } from 'json-schema';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import { payloadFields, payloadShadows } from '../lib/schemaUi';
import { confirmText } from '../lib/actions';
import { useSchemaForm } from '../lib/useSchemaForm';
import { SchemaForm } from './SchemaForm';

export default function PayloadForm({ entity, action, record, onRun, onClose }: {
  entity: EntityMeta; action: ActionMeta; record: Record<string, unknown>; onRun: (payload: Record<string, unknown>) => void; onClose: () => void;
}) {
  const schema = action.payload as JSONSchema7;
  // the form of the payload: the entity's fields of the same name (labels, widgets), the payload's own properties
  // described by its schema, no sections
  // a state field (read-only in the record's form: only its actions change it) is what this form exists to set
  const shadowed = useMemo(() => payloadShadows(entity, schema), [entity, schema]);
  const view = useMemo(() => {
    const own = new Set(Object.keys(schema.properties ?? {}));
    const fields = entity.fields.filter((f) => !shadowed.has(f.name)).map((f) => (own.has(f.name) && f.readOnly ? { ...f, readOnly: false } : f));
    return { ...entity, fields: [...fields, ...payloadFields(entity, schema)], form: { sections: [] } } as unknown as EntityMeta;
  }, [entity, schema, shadowed]);
  // taken once when the dialog opens: a list refresh hands in a new record object, and re-seeding the form from it
  // would throw away what the user has chosen in the meantime
  const [current] = useState(() => Object.fromEntries(Object.keys(schema.properties ?? {}).filter((k) => record[k] != null && !shadowed.has(k)).map((k) => [k, record[k]])));
  const form = useSchemaForm(view, schema, undefined, current);
  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{confirmText(entity, action, record)}</DialogContentText>
        <SchemaForm entity={view} form={form} idPrefix="acao" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={() => form.checkAll() && onRun(form.data)}>Confirmar</Button>
      </DialogActions>
    </>
  );
}
