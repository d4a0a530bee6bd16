// Painéis (/rel/ges/paineis): the user's own dashboards (register painel: owner = the user, in the active company),
// each a grid of widgets (../widgets.ts) the user adds, removes, reorders and sets the period of; every change is saved
// at once (PUT /api/painel/{id}). The Grafana widget is offered only when the server has Grafana configured.
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Grid, IconButton, ListItemText, Menu, MenuItem,
  Select, Tab, Tabs, TextField, Tooltip, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Title, useNotify } from 'react-admin';
import { call } from '../../../runtime/src/api/http';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { PAINEL_PADRAO, PERIODOS, TIPOS, type Periodo, type TipoWidget, type Widget } from '../widgets';
import { useAgora, useFrotaAoVivo } from './dados';
import { ConteudoWidget, periodoDe, Quadro, tituloDe, type Contexto } from './widgets';
import { CabecalhoAoVivo } from './GestaoAVista';

interface Painel { id: number; nome: string; widgets: Widget[] }

const LISTA = `/api/painel?range=[0,99]&sort=${encodeURIComponent('["id","ASC"]')}`;

function NomeDialog({ aberto, inicial, titulo, onClose, onSave }: { aberto: boolean; inicial: string; titulo: string; onClose: () => void; onSave: (nome: string) => void }) {
  const [nome, setNome] = useState(inicial);
  useEffect(() => setNome(inicial), [inicial, aberto]);
  const ok = nome.trim().length > 0;
  return (
    <Dialog open={aberto} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{titulo}</DialogTitle>
      <DialogContent>
        <TextField autoFocus fullWidth margin="dense" label="Nome" value={nome} inputProps={{ maxLength: 80 }}
          onChange={(e) => setNome(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter' && ok) onSave(nome.trim()); }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fechar</Button>
        <Button variant="contained" disabled={!ok} onClick={() => onSave(nome.trim())}>Salvar</Button>
      </DialogActions>
    </Dialog>
  );
}

function GrafanaDialog({ aberto, onClose, onSave }: { aberto: boolean; onClose: () => void; onSave: (w: Widget) => void }) {
  const [paineis, setPaineis] = useState<{ uid: string; titulo: string }[]>([]);
  const [uid, setUid] = useState('');
  const [panelId, setPanelId] = useState('1');
  useEffect(() => { if (aberto) call<{ uid: string; titulo: string }[]>('/api/wkd/grafana/paineis').then(setPaineis, () => setPaineis([])); }, [aberto]);
  const ok = /^[A-Za-z0-9_-]{1,64}$/.test(uid) && /^[1-9]\d{0,5}$/.test(panelId);
  return (
    <Dialog open={aberto} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Painel Grafana</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        {paineis.length > 0
          ? <Select size="small" displayEmpty value={uid} onChange={(e) => setUid(String(e.target.value))} aria-label="Painel">
              <MenuItem value="" disabled>Selecione o painel</MenuItem>
              {paineis.map((p) => <MenuItem key={p.uid} value={p.uid}>{p.titulo}</MenuItem>)}
            </Select>
          : <TextField size="small" label="Identificador (uid) do painel" value={uid} onChange={(e) => setUid(e.target.value.trim())} />}
        <TextField size="small" label="Número do gráfico (panelId)" value={panelId} onChange={(e) => setPanelId(e.target.value.trim())} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fechar</Button>
        <Button variant="contained" disabled={!ok} onClick={() => onSave({ tipo: 'grafana', periodo: 'ultimos_7_dias', painel: uid, panelId: Number(panelId) })}>Confirmar</Button>
      </DialogActions>
    </Dialog>
  );
}

export default function Paineis() {
  const user = useSession();
  const empresa = user?.empresaAtiva ?? null;
  const notify = useNotify();
  const { can } = useCan();
  const [paineis, setPaineis] = useState<Painel[] | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const [atual, setAtual] = useState<number | null>(null);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [dialogo, setDialogo] = useState<'novo' | 'renomear' | 'grafana' | null>(null);
  const [grafana, setGrafana] = useState(false);
  const { rows, aoVivo, atualizado } = useFrotaAoVivo(empresa);
  const agora = useAgora();
  const ctx: Contexto = useMemo(() => ({ empresa, frota: rows, agora, podeMonitorar: can('rel.ges.gestao_a_vista.monitoramento'), podeAmbiente: can('rel.ges.gestao_a_vista.ambiente') }), [empresa, rows, agora, can]);

  const carregar = useCallback(async () => {
    try {
      const r = await call<Painel[]>(LISTA);
      setPaineis(r);
      setAtual((a) => (a != null && r.some((p) => p.id === a) ? a : r[0]?.id ?? null));
      setErro(null);
    } catch (e) { setErro((e as Error).message); }
  }, []);
  useEffect(() => { setPaineis(null); void carregar(); }, [carregar, empresa]);
  useEffect(() => { call<{ ativo: boolean }>('/api/wkd/grafana/config').then((r) => setGrafana(!!r?.ativo), () => setGrafana(false)); }, []);

  const painel = paineis?.find((p) => p.id === atual) ?? null;

  const salvar = async (p: Painel, mudanca: Partial<Painel>) => {
    const novo = { ...p, ...mudanca };
    setPaineis((cur) => cur?.map((x) => (x.id === p.id ? novo : x)) ?? cur);
    try {
      await call(`/api/painel/${p.id}`, { method: 'PUT', body: JSON.stringify({ nome: novo.nome, widgets: novo.widgets }) });
    } catch (e) {
      notify((e as Error).message || 'Erro ao salvar o painel', { type: 'error' });
      void carregar();
    }
  };
  const criar = async (nome: string) => {
    setDialogo(null);
    try {
      const r = await call<Painel>('/api/painel', { method: 'POST', body: JSON.stringify({ nome, widgets: PAINEL_PADRAO }) });
      await carregar();
      if (r?.id) setAtual(r.id);
    } catch (e) { notify((e as Error).message || 'Erro ao criar o painel', { type: 'error' }); }
  };
  const excluir = async (p: Painel) => {
    if (!window.confirm(`Excluir o painel "${p.nome}"?`)) return;
    try { await call(`/api/painel/${p.id}`, { method: 'DELETE' }); setAtual(null); await carregar(); } catch (e) { notify((e as Error).message, { type: 'error' }); }
  };
  const adicionar = (tipo: TipoWidget) => {
    setMenu(null);
    if (!painel) return;
    if (tipo === 'grafana') { setDialogo('grafana'); return; }
    void salvar(painel, { widgets: [...painel.widgets, TIPOS[tipo].periodo ? { tipo, periodo: 'ultimos_7_dias' } : { tipo }] });
  };
  const mover = (i: number, d: -1 | 1) => {
    if (!painel) return;
    const w = [...painel.widgets];
    const j = i + d;
    if (j < 0 || j >= w.length) return;
    [w[i], w[j]] = [w[j]!, w[i]!];
    void salvar(painel, { widgets: w });
  };
  const remover = (i: number) => painel && void salvar(painel, { widgets: painel.widgets.filter((_, k) => k !== i) });
  const periodo = (i: number, p: Periodo) => painel && void salvar(painel, { widgets: painel.widgets.map((w, k) => (k === i ? { ...w, periodo: p } : w)) });

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="paineis">
      <Title title="Painéis" />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h5" sx={{ fontWeight: 600 }}>Painéis</Typography>
        <CabecalhoAoVivo aoVivo={aoVivo} atualizado={atualizado} />
        <Box sx={{ flex: 1 }} />
        {painel && <Button startIcon={<AddIcon />} variant="contained" onClick={(e) => setMenu(e.currentTarget)} data-testid="adicionar-widget">Adicionar widget</Button>}
        {painel && <Tooltip title="Renomear painel"><IconButton onClick={() => setDialogo('renomear')} aria-label="Renomear painel"><EditIcon /></IconButton></Tooltip>}
        {painel && <Tooltip title="Excluir painel"><IconButton onClick={() => void excluir(painel)} aria-label="Excluir painel"><DeleteIcon /></IconButton></Tooltip>}
        <Button startIcon={<AddIcon />} onClick={() => setDialogo('novo')} data-testid="novo-painel">Novo painel</Button>
      </Box>
      <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
        {(Object.keys(TIPOS) as TipoWidget[]).filter((t) => t !== 'grafana' || grafana).map((t) => (
          <MenuItem key={t} onClick={() => adicionar(t)} data-tipo={t}><ListItemText primary={TIPOS[t].label} /></MenuItem>
        ))}
      </Menu>
      {erro && <Alert severity="error" sx={{ mb: 2 }}>{erro}</Alert>}
      {paineis && paineis.length > 1 && (
        <Tabs value={atual ?? false} onChange={(_, v) => setAtual(v as number)} sx={{ mb: 2 }} variant="scrollable">
          {paineis.map((p) => <Tab key={p.id} value={p.id} label={p.nome} sx={{ textTransform: 'none' }} />)}
        </Tabs>
      )}
      {paineis && paineis.length === 1 && <Typography variant="subtitle1" color="text.secondary" sx={{ mb: 2 }}>{paineis[0]!.nome}</Typography>}
      {paineis && !paineis.length && (
        <Box sx={{ textAlign: 'center', py: 6 }} data-testid="paineis-vazio">
          <Typography variant="h6">Você ainda não tem painéis</Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>Crie um painel com a situação da frota, a distância, os eventos e os rankings, e ajuste os widgets como preferir.</Typography>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => void criar('Meu painel')} data-testid="criar-primeiro">Criar meu painel</Button>
        </Box>
      )}
      {painel && !painel.widgets.length && <Alert severity="info">Painel vazio: use “Adicionar widget”.</Alert>}
      {painel && (
        <Grid container spacing={2} data-testid="grade">
          {painel.widgets.map((w, i) => (
            <Grid key={`${painel.id}-${i}-${w.tipo}`} size={{ xs: 12, lg: 6 }} data-widget={w.tipo} data-posicao={i}>
              <Quadro titulo={tituloDe(w)} testid={`widget-${i}`} acoes={
                <Box sx={{ display: 'flex', alignItems: 'center' }}>
                  {TIPOS[w.tipo]?.periodo
                    ? <Select size="small" variant="standard" value={periodoDe(w)} onChange={(e) => periodo(i, e.target.value as Periodo)} aria-label="Período" sx={{ fontSize: 13, mr: 0.5 }} disableUnderline>
                        {(Object.keys(PERIODOS) as Periodo[]).map((p) => <MenuItem key={p} value={p}>{PERIODOS[p]}</MenuItem>)}
                      </Select>
                    : <Typography variant="caption" color="text.secondary" sx={{ mr: 1 }}>Agora</Typography>}
                  <Tooltip title="Mover para antes"><span><IconButton size="small" disabled={i === 0} onClick={() => mover(i, -1)} aria-label="Mover para antes"><ArrowBackIcon fontSize="small" /></IconButton></span></Tooltip>
                  <Tooltip title="Mover para depois"><span><IconButton size="small" disabled={i === painel.widgets.length - 1} onClick={() => mover(i, 1)} aria-label="Mover para depois"><ArrowForwardIcon fontSize="small" /></IconButton></span></Tooltip>
                  <Tooltip title="Remover widget"><IconButton size="small" onClick={() => remover(i)} aria-label="Remover widget"><CloseIcon fontSize="small" /></IconButton></Tooltip>
                </Box>
              }>
                <ConteudoWidget w={w} ctx={ctx} />
              </Quadro>
            </Grid>
          ))}
        </Grid>
      )}
      <NomeDialog aberto={dialogo === 'novo'} inicial="" titulo="Novo painel" onClose={() => setDialogo(null)} onSave={(n) => void criar(n)} />
      <NomeDialog aberto={dialogo === 'renomear'} inicial={painel?.nome ?? ''} titulo="Renomear painel" onClose={() => setDialogo(null)}
        onSave={(n) => { setDialogo(null); if (painel) void salvar(painel, { nome: n }); }} />
      <GrafanaDialog aberto={dialogo === 'grafana'} onClose={() => setDialogo(null)} onSave={(w) => { setDialogo(null); if (painel) void salvar(painel, { widgets: [...painel.widgets, w] }); }} />
    </Box>
  );
}
