// Mapa de cercas (/tlm/cee/mapa_de_cercas): the active company's fences on one map — polygons, circles and route
// corridors drawn as wide as their width — with a side list (search, click centres the fence) and the latest entries,
// exits and speeding (provider evento_cerca, pushed live as the devices report: server.ts live). A fence opens its
// form (drawing, editing); Adicionar opens an empty one.
// Works without tiles (VITE_MAP_TILE_URL=off).
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, Card, Chip, List, ListItemButton, ListItemText, Stack, TextField, Typography } from '@mui/material';
import L from 'leaflet';
import { Circle, MapContainer, Polygon, Polyline, ScaleControl, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { useNavigate } from 'react-router-dom';
import { call } from '../../../runtime/src/api/http';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { useCan } from '../../../runtime/src/crud/lib/useCan';
import { useLiveRows } from '../../../runtime/src/layout/useLiveRows';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { eventoLinha } from '../excesso';
import { CARD, mergeEventos, type Evento } from './eventos';
import { lineToPolygon, type Pos } from '../geo';
import { Title } from 'react-admin';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

interface Cerca { id: number; descricao: string; tipo: 'poligono' | 'circulo' | 'rota'; geometria: { type: string; coordinates: any } | null; raio: number | null; cor: string | null; ativo: boolean; velocidadeMaxima: number | null }
const CHIP_COR: Record<string, 'success' | 'error' | 'default'> = { Entrada: 'success', 'Velocidade excedida': 'error' };

const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const EVENTOS_URL = `/api/cercas/eventos?range=${q([0, CARD - 1])}&sort=${q(['fixTime', 'DESC'])}`;

const TIPO = { poligono: 'Polígono', circulo: 'Círculo', rota: 'Rota' } as const;
const ll = (c: number[]): L.LatLngTuple => [c[1]!, c[0]!];

/** The fence's outline as Leaflet points (corridors as their polygon), for bounds and drawing. */
function shapeOf(c: Cerca): { kind: 'polygon'; rings: L.LatLngTuple[][] } | { kind: 'circle'; center: L.LatLngTuple; radius: number } | null {
  const g = c.geometria;
  if (!g) return null;
  if (c.tipo === 'circulo' && g.type === 'Point' && c.raio) return { kind: 'circle', center: ll(g.coordinates), radius: c.raio };
  if (c.tipo === 'rota' && g.type === 'LineString' && c.raio) return { kind: 'polygon', rings: lineToPolygon(g.coordinates as Pos[], c.raio, 8).coordinates.map((r) => r.map(ll)) };
  if (g.type === 'Polygon') return { kind: 'polygon', rings: (g.coordinates as number[][][]).map((r) => r.map(ll)) };
  return null;
}
const boundsOf = (cs: Cerca[]) => {
  const b = L.latLngBounds([]);
  for (const c of cs) {
    const s = shapeOf(c);
    if (s?.kind === 'circle') b.extend(L.latLng(s.center).toBounds(s.radius * 2));
    else if (s) for (const r of s.rings) for (const p of r) b.extend(p);
  }
  return b;
};

function Fit({ cercas, foco }: { cercas: Cerca[]; foco: Cerca | undefined }) {
  const map = useMap();
  useEffect(() => {
    const b = boundsOf(foco ? [foco] : cercas);
    if (b.isValid()) map.fitBounds(b.pad(0.15), { animate: false, maxZoom: 17 });
  }, [cercas, foco, map]);
  return null;
}

export default function MapaDeCercas() {
  const [cercas, setCercas] = useState<Cerca[]>([]);
  const empresa = useSession()?.empresaAtiva ?? null;
  const live = useLiveRows<Evento, Evento[]>({
    url: EVENTOS_URL, event: 'evento_cerca', empresa, erro: 'Erro ao carregar os eventos de cercas',
    read: (rows) => rows, apply: (cur, push) => mergeEventos(cur, push.rows),
  });
  const eventos = live.rows ?? [];
  const aoVivo = live.aoVivo;
  const [erro, setErro] = useState<string>();
  const [busca, setBusca] = useState('');
  const [foco, setFoco] = useState<number>();
  const navigate = useNavigate();
  const { can } = useCan();

  useEffect(() => {
    call<Cerca[]>(`/api/cerca?range=${q([0, 9999])}&sort=${q(['descricao', 'ASC'])}`).then(setCercas, (e: Error) => setErro(e.message));
  }, []);
  const visiveis = useMemo(() => cercas.filter((c) => c.descricao.toLowerCase().includes(busca.trim().toLowerCase())), [cercas, busca]);
  const focada = cercas.find((c) => c.id === foco);
  const abrir = (c: Cerca) => navigate(`/tlm/cee/cercas/${c.id}/editar`);

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" alignItems="center" spacing={2}>
        <Title title="Mapa de cercas" />
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>Mapa de cercas</Typography>
        {can('tlm.cee.cercas.adicionar') && <Button variant="contained" onClick={() => navigate('/tlm/cee/cercas/adicionar')}>Adicionar cerca</Button>}
      </Stack>
      {erro && <Alert severity="error">{erro}</Alert>}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Card sx={{ width: { md: 300 }, flexShrink: 0 }}>
          <Box sx={{ p: 1.5 }}>
            <TextField size="small" fullWidth label="Buscar cerca" value={busca} onChange={(e) => setBusca(e.target.value)} />
            <Typography variant="caption" color="text.secondary">{cercas.length === 0 ? 'Nenhuma cerca cadastrada' : `${visiveis.length} de ${cercas.length} cercas`}</Typography>
          </Box>
          <List dense sx={{ maxHeight: 520, overflow: 'auto' }} data-testid="lista-cercas">
            {visiveis.map((c) => (
              <ListItemButton key={c.id} selected={c.id === foco} onClick={() => setFoco(c.id)} onDoubleClick={() => abrir(c)}>
                <Box sx={{ width: 12, height: 12, borderRadius: c.tipo === 'circulo' ? 6 : 0.5, bgcolor: c.cor ?? '#1976d2', mr: 1.5, opacity: c.ativo ? 1 : 0.35 }} />
                <ListItemText primary={c.descricao} secondary={`${TIPO[c.tipo]}${c.raio && c.tipo !== 'poligono' ? ` · ${c.raio.toLocaleString('pt-BR')} m` : ''}${c.ativo ? '' : ' · inativa'}`} />
              </ListItemButton>
            ))}
          </List>
        </Card>
        <Box sx={{ flex: 1, height: 560, borderRadius: 1, overflow: 'hidden', bgcolor: '#e8eaed' }} data-testid="mapa-cercas">
          <MapContainer center={[-15.78, -47.93]} zoom={4} style={{ height: '100%', width: '100%', background: '#e8eaed' }}>
            {TILE_URL && TILE_URL !== 'off' && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={19} />}
            <ScaleControl imperial={false} position="bottomleft" />
            <Fit cercas={cercas} foco={focada} />
            {cercas.map((c) => {
              const s = shapeOf(c);
              const color = c.cor ?? '#1976d2';
              const style = { color, fillColor: color, weight: c.id === foco ? 4 : 2, fillOpacity: c.ativo ? 0.25 : 0.08, dashArray: c.ativo ? undefined : '6 6' };
              const tip = <Tooltip sticky>{c.descricao} ({TIPO[c.tipo]}){c.velocidadeMaxima ? ` · até ${c.velocidadeMaxima} km/h` : ''}</Tooltip>;
              const events = { click: () => setFoco(c.id), dblclick: () => abrir(c) };
              if (s?.kind === 'circle') return <Circle key={c.id} center={s.center} radius={s.radius} pathOptions={style} eventHandlers={events}>{tip}</Circle>;
              if (s) {
                return (
                  <span key={c.id}>
                    <Polygon positions={s.rings} pathOptions={style} eventHandlers={events}>{tip}</Polygon>
                    {c.tipo === 'rota' && c.geometria && <Polyline positions={(c.geometria.coordinates as number[][]).map(ll)} pathOptions={{ color, weight: 2, dashArray: '4 4' }} interactive={false} />}
                  </span>
                );
              }
              return null;
            })}
          </MapContainer>
        </Box>
      </Stack>
      {focada && (
        <Stack direction="row" spacing={1} alignItems="center">
          <Typography variant="body1"><b>{focada.descricao}</b> — {TIPO[focada.tipo]}</Typography>
          {can('tlm.cee.cercas.editar') && <Button size="small" variant="outlined" onClick={() => abrir(focada)}>Editar no mapa</Button>}
        </Stack>
      )}
      <Card sx={{ p: 1.5 }}>
        <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
          <Typography variant="subtitle1" sx={{ flex: 1 }}>Últimas entradas, saídas e excessos de velocidade</Typography>
          <Chip size="small" variant="outlined" color={aoVivo ? 'success' : 'default'} label={aoVivo ? 'Ao vivo' : 'Conectando…'} data-testid="ao-vivo" />
        </Stack>
        {eventos.length === 0 ? <Typography variant="body2" color="text.secondary">Nenhuma entrada, saída ou excesso de velocidade registrado</Typography> : (
          <Stack spacing={0.5} data-testid="eventos-cercas">
            {eventos.map((e) => (
              <Stack key={e.id} direction="row" spacing={1} alignItems="center">
                <Chip size="small" color={CHIP_COR[e.tipo] ?? 'default'} label={e.tipo} />
                <Typography variant="body2">{formatDateTime(e.fixTime)} · {eventoLinha(e)}</Typography>
              </Stack>
            ))}
          </Stack>
        )}
      </Card>
    </Stack>
  );
}
