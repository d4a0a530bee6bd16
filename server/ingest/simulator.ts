// Simulated Queclink @Track devices over TCP: each vehicle drives a tour of waypoints around its garage (in the
// garage's city), at speeds fit for the road and the vehicle, parks with the ignition off at each stop, and sends
// GTIGN, GTFRI, GTSPD, GTHBM, GTIGF and +ACK:GTHBD; unacknowledged reports are replayed as +BUFF after a reconnect.
// Pure and seeded: the same IMEI/seed and times give the same frames.
// CLI: npm run simulate -- --devices N --rate R --host H --port P [--serial-base 864000000000000] [--drop-every S]
import net from 'node:net';
import { parseArgs } from 'node:util';
import { sameCompany } from '../../shared/scope-sql.ts';

const VERSIONS: Record<string, string> = { gv50cg: '8020080102', gv58cg: '8020030100', gv350ceu: '740904' };

const pad2 = (n: number) => String(n).padStart(2, '0');
export function qTime(d: Date): string {
  return `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`;
}
const hex4 = (n: number) => (n & 0xffff).toString(16).toUpperCase().padStart(4, '0');

export type LatLon = [number, number];
const R = 6_371_000;
const rad = (d: number) => (d * Math.PI) / 180;
export function distanceM(a: LatLon, b: LatLon): number {
  const dLat = rad(b[0] - a[0]), dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}
export function bearing(a: LatLon, b: LatLon): number {
  const y = Math.sin(rad(b[1] - a[1])) * Math.cos(rad(b[0]));
  const x = Math.cos(rad(a[0])) * Math.sin(rad(b[0])) - Math.sin(rad(a[0])) * Math.cos(rad(b[0])) * Math.cos(rad(b[1] - a[1]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}
/** The point `m` metres east and `n` metres north of `p` (small distances). */
const offset = (p: LatLon, m: number, n: number): LatLon => [p[0] + n / 111_320, p[1] + m / (111_320 * Math.cos(rad(p[0])))];

/** Deterministic random numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cities of the demo garages: centre, how far destinations lie (km), the bearings with land (Santos: sea to the south). */
export const CITIES: { name: string; center: LatLon; radiusKm: number; sector?: [number, number] }[] = [
  { name: 'São Paulo', center: [-23.5505, -46.6333], radiusKm: 12 },
  { name: 'Campinas', center: [-22.9056, -47.0608], radiusKm: 9 },
  { name: 'Santos', center: [-23.9535, -46.3350], radiusKm: 8, sector: [250, 360] },
  { name: 'Curitiba', center: [-25.4284, -49.2733], radiusKm: 10 },
  { name: 'Londrina', center: [-23.3045, -51.1696], radiusKm: 8 },
  { name: 'Maringá', center: [-23.4205, -51.9333], radiusKm: 8 },
];
const plain = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Where a garage is: the city its name mentions (else São Paulo), a point within 3 km of the centre fixed by the name. */
export function garageHome(garage: string | null | undefined): { city: (typeof CITIES)[number]; home: LatLon } {
  const city = CITIES.find((c) => plain(garage ?? '').includes(plain(c.name))) ?? CITIES[0]!;
  if (!garage) return { city, home: city.center };
  let h = 0;
  for (const ch of garage) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  const r = rng(h);
  const [b0, b1] = city.sector ?? [0, 360];
  const b = rad(b0 + r() * (b1 - b0)), d = 500 + r() * 2500;
  return { city, home: offset(city.center, Math.sin(b) * d, Math.cos(b) * d) };
}

/** Road kinds and their speed limits (km/h). */
export type Road = 'local' | 'arterial' | 'expressa' | 'rodovia';
export const ROAD_LIMIT: Record<Road, number> = { local: 40, arterial: 60, expressa: 80, rodovia: 110 };
/** A vehicle's top speed (km/h) by its category (heavy vehicles keep to 90 on highways). */
export function topSpeed(categoria: string | null | undefined): number {
  const c = plain(categoria ?? '');
  return c.startsWith('caminhao') || c.startsWith('onibus') ? 90 : c.startsWith('moto') ? 100 : c.startsWith('van') ? 100 : 110;
}

interface Leg { points: LatLon[]; roads: Road[]; lengths: number[]; total: number }

/**
 * A street-like path from a to b: blocks along a grid turned by `grid` degrees (a Z of three straights), bent a
 * little every few hundred metres; long straights are avenues, expressways or highways, the ends local streets.
 */
function legPath(a: LatLon, b: LatLon, grid: number, r: () => number): Leg {
  const dx = (b[1] - a[1]) * 111_320 * Math.cos(rad(a[0])), dy = (b[0] - a[0]) * 111_320;
  const g = rad(grid), c = Math.cos(g), s = Math.sin(g);
  const u = dx * c + dy * s, w = -dx * s + dy * c; // in grid axes
  const f = 0.3 + r() * 0.4;
  const corners: [number, number][] = [[0, 0], [u * f, 0], [u * f, w], [u, w]];
  const points: LatLon[] = [a], roads: Road[] = [];
  for (let k = 1; k < corners.length; k++) {
    const [u0, w0] = corners[k - 1]!, [u1, w1] = corners[k]!;
    const len = Math.hypot(u1 - u0, w1 - w0);
    if (len < 1) continue;
    const road: Road = len > 9000 ? 'rodovia' : len > 5000 ? 'expressa' : len > 1500 ? 'arterial' : 'local';
    const n = Math.max(1, Math.round(len / 400));
    for (let i = 1; i <= n; i++) {
      const t = i / n, side = i < n ? (r() - 0.5) * 40 : 0;
      const pu = u0 + (u1 - u0) * t + (side * -(w1 - w0)) / len, pw = w0 + (w1 - w0) * t + (side * (u1 - u0)) / len;
      points.push(offset(a, pu * c - pw * s, pu * s + pw * c));
      roads.push(road);
    }
  }
  if (points.length === 1) { points.push(b); roads.push('local'); }
  points[points.length - 1] = b;
  roads[0] = 'local';
  roads[roads.length - 1] = 'local';
  const lengths = roads.map((_, i) => distanceM(points[i]!, points[i + 1]!));
  return { points, roads, lengths, total: lengths.reduce((x, y) => x + y, 0) };
}

export interface VehicleOptions {
  /** The garage's point (default: São Paulo) and how far destinations lie from it (km). */
  home?: LatLon; radiusKm?: number; sector?: [number, number];
  /** Top speed (km/h), odometer at start (km). */
  maxKmh?: number; odometerKm?: number;
}

type Phase = 'parked' | 'idle' | 'driving';

/** One vehicle: a state machine producing @Track frames as simulated time goes by (1 s physics ticks). */
export class QueclinkVehicle {
  readonly version: string;
  readonly home: LatLon;
  private readonly r: () => number;
  private readonly places: LatLon[];
  private readonly grid: number;
  private readonly maxKmh: number;
  private readonly accel: number; // km/h per second
  private at = 0;            // index in places (0 = the garage) of the last stop
  private sinceHome = 0;
  private leg: Leg | null = null;
  private seg = 0;
  private segPos = 0;        // metres along the current segment
  private phase: Phase = 'parked';
  private phaseLeft = 0;     // seconds left parked or idling
  private phaseSince: number;
  private speed = 0;
  private factor = 0.9;
  private factorLeft = 0;
  private redLight = 0;
  private harsh = 0;
  private speeding = false;
  private count = 0;
  private mileageKm: number;
  private engineSeconds = 0;
  private lastTime: number;
  private pos: LatLon;
  private course = 0;

  constructor(readonly imei: string, readonly model: keyof typeof VERSIONS = 'gv58cg', seed = Number(imei.slice(-6)), start = Date.now(), o: VehicleOptions = {}) {
    this.version = VERSIONS[model]!;
    this.r = rng(seed * 2654435761 + 1);
    this.home = o.home ?? [-23.55, -46.65];
    this.maxKmh = Math.min(120, o.maxKmh ?? 110);
    this.accel = this.maxKmh <= 90 ? 1.8 : 3;
    this.grid = (this.r() - 0.5) * 40;
    const radius = (o.radiusKm ?? 12) * 1000, [b0, b1] = o.sector ?? [0, 360];
    this.places = [this.home];
    for (let i = 0, n = 3 + Math.floor(this.r() * 3); i < n; i++) {
      const b = rad(b0 + this.r() * (b1 - b0)), d = radius * (0.25 + 0.75 * Math.sqrt(this.r()));
      this.places.push(offset(this.home, Math.sin(b) * d, Math.cos(b) * d));
    }
    this.mileageKm = o.odometerKm ?? 1000 + (seed % 50_000);
    this.lastTime = start;
    this.phaseSince = start;
    this.pos = this.home;
    // Half of the fleet starts on its way somewhere, the other half parked at the garage for a while.
    if (this.r() < 0.5) {
      this.depart();
      let skip = this.r() * this.leg!.total * 0.8;
      while (this.seg < this.leg!.lengths.length - 1 && skip > this.leg!.lengths[this.seg]!) skip -= this.leg!.lengths[this.seg++]!;
      this.segPos = Math.min(skip, this.leg!.lengths[this.seg]!);
      this.place();
    } else this.phaseLeft = 60 + this.r() * 1200;
  }

  nextCount(): string { this.count = (this.count + 1) & 0xffff; return hex4(this.count); }

  position(): { lat: number; lon: number; course: number } {
    return { lat: this.pos[0], lon: this.pos[1], course: Math.round(this.course) };
  }

  /** Current speed (km/h), odometer (km), ignition. */
  get state(): { speed: number; odometerKm: number; ignition: boolean } {
    return { speed: this.speed, odometerKm: this.mileageKm, ignition: this.phase !== 'parked' };
  }

  /** Picks the next stop (back to the garage after two or three) and the path there. */
  private depart(): void {
    let to: number;
    if (this.at !== 0 && this.sinceHome >= 2 + Math.floor(this.r() * 2)) to = 0;
    else do to = 1 + Math.floor(this.r() * (this.places.length - 1)); while (to === this.at && this.places.length > 2);
    this.leg = legPath(this.places[this.at]!, this.places[to]!, this.grid, this.r);
    this.sinceHome = to === 0 ? 0 : this.sinceHome + 1;
    this.at = to;
    this.seg = 0; this.segPos = 0;
    this.phase = 'driving';
  }

  private place(): void {
    const l = this.leg!, a = l.points[this.seg]!, b = l.points[this.seg + 1]!, f = Math.min(1, this.segPos / Math.max(1e-6, l.lengths[this.seg]!));
    this.pos = [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
    this.course = bearing(a, b);
  }

  private limit(seg = this.seg): number { return Math.min(ROAD_LIMIT[this.leg!.roads[seg]!], this.maxKmh); }

  /** One second of driving; answers the event frames it caused. */
  private tick(t: number): string[] {
    const out: string[] = [];
    const d = new Date(Math.floor(t / 1000) * 1000);
    if (this.phase === 'parked' || this.phase === 'idle') {
      if (this.phase === 'idle') this.engineSeconds++;
      if (--this.phaseLeft > 0) return out;
      if (this.phase === 'parked') {
        // Ignition on, a minute of warming up before leaving.
        out.push(this.resp('RESP', 'GTIGN', `${Math.round((t - this.phaseSince) / 1000)},${this.block(d)},${this.hourMeter()},${this.mileageKm.toFixed(1)}`, d));
        this.phase = 'idle'; this.phaseLeft = 20 + this.r() * 60; this.phaseSince = t;
        return out;
      }
      this.depart();
      return out;
    }
    this.engineSeconds++;
    const leg = this.leg!;
    const limit = this.limit();
    if (--this.factorLeft <= 0) {
      this.factorLeft = 20 + this.r() * 40;
      this.factor = this.r() < 0.04 ? 1.15 + this.r() * 0.1 : 0.75 + this.r() * 0.25;
    }
    let target = Math.min(120, limit * this.factor);
    // Slow down for the stop at the end of the leg and for a slower road ahead (about 1 m/s²).
    const toSegEnd = leg.lengths[this.seg]! - this.segPos;
    let toEnd = toSegEnd;
    for (let k = this.seg + 1; k < leg.lengths.length; k++) toEnd += leg.lengths[k]!;
    target = Math.min(target, Math.max(toEnd > 3 ? 4 : 0, Math.sqrt(2 * Math.max(0, toEnd - 2)) * 3.6));
    if (this.seg + 1 < leg.roads.length) target = Math.min(target, Math.sqrt((this.limit(this.seg + 1) / 3.6) ** 2 + 2 * toSegEnd) * 3.6);
    // Traffic lights in town.
    if (this.redLight <= 0 && leg.roads[this.seg] !== 'rodovia' && leg.roads[this.seg] !== 'expressa' && this.speed > 15 && toEnd > 200 && this.r() < 1 / 300) this.redLight = 15 + this.r() * 45;
    if (this.redLight > 0) { target = 0; if (this.speed === 0) this.redLight--; }
    const v0 = this.speed;
    if (this.harsh > 0) { this.harsh--; this.speed = Math.max(0, v0 - 12); }
    else if (v0 > 40 && this.r() < 1 / 2000) {
      this.harsh = 1; this.speed = Math.max(0, v0 - 12);
      out.push(this.resp('RESP', 'GTHBM', `12800,20,1,${this.block(d)},${this.mileageKm.toFixed(1)}`, d)); // harsh braking
    } else this.speed = Math.max(0, v0 + Math.max(-4, Math.min(this.accel, target - v0)));
    if (this.speed < 0.5 && target === 0) this.speed = 0;
    // Move along the path.
    let dist = Math.min(toEnd, ((v0 + this.speed) / 2 / 3.6));
    this.mileageKm += dist / 1000;
    this.segPos += dist;
    while (this.segPos >= leg.lengths[this.seg]! && this.seg + 1 < leg.lengths.length) this.segPos -= leg.lengths[this.seg++]!;
    this.place();
    dist = toEnd - dist;
    const lim = this.limit();
    if (!this.speeding && this.speed > lim + 5) {
      this.speeding = true;
      out.push(this.resp('RESP', 'GTSPD', `12800,00,1,${this.block(d)},${this.mileageKm.toFixed(1)}`, d));
    } else if (this.speeding && this.speed <= lim) {
      this.speeding = false;
      out.push(this.resp('RESP', 'GTSPD', `12800,01,1,${this.block(d)},${this.mileageKm.toFixed(1)}`, d));
    }
    if (dist < 3 && this.speed < 8) {
      // Arrived: the rest of the way, then parked with the ignition off (the garage longer than a client).
      this.mileageKm += dist / 1000;
      this.seg = leg.lengths.length - 1; this.segPos = leg.lengths[this.seg]!;
      this.place();
      this.speed = 0; this.speeding = false; this.redLight = 0;
      out.push(this.resp('RESP', 'GTIGF', `${Math.round((t - this.phaseSince) / 1000)},${this.block(d)},${this.hourMeter()},${this.mileageKm.toFixed(1)}`, d));
      this.phase = 'parked'; this.phaseSince = t;
      this.phaseLeft = this.at === 0 ? 1200 + this.r() * 2400 : 300 + this.r() * 1500;
    }
    return out;
  }

  private block(d: Date, p = this.position()): string {
    const acc = 1;
    return [acc, this.speed.toFixed(1), p.course, (740 + (this.seg * 7) % 60).toFixed(1), p.lon.toFixed(6), p.lat.toFixed(6), qTime(d),
      '0724', '0005', '1A2B', '00C3F1D2', '01', String(8 + (this.count % 6))].join(',');
  }

  private status(): string { return this.phase !== 'parked' ? (this.speed > 0 ? '220100' : '210100') : '110000'; }

  private resp(kind: string, code: string, body: string, d: Date): string {
    return `+${kind}:${code},${this.version},${this.imei},,${body},${qTime(d)},${this.nextCount()}$`;
  }

  /** Frames the device sends at time `now`: the events since the last call, else one periodic report. */
  step(now = Date.now()): string[] {
    const out: string[] = [];
    // Physics in whole seconds from the last call (a long gap is lived through, at most a day).
    const from = Math.max(this.lastTime, now - 86_400_000);
    const ticks = Math.floor((now - from) / 1000);
    for (let i = 1; i <= ticks; i++) out.push(...this.tick(from + i * 1000));
    this.lastTime = from + ticks * 1000;
    if (out.length) return out;
    const d = new Date(Math.floor(now / 1000) * 1000);
    // Parked: a heartbeat now and then, else a periodic report at rest.
    if (this.phase === 'parked' && this.r() < 0.2) return [`+ACK:GTHBD,${this.version},${this.imei},,${qTime(d)},${this.nextCount()}$`];
    return [this.fri(d)];
  }

  private hourMeter(): string {
    const s = Math.round(this.engineSeconds);
    return `${String(Math.floor(s / 3600)).padStart(5, '0')}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
  }

  /** GTFRI with the @Track field layout (one position). */
  fri(d: Date, kind: 'RESP' | 'BUFF' = 'RESP'): string {
    const power = this.phase !== 'parked' ? 13800 : 12600;
    return this.resp(kind, 'GTFRI', `${power},10,1,${this.block(d)},${this.mileageKm.toFixed(1)},${this.hourMeter()},,,,${90 + (this.count % 10)},${this.status()},,,`, d);
  }

  /** Answer to a command frame (AT+GTxxx=pwd,...,serial$) → +ACK. */
  ackFor(cmd: string, now = Date.now()): string | null {
    const m = /^AT\+(GT[A-Z]{3})=(.*)\$$/.exec(cmd.trim());
    if (!m) return null;
    const f = m[2]!.split(',');
    const serial = f[f.length - 1]!;
    const sub = m[1] === 'GTRTO' ? (f[1] ?? '') : '';
    return `+ACK:${m[1]},${this.version},${this.imei},,${sub ? `${sub},` : ''}${serial},${qTime(new Date(now))},${this.nextCount()}$`;
  }
}

export interface SimulationOptions {
  devices?: number;
  rate?: number;            // messages per second per device
  host?: string;
  port: number;
  serialBase?: string;      // first IMEI (15 digits)
  serials?: string[];       // explicit IMEIs (overrides devices/serialBase)
  vehicles?: { serial: string; model?: SimulationOptions['model']; options?: VehicleOptions }[]; // overrides serials
  model?: 'gv50cg' | 'gv58cg' | 'gv350ceu';
  dropEverySeconds?: number; // drop each connection now and then (then replay +BUFF)
  log?: (msg: string) => void;
}

export interface Simulation { stop(): Promise<void>; stats: { sent: number; acked: number; buffered: number; reconnects: number } }

/** Runs N simulated devices until stop(). */
export function simulate(o: SimulationOptions): Simulation {
  const host = o.host ?? '127.0.0.1';
  const rate = o.rate ?? 1;
  const serials = o.serials ?? Array.from({ length: o.devices ?? 1 }, (_, i) => (BigInt(o.serialBase ?? '864000000000000') + BigInt(i)).toString().padStart(15, '0'));
  const vehicles = o.vehicles ?? serials.map((serial) => ({ serial, model: undefined, options: undefined }));
  const stats = { sent: 0, acked: 0, buffered: 0, reconnects: 0 };
  let stopped = false;
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const models = ['gv58cg', 'gv50cg', 'gv350ceu'] as const;

  vehicles.forEach((x, idx) => {
    const v = new QueclinkVehicle(x.serial, x.model ?? o.model ?? models[idx % 3]!, undefined, Date.now(), x.options);
    const unacked = new Map<string, string>(); // count → frame
    let sock: net.Socket | null = null;
    let connected = false;
    let rx = '';
    const connect = () => {
      if (stopped) return;
      const s = net.connect(o.port, host);
      sock = s;
      sockets.add(s);
      s.setNoDelay(true);
      s.on('connect', () => {
        connected = true;
        // Replay what was not acknowledged, as the device does from its buffer.
        for (const f of unacked.values()) { s.write(f.replace(/^\+RESP:/, '+BUFF:')); stats.buffered++; }
        if (o.dropEverySeconds) {
          const t = setTimeout(() => { timers.delete(t); s.destroy(); }, o.dropEverySeconds * 1000 * (0.5 + Math.random()));
          timers.add(t);
        }
      });
      s.on('data', (d) => {
        rx += d.toString('latin1');
        let i: number;
        while ((i = rx.indexOf('$')) >= 0) {
          const msg = rx.slice(0, i + 1); rx = rx.slice(i + 1);
          const sack = /^\+SACK:(?:GTHBD,[0-9A-F]+,)?([0-9A-F]{4})\$$/.exec(msg.trim());
          if (sack) { if (unacked.delete(sack[1]!)) stats.acked++; continue; }
          const ack = v.ackFor(msg);
          if (ack) s.write(ack);
        }
      });
      s.on('error', () => {});
      s.on('close', () => {
        connected = false; sockets.delete(s);
        if (!stopped) { stats.reconnects++; const t = setTimeout(() => { timers.delete(t); connect(); }, 500 + Math.random() * 1500); timers.add(t); }
      });
    };
    connect();
    const period = 1000 / rate;
    // Fix times have 1 s resolution: above 1 msg/s the device clock runs ahead (1 s per message).
    let clock = Date.now();
    const tick = () => {
      if (stopped) return;
      clock = rate > 1 ? clock + 1000 : Date.now();
      for (const f of v.step(clock)) {
        const count = f.slice(-5, -1);
        if (!f.startsWith('+ACK:')) unacked.set(count, f);
        if (unacked.size > 5000) unacked.delete(unacked.keys().next().value!); // device buffer is bounded
        if (connected && sock) { sock.write(f); stats.sent++; }
      }
      const t = setTimeout(() => { timers.delete(t); tick(); }, period * (0.9 + Math.random() * 0.2));
      timers.add(t);
    };
    const t0 = setTimeout(() => { timers.delete(t0); tick(); }, Math.random() * period);
    timers.add(t0);
  });

  return {
    stats,
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
    },
  };
}

/**
 * Demo: drives the demo trackers the seed registered (server/seed/demo-data.ts: serials of the demo type allocation
 * code, linked to an ativo now) against the gateway, each around its ativo's garage from the ativo's odometer.
 * Registers nothing. Answers the simulation (stop() ends it).
 */
export async function startDemoSimulation(opts: { databaseUrl: string; port: number; host?: string; rate?: number; maxDevices?: number }): Promise<Simulation> {
  const { default: pg } = await import('pg');
  const { DEMO_TAC } = await import('../seed/demo-data.ts');
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  let rows: { serial: string; modelo: string; odometro: number | null; garagem: string | null; categoria: string | null }[];
  try {
    ({ rows } = await client.query(
      `SELECT e.serial, e.modelo, a.odometro, g.nome AS garagem, c.descricao AS categoria
         FROM equipamento e
         JOIN equipamento_ativo ea ON ea.serial = e.serial AND ${sameCompany('ea', 'e')} AND ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())
         JOIN ativo a ON a.id = ea.ativo_id AND ${sameCompany('a', 'e')}
         LEFT JOIN garagem g ON g.id = a.id_garagem
         LEFT JOIN categoria_de_ativo c ON c.id = a.categoria
        WHERE e.serial LIKE $1 AND e.tecnologia = 'queclink' AND e.ativado
        ORDER BY e.serial LIMIT $2`, [`${DEMO_TAC}%`, opts.maxDevices ?? 200]));
  } finally {
    await client.end();
  }
  const vehicles = rows.map((r) => {
    const { city, home } = garageHome(r.garagem);
    return { serial: r.serial, model: (VERSIONS[r.modelo] ? r.modelo : 'gv58cg') as SimulationOptions['model'],
      options: { home, radiusKm: city.radiusKm, sector: city.sector, maxKmh: topSpeed(r.categoria), odometerKm: r.odometro ?? undefined } };
  });
  return simulate({ vehicles, rate: opts.rate ?? 0.2, host: opts.host ?? '127.0.0.1', port: opts.port });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '10' }, rate: { type: 'string', default: '1' },
      host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string', default: process.env.QUECLINK_TCP_PORT ?? '5001' },
      'serial-base': { type: 'string', default: '864000000000000' }, 'drop-every': { type: 'string' },
      model: { type: 'string' },
    },
  });
  const sim = simulate({
    devices: Number(values.devices), rate: Number(values.rate), host: values.host, port: Number(values.port),
    serialBase: values['serial-base'], dropEverySeconds: values['drop-every'] ? Number(values['drop-every']) : undefined,
    model: values.model as SimulationOptions['model'],
  });
  console.log(`Simulando ${values.devices} equipamento(s) a ${values.rate} msg/s cada → ${values.host}:${values.port}`);
  const t = setInterval(() => console.log(`enviadas=${sim.stats.sent} confirmadas=${sim.stats.acked} reenviadas(+BUFF)=${sim.stats.buffered} reconexões=${sim.stats.reconnects}`), 5000);
  const end = () => { clearInterval(t); void sim.stop().then(() => process.exit(0)); };
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
