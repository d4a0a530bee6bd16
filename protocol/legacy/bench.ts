// Decode micro-benchmark of the `SV` family (one core). Run: npm exec -- tsx protocol/legacy/bench.ts
// bench/ingest.ts imports legacyDecodeBench() and prints its median (bench/stats.ts) next to the @Track figure.
import { pathToFileURL } from 'node:url';
import { median } from '../../bench/stats.ts';
import { isDecodeError } from '../types.ts';
import { decode, frame } from './index.ts';

/** Public frames (Traccar's ContinentalProtocolDecoderTest): extended with counters, standard without. */
const SEEDS = [
  '5356003216001eb48505025b4001e90f7f18ce0f00522200400001015b4001e9000e820100000c24000100014e0400736a7a',
  '5356002a1100003039030243a68b5700feb5ab00fd715f012700000143a68b57000e000000000c2f0000',
  '5356002a0d0010a12403025a9ea47f00feb48400fd6e63000c0000015a9ea480000e000100000c000000',
  '5356002a0d0010a1240302581b944100febed800fd9fa30139001300581c73fa000e000000000d000001',
];

/** `count` status frames of `devices` serials, times and positions varying, as one TCP stream split by the framer. */
export function legacyBenchFrames(count = 200_000, devices = 500): Buffer[] {
  const seeds = SEEDS.map((h) => Buffer.from(h, 'hex'));
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const f = Buffer.from(seeds[i % seeds.length]);
    f.writeUInt32BE(1_000_000 + (i % devices), 5);
    const t = 1_763_000_000 + i;
    f.writeUInt32BE(t, 11);
    f.writeUInt32BE(t + 1, 28);
    f.writeUInt16BE((i * 7) % 360, 23);
    f.writeUInt16BE(i % 120, 25);
    f[19 + 3] = i & 0xff; // longitude jitter
    parts.push(f);
  }
  const r = frame(Buffer.concat(parts));
  if (r.frames.length !== count) throw new Error(`enquadrador devolveu ${r.frames.length} de ${count} quadros`);
  return r.frames;
}

export interface DecodeRates {
  /** Frames per wall-clock second, one per repetition. */
  wall: number[];
  /** Frames per CPU second of this process (user + system), one per repetition: fair on a loaded machine. */
  cpu: number[];
}

/** Decode rate of the frames, per repetition (after a warm-up). */
export function legacyDecodeBench(reps = 3, frames = legacyBenchFrames()): DecodeRates {
  for (let i = 0; i < Math.min(frames.length, 50_000); i++) decode(frames[i]);
  const out: DecodeRates = { wall: [], cpu: [] };
  for (let r = 0; r < reps; r++) {
    let bad = 0;
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    for (let i = 0; i < frames.length; i++) if (isDecodeError(decode(frames[i]))) bad++;
    const wall = Number(process.hrtime.bigint() - t) / 1e9;
    const used = process.cpuUsage(c);
    out.wall.push(frames.length / wall);
    out.cpu.push(frames.length / ((used.user + used.system) / 1e6));
    if (bad) throw new Error(`${bad} quadros com erro`);
  }
  return out;
}

/** Framer throughput (frames per second) over the same stream cut in 64 KiB chunks. */
export function legacyFrameBench(count = 200_000): number {
  const stream = Buffer.concat(legacyBenchFrames(count));
  let n = 0;
  const t = process.hrtime.bigint();
  let rest: Buffer = Buffer.alloc(0);
  for (let p = 0; p < stream.length; p += 65536) {
    const r = frame(rest.length ? Buffer.concat([rest, stream.subarray(p, p + 65536)]) : stream.subarray(p, p + 65536));
    n += r.frames.length;
    rest = r.rest;
  }
  if (n !== count) throw new Error(`enquadrador devolveu ${n} de ${count} quadros`);
  return n / (Number(process.hrtime.bigint() - t) / 1e9);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fmt = (x: number) => Math.round(x).toLocaleString('pt-BR');
  const r = legacyDecodeBench(5);
  console.log(`legacy (SV) decodificação, 1 núcleo: ${fmt(median(r.wall))} quadros/s (${r.wall.map(fmt).join(' / ')}); `
    + `${fmt(median(r.cpu))} quadros por segundo de CPU`);
  console.log(`legacy (SV) enquadramento: ${fmt(legacyFrameBench())} quadros/s`);
}
