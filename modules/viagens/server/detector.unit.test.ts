import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detect, haversine, restartPoint, stepDistance, TripDetector, type Fix, type Segment, type Stop, type Trip } from './detector.ts';

const T0 = Date.UTC(2025, 2, 10, 8, 0, 0);

/** A track built from phases: drive (speed km/h, heading), halt (ignition on/off), gap (no data). */
type Phase =
  | { kind: 'drive'; steps: number; every: number; speed: number; heading: number }
  | { kind: 'halt'; steps: number; every: number; ignition: boolean }
  | { kind: 'gap'; seconds: number };

function track(phases: Phase[], o: { odometer?: boolean; start?: number; driverId?: number | null } = {}): Fix[] {
  let t = o.start ?? T0, lat = -23.55, lon = -46.63, odo = 1000;
  const out: Fix[] = [];
  const fix = (speed: number, ignition: boolean) => out.push({
    t, lat, lon, speed, ignition, odometer: o.odometer ? Math.round(odo * 1000) / 1000 : null, driverId: o.driverId ?? null,
  });
  if (!phases.length) return out;
  fix(0, true);
  for (const p of phases) {
    if (p.kind === 'gap') { t += p.seconds * 1000; fix(0, true); continue; }
    for (let i = 0; i < p.steps; i++) {
      t += p.every * 1000;
      if (p.kind === 'drive') {
        const d = (p.speed / 3.6) * p.every; // metres
        lat += (d * Math.cos(p.heading)) / 111_320;
        lon += (d * Math.sin(p.heading)) / (111_320 * Math.cos(lat * Math.PI / 180));
        odo += d / 1000;
        fix(p.speed, true);
      } else fix(0, p.ignition);
    }
  }
  return out;
}

const trips = (s: Segment[]) => s.filter((x): x is Trip => x.kind === 'viagem');
const stops = (s: Segment[]) => s.filter((x): x is Stop => x.kind === 'parada');

describe('trip detector: concrete days', () => {
  it('drive 10 min at 60 km/h, park 20 min with the ignition off, drive again: one closed trip and the stop between', () => {
    const fixes = track([
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 },        // 10 min, 10 km
      { kind: 'halt', steps: 40, every: 30, ignition: false },               // 20 min parked
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: Math.PI / 2 },
      { kind: 'halt', steps: 2, every: 30, ignition: false },                // ignition off: the second trip ends at once
    ]);
    const seg = detect(fixes);
    const [t1, t2] = trips(seg);
    expect(trips(seg)).toHaveLength(2);
    // the trip leaves from the last stopped fix (the first one) and ends at the first stopped fix
    expect(t1!.start.t).toBe(T0);
    expect(t1!.end.t).toBe(T0 + 21 * 30_000);
    expect(t1!.duration).toBe(630);
    expect(t1!.distance).toBeGreaterThan(9_950);
    expect(t1!.distance).toBeLessThan(10_050);
    expect(t1!.maxSpeed).toBe(60);
    expect(t1!.avgSpeed).toBeCloseTo((10_000 / 630) * 3.6, 0);
    expect(t1!.idle).toBe(0);
    expect(t2!.start.t).toBe(T0 + 60 * 30_000);
    expect(t2!.end.t).toBe(T0 + 81 * 30_000);
    const park = stops(seg).find((s) => s.start.t === t1!.end.t)!;
    expect(park.end.t).toBe(t2!.start.t);
    expect(park.duration).toBe(39 * 30);
    expect(park.ignition).toBe(false);
    expect(park.idle).toBe(0);
  });

  it('distance from the odometer when the device reports one', () => {
    const fixes = track([{ kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 }, { kind: 'halt', steps: 2, every: 30, ignition: false }], { odometer: true });
    // the odometer says 12 km where the GPS says 10 (a winding road between fixes)
    const o0 = fixes[0]!.odometer!;
    for (let i = 1; i < fixes.length; i++) fixes[i]!.odometer = o0 + Math.min(i, 20) * 0.6;
    const [t] = trips(detect(fixes));
    expect(t!.distance).toBeCloseTo(12_000, 3);
    expect(t!.odometerStart).toBeCloseTo(o0, 6);
    expect(t!.odometerEnd).toBeCloseTo(o0 + 12, 6);
  });

  it('an odometer reset, jump or stuck value is not distance: the GPS step is taken', () => {
    const a: Fix = { t: 0, lat: -23.55, lon: -46.63, speed: 50, ignition: true, odometer: 5000, driverId: null };
    const b: Fix = { ...a, t: 60_000, lat: -23.54, odometer: 0.5 };
    expect(stepDistance(a, b)).toBeCloseTo(haversine(a.lat, a.lon, b.lat, b.lon), 6);
    expect(stepDistance(a, { ...b, odometer: 9000 })).toBeCloseTo(haversine(a.lat, a.lon, b.lat, b.lon), 6);
    // stuck: the odometer did not move while the GPS went 1.1 km
    expect(stepDistance(a, { ...b, odometer: 5000 })).toBeCloseTo(haversine(a.lat, a.lon, b.lat, b.lon), 6);
    // parked: GPS noise of a few metres, the odometer still: no distance
    const noise: Fix = { ...a, t: 60_000, lat: a.lat + 0.0002 };
    expect(stepDistance(a, noise)).toBe(0);
  });

  it('a jump faster than 300 km/h (GPS, or a device restarted elsewhere) is not distance: the odometer if drivable, else none', () => {
    const a: Fix = { t: 0, lat: -23.55, lon: -46.63, speed: 60, ignition: true, odometer: null, driverId: null };
    // 45 km in 30 s
    const far: Fix = { ...a, t: 30_000, lat: -23.15 };
    expect(stepDistance(a, far)).toBe(0);
    // the odometer went 500 m meanwhile: that is the step
    expect(stepDistance({ ...a, odometer: 1000 }, { ...far, odometer: 1000.5 })).toBeCloseTo(500, 6);
    // an odometer that jumped as well counts nothing
    expect(stepDistance({ ...a, odometer: 1000 }, { ...far, odometer: 1045 })).toBe(0);
    // the same 45 km in an hour is a road
    expect(stepDistance(a, { ...far, t: 3_600_000 })).toBeCloseTo(haversine(a.lat, a.lon, far.lat, far.lon), 6);
    // inside a trip: 10 km driven, then the jump, then 5 km more
    const fixes = track([{ kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 }]);
    const last = fixes.at(-1)!;
    const jumped = [...fixes, ...Array.from({ length: 11 }, (_, k) => ({ ...last, t: last.t + (k + 1) * 30_000, lat: last.lat + 0.5 + (k * 500) / 111_320 }))];
    jumped.push({ ...jumped.at(-1)!, t: jumped.at(-1)!.t + 30_000, speed: 0, ignition: false });
    const [trip] = trips(detect(jumped));
    expect(trip!.distance).toBeGreaterThan(14_900);
    expect(trip!.distance).toBeLessThan(15_100);
    expect(trip!.maxSpeed).toBe(60);
    // a device that reports no speed: the jump's is not taken as its top speed
    const [noSpeed] = trips(detect(jumped.map((f, i) => ({ ...f, speed: i === jumped.length - 1 ? 0 : null }))));
    expect(noSpeed!.maxSpeed).toBeGreaterThan(59);
    expect(noSpeed!.maxSpeed).toBeLessThan(61);
  });

  it('a 2-minute halt at a light with the ignition on stays inside the trip as idle time', () => {
    const fixes = track([
      { kind: 'drive', steps: 10, every: 30, speed: 50, heading: 0 },
      { kind: 'halt', steps: 4, every: 30, ignition: true },
      { kind: 'drive', steps: 10, every: 30, speed: 50, heading: 0 },
      { kind: 'halt', steps: 1, every: 30, ignition: false },
    ]);
    const seg = detect(fixes);
    expect(trips(seg)).toHaveLength(1);
    const [t] = trips(seg);
    expect(t!.idle).toBe(120);
    expect(t!.duration).toBe(25 * 30);
  });

  it('idle with the ignition on for 10 minutes after driving: a stop with idle time and ignition on', () => {
    const fixes = track([
      { kind: 'drive', steps: 12, every: 30, speed: 40, heading: 1 },
      { kind: 'halt', steps: 20, every: 30, ignition: true },
      { kind: 'drive', steps: 12, every: 30, speed: 40, heading: 1 },
      { kind: 'halt', steps: 1, every: 30, ignition: false },
    ]);
    const seg = detect(fixes);
    expect(trips(seg)).toHaveLength(2);
    const s = stops(seg).find((x) => x.start.t === trips(seg)[0]!.end.t)!;
    expect(s.duration).toBe(19 * 30);
    expect(s.ignition).toBe(true);
    expect(s.idle).toBe(19 * 30);
  });

  it('a short manoeuvre (100 m in a minute) is no trip', () => {
    const fixes = track([
      { kind: 'halt', steps: 10, every: 60, ignition: false },
      { kind: 'drive', steps: 2, every: 30, speed: 6, heading: 0 },
      { kind: 'halt', steps: 10, every: 60, ignition: false },
    ]);
    expect(trips(detect(fixes))).toHaveLength(0);
  });

  it('500 m in under 5 minutes is a trip (distance), 5 minutes of slow moving under 500 m too (duration)', () => {
    const fast = track([{ kind: 'drive', steps: 3, every: 10, speed: 80, heading: 0 }, { kind: 'halt', steps: 1, every: 10, ignition: false }]);
    expect(trips(detect(fast))).toHaveLength(1);
    expect(trips(detect(fast))[0]!.distance).toBeGreaterThan(500);
    const slow = track([{ kind: 'drive', steps: 11, every: 30, speed: 5, heading: 0 }, { kind: 'halt', steps: 1, every: 10, ignition: false }]);
    const [t] = trips(detect(slow));
    expect(t!.distance).toBeLessThan(500);
    expect(t!.duration).toBe(340);
    // without the ignition rule, the halt must last the minimal parking before the trip ends
    expect(trips(detect(slow, { useIgnition: false }))).toHaveLength(0);
  });

  it('a gap of more than an hour closes the trip at the last fix before it', () => {
    const fixes = track([
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 },
      { kind: 'gap', seconds: 2 * 3600 },
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 },
    ]);
    const d = new TripDetector();
    const seg = fixes.flatMap((f) => d.push(f));
    expect(trips(seg)).toHaveLength(1);
    expect(trips(seg)[0]!.end.t).toBe(T0 + 20 * 30_000);
    // the second trip is still open (no data after it yet)
    expect(d.lastTime).toBe(fixes[fixes.length - 1]!.t);
  });

  it('a stop goes on across a gap while the vehicle is still where it stopped', () => {
    const fixes = track([
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 },
      { kind: 'halt', steps: 20, every: 30, ignition: false },
      { kind: 'gap', seconds: 5 * 3600 },
      { kind: 'halt', steps: 2, every: 30, ignition: false },
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 },
    ]);
    const s = stops(detect(fixes));
    expect(s).toHaveLength(1);
    // from the first stopped fix to the last one before the next trip
    expect(s[0]!.duration).toBe(19 * 30 + 5 * 3600 + 2 * 30);
  });

  it('the driver is the first one identified during the trip', () => {
    const fixes = track([{ kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 }, { kind: 'halt', steps: 1, every: 30, ignition: false }]);
    for (const [i, f] of fixes.entries()) f.driverId = i < 5 ? null : i < 10 ? 7 : 8;
    expect(trips(detect(fixes))[0]!.driverId).toBe(7);
  });

  it('a fix of another asset closes the open trip like a gap', () => {
    const fixes = track([{ kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 }]).map((f) => ({ ...f, owner: '1:10' }));
    fixes.push(...track([{ kind: 'drive', steps: 5, every: 30, speed: 60, heading: 0 }], { start: fixes[fixes.length - 1]!.t + 30_000 }).map((f) => ({ ...f, owner: '2:20' })));
    const [t] = trips(detect(fixes));
    expect(t!.owner).toBe('1:10');
    expect(t!.end.t).toBe(T0 + 20 * 30_000);
  });

  it('ignores fixes not after the last one', () => {
    const d = new TripDetector();
    d.push({ t: 10, lat: 0, lon: 0, speed: 0, ignition: true, odometer: null, driverId: null });
    expect(d.push({ t: 5, lat: 1, lon: 1, speed: 90, ignition: true, odometer: null, driverId: null })).toEqual([]);
    expect(d.lastTime).toBe(10);
  });
});

describe('trip detector: weights', () => {
  it('each trip keeps the mean of the weights its fixes report; a trip with none keeps null', () => {
    const fixes = track([
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: 0 },
      { kind: 'halt', steps: 40, every: 30, ignition: false },
      { kind: 'drive', steps: 20, every: 30, speed: 60, heading: Math.PI / 2 },
      { kind: 'halt', steps: 2, every: 30, ignition: false },
    ]);
    // first trip (fixes 0-21): loaded, axle 2 read every other fix, no gross weight (the sum of axles is it)
    fixes.forEach((f, i) => {
      if (i <= 21) f.weights = { axle1: 6000 + (i % 2) * 100, axle2: i % 2 ? 9000 : null, gross: 6000 + (i % 2) * 9100 };
    });
    const [t1, t2] = trips(detect(fixes));
    // axle 1: 11 fixes at 6000 and 11 at 6100; axle 2 only on the 11 odd ones; gross 11 × 6000 and 11 × 15100
    expect(t1).toMatchObject({ axleWeight1: 6050, axleWeight2: 9000, grossWeight: 10550 });
    expect(t2).toMatchObject({ axleWeight1: null, axleWeight2: null, grossWeight: null });
  });
});

// Random days: phases of driving, halting and gaps.
const phase: fc.Arbitrary<Phase> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('drive' as const), steps: fc.integer({ min: 1, max: 40 }), every: fc.integer({ min: 5, max: 120 }), speed: fc.integer({ min: 0, max: 120 }), heading: fc.double({ min: 0, max: 6.28, noNaN: true }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('halt' as const), steps: fc.integer({ min: 1, max: 30 }), every: fc.integer({ min: 5, max: 120 }), ignition: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('gap' as const), seconds: fc.integer({ min: 60, max: 3 * 3600 }) }) },
);
const day = fc.record({ phases: fc.array(phase, { minLength: 1, maxLength: 25 }), odometer: fc.boolean(), useIgnition: fc.boolean() });

describe('trip detector: properties', () => {
  it('the trips cover no more distance than the fixes; trips and stops never overlap; each trip passes the minimums', () => {
    fc.assert(fc.property(day, ({ phases, odometer, useIgnition }) => {
      const fixes = track(phases, { odometer });
      let total = 0;
      for (let i = 1; i < fixes.length; i++) total += stepDistance(fixes[i - 1]!, fixes[i]!);
      const seg = detect(fixes, { useIgnition }).sort((a, b) => a.start.t - b.start.t);
      const sum = trips(seg).reduce((s, t) => s + t.distance, 0);
      expect(sum).toBeLessThanOrEqual(total + 1e-6);
      for (let i = 0; i < seg.length; i++) {
        const s = seg[i]!;
        expect(s.end.t).toBeGreaterThanOrEqual(s.start.t);
        if (i) expect(s.start.t).toBeGreaterThanOrEqual(seg[i - 1]!.end.t);
        if (s.kind === 'viagem') {
          expect(s.distance >= 500 || s.duration >= 300).toBe(true);
          expect(s.idle).toBeLessThanOrEqual(s.duration + 1e-9);
          expect(s.maxSpeed).toBeGreaterThanOrEqual(s.avgSpeed - 1e-6 - (odometer ? Infinity : 0));
        } else {
          expect(s.duration).toBeGreaterThan(0);
        }
      }
    }), { numRuns: 300 });
  });

  it('restartable: a detector started afresh at the end of any closed segment yields the same later segments', () => {
    fc.assert(fc.property(day, ({ phases, odometer, useIgnition }) => {
      const fixes = track(phases, { odometer });
      const all = detect(fixes, { useIgnition });
      for (const anchor of new Set(all.map((s) => s.end.t))) {
        const again = detect(fixes.filter((f) => f.t >= anchor), { useIgnition });
        expect(again).toEqual(all.filter((s) => s.start.t >= anchor));
      }
    }), { numRuns: 1000 });
  });

  it('fixes fed one by one or all at once give the same segments (incremental = batch)', () => {
    fc.assert(fc.property(day, fc.integer({ min: 1, max: 50 }), ({ phases }, chunk) => {
      const fixes = track(phases);
      const d = new TripDetector();
      const got: Segment[] = [];
      for (let i = 0; i < fixes.length; i += chunk) for (const f of fixes.slice(i, i + chunk)) got.push(...d.push(f));
      expect(got).toEqual(detect(fixes));
    }), { numRuns: 100 });
  });

  it('late fixes: re-computing from restartPoint() gives what a run with every fix in order gives', () => {
    fc.assert(fc.property(day, fc.nat(), fc.integer({ min: 1, max: 15 }), ({ phases, odometer, useIgnition }, at, len) => {
      const fixes = track(phases, { odometer });
      if (fixes.length < 3) return;
      const from = 1 + (at % (fixes.length - 1));
      const late = fixes.slice(from, from + len);
      const stored = detect(fixes.filter((f) => !late.includes(f)), { useIgnition });
      const p = restartPoint(stored, late[0]!.t);
      const kept = stored.filter((s) => p !== null && s.start.t < p);
      const again = detect(fixes.filter((f) => p === null || f.t >= p), { useIgnition });
      expect([...kept, ...again]).toEqual(detect(fixes, { useIgnition }));
    }), { numRuns: 1000 });
  });

  it('late fixes that fill a gap: the stop the gap closed becomes a halt inside the trip before it (fast-check found it)', () => {
    // 520 m in 2 min, a 50 s halt, a crawl at 3 km/h (moving), then stopped and crawling again over the next hour
    const fixes = track([
      { kind: 'drive', steps: 13, every: 9, speed: 16, heading: 0 },
      { kind: 'halt', steps: 10, every: 5, ignition: false },
      { kind: 'drive', steps: 1, every: 5, speed: 0, heading: 0 },
      { kind: 'drive', steps: 3, every: 5, speed: 3, heading: 0 },
      { kind: 'gap', seconds: 3138 }, { kind: 'gap', seconds: 72 },
      { kind: 'drive', steps: 2, every: 9, speed: 0, heading: 0 },
      { kind: 'drive', steps: 1, every: 93, speed: 0, heading: 0 },
      { kind: 'drive', steps: 18, every: 53, speed: 3, heading: 0 },
    ]);
    const o = { useIgnition: false };
    // with every fix the trip never ends (the halt is 50 s; the vehicle moves again)
    expect(detect(fixes, o)).toEqual([]);
    // stored without the crawl and the next 40 min: more than an hour without data closed the trip and a stop
    const late = fixes.slice(25, 37);
    const stored = detect(fixes.filter((f) => !late.includes(f)), o);
    expect(stored.map((x) => [x.kind, (x.start.t - T0) / 1000, (x.end.t - T0) / 1000])).toEqual([['viagem', 0, 122], ['parada', 122, 172]]);
    // restarting at the stop (the last segment ended before the late fixes) would keep the trip; one back does not
    const p = restartPoint(stored, late[0]!.t);
    expect(p).toBe(T0);
    expect([...stored.filter((x) => x.start.t < p!), ...detect(fixes.filter((f) => f.t >= p!), o)]).toEqual([]);
  });

  it('late fixes: restarting at the end of the last segment before them (not its start) is not enough', () => {
    // a stop's end is settled by the trip after it: late halt fixes inside that trip move the stop's end
    const fixes = track([
      { kind: 'drive', steps: 10, every: 60, speed: 60, heading: 0 },
      { kind: 'halt', steps: 10, every: 60, ignition: false },
      { kind: 'drive', steps: 10, every: 60, speed: 60, heading: 0 },
      { kind: 'halt', steps: 2, every: 60, ignition: false },
    ]);
    const late = fixes.slice(13, 21); // most of the halt, sent later: the stored stop ended at fix 12
    const stored = detect(fixes.filter((f) => !late.includes(f)));
    const lastEnd = Math.max(...stored.filter((s) => s.end.t <= late[0]!.t).map((s) => s.end.t));
    const wrong = [...stored.filter((s) => s.start.t < lastEnd), ...detect(fixes.filter((f) => f.t >= lastEnd))];
    expect(wrong).not.toEqual(detect(fixes));
    const p = restartPoint(stored, late[0]!.t)!;
    expect([...stored.filter((s) => s.start.t < p), ...detect(fixes.filter((f) => f.t >= p))]).toEqual(detect(fixes));
  });
});
