// The map editor of a geometry field (metadata `map:`, shared/model.ts GeometryMap): draw, edit, drag and remove
// the shape with leaflet-geoman. What is drawn comes from the form: the value of `kindField` maps to Polygon,
// Circle (GeoJSON Point + radius in `radiusField`, metres), Corridor (LineString + full width in `radiusField`),
// Point or LineString. A circle's radius is written to radiusField with the shape (formContext.patch); editing that
// field redraws it. Works without tiles (VITE_MAP_TILE_URL=off): the shapes and the scale are drawn on a blank map.
import 'leaflet/dist/leaflet.css';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import '@geoman-io/leaflet-geoman-free';
import { useEffect, useMemo, useRef } from 'react';
import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import L from 'leaflet';
import { MapContainer, ScaleControl, TileLayer, useMap } from 'react-leaflet';
import type { GeometryMap as MapMeta, MapShape } from '../../../../shared/model';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
/** Width given to a new corridor when the form has none (metres). */
export const DEFAULT_WIDTH = 50;

type Geo = { type: string; coordinates: any } | null | undefined;
export interface GeometryValue { geometry: Geo; radius: number | null }

const GEOJSON_OF: Record<MapShape, string> = { Polygon: 'Polygon', Circle: 'Point', Corridor: 'LineString', Point: 'Point', LineString: 'LineString' };
const r7 = (v: number) => Math.round(v * 1e7) / 1e7;
const ll = (c: number[]): L.LatLngTuple => [c[1]!, c[0]!];
const lonLat = (p: L.LatLng): [number, number] => [r7(p.lng), r7(p.lat)];

/** pt-BR summary of what is drawn (also read by screen readers and tests). */
export function describe(shape: MapShape, g: Geo, radius: number | null): string {
  if (!g) return 'Nada desenhado';
  if (GEOJSON_OF[shape] !== g.type) return 'A geometria desenhada não é do tipo escolhido: desenhe de novo (a anterior será substituída)';
  const m = (v: number | null) => (v === null ? 'sem raio' : `${v.toLocaleString('pt-BR')} m`);
  switch (shape) {
    case 'Polygon': return `Polígono com ${Math.max(0, (g.coordinates?.[0]?.length ?? 1) - 1)} vértices`;
    case 'Circle': return `Círculo com raio de ${m(radius)}`;
    case 'Corridor': return `Rota com ${g.coordinates?.length ?? 0} pontos e corredor de ${radius === null ? 'largura não informada' : m(radius)}`;
    case 'Point': return 'Ponto';
    default: return `Linha com ${g.coordinates?.length ?? 0} pontos`;
  }
}

/** Metres per screen pixel at the map's zoom and latitude (web mercator). */
const metresPerPixel = (map: L.Map, lat: number) => (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / 2 ** (map.getZoom() + 8);

function Editor({ shape, value, radius, color, disabled, onDraw }: {
  shape: MapShape; value: Geo; radius: number | null; color: string; disabled: boolean;
  onDraw: (g: Geo, radius?: number) => void;
}) {
  const map = useMap();
  const group = useRef<L.FeatureGroup>(L.featureGroup());
  const buffer = useRef<L.Polyline | null>(null);
  const onDrawRef = useRef(onDraw);
  onDrawRef.current = onDraw;
  const fitted = useRef(false);

  // the toolbar: only the tools of the chosen kind
  useEffect(() => {
    const pm = (map as any).pm;
    pm.setLang('pt_br');
    group.current.addTo(map);
    if (!disabled) {
      pm.addControls({
        position: 'topleft', drawMarker: shape === 'Point', drawCircleMarker: false, drawText: false, cutPolygon: false, rotateMode: false,
        drawPolygon: shape === 'Polygon', drawRectangle: shape === 'Polygon', drawCircle: shape === 'Circle',
        drawPolyline: shape === 'Corridor' || shape === 'LineString', editMode: true, dragMode: true, removalMode: true,
      });
    }
    pm.setGlobalOptions({ pathOptions: { color, fillColor: color } });
    return () => { pm.removeControls(); };
  }, [map, shape, disabled, color]);

  // layer → value
  useEffect(() => {
    const toValue = (layer: L.Layer) => {
      if (layer instanceof L.Circle) return onDrawRef.current({ type: 'Point', coordinates: lonLat(layer.getLatLng()) }, Math.max(1, Math.round(layer.getRadius())));
      if (layer instanceof L.Marker) return onDrawRef.current({ type: 'Point', coordinates: lonLat(layer.getLatLng()) });
      if (layer instanceof L.Polygon) {
        const rings = (layer.getLatLngs() as L.LatLng[][]).map((ring) => { const c = ring.map(lonLat); return [...c, c[0]!]; });
        return onDrawRef.current({ type: 'Polygon', coordinates: rings });
      }
      if (layer instanceof L.Polyline) return onDrawRef.current({ type: 'LineString', coordinates: (layer.getLatLngs() as L.LatLng[]).map(lonLat) });
    };
    const created = (e: any) => {
      // one shape per field: the new one replaces what was there
      map.removeLayer(e.layer);
      toValue(e.layer);
    };
    const removed = (e: any) => { if (e.layer !== buffer.current) onDrawRef.current(null); };
    const changed = (e: any) => toValue(e.layer ?? e.target);
    map.on('pm:create', created);
    map.on('pm:remove', removed);
    group.current.on('pm:edit pm:dragend', changed);
    const g = group.current;
    return () => { map.off('pm:create', created); map.off('pm:remove', removed); g.off('pm:edit pm:dragend', changed); };
  }, [map]);

  // value → layer (the form's value and radius; redrawn when either changes)
  useEffect(() => {
    const g = group.current;
    g.clearLayers();
    buffer.current = null;
    const style = { color, fillColor: color, weight: 3, fillOpacity: 0.2 };
    if (value && GEOJSON_OF[shape] === value.type) {
      let layer: L.Layer | null = null;
      if (shape === 'Polygon') layer = L.polygon((value.coordinates as number[][][]).map((ring) => ring.slice(0, -1).map(ll)), style);
      else if (shape === 'Circle') layer = L.circle(ll(value.coordinates), { ...style, radius: radius ?? 1 });
      else if (shape === 'Point') layer = L.marker(ll(value.coordinates));
      else {
        const pts = (value.coordinates as number[][]).map(ll);
        if (shape === 'Corridor' && radius) {
          // the corridor: the line drawn as wide as its width in metres (round ends and joins), under the editable line
          const b = L.polyline(pts, { color, opacity: 0.25, lineCap: 'round', lineJoin: 'round', interactive: false, pmIgnore: true } as L.PolylineOptions);
          buffer.current = b;
          b.addTo(map);
        }
        layer = L.polyline(pts, { ...style, fill: false });
      }
      if (layer) g.addLayer(layer);
      if (!fitted.current) {
        fitted.current = true;
        const bounds = shape === 'Circle' || shape === 'Point' ? L.latLng(ll(value.coordinates)).toBounds(Math.max(200, (radius ?? 0) * 3)) : g.getBounds();
        if (bounds.isValid()) map.fitBounds(bounds.pad(0.2), { animate: false, maxZoom: 17 });
      }
    }
    const b = buffer.current;
    const widen = () => { if (b) b.setStyle({ weight: Math.max(2, (radius ?? 0) / metresPerPixel(map, map.getCenter().lat)) }); };
    widen();
    map.on('zoomend', widen);
    return () => { map.off('zoomend', widen); if (b) map.removeLayer(b); };
  }, [map, JSON.stringify(value), radius, shape, color]); // eslint-disable-line react-hooks/exhaustive-deps

  return null;
}

export default function GeometryMap({ id, name, label, map, data, value, disabled, error, onChange }: {
  id: string; name: string; label: string; map: MapMeta; data: Record<string, unknown>; value: Geo; disabled?: boolean; error?: string;
  onChange: (values: Record<string, unknown>) => void;
}) {
  const kinds = Object.entries(map.kinds);
  const kindValue = map.kindField ? String(data[map.kindField] ?? '') : kinds[0]![0];
  const shape: MapShape = map.kinds[kindValue] ?? kinds[0]![1];
  const radius = map.radiusField && typeof data[map.radiusField] === 'number' ? (data[map.radiusField] as number) : null;
  const color = map.colorField && typeof data[map.colorField] === 'string' && /^#[0-9A-Fa-f]{6}$/.test(data[map.colorField] as string) ? (data[map.colorField] as string) : '#1976d2';
  const center = useMemo<L.LatLngTuple>(() => [-15.78, -47.93], []);
  const hint = shape === 'Polygon' ? 'Desenhe o polígono (ou um retângulo) com as ferramentas à esquerda; clique no primeiro vértice para fechar.'
    : shape === 'Circle' ? 'Clique no centro e arraste até o raio desejado; o raio também pode ser digitado.'
      : shape === 'Corridor' ? 'Desenhe a linha da rota; a largura do corredor é o campo de raio (largura total, em metros).'
        : 'Desenhe com as ferramentas à esquerda do mapa.';
  const draw = (g: Geo, r?: number) => {
    const next: Record<string, unknown> = { [name]: g ?? null };
    if (map.radiusField && r !== undefined) next[map.radiusField] = r;
    if (map.radiusField && shape === 'Corridor' && g && radius === null) next[map.radiusField] = DEFAULT_WIDTH;
    onChange(next);
  };
  return (
    <Stack spacing={0.5} sx={{ width: '100%' }} data-testid={`mapa-${id}`}>
      <Typography variant="body2" color="text.secondary">{label}</Typography>
      <Box sx={{ height: 380, borderRadius: 1, overflow: 'hidden', border: 1, borderColor: error ? 'error.main' : 'divider', bgcolor: '#e8eaed' }}>
        <MapContainer center={center} zoom={4} style={{ height: '100%', width: '100%', background: '#e8eaed' }}>
          {TILE_URL && TILE_URL !== 'off' && <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} maxZoom={19} />}
          <ScaleControl imperial={false} position="bottomleft" />
          <Editor shape={shape} value={value} radius={radius} color={color} disabled={!!disabled} onDraw={draw} />
        </MapContainer>
      </Box>
      <Stack direction="row" spacing={1} alignItems="center">
        <Typography variant="body2" data-testid={`resumo-${id}`} sx={{ flex: 1 }}>{describe(shape, value, radius)}</Typography>
        {value && !disabled && <Button size="small" onClick={() => draw(null)}>Limpar desenho</Button>}
      </Stack>
      <FormHelperText error={!!error}>{error ?? hint}</FormHelperText>
    </Stack>
  );
}
