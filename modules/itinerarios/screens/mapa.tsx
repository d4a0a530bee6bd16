// Shared map pieces of the itinerary screens: tiles (or none), fitting, and a line's corridor drawn at its width in
// metres (a translucent polyline re-widened at each zoom).
import 'leaflet/dist/leaflet.css';
import { useEffect, useState } from 'react';
import L from 'leaflet';
import { Polyline, TileLayer, useMap } from 'react-leaflet';

const TILE_URL: string = (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION: string = (import.meta.env.VITE_MAP_TILE_ATTRIBUTION as string | undefined)
  ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

export function Tiles() {
  return TILE_URL === 'off' ? null : <TileLayer url={TILE_URL} attribution={TILE_ATTRIBUTION} />;
}

export function Fit({ points }: { points: [number, number][] }) {
  const map = useMap();
  const key = JSON.stringify(points);
  useEffect(() => {
    if (points.length === 1) map.setView(points[0]!, 15, { animate: false });
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points).pad(0.15), { maxZoom: 17, animate: false });
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

const metresPerPixel = (map: L.Map, lat: number) => (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / 2 ** (map.getZoom() + 8);

/** The corridor (full width `largura` metres) around the line, and the line itself. */
export function Corredor({ linha, largura, color = '#1565c0' }: { linha: [number, number][]; largura: number; color?: string }) {
  const map = useMap();
  const [weight, setWeight] = useState(4);
  useEffect(() => {
    const widen = () => setWeight(Math.max(4, largura / metresPerPixel(map, map.getCenter().lat)));
    widen();
    map.on('zoomend', widen);
    return () => { map.off('zoomend', widen); };
  }, [map, largura]);
  if (linha.length < 2) return null;
  return (
    <>
      <Polyline positions={linha} pathOptions={{ color, opacity: 0.18, weight, lineCap: 'round', lineJoin: 'round' }} interactive={false} />
      <Polyline positions={linha} pathOptions={{ color, weight: 2, dashArray: '6 4' }} />
    </>
  );
}
