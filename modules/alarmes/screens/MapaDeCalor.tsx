// Mapa de calor (/tlm/evt/mapa_de_calor): positions, events or alarms of the chosen assets in a period, counted by the
// server on a grid fitted to the map's view and zoom (GET /api/alarmes/mapa_de_calor) and painted by CalorLayer on a
// canvas. Read again when the map moves or zooms, or the choices change. Works without tiles.
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Autocomplete, Box, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { MapContainer, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { call } from '../../../runtime/src/api/http';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { DateRangeFilter, isoDay, type DateRange } from '../../../runtime/src/crud/widgets/DateRangeFilter';
import { CalorLayer, corDoPeso, type Celula } from './CalorLayer';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
const FONTES = [
  { value: 'posicoes', label: 'Posições' },
  { value: 'eventos', label: 'Eventos' },
  { value: 'alarmes', label: 'Alarmes' },
];

interface Ativo { id: number; descricao: string; placa: string }
interface Calor { passo: number; celulas: Celula[]; total: number; maximo: number }
interface Vista { bbox: string; zoom: number }

const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));

function vistaDe(map: L.Map): Vista {
  const b = map.getBounds();
  return { bbox: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()].map((v) => v.toFixed(5)).join(','), zoom: map.getZoom() };
}

function Camada({ calor, onVista }: { calor: Calor | null; onVista: (v: Vista) => void }) {
  const map = useMap();
  const layer = useMemo(() => new CalorLayer(), []);
  useEffect(() => { layer.addTo(map); onVista(vistaDe(map)); return () => { layer.remove(); }; }, [map]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => { layer.setData(calor?.celulas ?? [], calor?.passo ?? 0); }, [calor, layer]);
  useMapEvents({ moveend: () => onVista(vistaDe(map)) });
  return null;
}

export default function MapaDeCalor() {
  const hoje = isoDay(new Date());
  const [fonte, setFonte] = useState('posicoes');
  const [periodo, setPeriodo] = useState<DateRange>(() => ({ from: isoDay(new Date(Date.now() - 7 * 86_400_000)), to: hoje }));
  const [ativos, setAtivos] = useState<Ativo[]>([]);
  const [escolhidos, setEscolhidos] = useState<Ativo[]>([]);
  const [vista, setVista] = useState<Vista | null>(null);
  const [calor, setCalor] = useState<Calor | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const gen = useRef(0);
  const { can } = useCan();

  useEffect(() => {
    if (!can('tlm.fro.ativo.lista')) return;
    call<Ativo[]>(`/api/ativo?range=${q([0, 1999])}&sort=${q(['descricao', 'ASC'])}`).then(setAtivos, () => undefined);
  }, [can]);

  useEffect(() => {
    if (!vista) return;
    const g = ++gen.current;
    const p = new URLSearchParams({
      fonte, zoom: String(vista.zoom), bbox: vista.bbox,
      inicio: new Date(`${periodo.from}T00:00:00`).toISOString(), fim: new Date(`${periodo.to}T23:59:59.999`).toISOString(),
    });
    if (escolhidos.length) p.set('ativos', escolhidos.map((a) => a.id).join(','));
    call<Calor>(`/api/alarmes/mapa_de_calor?${p}`).then((r) => { if (g === gen.current) { setCalor(r); setErro(null); } },
      (e: Error) => { if (g === gen.current) setErro(e.message); });
  }, [vista, fonte, periodo, escolhidos]);

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', height: 'calc(100vh - 64px)', boxSizing: 'border-box' }}>
      <Title title="Mapa de calor" />
      <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h6">Mapa de calor</Typography>
        <TextField select size="small" label="Dados" value={fonte} onChange={(e) => setFonte(e.target.value)} sx={{ minWidth: 140 }}>
          {FONTES.map((f) => <MenuItem key={f.value} value={f.value}>{f.label}</MenuItem>)}
        </TextField>
        <DateRangeFilter value={periodo} onChange={(r) => setPeriodo(r ?? { from: hoje, to: hoje })} />
        <Autocomplete multiple size="small" sx={{ minWidth: 320 }} options={ativos} value={escolhidos}
          getOptionLabel={(a) => `${a.descricao} (${a.placa})`} isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_, v) => setEscolhidos(v)} limitTags={3}
          renderInput={(p) => <TextField {...p} label="Ativos" placeholder={escolhidos.length ? '' : 'Todos os ativos'} />} />
        {calor && (
          <Typography variant="body2" color="text.secondary" data-testid="calor-total">
            {calor.total.toLocaleString('pt-BR')} {fonte === 'posicoes' ? 'posições' : fonte === 'eventos' ? 'eventos' : 'alarmes'} em {calor.celulas.length.toLocaleString('pt-BR')} células
          </Typography>
        )}
      </Stack>
      {erro && <Alert severity="error" sx={{ mb: 1 }}>{erro}</Alert>}
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 360, position: 'relative', overflow: 'hidden', bgcolor: '#1b2330' }}>
        <MapContainer center={[-15.78, -47.93]} zoom={4} style={{ height: '100%', width: '100%', background: '#1b2330' }} data-testid="mapa-calor">
          <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} />
          <Camada calor={calor} onVista={setVista} />
        </MapContainer>
        <Box sx={{ position: 'absolute', right: 12, bottom: 24, zIndex: 1000, bgcolor: 'rgba(255,255,255,.9)', p: 1, borderRadius: 1 }}>
          <Typography variant="caption">Concentração</Typography>
          <Box sx={{ width: 140, height: 10, background: `linear-gradient(to right, ${[0, 0.35, 0.65, 1].map(corDoPeso).join(',')})` }} />
          <Stack direction="row" justifyContent="space-between"><Typography variant="caption">baixa</Typography><Typography variant="caption">alta</Typography></Stack>
        </Box>
      </Paper>
    </Box>
  );
}
