// The 'ATENÇÃO' dialog of an entity action (metadata actions), shared by the list's row buttons and the record form:
// the action's confirm text and, when its payload schema has properties (e.g. lote.altera, armazem.define_status),
// a form of that schema (the entity's widgets, pt-BR messages, the record's current values first); Confirmar runs
// POST /api/{key}/{id}/{action} with the payload; for the list's selected rows (`bulk`, BulkActions) POST
// /api/{key}/{action} { ids, payload } and a notification of the outcome per row. An action with a guard (metadata
// actions[].guard) names the record and shows its live state (GuardPanel), asking for the typed plate when it moves.
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useDataProvider, useNotify, useRefresh, type Identifier } from 'react-admin';
import type { ActionMeta, EntityMeta } from '../../../../shared/model';
import type { RastroDataProvider } from '../../api/dataProvider';
import { bulkOutcome } from '../lib/bulk';
import { useBound } from '../lib/params';
import { actionOutcome, confirmText, hasPayload, recordName } from '../lib/actions';
import { GuardPanel, type GuardValue } from './GuardPanel';
import { Loading } from '../widgets/Loading';
import { SecretDialog } from '../widgets/SecretDialog';

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
  const guarded = !!action?.guard && !bulk;
  const [guard, setGuard] = useState<GuardValue>({ ready: false });
  // An action answering a new secret (metadata secretToken, e.g. the public link's Copiar link) shows it this once.
  const secretField = entity.fields.find((f) => f.secretToken);
  const [secret, setSecret] = useState<string>();
  const onGuard = useCallback((v: GuardValue) => setGuard(v), []);
  useEffect(() => { if (!action) setGuard({ ready: false }); }, [action]);
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
        const answer = await dp.runAction(resource, record.id as Identifier, a.name, payload);
        const token = secretField && (answer as Record<string, unknown> | null)?.[secretField.name];
        if (typeof token === 'string') setSecret(token);
        const msg = actionOutcome(a, recordName(entity, a, record), answer);
        notify(msg, { type: 'success', autoHideDuration: msg === 'Ação executada' ? 3000 : 8000, multiLine: true });
      }
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: 'error', autoHideDuration: 3000 });
    }
  };
  return (<>
    {secret && secretField && <SecretDialog field={secretField} value={secret} onClose={() => setSecret(undefined)} />}
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
            {guarded && <GuardPanel key={`${action!.name}:${String(record.id)}`} entity={entity} action={action!} record={record} onChange={onGuard} />}
            <DialogContentText>{action ? confirmText(entity, action, record) : ''}</DialogContentText>
            {bulk && action?.guard?.typed && action.guard.speedAbove != null && (
              <DialogContentText sx={{ mt: 1 }}>{`Veículos em movimento acima de ${action.guard.speedAbove} km/h não são atendidos em lote: abra cada um e confirme digitando a placa.`}</DialogContentText>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancelar</Button>
            <Button variant="contained" disabled={guarded && !guard.ready}
              onClick={() => void run(guarded && guard.confirmacao !== undefined ? { confirmacao: guard.confirmacao } : undefined)}>Confirmar</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  </>);
}
