// A simulated Queclink device for tests: sends @Track reports over TCP, keeps what was not acknowledged
// (+SACK:{count}$) like the device's buffer, and can replay it as +BUFF on the same connection.
import net from 'node:net';
import { QueclinkVehicle } from '../simulator.ts';

export class QueclinkTestDevice {
  readonly vehicle: QueclinkVehicle;
  /** count → frame, sent and not yet acknowledged. */
  readonly unacked = new Map<string, string>();
  /** Every report sent (first sending, not the +BUFF replays): count → frame. */
  readonly sent = new Map<string, string>();
  /** Counts acknowledged, in order of arrival (a replay acknowledged again appears twice). */
  readonly acks: string[] = [];
  buffered = 0;
  closed = false;
  private rx = '';

  private constructor(readonly socket: net.Socket, readonly imei: string, start: number) {
    this.vehicle = new QueclinkVehicle(imei, 'gv58cg', Number(imei.slice(-6)), start);
    socket.setNoDelay(true);
    socket.on('data', (d) => {
      this.rx += d.toString('latin1');
      let i: number;
      while ((i = this.rx.indexOf('$')) >= 0) {
        const msg = this.rx.slice(0, i + 1);
        this.rx = this.rx.slice(i + 1);
        const m = /^\+SACK:(?:GTHBD,[0-9A-F]+,)?([0-9A-F]{4})\$$/.exec(msg.trim());
        if (m) { this.acks.push(m[1]!); this.unacked.delete(m[1]!); }
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => { this.closed = true; });
  }

  static connect(port: number, imei: string, start: number, host = '127.0.0.1'): Promise<QueclinkTestDevice> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, host, () => resolve(new QueclinkTestDevice(s, imei, start)));
      s.once('error', reject);
    });
  }

  /** The reports of simulated time `t` (heartbeats left out: they carry no position); answers how many were sent. */
  step(t: number): number {
    let n = 0;
    for (const f of this.vehicle.step(t)) {
      if (f.startsWith('+ACK:')) continue;
      const count = f.slice(-5, -1);
      this.sent.set(count, f);
      this.unacked.set(count, f);
      this.socket.write(f);
      n++;
    }
    return n;
  }

  /** Replays every unacknowledged report as +BUFF (what the device does from its buffer). */
  replay(): number {
    let n = 0;
    for (const f of this.unacked.values()) { this.socket.write(f.replace(/^\+RESP:/, '+BUFF:')); n++; }
    this.buffered += n;
    return n;
  }

  close(): void { this.socket.destroy(); }
}
