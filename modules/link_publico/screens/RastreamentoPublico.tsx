// The public link's page (/public/rastreamento_ao_vivo/query?token=…): no sign-in, no react-admin (rendered by
// runtime/src/App.tsx before the signed-in app). Loads the link once (GET /api/public/rastreamento_ao_vivo/query) and
// then applies what the /publico socket pushes (`estado`); `link_encerrado` or a refused connection (revoked,
// expired) replaces the map with the message. Works without tiles.
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Chip, CssBaseline, List, ListItemButton, ListItemText, Paper, Typography } from '@mui/material';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { useSearchParams } from 'react-router-dom';
import type L from 'leaflet';
import { CircleMarker, MapContainer, TileLayer, Tooltip, useMap } from 'react-leaflet';
import type { Socket } from 'socket.io-client';
import { formatTimestamp } from '../../../runtime/src/crud/lib/format';
import { fullHeight } from '../../../runtime/src/layout/zoom';
import { ESTADOS_VEICULO, estadoVeiculo } from '../../../shared/estado-veiculo';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
const SAO_PAULO: [number, number] = [-23.55, -46.63];
const theme = createTheme({ palette: { primary: { main: '#1f4e79' } } });

export interface EstadoPublico {
  ativoId: number; descricao: string; placa: string | null; fixTime: string | null; ultimaComunicacao: string | null;
  latitude: number | null; longitude: number | null; velocidade: number | null; direcao: number | null; ignicao: boolean | null;
}
interface LinkAnswer { descricao: string; validoAte: string; ativos: EstadoPublico[] }

const located = (r: EstadoPublico) => r.latitude != null && r.longitude != null;
// the same situation and colours as the live map and the home page
const cor = (r: EstadoPublico) => ESTADOS_VEICULO[estadoVeiculo(r)].color;
const situacao = (r: EstadoPublico) => ESTADOS_VEICULO[estadoVeiculo(r)].label;

/** Fits the map to the assets once, and again on a pick. */
function Fit({ rows, focus }: { rows: EstadoPublico[]; focus: number | null }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    const pts = rows.filter(located).map((r) => [r.latitude!, r.longitude!] as [number, number]);
    if (focus != null) {
      const r = rows.find((x) => x.ativoId === focus);
      if (r && located(r)) map.setView([r.latitude!, r.longitude!], Math.max(map.getZoom(), 15));
      return;
    }
    if (done.current || !pts.length) return;
    done.current = true;
    if (pts.length === 1) map.setView(pts[0], 15); else map.fitBounds(pts as L.LatLngBoundsLiteral, { padding: [40, 40] });
  }, [rows, focus, map]);
  return null;
}

export default function RastreamentoPublico() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [link, setLink] = useState<LinkAnswer | null>(null);
  const [fim, setFim] = useState<string | null>(null);
  const [focus, setFocus] = useState<number | null>(null);

  useEffect(() => {
    document.title = 'Rastreamento ao vivo';
    let socket: Socket | undefined;
    let stop = false;
    void (async () => {
      const res = await fetch(`/api/public/rastreamento_ao_vivo/query?token=${encodeURIComponent(token)}`);
      const body = await res.json().catch(() => ({ msg: 'Não foi possível abrir o link' }));
      if (stop) return;
      if (!res.ok) { setFim(body.msg ?? 'Este link não é mais válido.'); return; }
      setLink(body.payload as LinkAnswer);
      const { io } = await import('socket.io-client');
      if (stop) return;
      socket = io('/publico', { path: '/socket_server', auth: { token }, transports: ['websocket'] });
      socket.on('estado', (m: LinkAnswer) => setLink(m));
      socket.on('link_encerrado', (m: { msg: string }) => { setFim(m.msg); socket?.disconnect(); });
      // Refused at (re)connection: revoked or expired meanwhile.
      socket.on('connect_error', (e: Error & { data?: { status?: number } }) => {
        if (e.data?.status) { setFim(e.message); socket?.disconnect(); }
      });
    })();
    return () => { stop = true; socket?.disconnect(); };
  }, [token]);

  const rows = link?.ativos ?? [];
  const comPosicao = useMemo(() => rows.filter(located), [rows]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box sx={{ height: fullHeight(), display: 'flex', flexDirection: 'column', bgcolor: '#f4f6f8' }}>
        <Box component="header" sx={{ px: 2, py: 1, bgcolor: 'primary.main', color: 'primary.contrastText', display: 'flex', alignItems: 'baseline', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h1">Rastreamento ao vivo</Typography>
          {link && !fim && <Typography variant="body2">{link.descricao} · válido até {formatTimestamp(link.validoAte)}</Typography>}
        </Box>
        {fim ? (
          <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
            <Alert severity="warning" role="alert" sx={{ maxWidth: 560, fontSize: 16 }}>
              {fim}
              <Typography variant="body2" sx={{ mt: 0.5 }}>Se ainda precisa acompanhar os veículos, peça um novo link a quem enviou este.</Typography>
            </Alert>
          </Box>
        ) : !link ? (
          <Typography sx={{ p: 3 }} color="text.secondary">Carregando…</Typography>
        ) : (
          <Box sx={{ flex: 1, display: 'flex', gap: 1, p: 1, minHeight: 0 }}>
            <Paper variant="outlined" sx={{ width: 300, overflow: 'auto', flexShrink: 0 }} aria-label="Veículos do link">
              <List dense disablePadding>
                {rows.map((r) => (
                  <ListItemButton key={r.ativoId} selected={focus === r.ativoId} onClick={() => setFocus(r.ativoId)} divider data-ativo={r.descricao}>
                    <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: cor(r), mr: 1.5, flexShrink: 0 }} />
                    <ListItemText
                      primary={<><b>{r.placa ?? r.descricao}</b> {r.placa ? `· ${r.descricao}` : ''}</>}
                      secondary={<>
                        {situacao(r)}{r.velocidade != null ? ` · ${Math.round(r.velocidade)} km/h` : ''}<br />
                        Última posição: {formatTimestamp(r.fixTime)}
                      </>} />
                  </ListItemButton>
                ))}
              </List>
              {rows.length > 0 && comPosicao.length === 0 && <Typography sx={{ p: 2 }} color="text.secondary">Nenhuma posição recebida ainda.</Typography>}
            </Paper>
            <Paper variant="outlined" sx={{ flex: 1, overflow: 'hidden', minWidth: 0, '& .leaflet-container': { height: '100%', width: '100%', bgcolor: '#e8eef1' } }}>
              <MapContainer center={SAO_PAULO} zoom={11} zoomControl>
                {TILE_URL && TILE_URL !== 'off' && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={19} />}
                <Fit rows={rows} focus={focus} />
                {comPosicao.map((r) => (
                  <CircleMarker key={r.ativoId} center={[r.latitude!, r.longitude!]} radius={9}
                    pathOptions={{ color: '#fff', weight: 2, fillColor: cor(r), fillOpacity: 1 }}>
                    <Tooltip permanent direction="top" offset={[0, -10]}>{r.placa ?? r.descricao}</Tooltip>
                  </CircleMarker>
                ))}
              </MapContainer>
            </Paper>
          </Box>
        )}
        {link && !fim && (
          <Box sx={{ px: 2, py: 0.5, fontSize: 12, color: 'text.secondary', display: 'flex', gap: 1, alignItems: 'center' }}>
            <Chip size="small" label="Ao vivo" color="success" variant="outlined" />
            Posições atualizadas automaticamente enquanto o link for válido.
          </Box>
        )}
      </Box>
    </ThemeProvider>
  );
}
