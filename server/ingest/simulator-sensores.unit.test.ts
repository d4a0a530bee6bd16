// The demo trackers' fuel and ambient sensors, through the real decoder: a GV350CEU truck's GTCAN decodes into the
// attributes the consumo report reads (fuelLevel in litres, fuel_consumption_can, odo_can); over simulated days the
// level drops with the distance driven, fills happen stopped and the drivers' entries match them within 5 %, above,
// below or not at all (every Situação of the Abastecimento report), a drain is seen at the first stop; a refrigerated
// truck's GTERI decodes into bleTemperature1/bleHumidity1 (what gestao_estado reads), within 28-35 ºC and 70-100 %
// except, for one of them, now and then.
import { describe, expect, it } from 'vitest';
import { queclinkDecoder } from '../../protocol/queclink/index.ts';
import { isDecodeError } from '../../protocol/types.ts';
import { weightsOf } from '../../shared/peso.ts';
import { axleProfile, fuelProfile, garageHome, QueclinkVehicle, topSpeed, type FuelEntry, type VehicleOptions } from './simulator.ts';

const decode = (f: string) => {
  const r = queclinkDecoder.decode(Buffer.from(f));
  if (isDecodeError(r)) throw new Error(`${r.error}: ${f}`);
  return r;
};
const start = Date.UTC(2026, 10, 23, 9);
const { city, home } = garageHome('Matriz São Paulo');
const truck = (seed: number, extra: Partial<VehicleOptions> = {}, can = true) => new QueclinkVehicle(`8640015000${String(seed).padStart(5, '0')}`, 'gv350ceu', seed, start,
  { home, radiusKm: city.radiusKm, maxKmh: topSpeed('Caminhão'), odometerKm: 250_000, fuel: { ...fuelProfile('Caminhão'), can }, ...extra });

interface Reading { t: number; speed: number; level: number; used: number; odo: number; key: number }
/** Seconds of reports; the CAN readings decoded, the entries keyed in, every frame's type. */
function run(v: QueclinkVehicle, seconds: number) {
  const readings: Reading[] = [], entries: FuelEntry[] = [], types = new Set<string>();
  for (let s = 1; s <= seconds; s++) {
    for (const f of v.step(start + s * 1000)) {
      const type = /^\+\w+:(GT\w{3})/.exec(f)![1]!;
      types.add(type);
      if (type !== 'GTCAN') continue;
      const r = decode(f), a = r.attributes, p = r.positions[0]!;
      readings.push({ t: Date.parse(p.fixTime), speed: p.speedKmh, level: a.fuelLevel as number, used: a.fuel_consumption_can as number, odo: a.odo_can as number, key: a.ignitionKey as number });
    }
    entries.push(...v.takeEntries());
  }
  return { readings, entries, types };
}

/** The Abastecimento report's detection (consumo.yaml): median of 5 readings, rises between stopped readings and falls
 *  stopped faster than 0.1 L/s, steps of a sign joined when under 10 minutes apart, kept from 10 L. */
function detect(rs: Reading[]): { sinal: 1 | -1; inicio: number; fim: number; volume: number }[] {
  const med = rs.map((_, i) => { const w = rs.slice(Math.max(0, i - 2), i + 3).map((r) => r.level).sort((a, b) => a - b); return w.length % 2 ? w[(w.length - 1) / 2]! : (w[w.length / 2 - 1]! + w[w.length / 2]!) / 2; });
  const ev: { sinal: 1 | -1; inicio: number; fim: number; volume: number }[] = [];
  for (let i = 1; i < rs.length; i++) {
    const d = med[i]! - med[i - 1]!, stopped = rs[i]!.speed < 3 && rs[i - 1]!.speed < 3, dt = (rs[i]!.t - rs[i - 1]!.t) / 1000;
    const sinal = d > 0 && stopped ? 1 : d < 0 && stopped && -d > 0.1 * dt ? -1 : 0;
    if (!sinal) continue;
    const last = ev.at(-1);
    if (last && last.sinal === sinal && rs[i - 1]!.t - last.fim <= 600_000) { last.fim = rs[i]!.t; last.volume += d; }
    else ev.push({ sinal, inicio: rs[i - 1]!.t, fim: rs[i]!.t, volume: d });
  }
  return ev.filter((e) => Math.abs(e.volume) >= 10);
}

/** The report's Situação of a detected fill given the entries (nearest within 2 hours). */
function situacao(fill: { inicio: number; fim: number; volume: number }, entries: FuelEntry[]): string {
  const gap = (e: FuelEntry) => Math.max(0, fill.inicio - e.at.getTime(), e.at.getTime() - fill.fim);
  const en = entries.filter((e) => gap(e) <= 7_200_000).sort((a, b) => gap(a) - gap(b))[0];
  if (!en) return 'Sem entrada';
  if (Math.abs(en.litros - fill.volume) <= 0.05 * en.litros) return 'Dentro da tolerância';
  return en.litros > fill.volume ? 'Entrada maior que o detectado' : 'Entrada menor que o detectado';
}

describe('fuel over CAN (GV350CEU GTCAN)', () => {
  it('decodes into the attributes the consumo report and the daily totals read', () => {
    const v = truck(3);
    const frames = v.step(start + 1000);
    const can = frames.find((f) => f.startsWith('+RESP:GTCAN,740904,'))!;
    expect(can).toMatch(/^\+RESP:GTCAN,740904,864001500000003,,10,1,C00001FF,,[012],H\d+,\d+\.\d\d,\d+,\d+,\d+,L\/H\d+\.\d,L\d+\.\d,1,/);
    const r = decode(can);
    expect(r).toMatchObject({ model: 'gv350ceu', type: 'GTCAN', deviceId: '864001500000003' });
    expect(r.attributes).toMatchObject({ canReportMask: 'C00001FF', canBusState: true, odo_can: 250_000 });
    expect(r.attributes.fuelLevel).toBeCloseTo(v.fuelLevel!, 1);
    expect(r.attributes.fuelLevel).toBeGreaterThan(40);
    expect(r.attributes.fuelLevel).toBeLessThanOrEqual(400);
    expect(r.attributes.fuel_consumption_can).toBeGreaterThan(80_000); // a lifetime of 250,000 km at 2.8 km/L
    expect(r.positions).toHaveLength(1);
    expect(r.positions[0]!.fixTime).toBe('2026-11-23T09:00:01.000Z');
    // every 30 s, next to the periodic report (GTFRI) — and only for a tracker that reads the CAN bus
    expect(run(truck(3), 3600).readings).toHaveLength(120);
    const plain = run(truck(3, {}, false), 3600);
    expect([plain.readings.length, plain.types.has('GTFRI')]).toEqual([0, true]);
  });

  const days = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((seed) => ({ seed, ...run(truck(seed, seed === 1 ? { fuel: { ...fuelProfile('Caminhão'), can: true, drainFirstStop: true } } : {}), 86_400) }));

  it('the level drops with the distance driven, the fuel used grows by the same, the odometer is the GTFRI one', () => {
    for (const { seed, readings: rs } of days) {
      let dropped = 0, burnt = 0, km = 0;
      for (let i = 1; i < rs.length; i++) {
        const a = rs[i - 1]!, b = rs[i]!;
        expect([seed, b.used >= a.used, b.odo >= a.odo]).toEqual([seed, true, true]);
        if (a.speed >= 3 || b.speed >= 3) { dropped += a.level - b.level; burnt += b.used - a.used; km += b.odo - a.odo; }
      }
      expect(km).toBeGreaterThan(50);
      // driving: 2.8 km/L, a little more when idling at lights
      expect([seed, burnt / km]).toEqual([seed, expect.closeTo(1 / 2.8, 1)]);
      expect(burnt / km).toBeLessThan(1 / 2.8 * 1.15);
      expect(burnt / km).toBeGreaterThanOrEqual(1 / 2.8);
      expect(Math.abs(dropped - burnt)).toBeLessThan(0.05 * burnt + 1);
    }
  });

  it('fills stopped, with entries that match, differ or are missing: every Situação of the report', () => {
    const seen = new Map<string, number>();
    let fills = 0;
    for (const { seed, readings, entries } of days) {
      for (const e of detect(readings).filter((x) => x.sinal === 1)) {
        fills++;
        expect([seed, e.volume]).toEqual([seed, expect.any(Number)]);
        expect(e.volume).toBeGreaterThan(20);
        expect(e.volume).toBeLessThanOrEqual(400);
        const s = situacao(e, entries);
        seen.set(s, (seen.get(s) ?? 0) + 1);
      }
      for (const en of entries) {
        expect(en.litros).toBeGreaterThan(10);
        expect(en.valor).toBeCloseTo(en.litros * 6.09, 1);
      }
    }
    expect(fills).toBeGreaterThanOrEqual(12);
    for (const s of ['Dentro da tolerância', 'Entrada maior que o detectado', 'Entrada menor que o detectado', 'Sem entrada']) expect([s, (seen.get(s) ?? 0) > 0]).toEqual([s, true]);
    expect(seen.get('Dentro da tolerância')!).toBeGreaterThan(seen.get('Entrada maior que o detectado')!);
  });

  it('a drain of 18-30 L at the first stop of the truck that has it; rarely at other stops', () => {
    let others = 0;
    for (const { seed, readings } of days) {
      const drains = detect(readings).filter((x) => x.sinal === -1);
      for (const d of drains) expect([seed, -d.volume > 12 && -d.volume <= 30]).toEqual([seed, true]);
      if (seed !== 1) { others += drains.length; continue; }
      // while the engine is off at the first stop (ignition key 1: the driver watching the gauge), before it leaves
      const stop = readings.findIndex((r) => r.key !== 2), leaves = readings.findIndex((r, i) => i > stop && r.key === 2);
      expect(drains[0]!.inicio).toBeGreaterThanOrEqual(readings[stop]!.t);
      expect(drains.length).toBeGreaterThanOrEqual(1);
      expect(drains[0]!.inicio).toBeLessThan(readings[leaves]!.t);
    }
    expect(others).toBeLessThanOrEqual(3);
  });

  it('a vehicle without a level sensor keys entries nothing detects (Não detectado)', () => {
    const car = new QueclinkVehicle('864001500000099', 'gv50cg', 99, start, { home, radiusKm: city.radiusKm, maxKmh: 110, fuel: { ...fuelProfile('Carro') } });
    const out = run(car, 3 * 86_400);
    expect(out.readings).toHaveLength(0);
    expect(out.entries.length).toBeGreaterThan(0);
    for (const e of out.entries) expect(e.litros).toBeLessThan(50 * 1.02);
  });
});

describe('axle weights over CAN (GV350CEU GTCAN)', () => {
  it('a truck reports its 1st and 2nd axle: loaded at the garage, lighter after each stop, its trip weights as shared/peso.ts reads them', () => {
    const v = truck(31, { axles: axleProfile('Caminhão') });
    const legs: { w1: number[]; w2: number[]; gross: number[] }[] = [];
    let moving = false;
    for (let s = 1; s <= 6 * 3600; s++) {
      for (const f of v.step(start + s * 1000)) {
        if (!f.includes('GTCAN')) continue;
        const r = decode(f), a = r.attributes;
        expect(a.canReportMask).toBe('E00081FF');
        expect(a.canExpansionMask).toBe('00000002');
        const w = weightsOf(a)!;
        // the decoded weights are the frame's own fields, and the fuel ones still come
        expect(typeof a.fuelLevel).toBe('number');
        expect(w.gross).toBe(w.axle1! + w.axle2!);
        const now = r.positions[0]!.speedKmh > 1;
        if (now && !moving) legs.push({ w1: [], w2: [], gross: [] });
        moving = now;
        if (now) { const l = legs.at(-1)!; l.w1.push(w.axle1!); l.w2.push(w.axle2!); l.gross.push(w.gross!); }
      }
    }
    const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;
    const trips = legs.filter((l) => l.gross.length >= 10).map((l) => ({ w1: mean(l.w1), w2: mean(l.w2), gross: mean(l.gross) }));
    expect(trips.length).toBeGreaterThanOrEqual(3);
    // empty 4,300 + 3,200 kg; loaded at the garage with 60-100 % of 9,000 kg (20 % on the front axle)
    expect(trips[0]!.gross).toBeGreaterThan(7500 + 0.6 * 9000 * 0.97);
    expect(trips[0]!.gross).toBeLessThan(7500 + 9000 * 1.03);
    expect(trips[0]!.w1 / (trips[0]!.w1 + trips[0]!.w2)).toBeGreaterThan(0.3);
    for (const t of trips) {
      expect(t.w1).toBeGreaterThan(4300 * 0.97);
      expect(t.w2).toBeGreaterThan(3200 * 0.97);
    }
    // the next leg from a stop carries less (part of the load left there)
    expect(trips[1]!.gross).toBeLessThan(trips[0]!.gross);
  });

  it('a truck without axle sensors keeps the CAN mask of fuel only', () => {
    const v = truck(32);
    const can = Array.from({ length: 120 }, (_, s) => v.step(start + (s + 1) * 1000)).flat().filter((f) => f.includes('GTCAN'));
    expect(can.length).toBeGreaterThan(0);
    for (const f of can) {
      expect(decode(f).attributes.canReportMask).toBe('C00001FF');
      expect(weightsOf(decode(f).attributes)).toBeNull();
    }
  });
});

describe('refrigerated body (BLE sensor in GTERI)', () => {
  const sample = (v: QueclinkVehicle, seconds: number) => {
    const out: { temp: number; hum: number }[] = [];
    const types = new Set<string>();
    for (let s = 1; s <= seconds; s++) for (const f of v.step(start + s * 1000)) {
      const r = decode(f);
      types.add(r.type);
      if (r.type === 'GTERI') out.push({ temp: r.attributes.bleTemperature1 as number, hum: r.attributes.bleHumidity1 as number });
    }
    return { out, types };
  };
  const inside = (x: { temp: number; hum: number }) => x.temp >= 28 && x.temp <= 35 && x.hum >= 70 && x.hum <= 100;

  it('decodes into bleTemperature1 and bleHumidity1, the periodic report being a GTERI', () => {
    const v = truck(21, { ambient: {} });
    const f = v.step(start + 1000).find((x) => x.startsWith('+RESP:GTERI,'))!;
    expect(f).toMatch(/,00000100,1[23]\d00,10,1,1,/);
    const r = decode(f);
    expect(r.attributes).toMatchObject({ eriMask: '00000100', bleName1: 'SENTEMP1', bleMac1: '780500000021', bleStatus1: 1, bleBatteryLevel1: 100 });
    const { temp, hum } = v.climate(start + 1000);
    expect([r.attributes.bleTemperature1, r.attributes.bleHumidity1]).toEqual([temp, hum]);
    expect(r.positions).toHaveLength(1);
  });

  it('a normal body stays within 28-35 ºC and 70-100 % for two hours; the one out of limits leaves them now and then', () => {
    const normal = sample(truck(1, { ambient: {} }), 7200);
    expect(normal.out.length).toBeGreaterThan(6000);
    expect(normal.types.has('GTFRI')).toBe(false);
    expect(normal.out.every(inside)).toBe(true);
    const fora = sample(truck(21, { ambient: { outOfLimits: true } }), 7200).out;
    const outside = fora.filter((x) => !inside(x)).length / fora.length;
    expect(outside).toBeGreaterThan(0.15);
    expect(outside).toBeLessThan(0.4);
    expect(Math.max(...fora.map((x) => x.temp))).toBeGreaterThan(36);
    expect(Math.min(...fora.map((x) => x.hum))).toBeLessThan(66);
    // out within the first 5 minutes (the demo shows it soon)
    const v = truck(21, { ambient: { outOfLimits: true } });
    expect(inside(v.climate(start + 4.5 * 60_000))).toBe(false);
  });
});
