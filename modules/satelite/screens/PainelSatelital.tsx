// Painel satelital (/esp/sat/painel): the company's satellite terminals (provider painel_satelite: vehicle, last
// communication, messages sent, pending and answered) and Enviar mensagem, which puts the message on the terminal's
// command queue (POST /api/satelite/mensagem, modules/satelite/server/mensagem.ts).
import { useEffect, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { useNotify, useRefresh } from 'react-admin';
import { call } from '../../../runtime/src/api/http';
import { model } from '../../../runtime/src/model';
import { ProviderList, providerByKey } from '../../../runtime/src/crud/lists/ProviderList';
import { useCan } from '../../../runtime/src/crud/lib/useCan';

const MAX_BYTES = 227; // the satellite link's limit (server/mensagem.ts)
const bytes = (s: string) => new TextEncoder().encode(s).length;

interface Terminal { serial: string; veiculo?: string | null }

function EnviarMensagem({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [terminais, setTerminais] = useState<Terminal[]>([]);
  const [serial, setSerial] = useState('');
  const [mensagem, setMensagem] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setMensagem('');
    call<Terminal[]>(`/api/painel_satelite?range=${encodeURIComponent('[0,499]')}&sort=${encodeURIComponent('["serial","ASC"]')}`)
      .then((t) => { setTerminais(t); setSerial((cur) => cur || t[0]?.serial || ''); }, (e: Error) => notify(e.message, { type: 'error' }));
  }, [open, notify]);
  const size = bytes(mensagem.trim());
  const send = async () => {
    setBusy(true);
    try {
      await call('/api/satelite/mensagem', { method: 'POST', body: JSON.stringify({ serial, mensagem }) });
      const t = terminais.find((x) => x.serial === serial);
      notify(`Mensagem posta na fila de comandos do terminal ${serial}${t?.veiculo ? ` (${t.veiculo})` : ''}`, { type: 'success' });
      refresh();
      onClose();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>Enviar mensagem</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField select label="Terminal" value={serial} onChange={(e) => setSerial(e.target.value)} required>
          {terminais.map((t) => <MenuItem key={t.serial} value={t.serial}>{t.veiculo ? `${t.serial} — ${t.veiculo}` : t.serial}</MenuItem>)}
        </TextField>
        <TextField label="Mensagem" value={mensagem} onChange={(e) => setMensagem(e.target.value)} multiline minRows={3} required
          error={size > MAX_BYTES} helperText={`${size} de ${MAX_BYTES} bytes; a mensagem vai para a fila de comandos e sai quando o terminal se comunicar`} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fechar</Button>
        <Button variant="contained" startIcon={<SendIcon />} disabled={busy || !serial || !size || size > MAX_BYTES} onClick={() => void send()}>Enviar</Button>
      </DialogActions>
    </Dialog>
  );
}

export default function PainelSatelital() {
  const screen = model.screens.find((s) => s.key === 'painel_satelital')!;
  const provider = providerByKey(screen.list!.provider)!;
  const { can } = useCan();
  const [open, setOpen] = useState(false);
  const toolbar = can('esp.sat.painel.enviar') ? (
    <Box sx={{ px: 2, py: 1, display: 'flex', justifyContent: 'flex-end' }}>
      <Button variant="contained" startIcon={<SendIcon />} onClick={() => setOpen(true)}>Enviar mensagem</Button>
    </Box>
  ) : undefined;
  return (
    <>
      <ProviderList provider={provider} title={screen.label} route={screen.route} toolbar={toolbar} />
      <EnviarMensagem open={open} onClose={() => setOpen(false)} />
    </>
  );
}
