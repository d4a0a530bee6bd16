// Trips and stops of one device, computed incrementally from its fixes in time order (pure: no database, no clock).
// Rules (Traccar's motion rules, with its well-known defaults):
// - a fix is "moving" when its speed reaches movingSpeed (km/h) and, with useIgnition, its ignition is not off;
// - a trip starts at the last stopped fix before a run of moving fixes that lasts minTripDuration or covers
//   minTripDistance (else the run is a manoeuvre inside the stop);
// - it ends at the first stopped fix of a run that lasts minParking, or at once when the ignition goes off (useIgnition);
//   a shorter halt stays inside the trip (its time with the ignition on counts as idle time);
// - no data for longer than maxGap (or a fix of another owner: company/asset) closes the open trip at its last fix
//   (or at the halt it was in); a stop goes on across a gap when the vehicle is still stopped at the same place.
// Segment boundaries are fixes, and the state at a boundary depends only on that fix: a detector started afresh at
// the end of any closed segment yields the same later segments (restartable from the last stored trip or stop).
// A late fix at time t re-computes from restartPoint(): the start of the segment before the last one that ended by t
// (the last one's end may still move, settled by later fixes, and so may its existence: a stop that a gap closed).
// Weights (axles, gross: shared/peso.ts) are the mean over the segment's fixes that report them.
import { haversine, MAX_STEP_KMH, stepDistance } from '../../../shared/distancia.ts';
import type { Weights } from '../../../shared/peso.ts';

export { haversine, stepDistance };

export interface Fix {
  /** Fix time, ms since the epoch; fixes come in strictly increasing time. */
  t: number;
  lat: number;
  lon: number;
  /** km/h; null: derived from the previous fix. */
  speed: number | null;
  ignition: boolean | null;
  /** Odometer in km when the device reports one. */
  odometer: number | null;
  driverId: number | null;
  /** Company and asset of the fix: a change closes the open segment like a gap. */
  owner?: string;
  /** kg reported at this fix (CAN axle and gross weights), if any. */
  weights?: Weights | null;
}

export interface TripParams {
  /** metres */
  minTripDistance: number;
  /** seconds */
  minTripDuration: number;
  /** seconds */
  minParking: number;
  /** seconds without data that close the trip */
  maxGap: number;
  useIgnition: boolean;
  /** km/h: a fix at this speed or above is moving */
  movingSpeed: number;
}

export const DEFAULT_PARAMS: TripParams = {
  minTripDistance: 500, minTripDuration: 300, minParking: 300, maxGap: 3600, useIgnition: true, movingSpeed: 3,
};

export interface Point { t: number; lat: number; lon: number }

export interface Trip {
  kind: 'viagem';
  start: Point;
  end: Point;
  /** metres: odometer differences where both fixes have one, else the great-circle distance between fixes */
  distance: number;
  /** seconds */
  duration: number;
  /** km/h */
  maxSpeed: number;
  /** km/h: distance over duration */
  avgSpeed: number;
  /** seconds stopped with the ignition on */
  idle: number;
  driverId: number | null;
  odometerStart: number | null;
  odometerEnd: number | null;
  /** kg: mean of the trip's fixes reporting them; null when none did */
  axleWeight1: number | null;
  axleWeight2: number | null;
  grossWeight: number | null;
  owner?: string;
}

export interface Stop {
  kind: 'parada';
  start: Point;
  end: Point;
  /** seconds */
  duration: number;
  /** the ignition at the start of the stop (null: not reported) */
  ignition: boolean | null;
  /** seconds of the stop with the ignition on */
  idle: number;
  driverId: number | null;
  owner?: string;
}

export type Segment = Trip | Stop;

interface Acc {
  start: Fix;
  last: Fix;
  distance: number;
  maxSpeed: number;
  idle: number;
  driverId: number | null;
  /** sums and counts of the weights reported (numbers only: an Acc is copied by spreading) */
  w1: number; n1: number; w2: number; n2: number; wg: number; ng: number;
}

/** Adds f's weights to a. */
function weigh(a: Acc, f: Fix): void {
  const w = f.weights;
  if (!w) return;
  if (w.axle1 != null) { a.w1 += w.axle1; a.n1++; }
  if (w.axle2 != null) { a.w2 += w.axle2; a.n2++; }
  if (w.gross != null) { a.wg += w.gross; a.ng++; }
}

const open = (f: Fix, speed: number): Acc => {
  const a: Acc = { start: f, last: f, distance: 0, maxSpeed: speed, idle: 0, driverId: f.driverId, w1: 0, n1: 0, w2: 0, n2: 0, wg: 0, ng: 0 };
  weigh(a, f);
  return a;
};
const mean = (sum: number, n: number) => (n ? Math.round(sum / n) : null);

export class TripDetector {
  readonly p: TripParams;
  /** The open segment: a trip (confirmed), a stop, or none (fresh, or after a gap). */
  private mode: 'none' | 'trip' | 'stop' = 'none';
  private seg: Acc | null = null;
  /** In a trip: the halt that may end it (and the trip as it was at its first fix). In a stop or none: the run of
   *  moving fixes that may become a trip. */
  private cand: Acc | null = null;
  private snap: Acc | null = null;
  private last: Fix | null = null;
  private lastSpeed = 0;

  constructor(params: Partial<TripParams> = {}) {
    this.p = { ...DEFAULT_PARAMS, ...params };
  }

  /** Time of the last fix taken (ms), or null. */
  get lastTime(): number | null { return this.last?.t ?? null; }

  /** Takes the next fix; answers the segments it closed (oldest first). Fixes not after the last one are ignored. */
  push(f: Fix): Segment[] {
    const out: Segment[] = [];
    const prev = this.last;
    if (prev && f.t <= prev.t) return out;
    // derived from the step when not reported (a jump's speed is not the vehicle's: the last one stands)
    const derived = prev ? (haversine(prev.lat, prev.lon, f.lat, f.lon) / ((f.t - prev.t) / 1000)) * 3.6 : 0;
    const speed = f.speed ?? (derived > MAX_STEP_KMH ? this.lastSpeed : derived);
    const moving = speed >= this.p.movingSpeed && !(this.p.useIgnition && f.ignition === false);
    if (prev && (f.t - prev.t > this.p.maxGap * 1000 || f.owner !== prev.owner)) this.gap(f, moving, out);
    const step = this.last ? stepDistance(this.last, f) : 0;
    const from = this.last;
    const idleStep = from && this.lastSpeed < this.p.movingSpeed && from.ignition === true && f.t - from.t <= this.p.maxGap * 1000
      ? (f.t - from.t) / 1000 : 0;
    this.last = f;
    this.lastSpeed = speed;
    if (!from) { this.begin(f, speed, moving); return out; }
    const add = (a: Acc) => {
      a.distance += step; a.idle += idleStep; a.last = f;
      if (speed > a.maxSpeed) a.maxSpeed = speed;
      if (a.driverId == null) a.driverId = f.driverId;
      weigh(a, f);
    };
    if (this.mode === 'trip') {
      const trip = this.seg!;
      if (moving) {
        this.cand = null; this.snap = null; // a halt, not a stop
        add(trip);
        return out;
      }
      if (!this.cand) {
        add(trip);
        this.snap = { ...trip };
        this.cand = open(f, speed);
      } else {
        add(trip);
        add(this.cand);
      }
      if ((f.t - this.cand.start.t) / 1000 >= this.p.minParking || (this.p.useIgnition && f.ignition === false)) {
        out.push(this.trip(this.snap!));
        this.mode = 'stop'; this.seg = this.cand; this.cand = null; this.snap = null;
      }
      return out;
    }
    // stop, or none (a run of moving fixes without a stop before it)
    if (!moving) {
      this.cand = null; this.snap = null; // a manoeuvre, not a trip
      if (this.seg) add(this.seg);
      else { this.mode = 'stop'; this.seg = open(f, speed); }
      return out;
    }
    if (!this.cand) {
      // the trip leaves from the last stopped fix: the stop ends there, and the step from it is the trip's
      if (this.seg) { this.snap = { ...this.seg }; add(this.seg); }
      this.cand = open(from, speed);
      this.cand.distance = step; this.cand.last = f;
      if (this.cand.driverId == null) this.cand.driverId = f.driverId;
      weigh(this.cand, f);
    } else {
      if (this.seg) add(this.seg);
      add(this.cand);
    }
    if (this.cand.distance >= this.p.minTripDistance || (f.t - this.cand.start.t) / 1000 >= this.p.minTripDuration) {
      if (this.snap) { const s = this.stop(this.snap); if (s) out.push(s); }
      this.mode = 'trip'; this.seg = this.cand; this.cand = null; this.snap = null;
    }
    return out;
  }

  /** The trip open at the last fix (confirmed, not yet ended): as it stands now, or null. */
  openTrip(): Trip | null {
    if (this.mode !== 'trip' || !this.seg) return null;
    return this.trip(this.cand ? this.snap! : this.seg);
  }

  /** No data for too long (or another owner) before f: closes what is open, unless a stop goes on at the same place. */
  private gap(f: Fix, moving: boolean, out: Segment[]): void {
    const prev = this.last!;
    if (this.mode === 'trip') {
      if (this.cand) {
        // it had halted: the trip ends there and the halt is a stop (decided below)
        out.push(this.trip(this.snap!));
        this.mode = 'stop'; this.seg = this.cand;
      } else {
        out.push(this.trip(this.seg!));
        this.reset();
        return;
      }
    } else if (this.cand) {
      // an unconfirmed run of moving fixes: the stop (if any) ends where it began
      if (this.snap) { const s = this.stop(this.snap); if (s) out.push(s); }
      this.reset();
      return;
    }
    if (this.mode === 'stop') {
      if (!moving && f.owner === prev.owner && haversine(prev.lat, prev.lon, f.lat, f.lon) < this.p.minTripDistance) {
        this.cand = null; this.snap = null;
        return;
      }
      const s = this.stop(this.seg!); if (s) out.push(s);
    }
    this.reset();
  }

  private reset(): void {
    this.mode = 'none'; this.seg = null; this.cand = null; this.snap = null; this.last = null; this.lastSpeed = 0;
  }

  private begin(f: Fix, speed: number, moving: boolean): void {
    if (moving) { this.mode = 'none'; this.seg = null; this.cand = open(f, speed); }
    else { this.mode = 'stop'; this.seg = open(f, speed); }
  }

  private trip(a: Acc): Trip {
    const duration = (a.last.t - a.start.t) / 1000;
    return {
      kind: 'viagem', start: point(a.start), end: point(a.last), distance: a.distance, duration, maxSpeed: a.maxSpeed,
      avgSpeed: duration > 0 ? (a.distance / duration) * 3.6 : 0, idle: a.idle, driverId: a.driverId,
      odometerStart: a.start.odometer, odometerEnd: a.last.odometer,
      axleWeight1: mean(a.w1, a.n1), axleWeight2: mean(a.w2, a.n2), grossWeight: mean(a.wg, a.ng), ...(a.start.owner !== undefined ? { owner: a.start.owner } : {}),
    };
  }

  private stop(a: Acc): Stop | null {
    const duration = (a.last.t - a.start.t) / 1000;
    if (duration <= 0) return null;
    return {
      kind: 'parada', start: point(a.start), end: point(a.last), duration, ignition: a.start.ignition, idle: a.idle,
      driverId: a.driverId, ...(a.start.owner !== undefined ? { owner: a.start.owner } : {}),
    };
  }
}

const point = (f: Fix): Point => ({ t: f.t, lat: f.lat, lon: f.lon });

/** All segments of fixes given at once (a fresh detector), closed ones only. */
export function detect(fixes: Fix[], params: Partial<TripParams> = {}): Segment[] {
  const d = new TripDetector(params);
  return fixes.flatMap((f) => d.push(f));
}

/** Where a detector restarts to take a late fix at time t: the start of the segment before the last closed one that
 *  ended at or before t (or of that one when it is the first); segments starting there or later are re-computed;
 *  null: from the beginning. One segment back because the last one may vanish: a halt closed as a stop by a gap is
 *  only a halt inside the trip before it once late fixes fill the gap. */
export function restartPoint(segments: { start: { t: number }; end: { t: number } }[], t: number): number | null {
  let last: number | null = null, before: number | null = null;
  for (const s of segments) {
    if (s.end.t > t) continue;
    const x = s.start.t;
    if (last === null || x > last) { before = last; last = x; }
    else if (x < last && (before === null || x > before)) before = x;
  }
  return before ?? last;
}
