// Mapa do ativo: the asset's latest position (GET /api/rastreamento/ultimo_estado?ativoId= once, then the socket's
// `ultimo_estado` pushes of its devices: ./aoVivo.ts) and its address
// (GET /api/geocodificacao/endereco) on a map. Shown by the asset record's Mapa tab (the record's :id) and at
// /tlm/ras/mapa_do_ativo?ativo=&lat=&lon=&quando= (Registros' link: that point is marked too).
import 'leaflet/dist/leaflet.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Box, Card, Stack, Typography } from '@mui/material';
import L from 'leaflet';
import { MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import { useParams, useSearchParams } from 'react-router-dom';
import { call } from '../../../runtime/src/api/http';
import { formatTimestamp } from '../../../runtime/src/crud/lib/format';
import { useSession } from '../../../runtime/src/layout/CompanyPicker';
import { titulo, velocidadeTexto, type UltimoEstado } from './estado';
import { useUltimoEstadoAoVivo } from './aoVivo';
import { Title } from 'react-admin';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

const pin = (color: string, label: string) => L.divIcon({
  className: 'rastro-mapa-ativo',
  html: `<svg width="28" height="28" viewBox="0 0 28 28" role="img" aria-label="${label}"><circle cx="14" cy="14" r="9" fill="${color}" stroke="#fff" stroke-width="3"/></svg>`,
  iconSize: [28, 28], iconAnchor: [14, 14], popupAnchor: [0, -12],
});

function Fit({ points }: { points: [number, number][] }) {
  const map = useMap();
  const key = JSON.stringify(points);
  useEffect(() => {
    if (points.length === 1) map.setView(points[0], 16, { animate: false });
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points).pad(0.3), { maxZoom: 16, animate: false });
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

function useAddress(lat: number | null | undefined, lon: number | null | undefined) {
  const [a, setA] = useState<string>();
  useEffect(() => {
    if (lat == null || lon == null) return;
    let off = false;
    call<{ endereco: string }>(`/api/geocodificacao/endereco?lat=${lat}&lon=${lon}`).then((e) => { if (!off) setA(e.endereco); }, () => undefined);
    return () => { off = true; };
  }, [lat, lon]);
  return a;
}

/** `title`: given as the asset record's Mapa tab ('Mapa: {ativo}'). */
export default function MapaDoAtivo({ title }: { title?: string }) {
  const { id } = useParams();
  const [search] = useSearchParams();
  const ativo = search.get('ativo') ?? id;
  const ponto = useMemo(() => {
    const lat = Number(search.get('lat')), lon = Number(search.get('lon'));
    return search.get('lat') && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon, quando: search.get('quando') } : null;
  }, [search]);
  const empresa = useSession()?.empresaAtiva ?? null;
  const aceita = useCallback((r: UltimoEstado) => String(r.ativoId) === String(ativo), [ativo]);
  const { rows, erro, atualizado, aoVivo } = useUltimoEstadoAoVivo(ativo ? `/api/rastreamento/ultimo_estado?ativoId=${encodeURIComponent(ativo)}` : null, empresa, aceita);
  // the newest of the asset's devices with a position
  const estado = useMemo<UltimoEstado | null | undefined>(() => {
    if (!ativo) return null;
    if (!rows) return undefined;
    const withPos = rows.filter((r) => r.latitude != null && r.longitude != null)
      .sort((a, b) => String(b.ultimaComunicacao).localeCompare(String(a.ultimaComunicacao)));
    return withPos[0] ?? null;
  }, [rows, ativo]);
  const atual = estado ? ([estado.latitude!, estado.longitude!] as [number, number]) : null;
  const endereco = useAddress(estado?.latitude, estado?.longitude);
  const enderecoPonto = useAddress(ponto?.lat, ponto?.lon);
  const points = [...(atual ? [atual] : []), ...(ponto ? [[ponto.lat, ponto.lon] as [number, number]] : [])];

  return (
    <Card sx={{ p: 2 }} data-testid="mapa-do-ativo">
      <Title title={title ?? 'Mapa do ativo'} />
      <Stack spacing={1} sx={{ mb: 1 }}>
        <Typography variant="h6" component="h1" sx={{ fontWeight: 600 }}>
          Mapa{estado ? `: ${titulo(estado)}${estado.placa ? ` (${estado.placa})` : ''}` : ''}
        </Typography>
        {erro && <Alert severity="error">{erro}</Alert>}
        {atualizado && <Typography variant="caption" color="text.secondary" data-testid="atualizado" data-ao-vivo={aoVivo ? 'sim' : 'nao'}>{`Atualizado às ${atualizado.toLocaleTimeString('pt-BR')}`}</Typography>}
        {estado === null && !ponto && <Alert severity="info">Este ativo ainda não enviou nenhuma posição.</Alert>}
        {estado && (
          <Box>
            <Typography variant="body2" data-testid="mapa-endereco">Endereço: {endereco ?? 'buscando…'}</Typography>
            <Typography variant="body2" color="text.secondary" data-testid="mapa-posicao">
              Posição de {formatTimestamp(estado.fixTime)} · {velocidadeTexto(estado.velocidade)} · {estado.latitude!.toFixed(6)}, {estado.longitude!.toFixed(6)}
            </Typography>
          </Box>
        )}
        {ponto && (
          <Typography variant="body2" data-testid="mapa-ponto">
            Ponto do registro{ponto.quando ? ` de ${formatTimestamp(ponto.quando)}` : ''}: {ponto.lat.toFixed(6)}, {ponto.lon.toFixed(6)}{enderecoPonto ? ` — ${enderecoPonto}` : ''}
          </Typography>
        )}
      </Stack>
      <Box sx={{ height: 480, '& .leaflet-container': { height: '100%', borderRadius: 1 } }}>
        <MapContainer center={points[0] ?? [-15.78, -47.93]} zoom={points.length ? 16 : 4} zoomControl>
          {TILE_URL && TILE_URL !== 'off' && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={19} />}
          <Fit points={points} />
          {atual && (
            <Marker position={atual} icon={pin('#1565c0', 'Posição atual')} title="Posição atual">
              <Popup>{titulo(estado!)}<br />{endereco}</Popup>
            </Marker>
          )}
          {ponto && (
            <Marker position={[ponto.lat, ponto.lon]} icon={pin('#e65100', 'Ponto do registro')} title="Ponto do registro">
              <Popup>Ponto do registro<br />{enderecoPonto}</Popup>
            </Marker>
          )}
        </MapContainer>
      </Box>
    </Card>
  );
}
