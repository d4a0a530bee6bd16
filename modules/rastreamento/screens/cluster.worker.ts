// The live map's clustering off the main thread: supercluster's index of thousands of vehicles is rebuilt on every
// push (a tenth of a 10,000-vehicle fleet a second), which took 100+ ms of the page's main thread each time and made
// panning stutter. The layer (VehicleLayer.ts) posts the points and asks for the clusters of its view; answers carry
// the request's sequence number so the layer keeps only the newest.
import Supercluster from 'supercluster';
import { CLUSTER_MAX_ZOOM, ESTADO_CODE, type ClusterItem, type PorEstado, type ToWorker } from './cluster-protocol';
import type { Estado } from './estado';

type PointProps = { i: number; e: number };
type ClusterProps = PorEstado;

const ESTADOS = Object.keys(ESTADO_CODE) as Estado[];
const index = new Supercluster<PointProps, ClusterProps>({
  radius: 60, maxZoom: CLUSTER_MAX_ZOOM, minPoints: 3,
  map: (p) => {
    const c = { em_movimento: 0, parado: 0, desligado: 0, sem_comunicacao: 0 };
    c[ESTADOS[p.e] ?? 'sem_comunicacao'] = 1;
    return c;
  },
  reduce: (acc, p) => { for (const e of ESTADOS) acc[e] += p[e]; },
});
let serials: string[] = [];

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  if (m.type === 'load') {
    serials = m.serials;
    const points: Supercluster.PointFeature<PointProps>[] = new Array(serials.length);
    for (let i = 0; i < serials.length; i++) {
      points[i] = { type: 'Feature', geometry: { type: 'Point', coordinates: [m.coords[2 * i], m.coords[2 * i + 1]] }, properties: { i, e: m.states[i] } };
    }
    index.load(points);
  } else if (m.type === 'query') {
    const items: ClusterItem[] = [];
    for (const f of index.getClusters(m.bbox, m.zoom)) {
      const p = f.properties as Partial<Supercluster.ClusterProperties & ClusterProps & PointProps>;
      const [x, y] = f.geometry.coordinates;
      if (p.cluster) items.push({ c: p.cluster_id!, n: p.point_count!, e: { em_movimento: p.em_movimento!, parado: p.parado!, desligado: p.desligado!, sem_comunicacao: p.sem_comunicacao! }, x, y });
      else items.push({ p: serials[p.i!] });
    }
    self.postMessage({ type: 'clusters', seq: m.seq, items });
  } else if (m.type === 'expand') {
    let zoom: number | null = null;
    try { zoom = index.getClusterExpansionZoom(m.id); } catch { /* a cluster of an index since replaced */ }
    self.postMessage({ type: 'expanded', req: m.req, zoom });
  }
};
