// Messages between the live map's layer and its clustering worker (cluster.worker.ts).
import type { Estado } from './estado';

/** Zoom from which every vehicle is its own marker. */
export const CLUSTER_MAX_ZOOM = 16;

/** States as small integers (a typed array crosses to the worker without copying each point). */
export const ESTADO_CODES: readonly number[] = [0, 1, 2];
export const ESTADO_CODE: Record<Estado, number> = { ligada: 0, desligada: 1, sem_comunicacao: 2 };

export type ToWorker =
  /** The whole fleet: serials, [lon, lat] pairs and state codes in the same order. */
  | { type: 'load'; serials: string[]; coords: Float64Array; states: Uint8Array }
  /** The clusters and single vehicles of a view ([west, south, east, north]) at a zoom. */
  | { type: 'query'; seq: number; bbox: [number, number, number, number]; zoom: number }
  /** The zoom at which a cluster splits. */
  | { type: 'expand'; req: number; id: number };

/** A cluster (id, count, per-state counts, centre) or a single vehicle (its serial). */
export type ClusterItem = { c: number; n: number; l: number; d: number; s: number; x: number; y: number } | { p: string };

export type FromWorker =
  | { type: 'clusters'; seq: number; items: ClusterItem[] }
  | { type: 'expanded'; req: number; zoom: number | null };
