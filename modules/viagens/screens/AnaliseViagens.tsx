// Análise de viagens (/cfg/map/analise_viagens?ativo=): an asset and a period; its trips and stops in time order
// (providers viagem and parada of this module), the day totals, and the chosen trip on a small map.
import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useState } from 'react';
import { Alert, Autocomplete, Box, Card, CardContent, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import L from 'leaflet';
import { CircleMarker, MapContainer, Polyline, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { useSearchParams } from 'react-router-dom';
import { call } from '../../../runtime/src/api/http';
import { formatDate, formatDateTime } from '../../../runtime/src/crud/lib/format';
import { DateRangeFilter, isoDay, rangeFilter, type DateRange } from '../../../runtime/src/crud/widgets/DateRangeFilter';
import { formatDuration, formatKm } from '../../../runtime/src/crud/widgets/ColumnFormat';
import { totaisPorDia, type Parada, type Viagem } from './totais';
import { Title } from 'react-admin';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

interface Ativo { id: number; descricao: string; placa: string }

const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const kmh = (v: number) => `${v.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} km/h`;

function Fit({ points }: { points: [number, number][] }) {
  const map = useMap();
  const key = JSON.stringify(points);
  useEffect(() => {
    if (points.length === 1) map.setView(points[0]!, 15, { animate: false });
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points).pad(0.3), { maxZoom: 16, animate: false });
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

interface Ponto { latitude: number; longitude: number }

/** The trip's track (its stored positions, provider trajeto_viagem); empty while loading or when refused. */
function useTrajeto(viagem: Viagem | undefined): [number, number][] {
  const [pts, setPts] = useState<[number, number][]>([]);
  useEffect(() => {
    setPts([]);
    if (!viagem) return;
    let off = false;
    call<Ponto[]>(`/api/viagens/trajeto/${encodeURIComponent(viagem.id)}?range=${q([0, 9999])}`)
      .then((r) => { if (!off) setPts(r.map((p) => [p.latitude, p.longitude])); }, () => undefined);
    return () => { off = true; };
  }, [viagem?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  return pts;
}

function MapaViagem({ viagem, paradas }: { viagem: Viagem | undefined; paradas: Parada[] }) {
  const trajeto = useTrajeto(viagem);
  const ends: [number, number][] = viagem ? [[viagem.latitudeInicio, viagem.longitudeInicio], [viagem.latitudeFim, viagem.longitudeFim]] : [];
  // the stored track when it is in; until then (or without positions) the start and end joined by a dashed line
  const pts: [number, number][] = viagem ? (trajeto.length > 1 ? trajeto : ends) : paradas.map((p) => [p.latitude, p.longitude]);
  return (
    <Box sx={{ height: 320, borderRadius: 1, overflow: 'hidden' }} data-testid="mapa-viagem">
      <MapContainer center={pts[0] ?? [-15.78, -47.93]} zoom={pts.length ? 13 : 4} style={{ height: '100%', width: '100%' }}>
        <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} />
        <Fit points={pts} />
        {viagem && (
          <>
            <Polyline positions={pts} pathOptions={trajeto.length > 1 ? { color: '#1976d2', weight: 4, dashArray: '' } : { color: '#1976d2', weight: 3, dashArray: '6 6' }}>
              <Tooltip sticky>{trajeto.length > 1 ? `Trajeto: ${trajeto.length} posições` : 'Início e fim da viagem'}</Tooltip>
            </Polyline>
            <CircleMarker center={ends[0]!} radius={8} pathOptions={{ color: '#fff', fillColor: '#2e7d32', fillOpacity: 1 }}><Tooltip>Início: {formatDateTime(viagem.inicio)}</Tooltip></CircleMarker>
            <CircleMarker center={ends[1]!} radius={8} pathOptions={{ color: '#fff', fillColor: '#c62828', fillOpacity: 1 }}><Tooltip>Fim: {formatDateTime(viagem.fim)}</Tooltip></CircleMarker>
          </>
        )}
        {paradas.map((p) => (
          <CircleMarker key={p.id} center={[p.latitude, p.longitude]} radius={5} pathOptions={{ color: '#fff', fillColor: '#ef6c00', fillOpacity: 0.9 }}>
            <Tooltip>Parada: {formatDateTime(p.inicio)} ({formatDuration(p.duracao)})</Tooltip>
          </CircleMarker>
        ))}
      </MapContainer>
    </Box>
  );
}

type Linha = { tipo: 'viagem'; v: Viagem } | { tipo: 'parada'; p: Parada };

export default function AnaliseViagens() {
  const [search, setSearch] = useSearchParams();
  const ativoId = Number(search.get('ativo')) || null;
  const hoje = isoDay(new Date());
  const [periodo, setPeriodo] = useState<DateRange>({ from: hoje, to: hoje });
  const [ativos, setAtivos] = useState<Ativo[]>([]);
  const [viagens, setViagens] = useState<Viagem[]>([]);
  const [paradas, setParadas] = useState<Parada[]>([]);
  const [escolhida, setEscolhida] = useState<string>();
  const [erro, setErro] = useState<string>();

  useEffect(() => {
    call<Ativo[]>(`/api/ativo?range=${q([0, 999])}&sort=${q(['descricao', 'ASC'])}`).then(setAtivos, (e: Error) => setErro(e.message));
  }, []);
  useEffect(() => {
    if (!ativoId) { setViagens([]); setParadas([]); return; }
    let off = false;
    const filter = q({ ativoId, ...rangeFilter('inicio', periodo) });
    const page = `filter=${filter}&range=${q([0, 1999])}&sort=${q(['inicio', 'ASC'])}`;
    Promise.all([call<Viagem[]>(`/api/viagens?${page}`), call<Parada[]>(`/api/paradas?${page}`)]).then(([v, p]) => {
      if (off) return;
      setViagens(v); setParadas(p); setErro(undefined); setEscolhida(v[v.length - 1]?.id);
    }, (e: Error) => { if (!off) setErro(e.message); });
    return () => { off = true; };
  }, [ativoId, periodo]);

  const totais = useMemo(() => totaisPorDia(viagens, paradas), [viagens, paradas]);
  const linhas: Linha[] = useMemo(() => [...viagens.map((v) => ({ tipo: 'viagem' as const, v })), ...paradas.map((p) => ({ tipo: 'parada' as const, p }))]
    .sort((a, b) => Date.parse(a.tipo === 'viagem' ? a.v.inicio : a.p.inicio) - Date.parse(b.tipo === 'viagem' ? b.v.inicio : b.p.inicio)), [viagens, paradas]);
  const viagem = viagens.find((v) => v.id === escolhida);
  const ativo = ativos.find((a) => a.id === ativoId) ?? null;

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Title title="Análise de viagens" />
      <Typography variant="h5" component="h1">Análise de viagens</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
        <Autocomplete sx={{ minWidth: 320 }} options={ativos} value={ativo} getOptionLabel={(a) => `${a.descricao} (${a.placa})`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_, a) => setSearch(a ? { ativo: String(a.id) } : {}, { replace: true })}
          renderInput={(p) => <TextField {...p} label="Ativo" size="small" />} />
        <DateRangeFilter value={periodo} onChange={(r) => setPeriodo(r ?? { from: hoje, to: hoje })} />
      </Stack>
      {erro && <Alert severity="error">{erro}</Alert>}
      {!ativoId && <Alert severity="info">Escolha um ativo para ver as viagens e paradas do período.</Alert>}
      {ativoId && !erro && !linhas.length && <Alert severity="info">Nenhuma viagem ou parada no período.</Alert>}
      {!!totais.length && (
        <Card variant="outlined"><CardContent>
          <Typography variant="subtitle1" gutterBottom>Totais por dia</Typography>
          <Table size="small" data-testid="totais-dia">
            <TableHead><TableRow>
              <TableCell>Dia</TableCell><TableCell align="right">Viagens</TableCell><TableCell align="right">Distância (km)</TableCell>
              <TableCell align="right">Em viagem</TableCell><TableCell align="right">Ocioso</TableCell><TableCell align="right">Paradas</TableCell>
              <TableCell align="right">Parado</TableCell><TableCell align="right">Velocidade máxima</TableCell>
            </TableRow></TableHead>
            <TableBody>{totais.map((t) => (
              <TableRow key={t.dia}>
                <TableCell>{formatDate(t.dia)}</TableCell><TableCell align="right">{t.viagens}</TableCell>
                <TableCell align="right">{formatKm(t.distancia)}</TableCell><TableCell align="right">{formatDuration(t.conducao)}</TableCell>
                <TableCell align="right">{formatDuration(t.ocioso)}</TableCell><TableCell align="right">{t.paradas}</TableCell>
                <TableCell align="right">{formatDuration(t.parado)}</TableCell><TableCell align="right">{kmh(t.velocidadeMaxima)}</TableCell>
              </TableRow>
            ))}</TableBody>
          </Table>
        </CardContent></Card>
      )}
      {!!linhas.length && (
        <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} alignItems="flex-start">
          <Card variant="outlined" sx={{ flex: 3, width: '100%' }}><CardContent>
            <Table size="small" data-testid="viagens-paradas">
              <TableHead><TableRow>
                <TableCell /><TableCell>Início</TableCell><TableCell>Fim</TableCell><TableCell align="right">Duração</TableCell>
                <TableCell align="right">Distância (km)</TableCell><TableCell align="right">Vel. máx. / média</TableCell><TableCell align="right">Ocioso</TableCell><TableCell>Motorista</TableCell>
              </TableRow></TableHead>
              <TableBody>{linhas.map((l) => l.tipo === 'viagem' ? (
                <TableRow key={`v${l.v.id}`} hover selected={l.v.id === escolhida} sx={{ cursor: 'pointer' }} onClick={() => setEscolhida(l.v.id)}>
                  <TableCell><Chip size="small" color="primary" label="Viagem" /></TableCell>
                  <TableCell>{formatDateTime(l.v.inicio)}</TableCell>
                  <TableCell>{l.v.situacao === 'Em andamento' ? <Chip size="small" color="success" label="Em andamento" /> : formatDateTime(l.v.fim)}</TableCell>
                  <TableCell align="right">{formatDuration(l.v.duracao)}</TableCell><TableCell align="right">{formatKm(l.v.distancia)}</TableCell>
                  <TableCell align="right">{kmh(l.v.velocidadeMaxima)} / {kmh(l.v.velocidadeMedia)}</TableCell>
                  <TableCell align="right">{formatDuration(l.v.tempoOcioso)}</TableCell><TableCell>{l.v.motoristaNome ?? 'Sem informação'}</TableCell>
                </TableRow>
              ) : (
                <TableRow key={`p${l.p.id}`}>
                  <TableCell><Chip size="small" color="warning" variant="outlined" label="Parada" /></TableCell>
                  <TableCell>{formatDateTime(l.p.inicio)}</TableCell><TableCell>{formatDateTime(l.p.fim)}</TableCell>
                  <TableCell align="right">{formatDuration(l.p.duracao)}</TableCell><TableCell align="right">—</TableCell>
                  <TableCell align="right">{l.p.ignicao ? 'Ignição ligada' : 'Ignição desligada'}</TableCell>
                  <TableCell align="right">{formatDuration(l.p.tempoLigado)}</TableCell><TableCell />
                </TableRow>
              ))}</TableBody>
            </Table>
          </CardContent></Card>
          <Card variant="outlined" sx={{ flex: 2, width: '100%' }}><CardContent>
            <Typography variant="subtitle1" gutterBottom>{viagem ? `Viagem de ${formatDateTime(viagem.inicio)}` : 'Paradas do período'}</Typography>
            <MapaViagem viagem={viagem} paradas={paradas} />
          </CardContent></Card>
        </Stack>
      )}
    </Stack>
  );
}
