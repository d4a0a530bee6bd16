// Device side of bench/load.ts: `count` simulated @Track trackers from serial `first`, each on its own persistent TCP
// connection (from 100 loopback source addresses), reporting its position every `period` seconds in real time. A
// device reports at the start of a whole second (the @Track time has whole seconds), the fleet spread evenly over
// the period. Measures each report's acknowledgement (+SACK, sent by the gateway after the commit).
// Parent → { report: true } answers { connected, sent, acked, closed, errors, ackMs[] } (ackMs since the last report).
import net from 'node:net';
import { QueclinkVehicle } from '../server/ingest/simulator.ts';

const [port, first, count, period] = process.argv.slice(2).map(Number) as [number, number, number, number];
let connected = 0, sent = 0, acked = 0, closed = 0;
const errors: Record<string, number> = {};
let ackMs: number[] = [];

interface Dev { v: QueclinkVehicle; s: net.Socket; inFlight: number[] }
const devs: Dev[] = [];

await new Promise<void>((resolve) => {
  let next = 0, pending = 0;
  const open = () => {
    while (pending < 100 && next < count) {
      const d = next++;
      pending++;
      const v = new QueclinkVehicle(String(first + d), 'gv58cg', first + d, Date.now() - 60_000);
      const s = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.1.${1 + (d % 100)}` }, () => {
        pending--; connected++;
        // a tracker reports as soon as it connects (the gateway closes a connection that stays silent)
        const sec = Math.floor(Date.now() / 1000);
        v.step(sec * 1000);
        dev.inFlight.push(performance.now());
        s.write(v.fri(new Date(sec * 1000)));
        sent++;
        if (connected === count) resolve();
        open();
      });
      const dev: Dev = { v, s, inFlight: [] };
      s.setNoDelay(true);
      s.on('data', (b) => {
        for (const c of b) if (c === 0x24) { acked++; const t = dev.inFlight.shift(); if (t !== undefined) ackMs.push(performance.now() - t); }
      });
      s.on('error', (e: NodeJS.ErrnoException) => { errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1; });
      s.on('close', () => { closed++; });
      devs[d] = dev;
    }
  };
  open();
});
process.send!({ connected: true });

// Each second, the devices whose turn it is (d % period) send one report timed at that whole second.
const tick = () => {
  const now = Date.now();
  const sec = Math.floor(now / 1000);
  for (let d = sec % period; d < count; d += period) {
    const dev = devs[d]!;
    if (dev.s.destroyed) continue;
    dev.v.step(sec * 1000);
    dev.inFlight.push(performance.now());
    dev.s.write(dev.v.fri(new Date(sec * 1000)));
    sent++;
  }
  setTimeout(tick, 1000 - (Date.now() % 1000) + 2);
};
setTimeout(tick, 1000 - (Date.now() % 1000) + 2);

process.on('message', (m: { report?: boolean; stop?: boolean }) => {
  if (m.report) { process.send!({ connected, sent, acked, closed, errors, ackMs }); ackMs = []; }
  if (m.stop) { for (const d of devs) d.s.destroy(); process.exit(0); }
});
