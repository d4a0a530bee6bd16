// Device side of bench/connections.ts (one of several processes, each with its own file descriptors): `count`
// simulated Queclink devices from `first`, each with one persistent TCP connection from one of 100 loopback source
// addresses (connects paced: at most 100 pending), sending its first report at once, then a report (and every other
// time a heartbeat) every `period` seconds, spread evenly. Counts the +SACK answers ('$' per frame).
// Parent → { report: true } asks for { connected, sent, acked, refused, closed }.
import net from 'node:net';
import { QueclinkVehicle, qTime } from '../server/ingest/simulator.ts';

const [port, first, count, period] = process.argv.slice(2).map(Number) as [number, number, number, number];
let connected = 0, sent = 0, acked = 0, refused = 0, closed = 0, pending = 0, next = 0;
const errors: Record<string, number> = {};
const clock = Date.UTC(2026, 10, 1);
const socks: net.Socket[] = [];
const vehicles: QueclinkVehicle[] = [];
const ticks: number[] = [];

/** The device's next frames: its simulator's report for the next minute, and a heartbeat every other time. */
function frames(d: number): string {
  const v = vehicles[d]!;
  const t = clock + (++ticks[d]!) * period * 1000;
  let out = '';
  for (let s = 0; s < 60 && !out; s++) out = v.step(t + s * 1000).filter((f) => !f.startsWith('+ACK:GTHBD')).join('');
  const n = out.split('$').length - 1;
  if (ticks[d]! % 2 === 0) { out += `+ACK:GTHBD,${v.version},${first + d},,${qTime(new Date(t))},${(ticks[d]! % 0xffff).toString(16).toUpperCase().padStart(4, '0')}$`; sent++; }
  sent += n;
  return out;
}

function open(): void {
  while (pending < 100 && next < count) {
    const d = next++;
    pending++;
    vehicles[d] = new QueclinkVehicle(String(first + d), 'gv58cg', first + d, clock);
    ticks[d] = 0;
    const s = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.1.${1 + (d % 100)}` }, () => {
      pending--; connected++;
      s.write(frames(d));
      if (connected === count) process.send!({ connected: true });
      open();
    });
    s.setNoDelay(true);
    s.on('data', (b) => { for (const c of b) if (c === 0x24) acked++; });
    s.on('error', (e: NodeJS.ErrnoException) => { refused++; errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1; });
    s.on('close', () => { closed++; });
    socks[d] = s;
  }
}
open();

// Steady state: each device reports once per period, the devices spread evenly over it.
let cursor = 0;
const slice = 100; // ms
setInterval(() => {
  if (connected < count) return;
  const per = Math.ceil(count / (period * 1000 / slice));
  for (let i = 0; i < per; i++) {
    const d = cursor++ % count;
    if (!socks[d]!.destroyed) socks[d]!.write(frames(d));
  }
}, slice);

process.on('message', (m: { report?: boolean; stop?: boolean }) => {
  if (m.report) process.send!({ connected, sent, acked, refused, closed, errors });
  if (m.stop) { for (const s of socks) s.destroy(); process.exit(0); }
});
