// Nearest Brazilian municipality (seat coordinates, IBGE; data/FONTE.md) of a point: the offline answer of the
// reverse geocoder. A 1° grid index: the rings around the point's cell are searched until no closer seat can exist.
import { readFileSync } from 'node:fs';

export interface Municipio { codigoIbge: number; nome: string; uf: string; lat: number; lon: number }

const FILE = new URL('../data/municipios.csv', import.meta.url);
const CELL = 1; // degrees
const KM_PER_DEG = 111.195;

const cellKey = (i: number, j: number) => i * 1000 + j;
const cellOf = (v: number) => Math.floor(v / CELL);

/** Great-circle distance in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export class MunicipioIndex {
  private cells = new Map<number, Municipio[]>();
  constructor(readonly all: Municipio[]) {
    for (const m of all) {
      const k = cellKey(cellOf(m.lat), cellOf(m.lon));
      (this.cells.get(k) ?? this.cells.set(k, []).get(k)!).push(m);
    }
  }

  /** The nearest seat and its distance; undefined when the index is empty. */
  nearest(lat: number, lon: number): { municipio: Municipio; km: number } | undefined {
    if (!this.all.length || !Number.isFinite(lat) || !Number.isFinite(lon)) return undefined;
    const ci = cellOf(lat), cj = cellOf(lon);
    let best: Municipio | undefined, bestKm = Infinity;
    // ring r holds cells at Chebyshev distance r; a seat outside rings 0..r is at least r*CELL degrees of latitude away
    // (longitude degrees shrink with the latitude: the bound uses the smaller of the two)
    const lonScale = Math.max(0.2, Math.cos((Math.min(Math.abs(lat) + CELL, 89) * Math.PI) / 180));
    for (let r = 0; r < 90; r++) {
      if (best && r > 0 && (r - 1) * CELL * KM_PER_DEG * lonScale > bestKm) break;
      for (let i = ci - r; i <= ci + r; i++) {
        for (let j = cj - r; j <= cj + r; j++) {
          if (Math.max(Math.abs(i - ci), Math.abs(j - cj)) !== r) continue;
          for (const m of this.cells.get(cellKey(i, j)) ?? []) {
            const km = distanceKm(lat, lon, m.lat, m.lon);
            if (km < bestKm) { best = m; bestKm = km; }
          }
        }
      }
    }
    return best && { municipio: best, km: bestKm };
  }
}

export function parseMunicipios(text: string): Municipio[] {
  return text.trim().split('\n').slice(1).map((l) => {
    const [codigo, nome, uf, lat, lon] = l.split(';');
    return { codigoIbge: Number(codigo), nome, uf, lat: Number(lat), lon: Number(lon) };
  });
}

let index: MunicipioIndex | undefined;
/** The shipped table's index (read once). */
export const municipios = (): MunicipioIndex => (index ??= new MunicipioIndex(parseMunicipios(readFileSync(FILE, 'utf8'))));

/** 'São Paulo/SP', the offline address of a point (undefined without coordinates). */
export function municipioLabel(lat: number, lon: number): string | undefined {
  const n = municipios().nearest(lat, lon);
  return n && `${n.municipio.nome}/${n.municipio.uf}`;
}
