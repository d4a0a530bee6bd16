// The asset's Equipamento tab (metadata ativo record, group screen vinculo_ativo; also /tlm/fro/ativo/:id/equipamento/vinculos):
// the devices linked now, each opening its own tabs, Desvincular (ends that link, keeps the history) and Vincular
// (a picker of the company's registered devices, searched by serial/IMEI/model/SIM card, saying which are in
// another vehicle). The server refuses a second open link of a device or of a kind on the vehicle (409).
import { useEffect, useState } from 'react';
import {
  Alert, Box, Button, Card, CardContent, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Divider, InputAdornment,
  List, ListItemButton, ListItemText, Stack, TextField, Typography,
} from '@mui/material';
import LinkIcon from '@mui/icons-material/Link';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import SearchIcon from '@mui/icons-material/Search';
import { Title, useGetOne, useNotify, useRefresh } from 'react-admin';
import { useParams } from 'react-router-dom';
import { PanelHeader } from '../../../runtime/src/crud/widgets/PanelHeader';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { ConfirmDialog, devices, link, modelLabel, unlink, useLinks, vehicle, type Device, type Row } from './vinculo';

interface Props { record?: Row; title?: string; openEntry?: (entry: string) => void }

export default function VinculoAtivo(props: Props) {
  const params = useParams();
  const standalone = !props.record;
  const wanted = /^\d+$/.test(params.id ?? '') ? Number(params.id) : null;
  const { data: fetched, isPending, error: notFound } = useGetOne<Row & { id: number }>('ativo', { id: wanted ?? 0 }, { enabled: standalone && wanted != null });
  const ativo = props.record ?? fetched;
  const ativoId = ativo?.id != null ? Number(ativo.id) : undefined;
  const { links, error, reload } = useLinks(ativoId);
  const { can } = useCan();
  const notify = useNotify();
  const refresh = useRefresh();
  const [picking, setPicking] = useState(false);
  const [ending, setEnding] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);
  const nome = ativo ? vehicle(ativo.descricao, ativo.placa) : '';
  const title = props.title ?? `Equipamentos do ativo${nome ? `: ${nome}` : ''}`;
  const done = () => { reload(); refresh(); };

  const desvincular = async () => {
    if (!ending) return;
    setBusy(true);
    try {
      await unlink(Number(ending.equipamentoId));
      notify(`Equipamento ${String(ending.serial)} desvinculado do ativo ${nome}`, { type: 'success' });
      setEnding(null);
      done();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally { setBusy(false); }
  };

  return (
    <Card>
      <Title title={title} />
      <PanelHeader title={title} />
      <Divider />
      <CardContent sx={{ px: 3 }}>
        {!ativo && (standalone && (wanted == null || notFound || !isPending)
          ? <Typography>Ativo {params.id} não encontrado nesta empresa.</Typography>
          : <Typography color="text.secondary">Aguarde montando dados...</Typography>)}
        {ativo && <Stack spacing={2}>
          <Typography color="text.secondary">
            Equipamentos vinculados ao ativo {nome}: as posições deles aparecem neste ativo e os comandos do ativo (como Bloquear motor) vão para eles.
          </Typography>
          {error && <Alert severity="error">{error}</Alert>}
          {links && !links.length && <Typography data-testid="vinculo-vazio">Nenhum equipamento vinculado a este ativo.</Typography>}
          {(links ?? []).map((l) => (
            <Box key={String(l.id)} data-testid="vinculo-linha" sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
              <Box sx={{ flex: 1, minWidth: 240 }}>
                <Typography sx={{ fontWeight: 600 }}>{String(l.serial)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {[l.modelo, l.tecnologia].filter(Boolean).join(' · ')} · vinculado desde {formatDateTime(l.dataInicio as string)} · última comunicação: {formatDateTime(l.ultimaComunicacao as string | null)}
                </Typography>
              </Box>
              {props.openEntry && <Button variant="outlined" onClick={() => props.openEntry!(String(l.serial))}>Abrir equipamento</Button>}
              {can('adm.cfg.equipamentos.remover_equipamento') && l.equipamentoId != null && (
                <Button variant="outlined" color="warning" startIcon={<LinkOffIcon />} onClick={() => setEnding(l)}>Desvincular</Button>
              )}
            </Box>
          ))}
          {can('adm.cfg.equipamentos.vinculo.adicionar') && ativoId != null && (
            <Box>
              <Button variant="contained" startIcon={<LinkIcon />} onClick={() => setPicking(true)}>Vincular equipamento</Button>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Vincular escolhe um equipamento cadastrado nesta empresa e o liga ao ativo {nome} a partir de agora.
              </Typography>
            </Box>
          )}
        </Stack>}
      </CardContent>
      <ConfirmDialog
        open={!!ending}
        title="Desvincular equipamento"
        confirm="Desvincular"
        busy={busy}
        onClose={() => setEnding(null)}
        onConfirm={() => void desvincular()}
      >
        Desvincular encerra agora o vínculo do equipamento {String(ending?.serial ?? '')} com o ativo {nome}. O histórico do vínculo é mantido;
        o ativo deixa de receber comandos e posições por este equipamento, que fica livre para outro ativo.
      </ConfirmDialog>
      {picking && ativoId != null && (
        <DevicePicker ativoId={ativoId} nome={nome} onClose={() => setPicking(false)} onLinked={(serial) => { setPicking(false); notify(`Equipamento ${serial} vinculado ao ativo ${nome}`, { type: 'success' }); done(); }} />
      )}
    </Card>
  );
}

/** Picks a registered device of the company and links it to the asset (Vincular). */
function DevicePicker({ ativoId, nome, onClose, onLinked }: { ativoId: number; nome: string; onClose: () => void; onLinked: (serial: string) => void }) {
  const [q, setQ] = useState('');
  const [rows, setRows] = useState<Device[] | null>(null);
  const [chosen, setChosen] = useState<Device | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => { devices({ q: q.trim() }).then((r) => live && setRows(r)).catch((e: Error) => live && setError(e.message)); }, 250);
    return () => { live = false; clearTimeout(t); };
  }, [q]);
  const elsewhere = chosen?.ativoId != null && chosen.ativoId !== ativoId;
  const save = async () => {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      await link(chosen.serial, ativoId);
      onLinked(chosen.serial);
    } catch (e) {
      setError((e as Error).message);
    } finally { setBusy(false); }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="vinculo-picker-title">
      <DialogTitle id="vinculo-picker-title">Vincular equipamento ao ativo {nome}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus fullWidth size="small" margin="dense" label="Pesquisar por serial, IMEI, modelo ou SIM card" value={q}
          onChange={(e) => { setQ(e.target.value); setChosen(null); }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
        />
        <List dense sx={{ maxHeight: 320, overflow: 'auto', mt: 1 }} aria-label="Equipamentos">
          {rows && !rows.length && <Typography sx={{ p: 1 }} color="text.secondary">Nenhum equipamento cadastrado encontrado</Typography>}
          {(rows ?? []).map((d) => (
            <ListItemButton key={d.id} selected={chosen?.id === d.id} onClick={() => setChosen(d)} data-serial={d.serial}>
              <ListItemText
                primary={d.serial}
                secondary={`${modelLabel(d)}${d.simcard ? ` · SIM ${d.simcard}` : ''}`}
              />
              {d.ativoId == null
                ? <Chip size="small" color="success" variant="outlined" label="Livre" />
                : <Chip size="small" color={d.ativoId === ativoId ? 'default' : 'warning'} variant="outlined" label={d.ativoId === ativoId ? 'Já neste ativo' : `No ativo ${vehicle(d.ativoDescricao, d.placa)}`} />}
            </ListItemButton>
          ))}
        </List>
        {chosen && (
          <Typography sx={{ mt: 1 }} data-testid="vinculo-frase">
            {elsewhere
              ? `O equipamento ${chosen.serial} está no ativo ${vehicle(chosen.ativoDescricao, chosen.placa)}: desvincule-o de lá antes de vinculá-lo ao ativo ${nome}.`
              : `Vincula o equipamento ${chosen.serial} (${modelLabel(chosen)}) ao ativo ${nome} a partir de agora: as posições e os comandos do ativo passam por ele.`}
          </Typography>
        )}
        {error && <Alert severity="error" sx={{ mt: 1 }}>{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" disabled={!chosen || elsewhere || chosen.ativoId === ativoId || busy} onClick={() => void save()}>Vincular</Button>
      </DialogActions>
    </Dialog>
  );
}
