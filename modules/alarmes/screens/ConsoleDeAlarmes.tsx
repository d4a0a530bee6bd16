// Console de alarmes (/tlm/evt/console_de_alarmes): the company's open and in-treatment alarms, loaded once from the
// provider `alarme` and then kept by the socket's `alarme` pushes (a new alarm, another operator's take or close) —
// no polling; loaded again when the socket re-joins its company room. Risk colour from the event library; optional
// sound on a new alarm (off by default, remembered per user in this browser). Take → write what was done → close.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert, Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Paper, Stack, Switch,
  Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import { Title } from 'react-admin';
import { call } from '../../../runtime/src/api/http';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { useLiveRows } from '../../../runtime/src/layout/useLiveRows';
import { aplicar, riscoDe, RISCO, visiveis, type Alarme } from './alarmes';

const PUSH_EVENT = 'alarme';
const URL = `/api/alarmes?range=${encodeURIComponent('[0,499]')}`;
const somKey = (usuario: number) => `rastro.alarmes.som.${usuario}`;

/** A short two-tone beep (Web Audio; nothing to download). */
function bip() {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext: typeof AudioContext }).webkitAudioContext;
    const ctx = new Ctx();
    [880, 660].forEach((f, i) => {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = f;
      g.gain.value = 0.15;
      o.connect(g).connect(ctx.destination);
      o.start(ctx.currentTime + i * 0.18);
      o.stop(ctx.currentTime + i * 0.18 + 0.15);
    });
    setTimeout(() => void ctx.close(), 800);
  } catch { /* no audio */ }
}

function useAlarmes(empresa: number | null, onNovo: (n: number) => void) {
  const novoRef = useRef(onNovo);
  novoRef.current = onNovo;
  return useLiveRows<Alarme, Alarme[]>({
    url: URL, event: PUSH_EVENT, empresa, erro: 'Erro ao carregar os alarmes',
    read: visiveis,
    apply: (cur, push) => {
      const r = aplicar(cur, push.rows);
      if (r.novos.length) queueMicrotask(() => novoRef.current(r.novos.length));
      return r.rows;
    },
  });
}

export default function ConsoleDeAlarmes() {
  const user = useSession();
  const empresa = user?.empresaAtiva ?? null;
  const usuario = user?.id ?? 0;
  const [som, setSom] = useState(() => { try { return localStorage.getItem(somKey(usuario)) === '1'; } catch { return false; } });
  useEffect(() => { try { setSom(localStorage.getItem(somKey(usuario)) === '1'); } catch { /* private mode */ } }, [usuario]);
  const somRef = useRef(som);
  somRef.current = som;
  const [chegaram, setChegaram] = useState(0);
  const { rows, erro, aoVivo, setRows } = useAlarmes(empresa, (n) => { setChegaram((x) => x + n); if (somRef.current) bip(); });
  const [msg, setMsg] = useState<{ tipo: 'success' | 'error'; texto: string } | null>(null);
  const [encerrar, setEncerrar] = useState<Alarme | null>(null);
  const [texto, setTexto] = useState('');
  const [enviando, setEnviando] = useState(false);

  const trocaSom = (v: boolean) => {
    setSom(v);
    try { localStorage.setItem(somKey(usuario), v ? '1' : '0'); } catch { /* private mode */ }
    if (v) bip();
  };
  const contagem = useMemo(() => {
    const c: Record<string, number> = {};
    for (const r of rows ?? []) { const k = r.risco ?? '-'; c[k] = (c[k] ?? 0) + 1; }
    return c;
  }, [rows]);

  const post = async (path: string, body: unknown, ok: string) => {
    setEnviando(true);
    try {
      const r = await call<Partial<Alarme>>(path, { method: 'POST', body: JSON.stringify(body) });
      setMsg({ tipo: 'success', texto: ok });
      return r;
    } catch (e) {
      setMsg({ tipo: 'error', texto: (e as Error).message });
      return null;
    } finally { setEnviando(false); }
  };
  const assumir = async (a: Alarme) => {
    const r = await post('/api/alarmes/assumir', { id: a.id }, `Alarme assumido: ${a.descricao}`);
    // the push brings the row too; this answers at once on this console
    if (r) setRows((cur) => cur && cur.map((x) => (x.id === a.id ? { ...x, situacao: 'assumido', assumidoPorId: usuario, assumidoPor: String(r.assumidoPor ?? ''), assumidoEm: String(r.assumidoEm ?? '') } : x)));
  };
  const liberar = async (a: Alarme) => {
    const r = await post('/api/alarmes/liberar', { id: a.id }, `Alarme liberado: ${a.descricao} — ${a.placa ?? a.serial} volta a ficar aberto para outro operador`);
    if (r) setRows((cur) => cur && cur.map((x) => (x.id === a.id ? { ...x, situacao: 'aberto', assumidoPorId: null, assumidoPor: null, assumidoEm: null } : x)));
  };
  const confirmaEncerrar = async () => {
    if (!encerrar) return;
    const r = await post('/api/alarmes/encerrar', { id: encerrar.id, tratamento: texto }, `Alarme encerrado: ${encerrar.descricao}`);
    if (r) {
      const id = encerrar.id;
      setRows((cur) => cur && cur.filter((x) => x.id !== id));
      setEncerrar(null);
      setTexto('');
    }
  };

  return (
    <Box sx={{ p: 2 }} data-testid="console-alarmes">
      <Title title="Console de alarmes" />
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6">Console de alarmes</Typography>
        {[...Object.keys(RISCO), '-'].filter((k) => contagem[k]).map((k) => {
          const r = riscoDe(k === '-' ? null : k);
          return <Chip key={k} label={`${r.label}: ${contagem[k]}`} sx={{ bgcolor: r.cor, color: r.texto }} size="small" />;
        })}
        <Chip size="small" variant="outlined" color={aoVivo ? 'success' : 'default'} label={aoVivo ? 'Ao vivo' : 'Conectando…'} data-testid="ao-vivo" />
        {chegaram > 0 && <Typography variant="body2" color="text.secondary">{chegaram} novo(s) desde a abertura</Typography>}
        <Box sx={{ flex: 1 }} />
        <FormControlLabel control={<Switch checked={som} onChange={(e) => trocaSom(e.target.checked)} inputProps={{ 'aria-label': 'Som' }} />} label="Som ao chegar um alarme" />
      </Stack>
      {msg && <Alert severity={msg.tipo} onClose={() => setMsg(null)} sx={{ mb: 2 }}>{msg.texto}</Alert>}
      {erro && <Alert severity="error" sx={{ mb: 2 }}>{erro}</Alert>}
      <Paper variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Risco</TableCell>
              <TableCell>Data do evento</TableCell>
              <TableCell>Placa</TableCell>
              <TableCell>Ativo</TableCell>
              <TableCell>Alarme</TableCell>
              <TableCell>Situação</TableCell>
              <TableCell align="right">Ações</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows === null && <TableRow><TableCell colSpan={7}>Carregando…</TableCell></TableRow>}
            {rows?.length === 0 && <TableRow><TableCell colSpan={7}>Nenhum alarme aberto nos últimos 7 dias</TableCell></TableRow>}
            {rows?.map((a) => {
              const r = riscoDe(a.risco);
              const meu = a.situacao === 'assumido' && a.assumidoPorId === usuario;
              return (
                <TableRow key={a.id} data-testid="alarme" data-id={a.id} sx={{ borderLeft: `6px solid ${r.cor}` }}>
                  <TableCell><Chip size="small" label={r.label} sx={{ bgcolor: r.cor, color: r.texto, fontWeight: 600 }} /></TableCell>
                  <TableCell>{formatDateTime(a.dataEvento)}</TableCell>
                  <TableCell>{a.placa ?? '—'}</TableCell>
                  <TableCell>{a.ativoDescricao ?? a.serial}</TableCell>
                  <TableCell>{a.descricao}</TableCell>
                  <TableCell data-testid="situacao">
                    {a.situacao === 'aberto' ? <Chip size="small" color="error" variant="outlined" label="Aberto" />
                      : <Chip size="small" color="info" label={`Em tratamento por ${a.assumidoPor ?? '—'}`} />}
                  </TableCell>
                  <TableCell align="right">
                    {a.situacao === 'aberto' && <Button size="small" variant="contained" disabled={enviando} onClick={() => void assumir(a)}>Assumir</Button>}
                    {meu && <Button size="small" disabled={enviando} onClick={() => void liberar(a)} title="Devolve o alarme para que outro operador o assuma" sx={{ mr: 1 }}>Liberar</Button>}
                    {meu && <Button size="small" variant="contained" color="success" disabled={enviando} onClick={() => { setEncerrar(a); setTexto(''); }}>Encerrar</Button>}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Paper>
      <Dialog open={!!encerrar} onClose={() => setEncerrar(null)} fullWidth maxWidth="sm">
        <DialogTitle>Encerrar alarme</DialogTitle>
        <DialogContent>
          {encerrar && (
            <Typography variant="body2" sx={{ mb: 2 }}>
              {encerrar.descricao} — {encerrar.placa ?? encerrar.serial} — {formatDateTime(encerrar.dataEvento)}
            </Typography>
          )}
          <TextField label="Tratamento" required multiline minRows={3} fullWidth autoFocus value={texto}
            onChange={(e) => setTexto(e.target.value)} helperText="Descreva o que foi feito" inputProps={{ maxLength: 2000 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setEncerrar(null)}>Fechar</Button>
          <Button variant="contained" disabled={!texto.trim() || enviando} onClick={() => void confirmaEncerrar()}>Encerrar</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
