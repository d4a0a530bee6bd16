// Vídeo ao vivo (/tlm/vid/video_ao_vivo): the company's assets with a camera (online or not, from CMSV6), the channels
// of the chosen one, and a grid of 4, 9 or 16 player windows. "Reproduzir" on a channel starts one window; "Reproduzir
// selecionados" starts several (the grid grows to fit: screens/grade.ts). Plays HTTP-FLV with mpegts.js or HLS with
// hls.js from the server's proxy addresses (short-lived, bound to this session); HLS players renew their address
// before it expires (hls.js xhrSetup), an FLV connection lives as long as it is open.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Alert, Box, Button, Checkbox, Chip, FormControl, FormControlLabel, IconButton, InputLabel, MenuItem, Paper, Select, Stack,
  ToggleButton, ToggleButtonGroup, Tooltip, Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { Title } from 'react-admin';
import { call } from '../../../runtime/src/api/http';
import { JOINED, joinCount, onPush } from '../../../runtime/src/layout/Realtime';
import { EVENTO_SITUACAO, type SituacaoVideo } from '../situacao-evento';
import { colunas, coloca, PADRAO, TAMANHOS, tamanhoPara, type Janela, type Tamanho } from './grade';

interface Ativo { id: number; descricao: string; placa: string | null; serial: string; online: boolean | null; canais: string[] }
interface AoVivo { ativo: Ativo; modo: 'flv' | 'hls'; canais: { canal: number; url: string; ws?: string }[]; expiraEm: string }

const RENOVA_MS = 60_000;
const tituloDe = (a: Pick<Ativo, 'descricao' | 'placa'>, canal: number, nomes?: string[]) =>
  `${a.placa ?? a.descricao} — ${nomes?.[canal - 1] ?? `CH${canal}`}`;

async function pedeUrls(ativoId: number, canais: number[], modo: 'flv' | 'hls', stream: 0 | 1): Promise<AoVivo> {
  return call<AoVivo>('/api/video/ao_vivo', { method: 'POST', body: JSON.stringify({ ativoId, canais, modo, stream }) });
}

/** One player window: a <video> fed by mpegts.js (FLV) or hls.js (HLS). */
function Player({ janela, stream, onFechar }: { janela: Janela; stream: 0 | 1; onFechar: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [estado, setEstado] = useState<'conectando' | 'reproduzindo' | 'erro'>('conectando');
  const [erro, setErro] = useState<string | null>(null);
  const urlAtual = useRef(janela.url);
  urlAtual.current = janela.url;
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    let fim = () => {};
    let vivo = true;
    const falha = (m: string) => { if (vivo) { setEstado('erro'); setErro(m); } };
    const tocando = () => { if (vivo) setEstado('reproduzindo'); };
    el.addEventListener('playing', tocando);
    (async () => {
      if (janela.modo === 'flv') {
        const mpegts = (await import('mpegts.js')).default;
        if (!vivo) return;
        if (!mpegts.getFeatureList().mseLivePlayback) return falha('Este navegador não reproduz HTTP-FLV');
        // over a WebSocket when offered: a browser holds at most 6 HTTP/1.1 connections per host, which live HTTP
        // streams would use up (a 9- or 16-window grid, and every other request of the page, would wait forever)
        const url = janela.ws && 'WebSocket' in window ? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${janela.ws}` : janela.url;
        const p = mpegts.createPlayer({ type: 'flv', isLive: true, url, hasAudio: false }, { enableWorker: false, liveBufferLatencyChasing: true, lazyLoad: false });
        p.on(mpegts.Events.ERROR, (_t: string, _d: string, info: { msg?: string; code?: number }) => falha(info?.code === 403 ? 'Link de vídeo expirado: reproduza de novo' : 'Vídeo interrompido ou indisponível'));
        p.on(mpegts.Events.MEDIA_INFO, () => { el.dataset.mediaInfo = '1'; });
        p.attachMediaElement(el);
        p.load();
        void Promise.resolve(p.play()).catch(() => undefined);
        fim = () => { try { p.pause(); p.unload(); p.detachMediaElement(); p.destroy(); } catch { /* gone */ } };
      } else {
        const Hls = (await import('hls.js')).default;
        if (!vivo) return;
        const trocaToken = (url: string) => url.replace(/\/api\/video\/stream\/[^/]+\//, urlAtual.current.replace(/[^/]+$/, ''));
        if (Hls.isSupported()) {
          const h = new Hls({ liveDurationInfinity: true, enableWorker: false, xhrSetup: (xhr, url) => { xhr.open('GET', trocaToken(url), true); } });
          h.on(Hls.Events.ERROR, (_e, d) => { if (d.fatal) falha('Vídeo interrompido ou indisponível'); });
          h.on(Hls.Events.MANIFEST_PARSED, () => { el.dataset.mediaInfo = '1'; void el.play().catch(() => undefined); });
          h.loadSource(janela.url);
          h.attachMedia(el);
          fim = () => h.destroy();
        } else if (el.canPlayType('application/vnd.apple.mpegurl')) {
          el.src = janela.url;
          void el.play().catch(() => undefined);
          fim = () => { el.removeAttribute('src'); el.load(); };
        } else falha('Este navegador não reproduz HLS');
      }
    })().catch((e) => falha((e as Error).message));
    return () => { vivo = false; el.removeEventListener('playing', tocando); fim(); };
    // the window's identity (a new token for the same channel renews the HLS address through urlAtual, not a restart)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [janela.chave, janela.modo, stream]);
  return (
    <Box sx={{ position: 'relative', bgcolor: '#000', aspectRatio: '16 / 9', overflow: 'hidden' }} data-testid="janela-video" data-canal={janela.canal}>
      <video ref={video} muted playsInline autoPlay style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }} aria-label={janela.titulo} />
      <Stack direction="row" alignItems="center" sx={{ position: 'absolute', top: 0, left: 0, right: 0, px: 1, py: 0.25, bgcolor: 'rgba(0,0,0,.55)', color: '#fff' }}>
        <Typography variant="caption" sx={{ flex: 1, fontWeight: 600 }} data-testid="titulo-janela">{janela.titulo}</Typography>
        <Typography variant="caption" sx={{ mr: 1, opacity: 0.8 }} data-testid="estado-janela">
          {estado === 'reproduzindo' ? `Ao vivo · ${janela.modo === 'flv' ? 'HTTP-FLV' : 'HLS'}` : estado === 'conectando' ? 'Conectando…' : 'Erro'}
        </Typography>
        <Tooltip title="Fechar janela"><IconButton size="small" sx={{ color: '#fff' }} onClick={onFechar} aria-label="Fechar janela"><CloseIcon fontSize="small" /></IconButton></Tooltip>
      </Stack>
      {erro && <Alert severity="error" sx={{ position: 'absolute', bottom: 8, left: 8, right: 8, py: 0 }}>{erro}</Alert>}
    </Box>
  );
}

export default function VideoAoVivo() {
  const [ativos, setAtivos] = useState<Ativo[] | null>(null);
  const [erroServidor, setErroServidor] = useState<string | null>(null);
  const [msg, setMsg] = useState<string | null>(null);
  const [ativoId, setAtivoId] = useState<number | ''>('');
  const [marcados, setMarcados] = useState<number[]>([]);
  const [modo, setModo] = useState<'flv' | 'hls'>('flv');
  const [stream, setStream] = useState<0 | 1>(0);
  const [tamanho, setTamanho] = useState<Tamanho>(PADRAO);
  const [janelas, setJanelas] = useState<(Janela | null)[]>(() => Array(PADRAO).fill(null));
  const [enviando, setEnviando] = useState(false);

  const carregadoEm = useRef(-1);
  const carrega = useCallback(async () => {
    carregadoEm.current = joinCount();
    try {
      const r = await call<{ erro: string | null; ativos: Ativo[] }>('/api/video/ativos');
      setAtivos(r.ativos);
      setErroServidor(r.erro);
      setAtivoId((cur) => (cur === '' && r.ativos.length ? r.ativos[0]!.id : cur));
    } catch (e) { setMsg((e as Error).message); setAtivos([]); }
  }, []);
  // Loaded once (and again when the socket rejoins: pushes may have been missed); then the server pushes the online
  // state when it changes (modules/video/server/situacao.ts), no polling here.
  useEffect(() => {
    void carrega();
    const offJoin = onPush(JOINED, (n) => { if (n !== carregadoEm.current) void carrega(); });
    const offPush = onPush(EVENTO_SITUACAO, (p) => {
      const m = p as SituacaoVideo;
      const por = new Map(m.ativos.map((a) => [`${a.id}:${a.serial}`, a.online]));
      setErroServidor(m.erro);
      setAtivos((cur) => cur && cur.map((a) => (por.has(`${a.id}:${a.serial}`) ? { ...a, online: por.get(`${a.id}:${a.serial}`)! } : a)));
    });
    return () => { offJoin(); offPush(); };
  }, [carrega]);

  const ativo = ativos?.find((a) => a.id === ativoId) ?? null;
  useEffect(() => { setMarcados(ativo ? ativo.canais.map((_, i) => i + 1) : []); }, [ativo?.id, ativo?.canais.length]);

  const reproduz = async (canais: number[]) => {
    if (!ativo || !canais.length) return;
    setEnviando(true);
    setMsg(null);
    try {
      const r = await pedeUrls(ativo.id, canais, modo, stream);
      const novas: Janela[] = r.canais.map((c) => ({ chave: `${ativo.id}:${c.canal}:${modo}:${stream}`, ativoId: ativo.id, canal: c.canal, modo, url: c.url, ws: c.ws, titulo: tituloDe(ativo, c.canal, ativo.canais) }));
      const t = tamanhoPara(canais.length, tamanho);
      setTamanho(t);
      setJanelas((cur) => coloca(cur, novas, t));
    } catch (e) { setMsg((e as Error).message); } finally { setEnviando(false); }
  };

  // HLS windows renew their address before it expires (the player swaps the token on its next request).
  const janelasRef = useRef(janelas);
  janelasRef.current = janelas;
  useEffect(() => {
    const t = setInterval(async () => {
      const hls = janelasRef.current.filter((j): j is Janela => !!j && j.modo === 'hls');
      const porAtivo = new Map<number, Janela[]>();
      for (const j of hls) porAtivo.set(j.ativoId, [...(porAtivo.get(j.ativoId) ?? []), j]);
      for (const [id, js] of porAtivo) {
        try {
          const r = await pedeUrls(id, js.map((j) => j.canal), 'hls', stream);
          setJanelas((cur) => cur.map((j) => { const n = j && j.ativoId === id && j.modo === 'hls' ? r.canais.find((c) => c.canal === j.canal) : undefined; return j && n ? { ...j, url: n.url } : j; }));
        } catch { /* the player reports it */ }
      }
    }, RENOVA_MS);
    return () => clearInterval(t);
  }, [stream]);

  const mudaTamanho = (t: Tamanho | null) => { if (!t) return; setTamanho(t); setJanelas((cur) => Array.from({ length: t }, (_, i) => cur[i] ?? null)); };
  const fecha = (i: number) => setJanelas((cur) => cur.map((j, k) => (k === i ? null : j)));
  const abertas = janelas.filter(Boolean).length;

  return (
    <Box sx={{ p: 2 }} data-testid="video-ao-vivo">
      <Title title="Vídeo ao vivo" />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start">
        <Paper variant="outlined" sx={{ p: 2, width: { xs: '100%', md: 300 }, flexShrink: 0 }}>
          <Typography variant="subtitle1" sx={{ mb: 1, fontWeight: 600 }}>Vídeo ao vivo</Typography>
          {erroServidor && <Alert severity="warning" sx={{ mb: 1 }}>{erroServidor}</Alert>}
          {ativos?.length === 0 && <Alert severity="info">Nenhum ativo com equipamento de vídeo vinculado.</Alert>}
          <FormControl fullWidth size="small" sx={{ mb: 1 }}>
            <InputLabel id="video-ativo">Ativo</InputLabel>
            <Select labelId="video-ativo" label="Ativo" value={ativos?.length ? ativoId : ''} renderValue={(v) => { const a = ativos?.find((x) => x.id === v); return a ? (a.placa ? `${a.placa} — ${a.descricao}` : a.descricao) : ''; }} onChange={(e) => setAtivoId(Number(e.target.value))} data-testid="ativo">
              {(ativos ?? []).map((a) => (
                <MenuItem key={a.id} value={a.id}>
                  <Stack direction="row" spacing={1} alignItems="center" sx={{ width: '100%' }}>
                    <span style={{ flex: 1 }}>{a.placa ? `${a.placa} — ${a.descricao}` : a.descricao}</span>
                    <Chip size="small" label={a.online === null ? '—' : a.online ? 'Online' : 'Offline'} color={a.online ? 'success' : 'default'} />
                  </Stack>
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          {ativo && (
            <>
              <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
                <Typography variant="body2" color="text.secondary">Serial {ativo.serial}</Typography>
                <Chip size="small" data-testid="situacao-equipamento" label={ativo.online === null ? 'Situação desconhecida' : ativo.online ? 'Online' : 'Offline'} color={ativo.online ? 'success' : ativo.online === false ? 'default' : 'warning'} />
              </Stack>
              <Typography variant="body2" sx={{ mt: 1 }}>Canais</Typography>
              {ativo.canais.map((nome, i) => (
                <Stack key={i} direction="row" alignItems="center">
                  <FormControlLabel sx={{ flex: 1 }} control={<Checkbox size="small" checked={marcados.includes(i + 1)} onChange={(e) => setMarcados((m) => (e.target.checked ? [...m, i + 1].sort((a, b) => a - b) : m.filter((x) => x !== i + 1)))} />} label={nome} />
                  <Button size="small" disabled={enviando} onClick={() => void reproduz([i + 1])} data-testid={`reproduzir-${i + 1}`}>Reproduzir</Button>
                </Stack>
              ))}
              <Typography variant="body2" sx={{ mt: 1 }}>Modo de reprodução</Typography>
              <ToggleButtonGroup size="small" exclusive value={modo} onChange={(_, v) => v && setModo(v)} sx={{ mb: 1 }}>
                <ToggleButton value="flv">HTTP-FLV</ToggleButton>
                <ToggleButton value="hls">HLS</ToggleButton>
              </ToggleButtonGroup>
              <ToggleButtonGroup size="small" exclusive value={stream} onChange={(_, v) => v !== null && setStream(v)} sx={{ mb: 1, ml: 1 }}>
                <ToggleButton value={0}>Principal</ToggleButton>
                <ToggleButton value={1}>Secundário</ToggleButton>
              </ToggleButtonGroup>
              <Button fullWidth variant="contained" disabled={enviando || !marcados.length} onClick={() => void reproduz(marcados)} data-testid="reproduzir-selecionados">
                Reproduzir selecionados
              </Button>
            </>
          )}
        </Paper>
        <Box sx={{ flex: 1, width: '100%' }}>
          <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
            <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>{abertas} de {tamanho} janelas em uso</Typography>
            <ToggleButtonGroup size="small" exclusive value={tamanho} onChange={(_, v) => mudaTamanho(v)} aria-label="Janelas" data-testid="tamanho-grade">
              {TAMANHOS.map((t) => <ToggleButton key={t} value={t}>{t} janelas</ToggleButton>)}
            </ToggleButtonGroup>
            <Button size="small" disabled={!abertas} onClick={() => setJanelas(Array(tamanho).fill(null))}>Parar todos</Button>
          </Stack>
          {msg && <Alert severity="error" sx={{ mb: 1 }} onClose={() => setMsg(null)}>{msg}</Alert>}
          <Box data-testid="grade" data-janelas={tamanho} sx={{ display: 'grid', gridTemplateColumns: `repeat(${colunas(tamanho)}, 1fr)`, gap: 0.5 }}>
            {janelas.map((j, i) => j
              ? <Player key={j.chave} janela={j} stream={stream} onFechar={() => fecha(i)} />
              : (
                <Box key={`vazia-${i}`} data-testid="janela-vazia" sx={{ bgcolor: 'grey.900', color: 'grey.500', aspectRatio: '16 / 9', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                  <Typography variant="caption">Janela {i + 1}</Typography>
                </Box>
              ))}
          </Box>
        </Box>
      </Stack>
    </Box>
  );
}
