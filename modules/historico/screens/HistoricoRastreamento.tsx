// /tlm/ras/historico_rastreamento?ativoId=1,2&inicio=YYYY-MM-DD&fim=YYYY-MM-DD: replay of 1..10 assets on one
// timeline. The tracks come simplified for the map's zoom (GET /api/historico/trajetos: for the zoom the map fits
// them at, then again when the user zooms),
// drawn as lines coloured by speed; a playhead (./clock.ts: 1×–1000×, the stops every asset makes skipped from 10×)
// moves a marker per asset; the day's story, the events and the speed/RPM chart follow the playhead and move it.
// Works without tiles (VITE_MAP_TILE_URL 'off', as the live map).
import 'leaflet/dist/leaflet.css';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert, Box, Button, ButtonGroup, Chip, CircularProgress, IconButton, List, ListItemButton, ListItemText, MenuItem,
  Paper, Slider, Stack, TextField, Tooltip, Typography,
} from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import PauseIcon from '@mui/icons-material/Pause';
import SkipPreviousIcon from '@mui/icons-material/SkipPrevious';
import SkipNextIcon from '@mui/icons-material/SkipNext';
import DownloadIcon from '@mui/icons-material/Download';
import type { WidgetProps } from '@rjsf/utils';
import L from 'leaflet';
import { CircleMarker, MapContainer, Marker, Polyline, TileLayer, Tooltip as MapTooltip, useMap, useMapEvents } from 'react-leaflet';
import { Title } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { call } from '../../../runtime/src/api/http';
import { formatDateTime } from '../../../runtime/src/crud/lib/format';
import { DateRangeFilter, isoDay, type DateRange } from '../../../runtime/src/crud/widgets/DateRangeFilter';
import { formatDuration, formatKm } from '../../../runtime/src/crud/widgets/ColumnFormat';
import { ReferenceListWidget } from '../../../runtime/src/crud/forms/widgets';
import { downloadFile } from '../../../runtime/src/crud/lists/ListTools';
import { fullHeight } from '../../../runtime/src/layout/zoom';
import type { FieldMeta } from '../../../shared/model';
import { SKIP_FROM, SPEEDS, SPEED_BANDS, advance, colouredRuns, commonStops, positionAt, step, type Interval, type Ponto } from './clock';
import { Grafico } from './Grafico';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
const CORES = ['#1565c0', '#d81b60', '#00897b', '#6d4c41', '#5e35b1', '#f4511e', '#3949ab', '#7cb342', '#00acc1', '#8e24aa'];
const MAX_ATIVOS = 10;

interface Viagem { id: string; inicio: string; fim: string; duracao: number; distancia: number; velocidadeMaxima: number; velocidadeMedia: number; tempoOcioso: number; motoristaNome: string | null }
interface Parada { id: string; inicio: string; fim: string; duracao: number; ignicao: boolean | null; tempoLigado: number; latitude: number; longitude: number }
interface Evento { id: string; fixTime: string; codigo: string; descricao: string; latitude: number | null; longitude: number | null; velocidade: number | null }
interface Totais { viagens: number; paradas: number; distancia: number; emMovimento: number; parado: number; ocioso: number; velocidadeMaxima: number; velocidadeMedia: number }
interface Ativo { id: number; descricao: string; placa: string | null; totalPosicoes: number; pontos: Ponto[]; eventos: Evento[]; viagens: Viagem[]; paradas: Parada[]; totais: Totais }
interface Trajetos { inicio: string; fim: string; zoom: number | null; ativos: Ativo[] }

const kmh = (v: number | null) => v == null ? 'Sem informação' : `${v.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} km/h`;
const nome = (a: Ativo) => a.placa ? `${a.descricao} (${a.placa})` : a.descricao;

// The asset picker: the core's reference-list widget (its picker: search, grouping by garage) outside a form.
const CAMPO_ATIVOS = { name: 'ativos', column: 'ativos', type: 'referenceList', reference: 'ativo', label: 'Ativos', required: true, unique: false, upperCase: false, readOnly: false, hidden: false, writeOnly: false, system: false } as unknown as FieldMeta;
const REGISTRY = { formContext: { fields: new Map([['ativos', CAMPO_ATIVOS]]) } };
function AtivosPicker({ value, onChange }: { value: number[]; onChange: (v: number[]) => void }) {
  const props = {
    id: 'historico-ativos', name: 'ativos', label: `Ativos (até ${MAX_ATIVOS})`, value, required: true, disabled: false, readonly: false,
    onChange: (v: unknown) => onChange((Array.isArray(v) ? v : []).map(Number)), onBlur: () => undefined, onFocus: () => undefined,
    schema: {}, uiSchema: {}, options: {}, rawErrors: [], registry: REGISTRY,
  } as unknown as WidgetProps;
  return <ReferenceListWidget {...props} />;
}

function vehicleIcon(cor: string, label: string, course: number | null) {
  const arrow = course == null ? '' : `<div style="position:absolute;left:7px;top:-9px;width:0;height:0;border-left:5px solid transparent;border-right:5px solid transparent;border-bottom:9px solid ${cor};transform-origin:5px 16px;transform:rotate(${course}deg)"></div>`;
  return L.divIcon({
    className: 'rastro-replay-veiculo', iconSize: [24, 24], iconAnchor: [12, 12],
    html: `<div style="position:relative;width:24px;height:24px">${arrow}<div style="width:20px;height:20px;margin:2px;border-radius:50%;background:${cor};border:2px solid #fff;box-sizing:border-box;box-shadow:0 1px 3px rgba(0,0,0,.5)"></div>`
      + `<span style="position:absolute;left:26px;top:2px;white-space:nowrap;background:#fff;border:1px solid ${cor};border-radius:3px;padding:0 4px;font:600 11px/16px sans-serif;color:#222">${label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</span></div>`,
  });
}

/** The tracks: lines coloured by speed, the stops and the events (drawn once per answer, not per frame). */
const Trajetos = memo(function Trajetos({ ativos, onSeek }: { ativos: Ativo[]; onSeek: (t: number) => void }) {
  return (
    <>
      {ativos.map((a, k) => (
        <Box key={a.id} component="span">
          {/* a wide pale line under the speed colours names the asset */}
          <Polyline positions={a.pontos.map((p) => [p[1], p[2]] as [number, number])} pathOptions={{ color: CORES[k % CORES.length], weight: 9, opacity: 0.25 }} />
          {colouredRuns(a.pontos).map((r, i) => <Polyline key={i} positions={r.latlngs} className="rastro-trajeto" pathOptions={{ color: r.color, weight: 4, opacity: 0.95 }} />)}
          {a.paradas.map((p) => (
            <CircleMarker key={p.id} center={[p.latitude, p.longitude]} radius={6} pathOptions={{ color: '#fff', weight: 2, fillColor: '#ef6c00', fillOpacity: 1 }}
              eventHandlers={{ click: () => onSeek(Date.parse(p.inicio)) }}>
              <MapTooltip>Parada de {formatDuration(p.duracao)} — {formatDateTime(p.inicio)}</MapTooltip>
            </CircleMarker>
          ))}
          {a.eventos.filter((e) => e.latitude != null && e.longitude != null).map((e) => (
            <CircleMarker key={e.id} center={[e.latitude!, e.longitude!]} radius={6} className="rastro-evento" pathOptions={{ color: '#fff', weight: 2, fillColor: '#c62828', fillOpacity: 1 }}
              eventHandlers={{ click: () => onSeek(Date.parse(e.fixTime)) }}>
              <MapTooltip>{e.descricao} — {formatDateTime(e.fixTime)}</MapTooltip>
            </CircleMarker>
          ))}
        </Box>
      ))}
    </>
  );
});

/** Fits the tracks once per answer of a new selection; reports the zoom (the server simplifies for it). */
function MapSync({ fitKey, bounds, follow, onZoom }: { fitKey: string; bounds: L.LatLngBounds | null; follow: [number, number] | null; onZoom: (z: number) => void }) {
  const map = useMap();
  const fitted = useRef('');
  useMapEvents({ zoomend: () => onZoom(map.getZoom()) });
  useEffect(() => {
    if (!bounds || fitted.current === fitKey) return;
    fitted.current = fitKey;
    map.fitBounds(bounds.pad(0.15), { maxZoom: 16, animate: false });
    onZoom(map.getZoom());
  }, [fitKey, bounds, map, onZoom]);
  useEffect(() => { if (follow) map.panTo(follow, { animate: false }); }, [follow?.[0], follow?.[1]]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

type Linha = { tipo: 'viagem'; inicio: number; fim: number; v: Viagem } | { tipo: 'parada'; inicio: number; fim: number; p: Parada } | { tipo: 'evento'; inicio: number; fim: number; e: Evento };

function historia(a: Ativo): Linha[] {
  return [
    ...a.viagens.map((v) => ({ tipo: 'viagem' as const, inicio: Date.parse(v.inicio), fim: Date.parse(v.fim), v })),
    ...a.paradas.map((p) => ({ tipo: 'parada' as const, inicio: Date.parse(p.inicio), fim: Date.parse(p.fim), p })),
    ...a.eventos.map((e) => ({ tipo: 'evento' as const, inicio: Date.parse(e.fixTime), fim: Date.parse(e.fixTime), e })),
  ].sort((x, y) => x.inicio - y.inicio || (x.tipo === 'evento' ? 1 : 0) - (y.tipo === 'evento' ? 1 : 0));
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div" noWrap>{label}</Typography>
      <Typography variant="body2" sx={{ fontWeight: 700 }} noWrap>{value}</Typography>
    </Box>
  );
}

function Historia({ ativo, t, onSeek }: { ativo: Ativo; t: number; onSeek: (t: number) => void }) {
  const linhas = useMemo(() => historia(ativo), [ativo]);
  const tt = ativo.totais;
  return (
    <>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 1, p: 1.5, borderBottom: '1px solid', borderColor: 'divider' }} data-testid="totais">
        <Total label="Distância" value={`${formatKm(tt.distancia)} km`} />
        <Total label="Em movimento" value={formatDuration(tt.emMovimento)} />
        <Total label="Parado" value={formatDuration(tt.parado)} />
        <Total label="Ocioso" value={formatDuration(tt.ocioso)} />
        <Total label="Velocidade máxima" value={kmh(tt.velocidadeMaxima)} />
        <Total label="Velocidade média" value={kmh(tt.velocidadeMedia)} />
      </Box>
      {!linhas.length && <Typography variant="body2" color="text.secondary" sx={{ p: 1.5 }}>Nenhuma viagem, parada ou evento no período.</Typography>}
      <List dense sx={{ flex: 1, overflowY: 'auto', py: 0 }} data-testid="historia" aria-label="Viagens, paradas e eventos">
        {linhas.map((l) => {
          const atual = l.tipo === 'evento' ? Math.abs(t - l.inicio) < 1000 : t >= l.inicio && t < l.fim;
          const [chip, cor, texto, sub] = l.tipo === 'viagem'
            ? ['Viagem', 'primary' as const, `${formatKm(l.v.distancia)} km em ${formatDuration(l.v.duracao)}`, `Máx. ${kmh(l.v.velocidadeMaxima)} · média ${kmh(l.v.velocidadeMedia)}${l.v.tempoOcioso ? ` · ocioso ${formatDuration(l.v.tempoOcioso)}` : ''}`]
            : l.tipo === 'parada'
              ? ['Parada', 'warning' as const, `Parado ${formatDuration(l.p.duracao)}`, l.p.ignicao ? `Ignição ligada (ocioso ${formatDuration(l.p.tempoLigado)})` : 'Ignição desligada']
              : ['Evento', 'error' as const, l.e.descricao, l.e.velocidade != null ? kmh(l.e.velocidade) : ''];
          return (
            <ListItemButton key={`${l.tipo}-${l.inicio}-${chip}-${texto}`} selected={atual} aria-current={atual ? 'true' : undefined} onClick={() => onSeek(l.inicio)}
              sx={{ alignItems: 'flex-start', gap: 1, borderBottom: '1px solid', borderColor: 'divider' }} data-tipo={l.tipo}>
              <Chip size="small" label={chip} color={cor} variant={l.tipo === 'viagem' ? 'filled' : 'outlined'} sx={{ mt: 0.25, minWidth: 64 }} />
              <ListItemText
                primary={texto}
                secondary={<>{new Date(l.inicio).toLocaleTimeString('pt-BR')}{l.tipo !== 'evento' ? ` – ${new Date(l.fim).toLocaleTimeString('pt-BR')}` : ''}{sub ? ` · ${sub}` : ''}</>}
                slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 600 } }, secondary: { variant: 'caption' } }} />
            </ListItemButton>
          );
        })}
      </List>
    </>
  );
}

const diaDe = (s: string | null, d: string) => (s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : d);

export default function HistoricoRastreamento() {
  const [search, setSearch] = useSearchParams();
  const hoje = isoDay(new Date());
  const ids = useMemo(() => (search.get('ativoId') ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0).slice(0, MAX_ATIVOS), [search]);
  const periodo: DateRange = { from: diaDe(search.get('inicio'), hoje), to: diaDe(search.get('fim'), hoje) };
  const inicioIso = new Date(`${periodo.from}T00:00:00`).toISOString(), fimIso = new Date(`${periodo.to}T23:59:59.999`).toISOString();
  const consulta = `ativos=${ids.join(',')}&inicio=${encodeURIComponent(inicioIso)}&fim=${encodeURIComponent(fimIso)}`;

  const [dados, setDados] = useState<Trajetos | null>(null);
  const [erro, setErro] = useState<string>();
  const [carregando, setCarregando] = useState(false);
  const [zoom, setZoom] = useState<number | null>(null);
  const [t, setT] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(10);
  const [follow, setFollow] = useState<number | ''>('');
  const [escolhido, setEscolhido] = useState<number | null>(null);
  const [hoverT, setHoverT] = useState<number | null>(null);
  const [aviso, setAviso] = useState<string>();

  const setQuery = (o: { ativos?: number[]; periodo?: DateRange }) => {
    const a = o.ativos ?? ids, p = o.periodo ?? periodo;
    setSearch(a.length ? { ativoId: a.join(','), inicio: p.from, fim: p.to } : { inicio: p.from, fim: p.to }, { replace: true });
  };

  // One answer per selection; the zoom only refines the same selection's tracks.
  const zoomDe = useRef<number | null>(null);
  const mapa = useRef<HTMLDivElement>(null);
  zoomDe.current = zoom;
  useEffect(() => {
    setDados(null); setErro(undefined); setPlaying(false);
    if (!ids.length) return;
    let off = false;
    setCarregando(true);
    // a new selection is fitted to the map: the server thins the tracks for the zoom the map will fit them at (its
    // size goes with the call), so the first answer is the one drawn — a 30-day track is never sent whole
    const el = mapa.current?.querySelector<HTMLElement>('.leaflet-container');
    const ajuste = el && el.clientWidth > 0 && el.clientHeight > 0 ? `&ajuste=${el.clientWidth}x${el.clientHeight}`
      : zoomDe.current != null ? `&zoom=${zoomDe.current}` : '';
    call<Trajetos>(`/api/historico/trajetos?${consulta}${ajuste}`).then((d) => {
      if (off) return;
      setDados(d); setCarregando(false);
      const first = Math.min(...d.ativos.filter((a) => a.pontos.length).map((a) => a.pontos[0]![0]));
      setT(Number.isFinite(first) ? first : Date.parse(d.inicio));
      setEscolhido(d.ativos[0]?.id ?? null);
    }, (e: Error) => { if (!off) { setErro(e.message); setCarregando(false); } });
    return () => { off = true; };
  }, [consulta]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!dados || zoom == null || dados.zoom === zoom) return;
    let off = false;
    const h = setTimeout(() => {
      call<Trajetos>(`/api/historico/trajetos?${consulta}&zoom=${zoom}`).then((d) => { if (!off) setDados(d); }, () => undefined);
    }, 300);
    return () => { off = true; clearTimeout(h); };
  }, [zoom, dados, consulta]);

  const ativos = dados?.ativos ?? [];
  const comPontos = ativos.filter((a) => a.pontos.length);
  const inicio = comPontos.length ? Math.min(...comPontos.map((a) => a.pontos[0]![0])) : 0;
  const fim = comPontos.length ? Math.max(...comPontos.map((a) => a.pontos[a.pontos.length - 1]![0])) : 0;
  const skips = useMemo(() => {
    // an asset is "stopped" during its stops and before its first / after its last fix
    const per = comPontos.map((a) => [
      ...a.paradas.map((p): Interval => ({ from: Date.parse(p.inicio), to: Date.parse(p.fim) })),
      { from: -Infinity, to: a.pontos[0]![0] }, { from: a.pontos[a.pontos.length - 1]![0], to: Infinity },
    ]);
    return commonStops(per).filter((i) => Number.isFinite(i.from) && Number.isFinite(i.to));
  }, [dados]); // eslint-disable-line react-hooks/exhaustive-deps
  const instantes = useMemo(() => [...new Set(comPontos.flatMap((a) => [...a.pontos.map((p) => p[0]), ...a.eventos.map((e) => Date.parse(e.fixTime))]))].sort((x, y) => x - y), [dados]); // eslint-disable-line react-hooks/exhaustive-deps

  // The clock: one frame advances the playhead by the real time elapsed × speed.
  const tRef = useRef(t);
  tRef.current = t;
  useEffect(() => {
    if (!playing) return;
    let last = performance.now(), raf = 0;
    const frame = (now: number) => {
      const next = advance(tRef.current, now - last, speed, skips, fim);
      last = now;
      setT(next);
      if (next >= fim) { setPlaying(false); return; }
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, [playing, speed, skips, fim]);

  const seek = useCallback((x: number) => setT(x), []);
  const posicoes = ativos.map((a) => positionAt(a.pontos, t));
  const seguido = follow === '' ? null : ativos.findIndex((a) => a.id === follow);
  const followPos = seguido != null && seguido >= 0 && posicoes[seguido] ? [posicoes[seguido]!.lat, posicoes[seguido]!.lon] as [number, number] : null;
  const bounds = useMemo(() => {
    const pts = comPontos.flatMap((a) => a.pontos.map((p) => [p[1], p[2]] as [number, number]));
    return pts.length ? L.latLngBounds(pts) : null;
  }, [dados?.ativos.map((a) => a.id).join(','), comPontos.length]); // eslint-disable-line react-hooks/exhaustive-deps
  const ativoEscolhido = ativos.find((a) => a.id === escolhido) ?? ativos[0];
  const kEscolhido = ativoEscolhido ? ativos.indexOf(ativoEscolhido) : -1;
  const hoverPos = hoverT != null && ativoEscolhido ? positionAt(ativoEscolhido.pontos, hoverT) : null;

  const exportar = (formato: 'csv' | 'gpx' | 'kml') => {
    const fuso = Intl.DateTimeFormat().resolvedOptions().timeZone;
    downloadFile(`/api/historico/exporta?formato=${formato}&${consulta}&fuso=${encodeURIComponent(fuso)}`, `historico_rastreamento.${formato}`).catch((e: Error) => setErro(e.message));
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, height: { xs: 'auto', md: fullHeight('88px') }, minHeight: 640 }}>
      <Title title="Histórico de rastreamento" />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} alignItems={{ md: 'center' }}>
        <Typography variant="h6" component="h1" sx={{ whiteSpace: 'nowrap' }}>Histórico de rastreamento</Typography>
        <Box sx={{ flex: 1, minWidth: 280, maxWidth: 640 }}>
          <AtivosPicker value={ids} onChange={(v) => {
            if (v.length > MAX_ATIVOS) setAviso(`Escolha até ${MAX_ATIVOS} ativos: os ${MAX_ATIVOS} primeiros foram mantidos.`); else setAviso(undefined);
            setQuery({ ativos: v.slice(0, MAX_ATIVOS) });
          }} />
        </Box>
        <DateRangeFilter value={periodo} onChange={(r) => setQuery({ periodo: r ?? { from: hoje, to: hoje } })} />
        <ButtonGroup size="small" variant="outlined" aria-label="Exportar trajeto" disabled={!dados}>
          {(['csv', 'gpx', 'kml'] as const).map((f) => <Button key={f} startIcon={<DownloadIcon />} onClick={() => exportar(f)}>{f.toUpperCase()}</Button>)}
        </ButtonGroup>
      </Stack>
      {aviso && <Alert severity="warning" onClose={() => setAviso(undefined)}>{aviso}</Alert>}
      {erro && <Alert severity="error">{erro}</Alert>}
      {!ids.length && <Alert severity="info">Escolha um ativo (ou até {MAX_ATIVOS}) e o período para reproduzir o trajeto.</Alert>}
      {dados && !comPontos.length && <Alert severity="info">Nenhuma posição no período.</Alert>}
      <Box sx={{ flex: 1, display: 'flex', gap: 1, minHeight: 0, flexDirection: { xs: 'column', md: 'row' } }}>
        <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}>
          <Paper ref={mapa} variant="outlined" sx={{ flex: 1, minHeight: 300, position: 'relative', overflow: 'hidden',
            '& .leaflet-container': { height: '100%', width: '100%', bgcolor: '#e8eef1', fontFamily: 'inherit' },
            '& .rastro-replay-veiculo': { background: 'none', border: 'none' } }} data-testid="mapa-historico">
            <MapContainer center={[-23.55, -46.63]} zoom={11} zoomControl>
              {TILE_URL && TILE_URL !== 'off' && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={19} />}
              <MapSync fitKey={ids.join(',') + consulta} bounds={bounds} follow={followPos} onZoom={setZoom} />
              <Trajetos ativos={ativos} onSeek={seek} />
              {ativos.map((a, k) => posicoes[k] && (
                <Marker key={a.id} position={[posicoes[k]!.lat, posicoes[k]!.lon]} icon={vehicleIcon(CORES[k % CORES.length]!, a.placa ?? a.descricao, posicoes[k]!.course)}
                  zIndexOffset={1000} title={nome(a)} eventHandlers={{ click: () => setEscolhido(a.id) }} />
              ))}
              {hoverPos && <CircleMarker center={[hoverPos.lat, hoverPos.lon]} radius={9} className="rastro-cursor-grafico" pathOptions={{ color: '#d32f2f', weight: 3, fillOpacity: 0 }} />}
            </MapContainer>
            {carregando && <CircularProgress size={28} sx={{ position: 'absolute', top: 12, right: 12, zIndex: 1000 }} />}
            <Paper sx={{ position: 'absolute', bottom: 8, left: 8, zIndex: 1000, px: 1, py: 0.5, display: 'flex', gap: 1, flexWrap: 'wrap', fontSize: 11 }} elevation={2}>
              {SPEED_BANDS.map((b) => <Box key={b.color} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}><Box sx={{ width: 14, height: 4, bgcolor: b.color }} />{b.label}</Box>)}
            </Paper>
          </Paper>
          <Paper variant="outlined" sx={{ px: 1.5, py: 1, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="controles">
            <Tooltip title="Posição ou evento anterior"><span><IconButton aria-label="Posição ou evento anterior" disabled={!comPontos.length} onClick={() => setT(step(instantes, t, -1))}><SkipPreviousIcon /></IconButton></span></Tooltip>
            <Tooltip title={playing ? 'Pausar' : 'Reproduzir'}><span>
              <IconButton color="primary" aria-label={playing ? 'Pausar' : 'Reproduzir'} disabled={!comPontos.length}
                onClick={() => { if (!playing && t >= fim) setT(inicio); setPlaying(!playing); }}>{playing ? <PauseIcon /> : <PlayArrowIcon />}</IconButton>
            </span></Tooltip>
            <Tooltip title="Próxima posição ou evento"><span><IconButton aria-label="Próxima posição ou evento" disabled={!comPontos.length} onClick={() => setT(step(instantes, t, 1))}><SkipNextIcon /></IconButton></span></Tooltip>
            <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 150 }} data-testid="instante" data-t={t}>{comPontos.length ? formatDateTime(new Date(t)) : '—'}</Typography>
            <Slider size="small" sx={{ flex: 1, minWidth: 160, mx: 1 }} min={inicio} max={Math.max(fim, inicio + 1)} value={Math.min(Math.max(t, inicio), fim || inicio)} step={1000}
              disabled={!comPontos.length} onChange={(_, v) => setT(v as number)} slotProps={{ input: { 'aria-label': 'Linha do tempo' } }}
              marks={skips.length < 50 ? skips.map((s) => ({ value: s.from })) : undefined} />
            <TextField select size="small" label="Velocidade" sx={{ width: 190, flex: 'none' }} value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
              {SPEEDS.map((s) => <MenuItem key={s} value={s}>{s}×{s >= SKIP_FROM ? ' (pula paradas)' : ''}</MenuItem>)}
            </TextField>
            <TextField select size="small" label="Seguir" sx={{ width: 150, flex: 'none' }} value={follow} onChange={(e) => setFollow(e.target.value === '' ? '' : Number(e.target.value))}>
              <MenuItem value="">Nenhum</MenuItem>
              {ativos.map((a) => <MenuItem key={a.id} value={a.id}>{a.placa ?? a.descricao}</MenuItem>)}
            </TextField>
          </Paper>
          <Paper variant="outlined" sx={{ height: 190, flex: 'none', p: 0.5 }}>
            {ativoEscolhido
              ? <Grafico pontos={ativoEscolhido.pontos} inicio={inicio} fim={Math.max(fim, inicio + 1)} t={t} onHover={setHoverT} />
              : <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>O gráfico de velocidade e RPM aparece com o trajeto.</Typography>}
          </Paper>
        </Box>
        <Paper variant="outlined" sx={{ width: { xs: '100%', md: 380 }, flex: 'none', display: 'flex', flexDirection: 'column', overflow: 'hidden', minHeight: 300 }}>
          <Box sx={{ p: 1, display: 'flex', gap: 0.5, flexWrap: 'wrap', borderBottom: '1px solid', borderColor: 'divider' }} role="tablist" aria-label="Ativo da história">
            {ativos.map((a, k) => {
              const pos = posicoes[k];
              return (
                <Chip key={a.id} role="tab" aria-selected={a.id === ativoEscolhido?.id} onClick={() => setEscolhido(a.id)} variant={a.id === ativoEscolhido?.id ? 'filled' : 'outlined'}
                  sx={{ borderColor: CORES[k % CORES.length], '& .MuiChip-label': { display: 'flex', gap: 0.5, alignItems: 'center' }, ...(a.id === ativoEscolhido?.id ? { bgcolor: CORES[k % CORES.length], color: '#fff' } : {}) }}
                  label={<><b>{a.placa ?? a.descricao}</b><span data-testid={`velocidade-${a.id}`}>{pos ? kmh(pos.speed) : 'sem posições'}</span></>} />
              );
            })}
            {!ativos.length && <Typography variant="subtitle2" sx={{ p: 0.5 }}>História do dia</Typography>}
          </Box>
          {ativoEscolhido && (
            <>
              <Typography variant="caption" color="text.secondary" sx={{ px: 1.5, pt: 1 }} component="div">
                {nome(ativoEscolhido)} · {ativoEscolhido.totalPosicoes.toLocaleString('pt-BR')} posições{kEscolhido >= 0 && ativoEscolhido.pontos.length < ativoEscolhido.totalPosicoes ? ` (${ativoEscolhido.pontos.length.toLocaleString('pt-BR')} no zoom atual)` : ''}
              </Typography>
              <Historia ativo={ativoEscolhido} t={t} onSeek={(x) => { setPlaying(false); seek(x); }} />
            </>
          )}
        </Paper>
      </Box>
    </Box>
  );
}
