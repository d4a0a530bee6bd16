// Load generator of bench/ingest.ts (a separate process, so it has its own core): N Queclink devices over
// TCP send pre-generated @Track frames as fast as TCP allows and count the +SACK acknowledgements.
// Parent → { go: true, perDevice?, chunk? } runs one pass (the first perDevice frames of every device);
// child → { done: true, acks, withPosition, cpu } when every frame of the pass is acknowledged. Passes may repeat.
import net from 'node:net';
import { QueclinkVehicle } from '../server/ingest/simulator.ts';

const [port, devices, perDevice, serialBase] = process.argv.slice(2).map(Number) as [number, number, number, number];
const MODELS = ['gv58cg', 'gv50cg', 'gv350ceu'] as const;
const start = Date.UTC(2026, 10, 1);

// Pre-generate frames (device clock: 1 s per message).
const frames: string[][] = [];
const withPos: boolean[][] = [];
for (let d = 0; d < devices; d++) {
  const v = new QueclinkVehicle(String(serialBase + d), MODELS[d % 3], d, start);
  const list: string[] = [];
  for (let i = 0; list.length < perDevice; i++) for (const f of v.step(start + (i + 1) * 1000)) if (list.length < perDevice) list.push(f);
  frames.push(list);
  withPos.push(list.map((f) => !f.startsWith('+ACK:GTHBD')));
}
/** Messages and messages with a position among the first n frames of every device. */
const counts = (n: number) => {
  let withPosition = 0;
  for (const w of withPos) for (let i = 0; i < n && i < w.length; i++) if (w[i]) withPosition++;
  return { total: devices * Math.min(n, perDevice), withPosition };
};
process.send!({ ready: true, ...counts(perDevice), sample: frames[0]!.slice(0, 3) });

const socks: net.Socket[] = [];
let connected = 0, acks = 0, expected = Infinity, withPosition = 0;
let cpuStart: NodeJS.CpuUsage | undefined;
for (let d = 0; d < devices; d++) {
  const s = net.connect(port, '127.0.0.1', () => { if (++connected === devices) process.send!({ connected: true }); });
  s.setNoDelay(true);
  s.on('data', (b) => {
    for (const c of b) if (c === 0x24) acks++;
    if (acks >= expected) {
      expected = Infinity;
      const u = process.cpuUsage(cpuStart);
      process.send!({ done: true, acks, withPosition, cpu: (u.user + u.system) / 1e6 });
    }
  });
  s.on('error', (e) => process.send!({ error: e.message }));
  socks.push(s);
}

process.on('message', (m: { go?: boolean; chunk?: number; perDevice?: number }) => {
  if (!m.go) return;
  const n = Math.min(m.perDevice ?? perDevice, perDevice);
  acks = 0;
  expected = devices * n;
  withPosition = counts(n).withPosition;
  cpuStart = process.cpuUsage();
  const chunk = m.chunk ?? 10;
  // Round-robin over devices, `chunk` frames per write, yielding between rounds.
  let round = 0;
  const send = () => {
    let any = false;
    for (let d = 0; d < devices; d++) {
      const from = round * chunk;
      if (from >= n) continue;
      any = true;
      socks[d]!.write(frames[d]!.slice(from, Math.min(from + chunk, n)).join(''));
    }
    round++;
    if (any) setImmediate(send);
  };
  send();
});
