// A fake device over TCP for tests: sends raw bytes, records what the gateway answers.
import net from 'node:net';

export class FakeDevice {
  received = '';
  private waiters: { re: RegExp | string; resolve: () => void }[] = [];
  constructor(readonly socket: net.Socket) {
    socket.on('data', (d) => {
      this.received += d.toString('latin1');
      this.waiters = this.waiters.filter((w) => (this.has(w.re) ? (w.resolve(), false) : true));
    });
  }
  static connect(port: number, host = '127.0.0.1'): Promise<FakeDevice> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, host, () => resolve(new FakeDevice(s)));
      s.once('error', reject);
    });
  }
  has(re: RegExp | string): boolean { return typeof re === 'string' ? this.received.includes(re) : re.test(this.received); }
  count(s: string): number { return this.received.split(s).length - 1; }
  send(data: string | Buffer): Promise<void> { return new Promise((r) => this.socket.write(data, () => r())); }
  waitFor(re: RegExp | string, timeoutMs = 10_000): Promise<void> {
    if (this.has(re)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timeout esperando ${re}; recebido: ${this.received.slice(-300)}`)), timeoutMs);
      this.waiters.push({ re, resolve: () => { clearTimeout(t); resolve(); } });
    });
  }
  close(): void { this.socket.destroy(); }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(fn: () => Promise<boolean> | boolean, timeoutMs = 10_000, stepMs = 50): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) { if (await fn()) return; await sleep(stepMs); }
  throw new Error('condição não atingida no tempo');
}
