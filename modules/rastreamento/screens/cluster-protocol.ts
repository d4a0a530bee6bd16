// Messages between the live map's layer and its clustering worker (cluster.worker.ts).
import type { Estado } from './estado';

/** Zoom from which every vehicle is its own marker. */
export const CLUSTER_MAX_ZOOM = 16;

/** States as small integers (a typed array crosses to the worker without copying each point). */
export const ESTADO_CODE: Record<Estado, number> = { em_movimento: 0, parado: 1, desligado: 2, sem_comunicacao: 3 };

/** Vehicles of a cluster per state (the cluster's ring). */
export type PorEstado = Record<Estado, number>;

export type ToWorker =
  /** The whole fleet: serials, [lon, lat] pairs and state codes in the same order. */
  | { type: 'load'; serials: string[]; coords: Float64Array; states: Uint8Array }
  /** The clusters and single vehicles of a view ([west, south, east, north]) at a zoom. */
  | { type: 'query'; seq: number; bbox: [number, number, number, number]; zoom: number }
  /** The zoom at which a cluster splits. */
  | { type: 'expand'; req: number; id: number };

/** A cluster (id, count, per-state counts, centre) or a single vehicle (its serial). */
export type ClusterItem = { c: number; n: number; e: PorEstado; x: number; y: number } | { p: string };

export type FromWorker =
  | { type: 'clusters'; seq: number; items: ClusterItem[] }
  | { type: 'expanded'; req: number; zoom: number | null };
