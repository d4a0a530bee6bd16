// A Leaflet layer that paints the server's grid cells on one canvas: each cell a square of its real size on the map
// (at least a few pixels), its colour and opacity from its weight (n / the heaviest cell) on a blue → yellow → red
// scale. Redrawn on move and zoom; needs no tiles and no plugin.
import L from 'leaflet';

export interface Celula { lat: number; lon: number; n: number }

/** Weight 0..1 → colour (blue, cyan, yellow, red). */
export function corDoPeso(w: number): string {
  const stops: [number, [number, number, number]][] = [[0, [33, 102, 172]], [0.35, [0, 188, 212]], [0.65, [255, 214, 0]], [1, [211, 47, 47]]];
  const x = Math.max(0, Math.min(1, w));
  let i = 0;
  while (i < stops.length - 2 && x > stops[i + 1]![0]) i++;
  const [a, ca] = stops[i]!, [b, cb] = stops[i + 1]!;
  const t = (x - a) / (b - a || 1);
  const c = ca.map((v, k) => Math.round(v + (cb[k]! - v) * t));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

export class CalorLayer extends L.Layer {
  private canvas?: HTMLCanvasElement;
  private celulas: Celula[] = [];
  private passo = 0;
  private maximo = 1;

  setData(celulas: Celula[], passo: number) {
    this.celulas = celulas;
    this.passo = passo;
    // log scale: a garage with thousands of fixes does not hide every street
    this.maximo = Math.max(1, ...celulas.map((c) => c.n));
    this.redraw();
  }

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create('canvas', 'rastro-calor leaflet-zoom-hide') as HTMLCanvasElement;
    this.canvas.style.pointerEvents = 'none';
    map.getPanes().overlayPane.appendChild(this.canvas);
    map.on('moveend zoomend resize', this.redraw, this);
    this.redraw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize', this.redraw, this);
    this.canvas?.remove();
    this.canvas = undefined;
    return this;
  }

  redraw() {
    const map = this._map as L.Map | undefined;
    const cv = this.canvas;
    if (!map || !cv) return;
    const size = map.getSize();
    const topLeft = map.containerPointToLayerPoint([0, 0]);
    L.DomUtil.setPosition(cv, topLeft);
    cv.width = size.x;
    cv.height = size.y;
    const ctx = cv.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, size.x, size.y);
    const lmax = Math.log1p(this.maximo);
    const h = this.passo / 2;
    for (const c of this.celulas) {
      const a = map.latLngToContainerPoint([c.lat + h, c.lon - h]);
      const b = map.latLngToContainerPoint([c.lat - h, c.lon + h]);
      let w = Math.abs(b.x - a.x), ht = Math.abs(b.y - a.y);
      const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
      if (x > size.x || y > size.y || x + w < 0 || y + ht < 0) continue;
      w = Math.max(w, 4); ht = Math.max(ht, 4);
      const peso = Math.log1p(c.n) / lmax;
      ctx.globalAlpha = 0.35 + 0.5 * peso;
      ctx.fillStyle = corDoPeso(peso);
      ctx.fillRect(x, y, w, ht);
    }
    ctx.globalAlpha = 1;
  }
}
