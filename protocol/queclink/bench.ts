// Decoder-only throughput of the @Track decoder on one core.
// Run: npm exec -- tsx protocol/queclink/bench.ts   (BENCH_REPS, BENCH_MESSAGES to change the run)
// bench/ingest.ts can print the same figure: import { benchQueclinkDecode } and log its `median`.
import { median } from '../../bench/stats.ts';
import { isDecodeError } from '../types.ts';
import { decode } from './decoder.ts';

export interface DecodeBench {
  /** Messages per second of CPU time of this process, per repetition. */
  rates: number[];
  median: number;
  messages: number;
  /** Frames the decoder refused (must be 0). */
  errors: number;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
function qTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}${pad(d.getUTCHours(), 2)}${pad(d.getUTCMinutes(), 2)}${pad(d.getUTCSeconds(), 2)}`;
}

/**
 * A fleet's traffic: GV58CG, GV50CG and GV350CEU devices sending mostly GTFRI (one position), with ignition
 * reports, harsh-behaviour and speed events and heartbeats mixed in, as the gateway sees it.
 */
export function benchFrames(count = 100_000): Buffer[] {
  const versions = ['8020030703', '8020080100', '740904'];
  const frames: Buffer[] = [];
  const start = Date.UTC(2026, 10, 1);
  for (let k = 0; k < count; k++) {
    const dev = k % 200;
    const imei = String(864100000000000 + dev);
    const ver = versions[dev % 3]!;
    const t = qTime(start + k * 1000);
    const cnt = (k & 0xffff).toString(16).toUpperCase().padStart(4, '0');
    const lat = (-23.5 - (k % 997) / 10000).toFixed(6), lon = (-46.6 - (k % 991) / 10000).toFixed(6);
    const speed = ((k * 7) % 900 / 10).toFixed(1), course = String((k * 13) % 360), alt = (700 + (k % 50)).toFixed(1);
    const block = `1,${speed},${course},${alt},${lon},${lat},${t},0724,0005,1A2B,00C3F1D2,01,${8 + (k % 5)}`;
    const km = (1000 + k / 100).toFixed(1);
    const r = k % 20;
    let f: string;
    if (r === 0) f = `+ACK:GTHBD,${ver},${imei},,${t},${cnt}$`;
    else if (r === 1) f = `+RESP:GTIGN,${ver},${imei},,${300 + (k % 3000)},${block},00012:34:56,${km},${t},${cnt}$`;
    else if (r === 2) f = `+RESP:GTHBM,${ver},${imei},,12800,20,1,${block},${km},${t},${cnt}$`;
    else if (r === 3) f = `+RESP:GTSPD,${ver},${imei},,12800,00,1,${block},${km},${t},${cnt}$`;
    else f = `+RESP:GTFRI,${ver},${imei},,12600,10,1,${block},${km},00012:34:56,,,,${90 + (k % 10)},220100,,,,${t},${cnt}$`;
    frames.push(Buffer.from(f, 'latin1'));
  }
  return frames;
}

export function benchQueclinkDecode(opts: { reps?: number; messages?: number; frames?: Buffer[] } = {}): DecodeBench {
  const frames = opts.frames ?? benchFrames(opts.messages ?? 100_000);
  const reps = Math.max(1, opts.reps ?? 5);
  for (let w = 0; w < 3; w++) for (const f of frames) decode(f); // warm-up (optimizing compiler)
  const rates: number[] = [];
  let errors = 0;
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    for (const f of frames) if (isDecodeError(decode(f))) errors++;
    const c = process.cpuUsage(c0);
    rates.push(frames.length / ((c.user + c.system) / 1e6));
  }
  return { rates, median: median(rates), messages: frames.length, errors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = benchQueclinkDecode({ reps: Number(process.env.BENCH_REPS ?? 5), messages: Number(process.env.BENCH_MESSAGES ?? 100_000) });
  const fmt = (n: number) => Math.round(n).toLocaleString('pt-BR');
  console.log(`decodificação @Track (1 núcleo, tempo de CPU): ${fmt(r.median)} msg/s (mediana de ${r.rates.map(fmt).join(' / ')}; ${r.messages} mensagens, ${r.errors} com erro)`);
}
