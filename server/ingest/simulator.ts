// Simulated Queclink @Track devices over TCP: vehicles drive along São Paulo streets and send GTIGN,
// GTFRI, GTSPD, GTHBM, GTIGF and +ACK:GTHBD; unacknowledged reports are replayed as +BUFF after a reconnect.
// CLI: npm run simulate -- --devices N --rate R --host H --port P [--serial-base 864000000000000] [--drop-every S]
import net from 'node:net';
import { parseArgs } from 'node:util';
import { bearing, distanceM, STREETS, type Street } from './routes-sp.ts';

const VERSIONS: Record<string, string> = { gv50cg: '8020080102', gv58cg: '8020030100', gv350ceu: '740904' };

const pad2 = (n: number) => String(n).padStart(2, '0');
export function qTime(d: Date): string {
  return `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`;
}
const hex4 = (n: number) => (n & 0xffff).toString(16).toUpperCase().padStart(4, '0');

type Phase = 'parked' | 'driving';

/** One vehicle: a state machine producing @Track frames as simulated time goes by. */
export class QueclinkVehicle {
  readonly version: string;
  private street: Street;
  private seg = 0;
  private segPos = 0; // metres along the current segment
  private forward = true;
  private phase: Phase = 'parked';
  private phaseLeft: number; // seconds until the phase changes
  private speed = 0;
  private target = 0;
  private speeding = false;
  private count = 0;
  private mileageKm: number;
  private engineSeconds = 0;
  private lastTime: number;

  constructor(readonly imei: string, readonly model: keyof typeof VERSIONS = 'gv58cg', seed = Number(imei.slice(-6)), start = Date.now()) {
    this.version = VERSIONS[model]!;
    this.street = STREETS[seed % STREETS.length]!;
    this.seg = seed % (this.street.points.length - 1);
    this.mileageKm = 1000 + (seed % 50_000);
    this.phaseLeft = 5 + (seed % 20);
    this.lastTime = start;
  }

  nextCount(): string { this.count = (this.count + 1) & 0xffff; return hex4(this.count); }

  position(): { lat: number; lon: number; course: number } {
    const pts = this.street.points;
    const a = pts[this.seg]!, b = pts[this.seg + 1]!;
    const len = Math.max(1, distanceM(a, b));
    const f = Math.min(1, this.segPos / len);
    const [from, to] = this.forward ? [a, b] : [b, a];
    const ff = this.forward ? f : f; // position measured from `from`
    return { lat: from[0] + (to[0] - from[0]) * ff, lon: from[1] + (to[1] - from[1]) * ff, course: Math.round(bearing(from, to)) };
  }

  private advance(dtS: number): void {
    const dist = (this.speed / 3.6) * dtS;
    this.mileageKm += dist / 1000;
    this.segPos += dist;
    const pts = this.street.points;
    for (;;) {
      const len = distanceM(pts[this.seg]!, pts[this.seg + 1]!);
      if (this.segPos < len) break;
      this.segPos -= len;
      if (this.forward ? this.seg + 2 < pts.length : this.seg > 0) this.seg += this.forward ? 1 : -1;
      else { this.forward = !this.forward; this.segPos = 0; } // end of street: turn around
    }
  }

  private block(d: Date, p = this.position()): string {
    const acc = 1;
    return [acc, this.speed.toFixed(1), p.course, (740 + (this.seg * 7) % 60).toFixed(1), p.lon.toFixed(6), p.lat.toFixed(6), qTime(d),
      '0724', '0005', '1A2B', '00C3F1D2', '01', String(8 + (this.count % 6))].join(',');
  }

  private status(): string { return this.phase === 'driving' ? (this.speed > 0 ? '220100' : '210100') : '110000'; }

  private resp(kind: string, code: string, body: string, d: Date): string {
    return `+${kind}:${code},${this.version},${this.imei},,${body},${qTime(d)},${this.nextCount()}$`;
  }

  /** Frames the device sends at time `now` (usually one; phase changes add an event report). */
  step(now = Date.now()): string[] {
    const dt = Math.max(0, (now - this.lastTime) / 1000);
    this.lastTime = now;
    const d = new Date(Math.floor(now / 1000) * 1000);
    const out: string[] = [];
    this.phaseLeft -= dt;
    if (this.phase === 'parked') {
      if (this.phaseLeft <= 0) {
        this.phase = 'driving';
        this.phaseLeft = 120 + Math.random() * 480;
        this.speed = 0;
        out.push(this.resp('RESP', 'GTIGN', `${Math.round(300 + Math.random() * 3000)},${this.block(d)},${this.hourMeter()},${this.mileageKm.toFixed(1)}`, d));
        return out;
      }
      // Parked: occasional heartbeat, else a periodic report at rest.
      if (Math.random() < 0.2) out.push(`+ACK:GTHBD,${this.version},${this.imei},,${qTime(d)},${this.nextCount()}$`);
      else out.push(this.fri(d));
      return out;
    }
    // Driving
    this.engineSeconds += dt;
    const limit = this.street.limitKmh;
    if (Math.random() < 0.1) this.target = Math.random() < 0.1 ? 0 : limit * (0.6 + Math.random() * 0.55);
    let harsh = false;
    if (this.speed > 30 && Math.random() < 0.01) { this.speed -= 20; harsh = true; }
    else this.speed = Math.max(0, Math.min(limit * 1.3, this.speed + Math.max(-8, Math.min(8, this.target - this.speed))));
    this.advance(dt);
    if (this.phaseLeft <= 0) {
      this.phase = 'parked';
      this.phaseLeft = 30 + Math.random() * 300;
      this.speed = 0;
      out.push(this.resp('RESP', 'GTIGF', `${Math.round(this.engineSeconds)},${this.block(d)},${this.hourMeter()},${this.mileageKm.toFixed(1)}`, d));
      return out;
    }
    if (harsh) {
      out.push(this.resp('RESP', 'GTHBM', `12800,20,1,${this.block(d)},${this.mileageKm.toFixed(1)}`, d)); // harsh braking
    } else if (!this.speeding && this.speed > limit + 5) {
      this.speeding = true;
      out.push(this.resp('RESP', 'GTSPD', `12800,00,1,${this.block(d)},${this.mileageKm.toFixed(1)}`, d));
    } else if (this.speeding && this.speed <= limit) {
      this.speeding = false;
      out.push(this.resp('RESP', 'GTSPD', `12800,01,1,${this.block(d)},${this.mileageKm.toFixed(1)}`, d));
    } else out.push(this.fri(d));
    return out;
  }

  private hourMeter(): string {
    const s = Math.round(this.engineSeconds);
    return `${String(Math.floor(s / 3600)).padStart(5, '0')}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
  }

  /** GTFRI with the @Track field layout (one position). */
  fri(d: Date, kind: 'RESP' | 'BUFF' = 'RESP'): string {
    const power = this.phase === 'driving' ? 13800 : 12600;
    return this.resp(kind, 'GTFRI', `${power},10,1,${this.block(d)},${this.mileageKm.toFixed(1)},${this.hourMeter()},,,,${90 + (this.count % 10)},${this.status()},,,`, d);
  }

  /** Answer to a command frame (AT+GTxxx=pwd,...,serial$) → +ACK. */
  ackFor(cmd: string, now = Date.now()): string | null {
    const m = /^AT\+(GT[A-Z]{3})=(.*)\$$/.exec(cmd.trim());
    if (!m) return null;
    const f = m[2]!.split(',');
    const serial = f[f.length - 1]!;
    const sub = m[1] === 'GTRTO' ? (f[1] ?? '') : '';
    return `+ACK:${m[1]},${this.version},${this.imei},,${sub ? `${sub},` : ''}${serial},${qTime(new Date(now))},${this.nextCount()}$`;
  }
}

export interface SimulationOptions {
  devices?: number;
  rate?: number;            // messages per second per device
  host?: string;
  port: number;
  serialBase?: string;      // first IMEI (15 digits)
  serials?: string[];       // explicit IMEIs (overrides devices/serialBase)
  model?: 'gv50cg' | 'gv58cg' | 'gv350ceu';
  dropEverySeconds?: number; // drop each connection now and then (then replay +BUFF)
  log?: (msg: string) => void;
}

export interface Simulation { stop(): Promise<void>; stats: { sent: number; acked: number; buffered: number; reconnects: number } }

/** Runs N simulated devices until stop(). */
export function simulate(o: SimulationOptions): Simulation {
  const host = o.host ?? '127.0.0.1';
  const rate = o.rate ?? 1;
  const serials = o.serials ?? Array.from({ length: o.devices ?? 1 }, (_, i) => (BigInt(o.serialBase ?? '864000000000000') + BigInt(i)).toString().padStart(15, '0'));
  const stats = { sent: 0, acked: 0, buffered: 0, reconnects: 0 };
  let stopped = false;
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const models = ['gv58cg', 'gv50cg', 'gv350ceu'] as const;

  serials.forEach((imei, idx) => {
    const v = new QueclinkVehicle(imei, o.model ?? models[idx % 3]!);
    const unacked = new Map<string, string>(); // count → frame
    let sock: net.Socket | null = null;
    let connected = false;
    let rx = '';
    const connect = () => {
      if (stopped) return;
      const s = net.connect(o.port, host);
      sock = s;
      sockets.add(s);
      s.setNoDelay(true);
      s.on('connect', () => {
        connected = true;
        // Replay what was not acknowledged, as the device does from its buffer.
        for (const f of unacked.values()) { s.write(f.replace(/^\+RESP:/, '+BUFF:')); stats.buffered++; }
        if (o.dropEverySeconds) {
          const t = setTimeout(() => { timers.delete(t); s.destroy(); }, o.dropEverySeconds * 1000 * (0.5 + Math.random()));
          timers.add(t);
        }
      });
      s.on('data', (d) => {
        rx += d.toString('latin1');
        let i: number;
        while ((i = rx.indexOf('$')) >= 0) {
          const msg = rx.slice(0, i + 1); rx = rx.slice(i + 1);
          const sack = /^\+SACK:(?:GTHBD,[0-9A-F]+,)?([0-9A-F]{4})\$$/.exec(msg.trim());
          if (sack) { if (unacked.delete(sack[1]!)) stats.acked++; continue; }
          const ack = v.ackFor(msg);
          if (ack) s.write(ack);
        }
      });
      s.on('error', () => {});
      s.on('close', () => {
        connected = false; sockets.delete(s);
        if (!stopped) { stats.reconnects++; const t = setTimeout(() => { timers.delete(t); connect(); }, 500 + Math.random() * 1500); timers.add(t); }
      });
    };
    connect();
    const period = 1000 / rate;
    // Fix times have 1 s resolution: above 1 msg/s the device clock runs ahead (1 s per message).
    let clock = Date.now();
    const tick = () => {
      if (stopped) return;
      clock = rate > 1 ? clock + 1000 : Date.now();
      for (const f of v.step(clock)) {
        const count = f.slice(-5, -1);
        if (!f.startsWith('+ACK:')) unacked.set(count, f);
        if (unacked.size > 5000) unacked.delete(unacked.keys().next().value!); // device buffer is bounded
        if (connected && sock) { sock.write(f); stats.sent++; }
      }
      const t = setTimeout(() => { timers.delete(t); tick(); }, period * (0.9 + Math.random() * 0.2));
      timers.add(t);
    };
    const t0 = setTimeout(() => { timers.delete(t0); tick(); }, Math.random() * period);
    timers.add(t0);
  });

  return {
    stats,
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
    },
  };
}

/**
 * Demo: registers one simulated Queclink device per seeded ativo (equipamento + equipamento_ativo, when
 * missing) and drives them against the gateway. Answers the simulation (stop() ends it).
 */
export async function startDemoSimulation(opts: { databaseUrl: string; port: number; host?: string; rate?: number; maxDevices?: number }): Promise<Simulation> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  const serials: string[] = [];
  try {
    const { rows } = await client.query<{ id: number; empresa_id: number }>(`SELECT id, empresa_id FROM ativo ORDER BY id LIMIT $1`, [opts.maxDevices ?? 50]);
    const models = ['gv58cg', 'gv50cg', 'gv350ceu'];
    for (const a of rows) {
      const serial = `86400${String(a.id).padStart(10, '0')}`;
      serials.push(serial);
      await client.query(
        `INSERT INTO equipamento (empresa_id, serial, tecnologia, modelo, firmware, ativado, created_at, updated_at)
         SELECT $1::int, $2::text, 'queclink', $3::text, 'simulador', true, now(), now()
          WHERE NOT EXISTS (SELECT 1 FROM equipamento WHERE serial = $2::text)`, [a.empresa_id, serial, models[a.id % 3]]);
      await client.query(
        `INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at)
         SELECT $1::int, $2::text, $3::int, now() - interval '1 minute', now(), now()
          WHERE NOT EXISTS (SELECT 1 FROM equipamento_ativo WHERE serial = $2::text AND data_fim IS NULL)`, [a.empresa_id, serial, a.id]);
    }
  } finally {
    await client.end();
  }
  return simulate({ serials, rate: opts.rate ?? 0.2, host: opts.host ?? '127.0.0.1', port: opts.port });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '10' }, rate: { type: 'string', default: '1' },
      host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string', default: process.env.QUECLINK_TCP_PORT ?? '5001' },
      'serial-base': { type: 'string', default: '864000000000000' }, 'drop-every': { type: 'string' },
      model: { type: 'string' },
    },
  });
  const sim = simulate({
    devices: Number(values.devices), rate: Number(values.rate), host: values.host, port: Number(values.port),
    serialBase: values['serial-base'], dropEverySeconds: values['drop-every'] ? Number(values['drop-every']) : undefined,
    model: values.model as SimulationOptions['model'],
  });
  console.log(`Simulando ${values.devices} equipamento(s) a ${values.rate} msg/s cada → ${values.host}:${values.port}`);
  const t = setInterval(() => console.log(`enviadas=${sim.stats.sent} confirmadas=${sim.stats.acked} reenviadas(+BUFF)=${sim.stats.buffered} reconexões=${sim.stats.reconnects}`), 5000);
  const end = () => { clearInterval(t); void sim.stop().then(() => process.exit(0)); };
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
