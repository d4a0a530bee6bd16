// Simulated Queclink @Track devices over TCP: each vehicle drives a tour of waypoints around its garage (in the
// garage's city), at speeds fit for the road and the vehicle, parks with the ignition off at each stop, and sends
// GTIGN, GTFRI, GTSPD, GTHBM, GTIGF and +ACK:GTHBD, and now and then a panic button press (GTSOS: an alarm of the
// console, risk alto in the event library) — about once in three hours of a vehicle on the road; unacknowledged reports are replayed as +BUFF after a reconnect.
// A vehicle given passenger cards (VehicleOptions.passageiros: RFID tags) reads them as GTIDA: on leaving each stop
// some passengers get off (a second read of their card) and others get on (a first read); all get off before the
// ignition is turned off.
// Pure and seeded: the same IMEI/seed and times give the same frames.
// CLI: npm run simulate -- --devices N --rate R --host H --port P [--serial-base 864000000000000] [--drop-every S]
import net from 'node:net';
import { parseArgs } from 'node:util';
import { sameCompany } from '../../shared/scope-sql.ts';

export const VERSIONS: Record<string, string> = { gv50cg: '8020080102', gv58cg: '8020030100', gv350ceu: '740904' };

const pad2 = (n: number) => String(n).padStart(2, '0');
/** Chance of a panic press per driving step (a second of simulated driving). */
export const PANIC_PER_STEP = 1 / 10_800;

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
  /** RFID cards of the passengers who ride this vehicle (a bus): read as GTIDA at the stops. */
  passageiros?: string[];
  /** The tank: burnt with distance and idling, refilled at stops (see Fuel); reported only when `fuel.can`. */
  fuel?: FuelOptions;
  /** A BLE temperature/humidity sensor in the body (refrigerated truck): the periodic report is a GTERI with it;
   *  `outOfLimits`: every 15 minutes, 4 minutes of a warm, dry body (door opened: over 35 ºC, under 70 %). */
  ambient?: { outOfLimits?: boolean };
  /** A truck whose CAN bus reports its axle weights (GTCAN: axle 2 in the main mask, axle 1 in the expansion mask):
   *  it loads at the garage and leaves part of the load at each stop. */
  axles?: AxleOptions;
}

/** kg on the 1st and 2nd axle when empty, and the payload at full load (a share of it on the 1st axle). */
export interface AxleOptions { empty: [number, number]; payload: number; front: number }

/** The axles of a demo truck by its category (a two-axle "toco"), else none. */
export function axleProfile(categoria: string | null | undefined): AxleOptions | undefined {
  return plain(categoria ?? '').startsWith('caminhao') ? { empty: [4300, 3200], payload: 9000, front: 0.2 } : undefined;
}

/** A vehicle's tank and consumption. */
export interface FuelOptions {
  tankL: number; kmPerL: number; idleLph: number; pricePerL: number;
  /** The tracker reads the CAN bus: a GTCAN every 30 s with the level (litres) and the total fuel used. */
  can?: boolean;
  /** Refills at the garage's own pump when under 70 % (trucks, buses); elsewhere at a station under 30 %. */
  garagePump?: boolean;
  /** A small drain (fuel theft: 18-30 L in about a minute and a half) at the first stop. */
  drainFirstStop?: boolean;
}

/** A refill the driver keys in (entrada_combustivel): litres as the pump says (not always what the tank got). */
export interface FuelEntry { at: Date; litros: number; valor: number; odometerKm: number; atGarage: boolean }

/** Tank and consumption of a demo vehicle by its category (diesel for trucks, buses, vans and pickups). */
export function fuelProfile(categoria: string | null | undefined): Omit<FuelOptions, 'can'> {
  const c = plain(categoria ?? '');
  const diesel = 6.09, gasolina = 6.29;
  if (c.startsWith('caminhao')) return { tankL: 400, kmPerL: 2.8, idleLph: 3, pricePerL: diesel, garagePump: true };
  if (c.startsWith('onibus')) return { tankL: 275, kmPerL: 2.6, idleLph: 2.5, pricePerL: diesel, garagePump: true };
  if (c.startsWith('van')) return { tankL: 75, kmPerL: 9, idleLph: 1, pricePerL: diesel };
  if (c.startsWith('utilitario')) return { tankL: 70, kmPerL: 10, idleLph: 0.9, pricePerL: diesel };
  if (c.startsWith('moto')) return { tankL: 14, kmPerL: 35, idleLph: 0.3, pricePerL: gasolina };
  return { tankL: 50, kmPerL: 12, idleLph: 0.8, pricePerL: gasolina };
}

/** A fill or drain in progress at a stop: from `start` (ms), `rate` L/s (negative: drain) until `litres` moved. */
interface FuelOp { start: number; rate: number; litres: number; moved: number }

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
  private readonly cards: string[];
  /** Cards of the passengers on board. */
  readonly onBoard = new Set<string>();
  private started = false;
  /** Fuel and sensors draw from a sequence of their own: the driving is the same with or without them. */
  private readonly rf: () => number;
  /** Panic presses draw from a sequence of their own too. */
  private readonly ra: () => number;
  private readonly fuel: (FuelOptions & { level: number; used: number; drainNext: boolean }) | null;
  private fuelOp: FuelOp | null = null;
  private lastCan = -Infinity;
  private readonly entries: FuelEntry[] = [];
  private readonly ambient: { outOfLimits: boolean; base: number; hum: number; t0: number } | null;
  private readonly axles: (AxleOptions & { load: number; r: () => number }) | null;

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
    this.cards = o.passageiros ?? [];
    this.mileageKm = o.odometerKm ?? 1000 + (seed % 50_000);
    this.lastTime = start;
    this.phaseSince = start;
    this.pos = this.home;
    this.rf = rng(seed * 40503 + 7);
    this.ra = rng(seed * 69069 + 11);
    if (o.fuel) {
      // A few start on the reserve (trucks and buses more often: the demo shows their refills soon).
      const low = this.rf() < (o.fuel.can ? 0.3 : 0.12);
      const level = o.fuel.tankL * (low ? 0.1 + this.rf() * 0.18 : 0.35 + this.rf() * 0.6);
      this.fuel = { ...o.fuel, level, used: (this.mileageKm / o.fuel.kmPerL) * 0.97, drainNext: !!o.fuel.drainFirstStop };
    } else this.fuel = null;
    // own random sequence: the weights change nothing else of the simulation
    this.axles = o.axles ? { ...o.axles, load: 0, r: rng(seed * 22695477 + 13) } : null;
    this.ambient = o.ambient ? { outOfLimits: !!o.ambient.outOfLimits, base: 30.5 + this.rf() * 2, hum: 78 + this.rf() * 8, t0: start } : null;
    // Half of the fleet starts on its way somewhere, the other half parked at the garage for a while.
    if (this.r() < 0.5) {
      this.depart();
      let skip = this.r() * this.leg!.total * 0.8;
      while (this.seg < this.leg!.lengths.length - 1 && skip > this.leg!.lengths[this.seg]!) skip -= this.leg!.lengths[this.seg++]!;
      this.segPos = Math.min(skip, this.leg!.lengths[this.seg]!);
      this.place();
    } else {
      this.phaseLeft = 60 + this.r() * 1200;
      this.planStop(start);
    }
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
    // loaded at the garage (60-100 %), part of it left at each stop
    if (this.axles) this.axles.load = this.at === 0 ? 0.6 + 0.4 * this.axles.r() : this.axles.load * (0.3 + 0.4 * this.axles.r());
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

  /** One second: fuel moved at a stop, the driving, the fuel it burnt; answers the event frames it caused. */
  private tick(t: number): string[] {
    const m0 = this.mileageKm, engine = this.phase !== 'parked';
    if (this.fuelOp && this.phase === 'parked' && t >= this.fuelOp.start) this.fuelStep(t);
    const out = this.move(t);
    const f = this.fuel;
    if (f) {
      const km = this.mileageKm - m0;
      const l = km / f.kmPerL + (engine && km < 0.001 ? f.idleLph / 3600 : 0);
      f.level = Math.max(f.tankL * 0.03, f.level - l);
      f.used += l;
    }
    return out;
  }

  /** Whether this stop has a fill (the garage's pump, or a station when on the reserve) or a drain; makes the stop
   *  last long enough for it. */
  private planStop(t: number): void {
    const f = this.fuel;
    if (!f) return;
    const frac = f.level / f.tankL;
    if (f.can && f.level > 60 && (f.drainNext || this.rf() < 0.005)) {
      f.drainNext = false;
      this.fuelOp = { start: t + (60 + this.rf() * 60) * 1000, rate: -(0.25 + this.rf() * 0.15), litres: 18 + this.rf() * 12, moved: 0 };
    } else if ((this.at === 0 && f.garagePump && frac < 0.7) || frac < 0.3) {
      const rate = f.tankL >= 200 ? 1 + this.rf() * 0.4 : 0.5 + this.rf() * 0.2;
      this.fuelOp = { start: t + (45 + this.rf() * 75) * 1000, rate, litres: f.tankL * (0.95 + this.rf() * 0.05) - f.level, moved: 0 };
    } else return;
    const op = this.fuelOp;
    this.phaseLeft = Math.max(this.phaseLeft, (op.start - t) / 1000 + op.litres / Math.abs(op.rate) + 90);
  }

  /** One second of a fill or drain; at the end of a fill, the entry the driver keys in (or not). */
  private fuelStep(t: number): void {
    const f = this.fuel!, op = this.fuelOp!;
    const d = Math.min(Math.abs(op.rate), op.litres - op.moved);
    op.moved += d;
    f.level = Math.min(f.tankL, Math.max(0, f.level + Math.sign(op.rate) * d));
    if (op.moved < op.litres - 1e-9) return;
    this.fuelOp = null;
    if (op.rate < 0) return;
    // With a level sensor: as pumped (±2 %), more or less than the tank got (±7-14 %), or not keyed in at all.
    const x = this.rf();
    let k: number;
    if (!f.can) { if (x < 0.15) return; k = 1 + (this.rf() - 0.5) * 0.02; }
    else if (x < 0.45) k = 1 + (this.rf() - 0.5) * 0.04;
    else if (x < 0.62) k = 1.07 + this.rf() * 0.07;
    else if (x < 0.77) k = 0.86 + this.rf() * 0.07;
    else return;
    const litros = Math.round(op.moved * k * 100) / 100;
    this.entries.push({ at: new Date(Math.floor(t / 1000) * 1000), litros, valor: Math.round(litros * f.pricePerL * 100) / 100,
      odometerKm: Math.round(this.mileageKm * 10) / 10, atGarage: this.at === 0 });
  }

  /** The fuel entries keyed in since the last call. */
  takeEntries(): FuelEntry[] { return this.entries.splice(0); }

  /** The fuel in the tank (L), none without a tank. */
  get fuelLevel(): number | null { return this.fuel ? this.fuel.level : null; }

  /** One second of driving; answers the event frames it caused. */
  private move(t: number): string[] {
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
      out.push(...this.stopReads(d));
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
    // The driver presses the panic button (one step a second on the road: about once in three hours).
    if (this.ra() < PANIC_PER_STEP) out.push(this.resp('RESP', 'GTSOS', `12800,00,1,${this.block(d)},${this.mileageKm.toFixed(1)}`, d));
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
      for (const tag of [...this.onBoard]) out.push(this.rfid(tag, d)); // everyone gets off before the engine stops
      out.push(this.resp('RESP', 'GTIGF', `${Math.round((t - this.phaseSince) / 1000)},${this.block(d)},${this.hourMeter()},${this.mileageKm.toFixed(1)}`, d));
      this.phase = 'parked'; this.phaseSince = t;
      this.phaseLeft = this.at === 0 ? 1200 + this.r() * 2400 : 300 + this.r() * 1500;
      this.planStop(t);
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

  /** A card read at the current position (GTIDA, ID report type 1 = authorized); toggles the passenger on board. */
  rfid(tag: string, d: Date = new Date(this.lastTime)): string {
    if (this.onBoard.has(tag)) this.onBoard.delete(tag); else this.onBoard.add(tag);
    return this.resp('RESP', 'GTIDA', `,${tag},1,1,${this.block(d)},${this.mileageKm.toFixed(1)},,,,,`, d);
  }

  /** At a stop: some passengers get off, then others get on (a read each, a second apart). */
  private stopReads(d: Date): string[] {
    if (!this.cards.length) return [];
    const out: string[] = [];
    let t = d.getTime();
    for (const tag of [...this.onBoard]) if (this.r() < 0.5) out.push(this.rfid(tag, new Date(t += 1000)));
    for (const tag of this.cards) if (!this.onBoard.has(tag) && this.r() < 0.4) out.push(this.rfid(tag, new Date(t += 1000)));
    return out;
  }

  /** Frames the device sends at time `now`: the events since the last call, else one periodic report. */
  step(now = Date.now()): string[] {
    const out: string[] = [];
    // A bus already on its way at the start has passengers on board.
    if (!this.started) { this.started = true; if (this.phase === 'driving') out.push(...this.stopReads(new Date(Math.floor(this.lastTime / 1000) * 1000))); }
    // Physics in whole seconds from the last call (a long gap is lived through, at most a day).
    const from = Math.max(this.lastTime, now - 86_400_000);
    const ticks = Math.floor((now - from) / 1000);
    for (let i = 1; i <= ticks; i++) out.push(...this.tick(from + i * 1000));
    this.lastTime = from + ticks * 1000;
    const d = new Date(Math.floor(now / 1000) * 1000);
    if (!out.length) {
      // Parked: a heartbeat now and then, else a periodic report at rest (GTERI with the body's sensor, if any).
      if (this.phase === 'parked' && this.r() < 0.2) out.push(`+ACK:GTHBD,${this.version},${this.imei},,${qTime(d)},${this.nextCount()}$`);
      else out.push(this.ambient ? this.eri(d) : this.fri(d));
    }
    // The CAN bus report every 30 s (parked too: the level sensor is read during a fill).
    if (this.fuel?.can && now - this.lastCan >= 30_000) { this.lastCan = now; out.push(this.can(d)); }
    return out;
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

  /**
   * GTCAN as the GV350CEU sends it: report type 10, bus on, CAN report mask C00001FF (VIN — empty —, ignition key,
   * total distance in hm, total fuel used L, rpm, speed, coolant ºC, consumption L/h, level in litres "L…"; bits 30
   * and 31: the location and cell after them). A truck with axle weights: bit 15 (axle 2, kg) and bit 29, the
   * expansion mask 00000002 and axle 1 (kg); the readings sway ±1.5 % on the road.
   */
  can(d: Date): string {
    const f = this.fuel!;
    const on = this.phase !== 'parked';
    const lph = on ? (this.speed > 1 ? this.speed / f.kmPerL : f.idleLph) : 0;
    const a = this.axles;
    const weight = (i: 0 | 1) => {
      const kg = a!.empty[i] + a!.payload * a!.load * (i === 0 ? a!.front : 1 - a!.front);
      return Math.round((kg * (1 + (this.speed > 1 ? (a!.r() - 0.5) * 0.03 : 0))) / 10) * 10;
    };
    const [w1, w2] = a ? [weight(0), weight(1)] : [];
    const body = ['10', '1', a ? 'E00081FF' : 'C00001FF', '', on ? 2 : this.fuelOp ? 1 : 0, `H${Math.round(this.mileageKm * 10)}`, f.used.toFixed(2),
      on ? Math.round(this.speed > 0 ? 900 + this.speed * 12 : 650) : 0, Math.round(this.speed), on ? 88 : 45, `L/H${lph.toFixed(1)}`,
      `L${f.level.toFixed(1)}`, ...(a ? [w2, '00000002', w1] : []), this.block(d)];
    return this.resp('RESP', 'GTCAN', body.join(','), d);
  }

  /** The body's temperature (ºC) and humidity (%) at time t: slow drifts within 28-35 ºC and 70-100 %; with
   *  `outOfLimits`, minutes 3-7 of every 15 go to 37 ºC and 64 % (a minute up, two there, a minute back). */
  climate(t: number): { temp: number; hum: number } {
    const a = this.ambient!;
    const min = (t - a.t0) / 60_000;
    let temp = a.base + 1.1 * Math.sin((2 * Math.PI * min) / 47) + 0.2 * Math.sin((2 * Math.PI * min) / 3.1);
    let hum = a.hum + 5 * Math.sin((2 * Math.PI * min) / 61 + 1);
    if (a.outOfLimits) {
      const c = (((min - 3) % 15) + 15) % 15;
      const e = Math.max(0, Math.min(1, c, 4 - c));
      temp += e * (37 - temp); hum += e * (64 - hum);
    }
    return { temp: Math.round(temp * 100) / 100, hum: Math.round(hum) };
  }

  /**
   * GTERI with ERI mask 00000100: the GTFRI fields, UART device type 0, then one BLE accessory (index 00, type 6,
   * model 5, raw data, accessory mask 283F: name, MAC, status, battery mV, temperature, humidity, enhanced
   * temperature, battery %) — the layout of the GV310LAU/GV350CEU captures in protocol/queclink/decoder.test.ts.
   */
  eri(d: Date): string {
    const { temp, hum } = this.climate(d.getTime());
    const power = this.phase !== 'parked' ? 13800 : 12600;
    const ble = ['0', '1', '00', '6', '5', `${hex4(Math.round(temp * 100))}${hex4(hum * 100)}`, '283F', 'SENTEMP1', `7805${this.imei.slice(-8)}`, '1', '3466',
      Math.round(temp), hum, temp.toFixed(2), '100'];
    return this.resp('RESP', 'GTERI', `00000100,${power},10,1,${this.block(d)},${this.mileageKm.toFixed(1)},${this.hourMeter()},,,,${90 + (this.count % 10)},${this.status()},${ble.join(',')}`, d);
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
  /** A fuel entry a vehicle's driver keyed in (see FuelEntry). */
  onFuelEntry?: (serial: string, entry: FuelEntry) => void;
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
      const frames = v.step(clock);
      for (const e of v.takeEntries()) o.onFuelEntry?.(x.serial, e);
      for (const f of frames) {
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
 * Every vehicle burns fuel (fuelProfile of its category); the GV350CEU ones report it over CAN (GTCAN), the seed's
 * refrigerated trucks their body's temperature and humidity (GTERI, BLE). The only rows it writes are the fuel
 * entries the drivers key in after a fill (entrada_combustivel, as the Entradas de combustível screen would).
 * Answers the simulation (stop() ends it).
 */
export async function startDemoSimulation(opts: { databaseUrl: string; port: number; host?: string; rate?: number; maxDevices?: number }): Promise<Simulation> {
  const { default: pg } = await import('pg');
  const { DEMO_TAC, DEMO_REFRIGERADOS, DEMO_PERDA_COMBUSTIVEL, imei } = await import('../seed/demo-data.ts');
  const refrigerados = new Map(DEMO_REFRIGERADOS.map((r) => [imei(r.ativo), r]));
  const perda = new Set(DEMO_PERDA_COMBUSTIVEL.map((i) => imei(i)));
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  client.on('error', () => {}); // a lost connection only loses fuel entries, never the process
  let rows: { serial: string; modelo: string; odometro: number | null; garagem: string | null; categoria: string | null; tags: string[] | null; ativo_id: number; empresa_id: number }[];
  try {
    // the cards of the passengers registered on the itineraries the vehicle runs (a bus reads them at its stops)
    ({ rows } = await client.query(
      `SELECT e.serial, e.modelo, a.odometro, a.id AS ativo_id, a.empresa_id, g.nome AS garagem, c.descricao AS categoria,
              (SELECT array_agg(DISTINCT t.v ORDER BY t.v) FROM itinerario i
                 JOIN itinerario_passageiro ip ON ip.itinerario = i.id AND ${sameCompany('ip', 'i')}
                 JOIN passageiro p ON p.id = ip.passageiro AND ${sameCompany('p', 'i')}
                 CROSS JOIN jsonb_array_elements_text(coalesce(p.tags, '[]'::jsonb)) t(v)
                WHERE a.id = ANY(i.ativos) AND ${sameCompany('i', 'a')}) AS tags
         FROM equipamento e
         JOIN equipamento_ativo ea ON ea.serial = e.serial AND ${sameCompany('ea', 'e')} AND ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())
         JOIN ativo a ON a.id = ea.ativo_id AND ${sameCompany('a', 'e')}
         LEFT JOIN garagem g ON g.id = a.id_garagem
         LEFT JOIN categoria_de_ativo c ON c.id = a.categoria
        WHERE e.serial LIKE $1 AND e.tecnologia = 'queclink' AND e.ativado
        ORDER BY e.serial LIMIT $2`, [`${DEMO_TAC}%`, opts.maxDevices ?? 200]));
  } catch (e) {
    await client.end();
    throw e;
  }
  const bySerial = new Map(rows.map((r) => [r.serial, r]));
  const vehicles = rows.map((r) => {
    const { city, home } = garageHome(r.garagem);
    const model = (VERSIONS[r.modelo] ? r.modelo : 'gv58cg') as NonNullable<SimulationOptions['model']>;
    const fria = refrigerados.get(r.serial);
    return { serial: r.serial, model,
      options: { home, radiusKm: city.radiusKm, sector: city.sector, maxKmh: topSpeed(r.categoria), odometerKm: r.odometro ?? undefined, passageiros: r.tags ?? undefined,
        fuel: { ...fuelProfile(r.categoria), can: model === 'gv350ceu', drainFirstStop: perda.has(r.serial) },
        ambient: fria && model === 'gv350ceu' ? { outOfLimits: !!fria.foraDosLimites } : undefined,
        axles: model === 'gv350ceu' ? axleProfile(r.categoria) : undefined } satisfies VehicleOptions };
  });
  // The drivers' fuel entries, one insert at a time on the same connection (a few an hour).
  let writes = Promise.resolve();
  const onFuelEntry = (serial: string, e: FuelEntry) => {
    const r = bySerial.get(serial);
    if (!r) return;
    const local = e.atGarage ? `Bomba própria — ${r.garagem ?? 'garagem'}` : `Posto conveniado — ${garageHome(r.garagem).city.name}`;
    writes = writes.then(() => client.query(
      `INSERT INTO entrada_combustivel (empresa_id, ativo, data, hodometro, unidade_hodometro, litros, valor, local, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'km', $5, $6, $7, now(), now())`, [r.empresa_id, r.ativo_id, e.at, e.odometerKm, e.litros, e.valor, local]).then(() => {}, () => {}));
  };
  const sim = simulate({ vehicles, rate: opts.rate ?? 0.2, host: opts.host ?? '127.0.0.1', port: opts.port, onFuelEntry });
  return { stats: sim.stats, async stop() { await sim.stop(); await writes; await client.end().catch(() => {}); } };
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
