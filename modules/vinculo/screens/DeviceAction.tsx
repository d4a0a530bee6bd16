// The spec's asset-tab paths below /adm/cfg/equipamentos (Restart SIM card, Remove equipment): the device named by
// the route, the vehicle it is linked to now, a sentence saying what the action does to which SIM/line and vehicle,
// and the action behind its confirmation.
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, CardContent, Divider, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { Title, useNotify } from 'react-admin';
import { PanelHeader } from '../../../runtime/src/crud/widgets/PanelHeader';
import { Loading } from '../../../runtime/src/crud/widgets/Loading';
import { ConfirmDialog, deviceOf, type Device } from './vinculo';

export function useDevice(key: string | undefined) {
  const [state, setState] = useState<{ device: Device | null; error: string | null; loading: boolean }>({ device: null, error: null, loading: true });
  const [n, setN] = useState(0);
  useEffect(() => {
    if (!key) return;
    deviceOf(key).then((device) => setState({ device, error: null, loading: false })).catch((e: Error) => setState({ device: null, error: e.message, loading: false }));
  }, [key, n]);
  return { ...state, reload: () => setN((x) => x + 1) };
}

export function DeviceActionPanel({ title, loading, error, notFound, what, confirmTitle, confirm, button, disabled, run, after }: {
  title: string; loading: boolean; error: string | null; notFound: string | null; what: ReactNode; confirmTitle: string; confirm: ReactNode;
  button: string; disabled?: boolean; run: () => Promise<string>; after?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  return (
    <Card>
      <Title title={title} />
      <PanelHeader title={title} />
      <Divider />
      <CardContent sx={{ px: 3 }}>
        {loading ? <Loading /> : error ? <Alert severity="error">{error}</Alert> : notFound ? <Alert severity="warning">{notFound}</Alert> : (
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Typography data-testid="acao-frase">{what}</Typography>
            <Button variant="contained" color="warning" disabled={disabled} onClick={() => setOpen(true)}>{button}</Button>
            {after}
          </Stack>
        )}
      </CardContent>
      <ConfirmDialog open={open} title={confirmTitle} confirm={button} busy={busy} onClose={() => setOpen(false)} onConfirm={async () => {
        setBusy(true);
        try {
          notify(await run(), { type: 'success', autoHideDuration: 6000 });
          setOpen(false);
        } catch (e) {
          notify((e as Error).message, { type: 'error' });
        } finally { setBusy(false); }
      }}>
        {confirm}
      </ConfirmDialog>
    </Card>
  );
}

export const QueueLink = ({ serial }: { serial: string }) => (
  <Button component={RouterLink} to={`/adm/cfg/equipamentos/${encodeURIComponent(serial)}/fila_processamento`} size="small">Ver fila de processamento do equipamento</Button>
);
