// /tlm/ras/rastreamento_ao_vivo: live map of the active company's vehicles (GET /api/rastreamento/ultimo_estado once,
// then the socket's `ultimo_estado` pushes: ./aoVivo.ts — no polling), clustered markers coloured by state and rotated by course, popup per vehicle (driver,
// links to the record, the replay and the engine block), and a search that narrows markers, counter, legend and the
// side list alike; a list row centres the map on its vehicle. Works without tiles (offline).
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState, type RefObject, type UIEvent } from 'react';
import { Alert, Box, IconButton, InputAdornment, Paper, TextField, Tooltip, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import CenterFocusStrongIcon from '@mui/icons-material/CenterFocusStrong';
import { Title } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type L from 'leaflet';
import { MapContainer, TileLayer, useMap } from 'react-leaflet';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { fullHeight } from '../../../runtime/src/layout/zoom';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { comPosicao, contagem, ESTADOS, estadoDe, filtrar, titulo, velocidadeTexto, type Estado, type UltimoEstado } from './estado';
import { VehicleLayer, type PopupLinks } from './VehicleLayer';
import { useUltimoEstadoAoVivo } from './aoVivo';

const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
/** Tile URL template: VITE_MAP_TILE_URL at build time ('off' = no tiles); default OpenStreetMap. */
const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
const SAO_PAULO: [number, number] = [-23.55, -46.63];
const ROW_H = 58;

/** Binds the imperative vehicle layer to the react-leaflet map. */
function Vehicles({ rows, layerRef, fitKey, links }: { rows: UltimoEstado[]; layerRef: RefObject<VehicleLayer | null>; fitKey: string; links: PopupLinks }) {
  const map = useMap();
  const fitted = useRef<string | null>(null);
  useEffect(() => {
    const layer = new VehicleLayer(map);
    layerRef.current = layer;
    return () => { layer.destroy(); layerRef.current = null; };
  }, [map, layerRef]);
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    layer.links = links;
    layer.setData(rows);
    // Fit the fleet once per company (not on every refresh: the user may be looking elsewhere).
    if (fitted.current !== fitKey && rows.length) {
      fitted.current = fitKey;
      const b = layer.bounds();
      if (b) map.fitBounds(b.pad(0.1), { maxZoom: 15, animate: false });
    }
  }, [rows, fitKey, map, layerRef, links]);
  return null;
}

function Legend({ counts }: { counts: Record<Estado, number> }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
      {(Object.keys(ESTADOS) as Estado[]).map((e) => (
        <Box key={e} sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontSize: 12 }} data-testid={`contagem-${e}`}>
          <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: ESTADOS[e].color, display: 'inline-block' }} />
          {ESTADOS[e].label}: <b>{counts[e]}</b>
        </Box>
      ))}
    </Box>
  );
}

/** Windowed list: only the rows in view are rendered (thousands of vehicles stay smooth). */
function VehicleList({ rows, onPick, selected }: { rows: UltimoEstado[]; onPick: (r: UltimoEstado) => void; selected: string | null }) {
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    setHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);
  useEffect(() => { if (box.current) box.current.scrollTop = 0; setTop(0); }, [rows.length]);
  const first = Math.max(0, Math.floor(top / ROW_H) - 5);
  const last = Math.min(rows.length, Math.ceil((top + height) / ROW_H) + 5);
  const now = Date.now();
  return (
    <Box ref={box} onScroll={(e: UIEvent<HTMLDivElement>) => setTop(e.currentTarget.scrollTop)} sx={{ flex: 1, overflowY: 'auto', position: 'relative' }}
      role="list" aria-label="Veículos">
      <Box sx={{ height: rows.length * ROW_H, position: 'relative' }}>
        {rows.slice(first, last).map((r, i) => {
          const estado = estadoDe(r, now);
          return (
            <Box key={r.serial} role="listitem" data-serial={r.serial} onClick={() => onPick(r)}
              sx={{
                position: 'absolute', top: (first + i) * ROW_H, left: 0, right: 0, height: ROW_H, px: 1.5, py: 0.75, cursor: 'pointer',
                borderBottom: '1px solid', borderColor: 'divider', display: 'flex', alignItems: 'center', gap: 1.25,
                bgcolor: selected === r.serial ? 'action.selected' : undefined, '&:hover': { bgcolor: 'action.hover' },
              }}>
              <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: ESTADOS[estado].color, flex: 'none' }} title={ESTADOS[estado].label} />
              <Box sx={{ minWidth: 0, flex: 1 }}>
                <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>{titulo(r)}</Typography>
                <Typography variant="caption" color="text.secondary" noWrap component="div">
                  {r.placa ?? 'Sem placa'} · {velocidadeTexto(r.velocidade)} · {ESTADOS[estado].label}
                </Typography>
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

export default function RastreamentoAoVivo() {
  const user = useSession();
  const empresa = user?.empresaAtiva ?? null;
  const { rows: all, erro, atualizado, aoVivo } = useUltimoEstadoAoVivo('/api/rastreamento/ultimo_estado', empresa);
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const layerRef = useRef<VehicleLayer | null>(null);
  const mapRef = useRef<L.Map | null>(null);

  const rows = useMemo(() => comPosicao(all ?? []), [all]);
  const semPosicao = (all?.length ?? 0) - rows.length;
  // the search narrows everything shown: markers, counter, legend and list
  const lista = useMemo(() => filtrar(rows, q), [rows, q]);
  const counts = useMemo(() => contagem(lista), [lista]);
  const { can } = useCan();
  const links = useMemo<PopupLinks>(() => ({
    cadastro: can('tlm.fro.ativo.visualizar'),
    historico: true, // the replay screen checks its own key
    bloqueio: can('tlm.fro.ativo.bloqueia_motor'),
  }), [can]);
  const navigate = useNavigate();
  // the popup's links (plain HTML inside Leaflet) navigate inside the app; a modified click keeps the browser's way
  const onMapClick = (e: React.MouseEvent) => {
    const a = (e.target as HTMLElement).closest?.('a[data-rota]');
    if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(a.getAttribute('href')!);
  };

  const pick = (r: UltimoEstado) => {
    setSelected(r.serial);
    layerRef.current?.focus(r.serial);
  };
  const fitAll = () => {
    const b = layerRef.current?.bounds();
    if (b && mapRef.current) mapRef.current.fitBounds(b.pad(0.1), { maxZoom: 15 });
  };

  return (
    <Box sx={{ display: 'flex', gap: 1.5, height: { xs: fullHeight('72px'), sm: fullHeight('88px') }, minHeight: 420 }}>
      <Title title="Rastreamento ao vivo" />
      {/* the app bar shows the title; the page keeps its heading for screen readers and the page outline */}
      <Typography component="h1" sx={VISUALLY_HIDDEN}>Rastreamento ao vivo</Typography>
      <Paper variant="outlined" sx={{ width: 320, flex: 'none', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
        <Box sx={{ p: 1.5, pb: 1, borderBottom: '1px solid', borderColor: 'divider', display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between' }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
              <span data-testid="total-veiculos">{lista.length}</span> {lista.length === 1 ? 'veículo' : 'veículos'}
              {lista.length !== rows.length && <Typography component="span" variant="caption" color="text.secondary" data-testid="total-frota">{` de ${rows.length}`}</Typography>}
            </Typography>
            <Typography variant="caption" color="text.secondary" data-testid="atualizado" data-ao-vivo={aoVivo ? 'sim' : 'nao'}
              title={aoVivo ? 'Posições recebidas ao vivo' : undefined}>
              {atualizado ? `Atualizado às ${atualizado.toLocaleTimeString('pt-BR')}` : 'Carregando...'}
            </Typography>
          </Box>
          <Legend counts={counts} />
          {semPosicao > 0 && <Typography variant="caption" color="text.secondary">{semPosicao} sem posição</Typography>}
          <TextField size="small" placeholder="Pesquisar veículo" value={q} onChange={(e) => setQ(e.target.value)}
            slotProps={{ htmlInput: { 'aria-label': 'Pesquisar veículo' }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }} />
        </Box>
        {erro && <Alert severity="error" sx={{ m: 1 }}>{erro}</Alert>}
        {all && lista.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">Nenhum item foi encontrado</Typography>
        ) : (
          <VehicleList rows={lista} onPick={pick} selected={selected} />
        )}
      </Paper>
      <Paper variant="outlined" onClick={onMapClick} sx={{ flex: 1, position: 'relative', overflow: 'hidden', minWidth: 0,
        '& .leaflet-container': { height: '100%', width: '100%', bgcolor: '#e8eef1', fontFamily: 'inherit' },
        '& .rastro-veiculo, & .rastro-cluster': { background: 'none', border: 'none', cursor: 'pointer' },
        '& .rastro-veiculo svg': { filter: 'drop-shadow(0 1px 1px rgba(0,0,0,.4))', display: 'block' },
        '& .rastro-popup-titulo': { fontWeight: 700, fontSize: 14, mb: 0.25 },
        '& .rastro-popup-estado': { fontSize: 12, fontWeight: 600, mb: 0.75 },
        '& .rastro-popup table': { borderCollapse: 'collapse', fontSize: 12 },
        '& .rastro-popup th': { textAlign: 'left', pr: 1.5, color: 'text.secondary', fontWeight: 500, verticalAlign: 'top', whiteSpace: 'nowrap' },
        '& .rastro-popup td': { pb: 0.25 },
        '& .rastro-popup-links': { display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 1, pt: 0.75, borderTop: '1px solid', borderColor: 'divider', fontSize: 12, fontWeight: 600 },
      }}>
        <MapContainer center={SAO_PAULO} zoom={11} preferCanvas={false} ref={mapRef} zoomControl>
          {TILE_URL && TILE_URL !== 'off' && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={19} />}
          <Vehicles rows={lista} layerRef={layerRef} fitKey={String(empresa)} links={links} />
        </MapContainer>
        <Tooltip title="Mostrar toda a frota">
          <IconButton onClick={fitAll} aria-label="Mostrar toda a frota" size="small"
            sx={{ position: 'absolute', top: 84, left: 10, zIndex: 1000, bgcolor: 'background.paper', border: '2px solid rgba(0,0,0,.2)', borderRadius: 1, '&:hover': { bgcolor: 'background.paper' } }}>
            <CenterFocusStrongIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Paper>
    </Box>
  );
}
