// The demo vehicles drive like vehicles: a simulated day of one tracker (pure, seeded) has ignition cycles, stops of
// minutes with the ignition off, road speeds, sane accelerations, stays around its garage, and its odometer grows with
// exactly the distance travelled.
import { describe, expect, it } from 'vitest';
import { queclinkDecoder } from '../../protocol/queclink/index.ts';
import { isDecodeError } from '../../protocol/types.ts';
import { distanceM, garageHome, QueclinkVehicle, topSpeed, type LatLon } from './simulator.ts';

interface Fix { t: number; type: string; speed: number; at: LatLon; odometer: number }

/** One day of reports, one per simulated second, decoded by the real decoder. */
function day(v: QueclinkVehicle, start: number): Fix[] {
  const fixes: Fix[] = [];
  for (let s = 1; s <= 86_400; s++) {
    for (const f of v.step(start + s * 1000)) {
      const r = queclinkDecoder.decode(Buffer.from(f));
      if (isDecodeError(r)) throw new Error(`${r.error}: ${f}`);
      const p = r.positions[0];
      if (!p) continue;
      fixes.push({ t: Date.parse(p.fixTime), type: r.type, speed: p.speedKmh, at: [p.latitude, p.longitude], odometer: Number(r.attributes.odometer) });
    }
  }
  return fixes;
}

describe('simulated day of a demo vehicle', () => {
  const start = Date.UTC(2026, 10, 23, 9);
  const { city, home } = garageHome('Filial Campinas');
  const v = new QueclinkVehicle('864001500000017', 'gv58cg', 17, start, { home, radiusKm: city.radiusKm, maxKmh: topSpeed('Utilitário'), odometerKm: 52_000 });
  const fixes = day(v, start);
  const on = fixes.filter((f) => f.type === 'GTIGN'), off = fixes.filter((f) => f.type === 'GTIGF');

  it('is in the garage city (Campinas)', () => {
    expect(city.name).toBe('Campinas');
    expect(distanceM(home, [-22.9056, -47.0608])).toBeLessThan(3100);
  });

  it('has ignition cycles, and stops of at least 5 minutes with the ignition off', () => {
    expect(on.length).toBeGreaterThanOrEqual(2);
    expect(off.length).toBeGreaterThanOrEqual(2);
    const stops = off.map((f) => [f.t, on.find((x) => x.t > f.t)?.t]).filter((x): x is [number, number] => x[1] !== undefined);
    expect(stops.length).toBeGreaterThanOrEqual(2);
    for (const [a, b] of stops) expect(b - a).toBeGreaterThanOrEqual(5 * 60_000);
    // parked means still: no position change between ignition off and on
    for (const [a, b] of stops) {
      const during = fixes.filter((f) => f.t >= a && f.t <= b);
      expect(Math.max(...during.map((f) => distanceM(during[0]!.at, f.at)))).toBeLessThan(1);
      expect(Math.max(...during.map((f) => f.speed))).toBe(0);
    }
  });

  it('drives at road speeds with sane accelerations, within ~30 km of its garage', () => {
    const speeds = fixes.map((f) => f.speed);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(120);
    expect(Math.max(...speeds)).toBeGreaterThan(40);
    let worst = 0;
    for (let i = 1; i < fixes.length; i++) {
      const dt = (fixes[i]!.t - fixes[i - 1]!.t) / 1000;
      if (dt > 0) worst = Math.max(worst, Math.abs(fixes[i]!.speed - fixes[i - 1]!.speed) / dt);
    }
    expect(worst).toBeLessThanOrEqual(15);
    expect(Math.max(...fixes.map((f) => distanceM(home, f.at)))).toBeLessThan(30_000);
  });

  it('odometer: monotonic, and grows by the distance travelled (±1%)', () => {
    let travelled = 0;
    for (let i = 1; i < fixes.length; i++) {
      expect(fixes[i]!.odometer).toBeGreaterThanOrEqual(fixes[i - 1]!.odometer);
      travelled += distanceM(fixes[i - 1]!.at, fixes[i]!.at);
    }
    const odo = (fixes.at(-1)!.odometer - fixes[0]!.odometer) * 1000;
    expect(travelled).toBeGreaterThan(50_000); // a working day covers ground
    expect(Math.abs(odo - travelled) / travelled).toBeLessThan(0.01);
    expect(fixes[0]!.odometer).toBeGreaterThanOrEqual(52_000);
  });
});

describe('panic presses of the demo fleet (alarms for the console)', () => {
  it('now and then a vehicle on the road sends GTSOS, decoded as the panic event with its position', () => {
    const start = Date.UTC(2026, 10, 23, 9);
    const { city, home } = garageHome('Filial Campinas');
    const panics: { speed: number; at: LatLon; event: unknown }[] = [];
    for (let i = 0; i < 6; i++) {
      const v = new QueclinkVehicle(`86400150000010${i}`, 'gv58cg', 100 + i, start, { home, radiusKm: city.radiusKm, maxKmh: topSpeed('Utilitário') });
      for (let s = 1; s <= 86_400; s++) {
        for (const f of v.step(start + s * 1000)) {
          if (!f.startsWith('+RESP:GTSOS,')) continue;
          const r = queclinkDecoder.decode(Buffer.from(f));
          if (isDecodeError(r)) throw new Error(`${r.error}: ${f}`);
          const p = r.positions[0]!;
          panics.push({ speed: p.speedKmh, at: [p.latitude, p.longitude], event: r.events.map((e) => e.key).join() });
        }
      }
    }
    // six vehicle-days (hours on the road each, one chance in 10,800 per second driven): a few presses
    expect(panics.length).toBeGreaterThanOrEqual(2);
    expect(panics.length).toBeLessThanOrEqual(Math.ceil(((6 * 86_400) / 10_800) * 3));
    for (const p of panics) {
      expect(p.event).toBe('panic');
      expect(distanceM(home, p.at)).toBeLessThan(40_000);
    }
  });
});
