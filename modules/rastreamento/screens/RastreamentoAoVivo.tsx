// /tlm/ras/rastreamento_ao_vivo: live map of the active company's vehicles (GET /api/rastreamento/ultimo_estado once,
// then the socket's `ultimo_estado` pushes: ./aoVivo.ts — no polling), clustered markers coloured by state (em
// movimento, parado, desligado, sem comunicação), rotated by course and labelled with the plate, popup per vehicle
// (driver, links to the record, the replay and the engine block), a search that narrows markers, counter, legend and
// the side list (grouped by garage) alike; a list row centres the map on its vehicle, which can then be followed with
// its trail. The company's default Opção de rastreamento (GET /api/rastreamento/opcoes) sets the "sem comunicação"
// time, the speeding highlight, grouping, trail and follow. Light or dark map; works without tiles (offline).
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState, type RefObject, type UIEvent } from 'react';
import { Alert, Box, FormControlLabel, IconButton, InputAdornment, Paper, Switch, TextField, Tooltip, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import CenterFocusStrongIcon from '@mui/icons-material/CenterFocusStrong';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import CloseIcon from '@mui/icons-material/Close';
import { Title } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type L from 'leaflet';
import { MapContainer, TileLayer, useMap } from 'react-leaflet';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { fullHeight } from '../../../runtime/src/layout/zoom';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { call } from '../../../runtime/src/api/http';
import { comPosicao, contagem, emExcesso, ESTADOS, estadoDe, filtrar, porGaragem, titulo, URL_AO_VIVO, velocidadeTexto, type Estado, type ItemLista, type UltimoEstado } from './estado';
import { OPCOES_PADRAO, VehicleLayer, type OpcoesMapa, type PopupLinks } from './VehicleLayer';
import { useUltimoEstadoAoVivo } from './aoVivo';

const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
/** Tile URL template: VITE_MAP_TILE_URL at build time ('off' = no tiles); default OpenStreetMap. */
const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
const SAO_PAULO: [number, number] = [-23.55, -46.63];
const ROW_H = 58;
const GROUP_H = 30;
const ESCURO_KEY = 'rastro.mapa.escuro';

/** A row of GET /api/rastreamento/opcoes (the company's default tracking option). */
interface OpcaoRastreamento { tempoSemComunicacao: number | null; velocidadeMaxima: number | null; exibirRastro: boolean | null; tamanhoRastro: number | null; agruparMarcadores: boolean | null; seguirVeiculo: boolean | null }

/** The company's map settings, or the defaults when it has no default option (or the call fails). */
function useOpcoesMapa(empresa: number | null): { opcoes: OpcoesMapa; seguir: boolean } {
  const [v, setV] = useState<{ opcoes: OpcoesMapa; seguir: boolean }>({ opcoes: OPCOES_PADRAO, seguir: false });
  useEffect(() => {
    let live = true;
    call<OpcaoRastreamento[]>('/api/rastreamento/opcoes?range=[0,0]').then((rows) => {
      const o = Array.isArray(rows) ? rows[0] : undefined;
      if (!live || !o) return;
      setV({
        opcoes: {
          semComunicacaoMs: (o.tempoSemComunicacao ?? OPCOES_PADRAO.semComunicacaoMs / 60_000) * 60_000,
          velocidadeMaxima: o.velocidadeMaxima || null,
          agrupar: o.agruparMarcadores !== false,
          rastro: o.exibirRastro === false ? 0 : (o.tamanhoRastro ?? OPCOES_PADRAO.rastro),
        },
        seguir: !!o.seguirVeiculo,
      });
    }, () => undefined);
    return () => { live = false; };
  }, [empresa]);
  return v;
}

/** Binds the imperative vehicle layer to the react-leaflet map. */
function Vehicles({ rows, layerRef, fitKey, links, opcoes, onSelect }: { rows: UltimoEstado[]; layerRef: RefObject<VehicleLayer | null>; fitKey: string; links: PopupLinks; opcoes: OpcoesMapa; onSelect: (serial: string) => void }) {
  const map = useMap();
  const fitted = useRef<string | null>(null);
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  useEffect(() => {
    const layer = new VehicleLayer(map);
    layer.onSelect = (serial) => onSelectRef.current(serial);
    layerRef.current = layer;
    return () => { layer.destroy(); layerRef.current = null; };
  }, [map, layerRef]);
  useEffect(() => { layerRef.current?.setOpcoes(opcoes); }, [opcoes, layerRef]);
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

/** Windowed list grouped by garage: only the items in view are rendered (thousands of vehicles stay smooth). */
function VehicleList({ rows, onPick, selected, semComunicacaoMs, velocidadeMaxima }: { rows: UltimoEstado[]; onPick: (r: UltimoEstado) => void; selected: string | null; semComunicacaoMs: number; velocidadeMaxima: number | null }) {
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
  const items = useMemo(() => porGaragem(rows), [rows]);
  // Each item's top (headers and rows differ in height); the first in view by binary search.
  const tops = useMemo(() => {
    const t = new Float64Array(items.length + 1);
    items.forEach((it, i) => { t[i + 1] = t[i] + ('garagem' in it ? GROUP_H : ROW_H); });
    return t;
  }, [items]);
  let lo = 0, hi = items.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (tops[mid + 1] <= top) lo = mid + 1; else hi = mid; }
  const first = Math.max(0, lo - 5);
  let last = lo;
  while (last < items.length && tops[last] < top + height) last++;
  last = Math.min(items.length, last + 5);
  const now = Date.now();
  const item = (it: ItemLista, i: number) => {
    const y = tops[first + i];
    if ('garagem' in it) {
      return (
        <Box key={`g:${it.garagem}`} role="presentation" data-garagem={it.garagem}
          sx={{ position: 'absolute', top: y, left: 0, right: 0, height: GROUP_H, px: 1.5, display: 'flex', alignItems: 'center', justifyContent: 'space-between',
            bgcolor: 'grey.100', borderBottom: '1px solid', borderColor: 'divider', fontSize: 12, fontWeight: 700, color: 'text.secondary', textTransform: 'uppercase', letterSpacing: 0.3 }}>
          <span>{it.garagem}</span><span>{it.total}</span>
        </Box>
      );
    }
    const r = it.r;
    const estado = estadoDe(r, now, semComunicacaoMs);
    const excesso = emExcesso(r, velocidadeMaxima);
    return (
      <Box key={r.serial} role="listitem" data-serial={r.serial} onClick={() => onPick(r)}
        sx={{
          position: 'absolute', top: y, left: 0, right: 0, height: ROW_H, px: 1.5, py: 0.75, cursor: 'pointer',
          borderBottom: '1px solid', borderColor: 'divider', display: 'flex', alignItems: 'center', gap: 1.25,
          bgcolor: selected === r.serial ? 'action.selected' : undefined, '&:hover': { bgcolor: 'action.hover' },
        }}>
        <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: ESTADOS[estado].color, flex: 'none' }} title={ESTADOS[estado].label} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>{titulo(r)}</Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {r.placa ?? 'Sem placa'} · <Box component="span" sx={excesso ? { color: 'error.main', fontWeight: 700 } : undefined}>{velocidadeTexto(r.velocidade)}</Box> · {ESTADOS[estado].label}
          </Typography>
        </Box>
      </Box>
    );
  };
  return (
    <Box ref={box} onScroll={(e: UIEvent<HTMLDivElement>) => setTop(e.currentTarget.scrollTop)} sx={{ flex: 1, overflowY: 'auto', position: 'relative' }}
      role="list" aria-label="Veículos">
      <Box sx={{ height: tops[items.length], position: 'relative' }}>
        {items.slice(first, last).map(item)}
      </Box>
    </Box>
  );
}

export default function RastreamentoAoVivo() {
  const user = useSession();
  const empresa = user?.empresaAtiva ?? null;
  const { rows: all, erro, atualizado, aoVivo } = useUltimoEstadoAoVivo(URL_AO_VIVO, empresa);
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const layerRef = useRef<VehicleLayer | null>(null);
  const mapRef = useRef<L.Map | null>(null);

  const rows = useMemo(() => comPosicao(all ?? []), [all]);
  const semPosicao = (all?.length ?? 0) - rows.length;
  // the search narrows everything shown: markers, counter, legend and list
  const lista = useMemo(() => filtrar(rows, q), [rows, q]);
  const { opcoes, seguir: seguirPadrao } = useOpcoesMapa(empresa);
  const counts = useMemo(() => contagem(lista, Date.now(), opcoes.semComunicacaoMs), [lista, opcoes]);
  const [seguir, setSeguir] = useState(false);
  useEffect(() => setSeguir(seguirPadrao), [seguirPadrao]);
  useEffect(() => { if (layerRef.current) layerRef.current.following = seguir && !!selected; }, [seguir, selected]);
  const [escuro, setEscuro] = useState(() => { try { return localStorage.getItem(ESCURO_KEY) === '1'; } catch { return false; } });
  const alternaEscuro = () => setEscuro((v) => { try { localStorage.setItem(ESCURO_KEY, v ? '0' : '1'); } catch { /* private mode */ } return !v; });
  const selecionado = selected ? rows.find((r) => r.serial === selected) : undefined;
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
    layerRef.current?.select(r.serial);
    layerRef.current?.focus(r.serial);
  };
  const desmarca = () => { setSelected(null); layerRef.current?.select(null); };
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
          {selecionado && (
            <Box data-testid="selecionado" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, bgcolor: 'action.selected', borderRadius: 1, pl: 1 }}>
              <Typography variant="body2" noWrap sx={{ flex: 1, fontWeight: 600 }} title={titulo(selecionado)}>
                {selecionado.placa ?? titulo(selecionado)}
              </Typography>
              <FormControlLabel sx={{ mr: 0 }} label={<Typography variant="caption">Seguir</Typography>}
                control={<Switch size="small" checked={seguir} onChange={(e) => setSeguir(e.target.checked)} slotProps={{ input: { 'aria-label': `Seguir ${titulo(selecionado)} no mapa` } }} />} />
              <IconButton size="small" onClick={desmarca} aria-label="Deixar de acompanhar o veículo"><CloseIcon fontSize="small" /></IconButton>
            </Box>
          )}
        </Box>
        {erro && <Alert severity="error" sx={{ m: 1 }}>{erro}</Alert>}
        {all && lista.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">Nenhum item foi encontrado</Typography>
        ) : (
          <VehicleList rows={lista} onPick={pick} selected={selected} semComunicacaoMs={opcoes.semComunicacaoMs} velocidadeMaxima={opcoes.velocidadeMaxima} />
        )}
      </Paper>
      <Paper variant="outlined" onClick={onMapClick} className={escuro ? 'rastro-escuro' : undefined} data-estilo={escuro ? 'escuro' : 'claro'} sx={{ flex: 1, position: 'relative', overflow: 'hidden', minWidth: 0,
        '& .leaflet-container': { height: '100%', width: '100%', bgcolor: '#e8eef1', fontFamily: 'inherit' },
        '& .rastro-veiculo, & .rastro-cluster': { background: 'none', border: 'none', cursor: 'pointer' },
        '& .rastro-veiculo svg': { filter: 'drop-shadow(0 1px 1px rgba(0,0,0,.4))', display: 'block' },
        '& .rastro-placa': { position: 'absolute', top: 27, left: '50%', transform: 'translateX(-50%)', whiteSpace: 'nowrap', pointerEvents: 'none',
          font: '600 11px/1.3 Roboto, Arial, sans-serif', px: 0.5, borderRadius: 0.5, bgcolor: 'rgba(255,255,255,.92)', color: '#263238', boxShadow: '0 1px 2px rgba(0,0,0,.3)' },
        // Dark style: tiles inverted and re-tinted, labels and background to match.
        '&.rastro-escuro .leaflet-container': { bgcolor: '#1c2529' },
        '&.rastro-escuro .leaflet-tile-pane': { filter: 'invert(1) hue-rotate(180deg) brightness(.9) contrast(.9) saturate(.6)' },
        '&.rastro-escuro .rastro-placa': { bgcolor: 'rgba(38,50,56,.92)', color: '#eceff1' },
        '& .rastro-popup-titulo': { fontWeight: 700, fontSize: 14, mb: 0.25 },
        '& .rastro-popup-estado': { fontSize: 12, fontWeight: 600, mb: 0.75 },
        '& .rastro-popup table': { borderCollapse: 'collapse', fontSize: 12 },
        '& .rastro-popup th': { textAlign: 'left', pr: 1.5, color: 'text.secondary', fontWeight: 500, verticalAlign: 'top', whiteSpace: 'nowrap' },
        '& .rastro-popup td': { pb: 0.25 },
        '& .rastro-popup-links': { display: 'flex', flexWrap: 'wrap', gap: 1.5, mt: 1, pt: 0.75, borderTop: '1px solid', borderColor: 'divider', fontSize: 12, fontWeight: 600 },
      }}>
        <MapContainer center={SAO_PAULO} zoom={11} preferCanvas={false} ref={mapRef} zoomControl>
          {TILE_URL && TILE_URL !== 'off' && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={19} />}
          <Vehicles rows={lista} layerRef={layerRef} fitKey={String(empresa)} links={links} opcoes={opcoes} onSelect={(serial) => setSelected(serial)} />
        </MapContainer>
        <Tooltip title="Mostrar toda a frota">
          <IconButton onClick={fitAll} aria-label="Mostrar toda a frota" size="small"
            sx={{ position: 'absolute', top: 84, left: 10, zIndex: 1000, bgcolor: 'background.paper', border: '2px solid rgba(0,0,0,.2)', borderRadius: 1, '&:hover': { bgcolor: 'background.paper' } }}>
            <CenterFocusStrongIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={escuro ? 'Mapa claro' : 'Mapa escuro'}>
          <IconButton onClick={alternaEscuro} aria-label={escuro ? 'Mapa claro' : 'Mapa escuro'} aria-pressed={escuro} size="small"
            sx={{ position: 'absolute', top: 122, left: 10, zIndex: 1000, bgcolor: 'background.paper', border: '2px solid rgba(0,0,0,.2)', borderRadius: 1, '&:hover': { bgcolor: 'background.paper' } }}>
            {escuro ? <LightModeIcon fontSize="small" /> : <DarkModeIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
      </Paper>
    </Box>
  );
}
