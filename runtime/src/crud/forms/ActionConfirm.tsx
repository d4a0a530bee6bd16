// The 'ATENÇÃO' dialog of an entity action (metadata actions), shared by the list's row buttons and the record form:
// the action's confirm text and, when its payload schema has properties (e.g. lote.altera, armazem.define_status),
// a form of that schema (the entity's widgets, pt-BR messages, the record's current values first); Confirmar runs
// POST /api/{key}/{id}/{action} with the payload; for the list's selected rows (`bulk`, BulkActions) POST
// /api/{key}/{action} { ids, payload } and a notification of the outcome per row.
import { lazy, Suspense } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useDataProvider, useNotify, useRefresh, type Identifier } from 'react-admin';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import type { RastroDataProvider } from '../../api/dataProvider';
import { bulkOutcome } from '../lib/bulk';
import { useBound } from '../lib/params';
import { hasPayload } from '../lib/actions';
import { Loading } from '../widgets/Loading';

const PayloadForm = lazy(() => import('./PayloadForm'));

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
        <Suspense fallback={<Loading />}>
          <PayloadForm key={action.name} entity={entity} action={action} record={record} onRun={(p) => void run(p)} onClose={onClose} />
        </Suspense>
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
