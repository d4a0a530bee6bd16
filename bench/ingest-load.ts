// Load generator of bench/ingest.ts (a separate process, so it has its own core): N Queclink devices over
// TCP send pre-generated @Track frames as fast as TCP allows and count the +SACK acknowledgements.
import net from 'node:net';
import { QueclinkVehicle } from '../server/ingest/simulator.ts';

const [port, devices, perDevice, serialBase] = process.argv.slice(2).map(Number) as [number, number, number, number];
const MODELS = ['gv58cg', 'gv50cg', 'gv350ceu'] as const;
const start = Date.UTC(2026, 10, 1);

// Pre-generate frames (device clock: 1 s per message).
const frames: string[][] = [];
let withPosition = 0;
for (let d = 0; d < devices; d++) {
  const v = new QueclinkVehicle(String(serialBase + d), MODELS[d % 3], d, start);
  const list: string[] = [];
  for (let i = 0; list.length < perDevice; i++) for (const f of v.step(start + (i + 1) * 1000)) if (list.length < perDevice) list.push(f);
  for (const f of list) if (!f.startsWith('+ACK:GTHBD')) withPosition++;
  frames.push(list);
}
process.send!({ ready: true, withPosition, total: devices * perDevice, sample: frames[0]!.slice(0, 3) });

const socks: net.Socket[] = [];
let connected = 0, acks = 0;
const total = devices * perDevice;
for (let d = 0; d < devices; d++) {
  const s = net.connect(port, '127.0.0.1', () => { if (++connected === devices) process.send!({ connected: true }); });
  s.setNoDelay(true);
  s.on('data', (b) => {
    for (const c of b) if (c === 0x24) acks++;
    if (acks >= total) { const u = process.cpuUsage(cpuStart); process.send!({ done: true, acks, cpu: (u.user + u.system) / 1e6 }); }
  });
  s.on('error', (e) => process.send!({ error: e.message }));
  socks.push(s);
}

let cpuStart: NodeJS.CpuUsage | undefined;
process.on('message', (m: { go?: boolean; chunk?: number }) => {
  if (!m.go) return;
  cpuStart = process.cpuUsage();
  const chunk = m.chunk ?? 10;
  // Round-robin over devices, `chunk` frames per write, yielding between rounds.
  let round = 0;
  const send = () => {
    let any = false;
    for (let d = 0; d < devices; d++) {
      const list = frames[d]!;
      const from = round * chunk;
      if (from >= list.length) continue;
      any = true;
      socks[d]!.write(list.slice(from, from + chunk).join(''));
    }
    round++;
    if (any) setImmediate(send);
  };
  send();
});
