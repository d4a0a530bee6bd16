// Download de vídeo (/tlm/vid/download): choose an asset with a camera, a channel and a period; "Buscar" lists the
// device's recordings (CMSV6 getVideoFileInfo through the server); "Solicitar download" keeps a request whose
// recording then downloads through the server's proxy (never the CMSV6 address); "Solicitar clipe" asks the device
// for a clip of the period. The company's recent requests below with their state (/tlm/vid/historico_video), read
// again when the server pushes a clip's change (video_solicitacao).
import { useCallback, useEffect, useState } from 'react';
import {
  Alert, Box, Button, Chip, FormControl, InputLabel, Link, MenuItem, Paper, Select, Stack, Table, TableBody, TableCell,
  TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import { Title } from 'react-admin';
import { call } from '../../../runtime/src/api/http';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { JOINED, onPush } from '../../../runtime/src/layout/Realtime';
import { EVENTO_SOLICITACAO } from '../situacao-evento';

interface Ativo { id: number; descricao: string; placa: string | null; serial: string; online: boolean | null; canais: string[] }
interface Gravacao { arquivo: string; inicio: string; fim: string; tamanho: number; canal: number }
interface Solicitacao { id: number; descricao: string; tipo: string; canal: number; inicio: string; fim: string; situacao: string; mensagem: string | null; createdAt: string }

const SITUACAO: Record<string, { label: string; cor: 'default' | 'success' | 'error' | 'info' }> = {
  solicitado: { label: 'Solicitado', cor: 'info' }, disponivel: { label: 'Disponível', cor: 'success' }, falhou: { label: 'Falhou', cor: 'error' },
};
/** A datetime-local value (local time) and back. */
const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
const iso = (v: string) => new Date(v).toISOString();

export default function DownloadVideo() {
  const [ativos, setAtivos] = useState<Ativo[] | null>(null);
  const [ativoId, setAtivoId] = useState<number | ''>('');
  const [canal, setCanal] = useState(1);
  const [inicio, setInicio] = useState(() => local(new Date(Date.now() - 3600_000)));
  const [fim, setFim] = useState(() => local(new Date()));
  const [gravacoes, setGravacoes] = useState<Gravacao[] | null>(null);
  const [msg, setMsg] = useState<{ tipo: 'success' | 'error'; texto: string } | null>(null);
  const [ocupado, setOcupado] = useState(false);
  const [recentes, setRecentes] = useState<Solicitacao[] | null>(null);

  useEffect(() => {
    call<{ ativos: Ativo[] }>('/api/video/ativos').then((r) => { setAtivos(r.ativos); if (r.ativos.length) setAtivoId(r.ativos[0]!.id); })
      .catch((e) => { setAtivos([]); setMsg({ tipo: 'error', texto: (e as Error).message }); });
  }, []);
  const carregaRecentes = useCallback(() => {
    call<Solicitacao[]>(`/api/solicitacao_video?sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,9]')}`)
      .then((r) => setRecentes(Array.isArray(r) ? r : [])).catch(() => setRecentes(null));
  }, []);
  // a clip's state changes on the server (solicitado → disponível / falhou, modules/video/server/clipes.ts): pushed, the
  // list is read again then (and when the socket rejoins) — no polling here
  useEffect(() => {
    carregaRecentes();
    const offs = [onPush(EVENTO_SOLICITACAO, carregaRecentes), onPush(JOINED, carregaRecentes)];
    return () => offs.forEach((off) => off());
  }, [carregaRecentes]);
  const ativo = ativos?.find((a) => a.id === ativoId) ?? null;
  const periodo = () => ({ ativoId, canal, inicio: iso(inicio), fim: iso(fim) });

  const buscar = async () => {
    setOcupado(true); setMsg(null); setGravacoes(null);
    try {
      const r = await call<{ gravacoes: Gravacao[] }>('/api/video/gravacoes', { method: 'POST', body: JSON.stringify(periodo()) });
      setGravacoes(r.gravacoes);
    } catch (e) { setMsg({ tipo: 'error', texto: (e as Error).message }); } finally { setOcupado(false); }
  };
  const solicitar = async (corpo: Record<string, unknown>, ok: string) => {
    setOcupado(true); setMsg(null);
    try {
      await call('/api/video/solicitacoes', { method: 'POST', body: JSON.stringify(corpo) });
      setMsg({ tipo: 'success', texto: ok });
    } catch (e) { setMsg({ tipo: 'error', texto: (e as Error).message }); } finally { setOcupado(false); carregaRecentes(); }
  };

  return (
    <Box sx={{ p: 2 }} data-testid="download-video">
      <Title title="Download de vídeo" />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
          <FormControl size="small" sx={{ minWidth: 260 }}>
            <InputLabel id="dl-ativo">Ativo</InputLabel>
            <Select labelId="dl-ativo" label="Ativo" value={ativos?.length ? ativoId : ''} onChange={(e) => { setAtivoId(Number(e.target.value)); setCanal(1); setGravacoes(null); }} data-testid="ativo">
              {(ativos ?? []).map((a) => <MenuItem key={a.id} value={a.id}>{a.placa ? `${a.placa} — ${a.descricao}` : a.descricao}</MenuItem>)}
            </Select>
          </FormControl>
          <FormControl size="small" sx={{ minWidth: 120 }}>
            <InputLabel id="dl-canal">Canal</InputLabel>
            <Select labelId="dl-canal" label="Canal" value={canal} onChange={(e) => setCanal(Number(e.target.value))}>
              {(ativo?.canais ?? ['CH1']).map((n, i) => <MenuItem key={i} value={i + 1}>{n}</MenuItem>)}
            </Select>
          </FormControl>
          <TextField size="small" sx={{ minWidth: 220 }} type="datetime-local" label="Início" value={inicio} onChange={(e) => setInicio(e.target.value)} InputLabelProps={{ shrink: true }} />
          <TextField size="small" sx={{ minWidth: 220 }} type="datetime-local" label="Fim" value={fim} onChange={(e) => setFim(e.target.value)} InputLabelProps={{ shrink: true }} />
          <Button variant="contained" disabled={!ativo || ocupado} onClick={() => void buscar()}>Buscar</Button>
          <Button variant="outlined" disabled={!ativo || ocupado} onClick={() => void solicitar({ ...periodo(), tipo: 'clipe' }, 'Clipe solicitado ao equipamento')}>Solicitar clipe</Button>
        </Stack>
        {ativos?.length === 0 && <Alert severity="info" sx={{ mt: 2 }}>Nenhum ativo com equipamento de vídeo vinculado.</Alert>}
      </Paper>
      {msg && <Alert severity={msg.tipo} onClose={() => setMsg(null)} sx={{ mb: 2 }}>{msg.texto}</Alert>}
      {gravacoes && (
        <Paper variant="outlined" sx={{ mb: 2 }}>
          <Typography variant="subtitle1" sx={{ p: 1.5, fontWeight: 600 }}>Gravações encontradas</Typography>
          <Table size="small">
            <TableHead><TableRow><TableCell>Início</TableCell><TableCell>Fim</TableCell><TableCell>Canal</TableCell><TableCell>Tamanho</TableCell><TableCell align="right">Ações</TableCell></TableRow></TableHead>
            <TableBody>
              {gravacoes.length === 0 && <TableRow><TableCell colSpan={5}>Nenhuma gravação no período</TableCell></TableRow>}
              {gravacoes.map((g) => (
                <TableRow key={g.arquivo} data-testid="gravacao">
                  <TableCell>{formatDateTime(g.inicio)}</TableCell>
                  <TableCell>{formatDateTime(g.fim)}</TableCell>
                  <TableCell>{ativo?.canais[g.canal - 1] ?? `CH${g.canal}`}</TableCell>
                  <TableCell>{(g.tamanho / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 0 })} KB</TableCell>
                  <TableCell align="right">
                    <Button size="small" disabled={ocupado} onClick={() => void solicitar({ ativoId, canal: g.canal, inicio: g.inicio, fim: g.fim, tipo: 'gravacao', arquivo: g.arquivo, tamanho: g.tamanho }, 'Gravação disponível para download')}>Solicitar download</Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {recentes && (
        <Paper variant="outlined">
          <Typography variant="subtitle1" sx={{ p: 1.5, fontWeight: 600 }}>Solicitações recentes</Typography>
          <Table size="small">
            <TableHead><TableRow><TableCell>Solicitado em</TableCell><TableCell>Descrição</TableCell><TableCell>Tipo</TableCell><TableCell>Período</TableCell><TableCell>Situação</TableCell><TableCell>Mensagem</TableCell><TableCell align="right">Arquivo</TableCell></TableRow></TableHead>
            <TableBody>
              {recentes.length === 0 && <TableRow><TableCell colSpan={7}>Nenhuma solicitação</TableCell></TableRow>}
              {recentes.map((r) => {
                const st = SITUACAO[r.situacao] ?? { label: r.situacao, cor: 'default' as const };
                return (
                  <TableRow key={r.id} data-testid="solicitacao">
                    <TableCell>{formatDateTime(r.createdAt)}</TableCell>
                    <TableCell>{r.descricao}</TableCell>
                    <TableCell>{r.tipo === 'clipe' ? 'Clipe' : 'Gravação'}</TableCell>
                    <TableCell>{formatDateTime(r.inicio)} – {formatDateTime(r.fim)}</TableCell>
                    <TableCell><Chip size="small" color={st.cor} label={st.label} data-testid="situacao" /></TableCell>
                    <TableCell sx={{ maxWidth: 360 }}>{r.mensagem ?? '—'}</TableCell>
                    <TableCell align="right">{r.situacao === 'disponivel' ? <Link href={`/api/video/solicitacoes/${r.id}/arquivo`} download>Baixar</Link> : '—'}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
      )}
    </Box>
  );
}
