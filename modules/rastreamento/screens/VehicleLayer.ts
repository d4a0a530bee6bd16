// Vehicle markers for thousands of devices: supercluster indexes the positions in a worker (cluster.worker.ts) and
// only the clusters and vehicles inside the current view are DOM markers (reused across refreshes: setLatLng, icon
// rebuilt only when the state or the 10° course bucket changes). Plain Leaflet, driven from the React screen.
import L from 'leaflet';
import { emExcesso, ESTADOS, estadoDe, linhasPopup, linksPopup, rumo, SEM_COMUNICACAO_MS, titulo, type Estado, type UltimoEstado } from './estado';
import { CLUSTER_MAX_ZOOM, ESTADO_CODE, type ClusterItem, type PorEstado, type FromWorker, type ToWorker } from './cluster-protocol';
import { call } from '../../../runtime/src/api/http';


const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);


function vehicleIcon(r: UltimoEstado, estado: Estado, excesso: boolean): L.DivIcon {
  const color = ESTADOS[estado].color;
  const course = rumo(r.direcao);
  const label = esc(`${titulo(r)}${r.placa ? ` (${r.placa})` : ''}${excesso ? ' — excesso de velocidade' : ''}`);
  // An arrow pointing to the course (0° = north), or a dot when the course is unknown; a red ring when speeding.
  const shape = course == null
    ? `<circle cx="13" cy="13" r="7" fill="${color}" stroke="#fff" stroke-width="2.5"/>`
    : `<g transform="rotate(${course} 13 13)"><path d="M13 2 L21 22 L13 17.5 L5 22 Z" fill="${color}" stroke="#fff" stroke-width="2" stroke-linejoin="round"/></g>`;
  const ring = excesso ? '<circle cx="13" cy="13" r="12" fill="none" stroke="#d50000" stroke-width="2"/>' : '';
  // The plate (else the description) under the marker: what the operator reads on the map.
  const tag = esc(r.placa || titulo(r));
  return L.divIcon({
    className: 'rastro-veiculo',
    html: `<svg width="26" height="26" viewBox="0 0 26 26" role="img" aria-label="${label}" data-serial="${esc(r.serial)}" data-estado="${estado}"${excesso ? ' data-excesso="sim"' : ''}><title>${label}</title>${ring}${shape}</svg>`
      + `<span class="rastro-placa">${tag}</span>`,
    iconSize: [26, 26],
    iconAnchor: [13, 13],
    popupAnchor: [0, -12],
  });
}

function clusterIcon(count: number, p: PorEstado): L.DivIcon {
  const size = count < 10 ? 34 : count < 100 ? 40 : count < 1000 ? 48 : 56;
  // The ring: each state's share in its colour.
  let at = 0;
  const stops = (Object.keys(ESTADOS) as Estado[]).map((e) => {
    const from = at;
    at += (p[e] / (count || 1)) * 360;
    return `${ESTADOS[e].color} ${from}deg ${at}deg`;
  });
  const ring = `conic-gradient(${stops.join(', ')})`;
  const text = count >= 10000 ? `${Math.round(count / 1000)}k` : String(count);
  return L.divIcon({
    className: 'rastro-cluster',
    html: `<div style="width:${size}px;height:${size}px;border-radius:50%;background:${ring};display:flex;align-items:center;justify-content:center;box-shadow:0 1px 4px rgba(0,0,0,.35)">`
      + `<div style="width:${size - 10}px;height:${size - 10}px;border-radius:50%;background:#fff;display:flex;align-items:center;justify-content:center;font:600 12px/1 Roboto,Arial,sans-serif;color:#263238" aria-label="${count} veículos">${text}</div></div>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

/** What the popup may link to (the user's keys). */
export type PopupLinks = Parameters<typeof linksPopup>[1];
const NO_LINKS: PopupLinks = { cadastro: false, historico: false, bloqueio: false };

export function popupHtml(r: UltimoEstado, can: PopupLinks = NO_LINKS, endereco?: string, semComunicacaoMs = SEM_COMUNICACAO_MS): string {
  const estado = estadoDe(r, Date.now(), semComunicacaoMs);
  const rows = linhasPopup(r).map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
  // app links (data-rota: the screen navigates inside the app)
  const links = linksPopup(r, can).map(([k, href]) => `<a href="${esc(href)}" data-rota>${esc(k)}</a>`).join('');
  return `<div class="rastro-popup" data-serial="${esc(r.serial)}"><div class="rastro-popup-titulo">${esc(titulo(r))}</div>`
    + `<div class="rastro-popup-estado" style="color:${ESTADOS[estado].color}">${ESTADOS[estado].label}</div><table>${rows}</table>`
    + (endereco ? `<div class="rastro-popup-endereco" style="margin-top:4px;font-size:12px">Endereço: ${esc(endereco)}</div>` : '')
    + (links ? `<div class="rastro-popup-links">${links}</div>` : '') + '</div>';
}

interface Shown { marker: L.Marker; sig: string }

/** The company's map settings (its default Opção de rastreamento; these defaults without one). */
export interface OpcoesMapa {
  semComunicacaoMs: number;
  /** Speed (km/h) above which a vehicle is highlighted; null: none. */
  velocidadeMaxima: number | null;
  /** Group nearby vehicles into clusters. */
  agrupar: boolean;
  /** Positions kept in the selected vehicle's trail (0: no trail). */
  rastro: number;
}
export const OPCOES_PADRAO: OpcoesMapa = { semComunicacaoMs: SEM_COMUNICACAO_MS, velocidadeMaxima: null, agrupar: true, rastro: 50 };

export class VehicleLayer {
  private worker = new Worker(new URL('./cluster.worker.ts', import.meta.url), { type: 'module' });
  /** Sequence of the newest view asked of the worker: older answers are dropped. */
  private seq = 0;
  private expandReq = 0;
  private expanding = new Map<number, (zoom: number | null) => void>();
  private bySerial = new Map<string, UltimoEstado>();
  private shown = new Map<string, Shown>();
  private group = L.layerGroup();
  private popup = L.popup({ autoPan: true, closeButton: true, maxWidth: 320 });
  private popupSerial: string | null = null;
  private pendingPopup: string | null = null;
  private readonly onMove = () => this.render();
  /** The popup's links the user may follow (set by the screen). */
  links: PopupLinks = NO_LINKS;
  private opcoes = OPCOES_PADRAO;
  private rows: UltimoEstado[] = [];
  // The selected vehicle: its trail (positions seen since it was selected, at most opcoes.rastro) and follow.
  private selected: string | null = null;
  private trail = L.polyline([], { color: '#1565c0', weight: 3, opacity: 0.85, interactive: false });
  private trailPts: L.LatLng[] = [];
  /** Keep the selected vehicle in the centre as it moves. */
  following = false;
  /** A vehicle's marker was clicked. */
  onSelect?: (serial: string) => void;

  constructor(private map: L.Map) {
    this.group.addTo(map);
    map.on('moveend', this.onMove);
    this.popup.on('remove', () => { this.popupSerial = null; });
    this.worker.onmessage = (ev: MessageEvent<FromWorker>) => {
      const m = ev.data;
      if (m.type === 'clusters') { if (m.seq === this.seq) this.draw(m.items); }
      else { this.expanding.get(m.req)?.(m.zoom); this.expanding.delete(m.req); }
    };
  }

  /** The company's settings: states, highlight, grouping and trail are redrawn with them. */
  setOpcoes(o: OpcoesMapa): void {
    this.opcoes = o;
    this.select(this.selected);
    this.setData(this.rows);
  }

  /** Selects a vehicle (null: none): its trail starts at its current position. */
  select(serial: string | null): void {
    this.selected = serial;
    const r = serial ? this.bySerial.get(serial) : undefined;
    this.trailPts = r ? [L.latLng(r.latitude!, r.longitude!)] : [];
    this.trail.setLatLngs(this.trailPts);
    if (r && this.opcoes.rastro > 0) this.trail.addTo(this.map);
    else this.trail.remove();
  }

  destroy(): void {
    this.trail.remove();
    this.map.off('moveend', this.onMove);
    this.map.closePopup(this.popup);
    this.group.remove();
    this.shown.clear();
    this.worker.terminate();
  }

  private post(m: ToWorker, transfer: Transferable[] = []): void { this.worker.postMessage(m, transfer); }

  /** New data: re-index (in the worker) and redraw the view (markers are reused). */
  setData(rows: UltimoEstado[], now = Date.now()): void {
    this.rows = rows;
    this.bySerial = new Map(rows.map((r) => [r.serial, r]));
    const coords = new Float64Array(rows.length * 2);
    const states = new Uint8Array(rows.length);
    rows.forEach((r, i) => { coords[2 * i] = r.longitude!; coords[2 * i + 1] = r.latitude!; states[i] = ESTADO_CODE[this.estado(r, now)]; });
    this.post({ type: 'load', serials: rows.map((r) => r.serial), coords, states }, [coords.buffer, states.buffer]);
    const sel = this.selected ? this.bySerial.get(this.selected) : undefined;
    if (sel) {
      const last = this.trailPts[this.trailPts.length - 1];
      if (!last || last.lat !== sel.latitude || last.lng !== sel.longitude) {
        this.trailPts.push(L.latLng(sel.latitude!, sel.longitude!));
        if (this.trailPts.length > this.opcoes.rastro) this.trailPts.splice(0, this.trailPts.length - this.opcoes.rastro);
        this.trail.setLatLngs(this.trailPts);
        // follow: the map moves under the vehicle (its moveend redraws the view)
        if (this.following) { this.map.panTo([sel.latitude!, sel.longitude!], { animate: true }); }
      }
    }
    this.render();
    if (this.popupSerial) {
      // Keep the open popup current without panning the map under the user.
      const r = this.bySerial.get(this.popupSerial);
      const html = r && this.html(r);
      const ll = this.popup.getLatLng();
      if (r && (html !== this.popup.getContent() || !ll || ll.lat !== r.latitude || ll.lng !== r.longitude)) {
        this.popup.options.autoPan = false;
        this.popup.setLatLng([r.latitude!, r.longitude!]).setContent(html!);
        this.popup.options.autoPan = true;
      }
    }
  }

  bounds(): L.LatLngBounds | null {
    if (!this.bySerial.size) return null;
    return L.latLngBounds([...this.bySerial.values()].map((r) => [r.latitude!, r.longitude!] as [number, number]));
  }

  /** Centres the map on a vehicle, close enough for it to be its own marker, and opens its popup. */
  focus(serial: string): void {
    const r = this.bySerial.get(serial);
    if (!r) return;
    this.pendingPopup = serial;
    const zoom = Math.max(this.map.getZoom(), CLUSTER_MAX_ZOOM + 1);
    const target = L.latLng(r.latitude!, r.longitude!);
    if (this.map.getZoom() === zoom && this.map.getCenter().distanceTo(target) < 1) this.render();
    else this.map.setView(target, zoom, { animate: false });
  }

  openPopup(serial: string): void {
    const r = this.bySerial.get(serial);
    if (!r) return;
    this.popupSerial = serial;
    this.popup.setLatLng([r.latitude!, r.longitude!]).setContent(this.html(r)).openOn(this.map);
    void this.address(r);
  }

  // Address line of the popup (GET /api/geocodificacao/endereco, by point rounded as the server's cache).
  private addresses = new Map<string, string>();
  private pointKey = (r: UltimoEstado) => `${Math.round(r.latitude! * 1000)}|${Math.round(r.longitude! * 1000)}`;
  private html(r: UltimoEstado): string {
    const a = this.addresses.get(this.pointKey(r));
    return popupHtml(r, this.links, a ?? 'buscando…', this.opcoes.semComunicacaoMs);
  }
  private async address(r: UltimoEstado): Promise<void> {
    const k = this.pointKey(r);
    if (this.addresses.has(k)) return;
    try {
      const e = await call<{ endereco: string }>(`/api/geocodificacao/endereco?lat=${r.latitude}&lon=${r.longitude}`);
      this.addresses.set(k, e.endereco);
    } catch { this.addresses.set(k, 'indisponível'); }
    const cur = this.popupSerial ? this.bySerial.get(this.popupSerial) : undefined;
    if (cur && this.pointKey(cur) === k) {
      // no panning under the user for a line of text
      this.popup.options.autoPan = false;
      this.popup.setContent(this.html(cur));
      this.popup.options.autoPan = true;
    }
  }

  /** Asks the worker for the view's clusters; draw() shows the answer. */
  render(): void {
    const b = this.map.getBounds().pad(0.25);
    // Without grouping: past the index's last zoom every vehicle comes alone.
    const zoom = this.opcoes.agrupar ? Math.round(this.map.getZoom()) : CLUSTER_MAX_ZOOM + 1;
    this.post({ type: 'query', seq: ++this.seq, bbox: [b.getWest(), Math.max(b.getSouth(), -85), b.getEast(), Math.min(b.getNorth(), 85)], zoom });
  }

  private estado(r: UltimoEstado, now = Date.now()): Estado { return estadoDe(r, now, this.opcoes.semComunicacaoMs); }

  private expansionZoom(id: number): Promise<number | null> {
    const req = ++this.expandReq;
    return new Promise((resolve) => { this.expanding.set(req, resolve); this.post({ type: 'expand', req, id }); });
  }

  private draw(items: ClusterItem[], now = Date.now()): void {
    const keep = new Set<string>();
    for (const it of items) {
      if ('c' in it) {
        const key = `c:${it.c}`;
        const p = it.e;
        const sig = `${it.n}:${p.em_movimento}:${p.parado}:${p.desligado}:${p.sem_comunicacao}`;
        keep.add(key);
        const cur = this.shown.get(key);
        if (cur) {
          cur.marker.setLatLng([it.y, it.x]);
          if (cur.sig !== sig) { cur.marker.setIcon(clusterIcon(it.n, p)); cur.sig = sig; }
        } else {
          const id = it.c;
          const marker = L.marker([it.y, it.x], { icon: clusterIcon(it.n, p), keyboard: false });
          marker.on('click', () => void this.expansionZoom(id).then((z) => {
            this.map.setView(marker.getLatLng(), Math.min(z ?? this.map.getZoom() + 2, CLUSTER_MAX_ZOOM + 1));
          }));
          marker.addTo(this.group);
          this.shown.set(key, { marker, sig });
        }
        continue;
      }
      const r = this.bySerial.get(it.p);
      if (!r) continue;
      const key = `p:${r.serial}`;
      const estado = this.estado(r, now);
      const excesso = emExcesso(r, this.opcoes.velocidadeMaxima);
      const sig = `${estado}:${excesso}:${rumo(r.direcao)}:${r.placa}:${r.ativoDescricao}`;
      keep.add(key);
      const cur = this.shown.get(key);
      if (cur) {
        const ll = cur.marker.getLatLng();
        if (ll.lat !== r.latitude || ll.lng !== r.longitude) cur.marker.setLatLng([r.latitude!, r.longitude!]);
        if (cur.sig !== sig) { cur.marker.setIcon(vehicleIcon(r, estado, excesso)); cur.sig = sig; }
      } else {
        const marker = L.marker([r.latitude!, r.longitude!], { icon: vehicleIcon(r, estado, excesso), title: '', riseOnHover: true });
        marker.on('click', () => { this.select(r.serial); this.onSelect?.(r.serial); this.openPopup(r.serial); });
        marker.addTo(this.group);
        this.shown.set(key, { marker, sig });
      }
    }
    for (const [key, s] of this.shown) {
      if (!keep.has(key)) { s.marker.remove(); this.shown.delete(key); }
    }
    if (this.pendingPopup) {
      const serial = this.pendingPopup;
      this.pendingPopup = null;
      this.openPopup(serial);
    }
  }
}
