// The 'ATENÇÃO' dialog of an entity action (metadata actions), shared by the list's row buttons and the record form:
// the action's confirm text and, when its payload schema has properties (e.g. lote.altera, armazem.define_status),
// a form of that schema (the entity's widgets, pt-BR messages, the record's current values first); Confirmar runs
// POST /api/{key}/{id}/{action} with the payload; for the list's selected rows (`bulk`, BulkActions) POST
// /api/{key}/{action} { ids, payload } and a notification of the outcome per row.
import { useMemo, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { JSONSchema7 } from 'json-schema';
import { useDataProvider, useNotify, useRefresh, type Identifier } from 'react-admin';
import type { ActionMeta, EntityMeta } from '../../../shared/model';
import type { RastroDataProvider } from '../api/dataProvider';
import { bulkOutcome } from './bulk';
import { payloadFields } from './schemaUi';
import { useSchemaForm } from './useSchemaForm';
import { useBound } from './params';
import { SchemaForm } from './SchemaForm';

/** True when the record may show the action (metadata visibleWhen: field → allowed values). */
export function matches(record: Record<string, unknown> | undefined, when?: Record<string, unknown>) {
  if (!when || !record) return true;
  return Object.entries(when).every(([k, v]) => (Array.isArray(v) ? v.includes(record[k]) : record[k] === v));
}

const hasPayload = (a: ActionMeta) => Object.keys(((a.payload as JSONSchema7 | undefined)?.properties) ?? {}).length > 0;

function PayloadForm({ entity, action, record, onRun, onClose }: {
  entity: EntityMeta; action: ActionMeta; record: Record<string, unknown>; onRun: (payload: Record<string, unknown>) => void; onClose: () => void;
}) {
  const schema = action.payload as JSONSchema7;
  // the form of the payload: the entity's fields of the same name (labels, widgets), the payload's own properties
  // described by its schema, no sections
  const view = useMemo(() => ({ ...entity, fields: [...entity.fields, ...payloadFields(entity, schema)], form: { sections: [] } }) as unknown as EntityMeta, [entity, schema]);
  // taken once when the dialog opens: a list refresh hands in a new record object, and re-seeding the form from it
  // would throw away what the user has chosen in the meantime
  const [current] = useState(() => Object.fromEntries(Object.keys(schema.properties ?? {}).filter((k) => record[k] != null).map((k) => [k, record[k]])));
  const form = useSchemaForm(view, schema, undefined, current);
  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{action.confirm ?? 'Deseja continuar a requisição?'}</DialogContentText>
        <SchemaForm entity={view} form={form} idPrefix="acao" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={() => form.checkAll() && onRun(form.data)}>Confirmar</Button>
      </DialogActions>
    </>
  );
}

export interface BulkTarget { ids: Identifier[]; name: (id: Identifier) => string; done: () => void }

export function ActionConfirm({ entity, action, record, bulk, onClose }: {
  entity: EntityMeta; action: ActionMeta | null; record: Record<string, unknown>; bulk?: BulkTarget; onClose: () => void;
}) {
  const dp = useDataProvider<RastroDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  // below route parameters (metadata params) the entity's API, actions included, lives under them
  const resource = useBound(entity)?.resource ?? entity.key;
  const run = async (payload?: Record<string, unknown>) => {
    const a = action!;
    onClose();
    try {
      if (bulk) {
        const results = await dp.runBulkAction(resource, a.name, bulk.ids, payload);
        const refused = results.some((r) => r.status >= 300);
        notify(bulkOutcome(a, results, bulk.name), { type: refused ? 'warning' : 'success', autoHideDuration: 8000, multiLine: true });
        bulk.done();
      } else {
        await dp.runAction(resource, record.id as Identifier, a.name, payload);
        notify('Ação executada', { type: 'success', autoHideDuration: 3000 });
      }
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: 'error', autoHideDuration: 3000 });
    }
  };
  return (
    <Dialog open={!!action} onClose={onClose} onClick={(e) => e.stopPropagation()} maxWidth="sm" fullWidth aria-labelledby="action-confirm-title">
      <DialogTitle id="action-confirm-title">ATENÇÃO</DialogTitle>
      {bulk && <DialogContent sx={{ pb: 0 }}><DialogContentText>{`${bulk.ids.length} ${bulk.ids.length === 1 ? 'registro selecionado' : 'registros selecionados'}`}</DialogContentText></DialogContent>}
      {action && hasPayload(action) ? (
        <PayloadForm key={action.name} entity={entity} action={action} record={record} onRun={(p) => void run(p)} onClose={onClose} />
      ) : (
        <>
          <DialogContent>
            <DialogContentText>{action?.confirm ?? 'Deseja continuar a requisição?'}</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancelar</Button>
            <Button variant="contained" onClick={() => void run()}>Confirmar</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
