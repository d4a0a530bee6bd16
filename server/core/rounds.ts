// The ingest modules' work queue (fences, trips, passengers): items handled in rounds, one round at a time, in
// arrival order — what arrives while a round runs makes the next round. A round that throws is logged and the queue
// goes on. drain() waits until nothing is queued or running; stop() drains, then refuses new items.
export class Rounds<T> {
  private pending: T[] = [];
  private running: Promise<void> | null = null;
  private waiters: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly handle: (items: T[]) => Promise<void>, private readonly onError: (err: Error) => void) {}

  /** Queues the items `keep` accepts (all without it): one pass, no array of its own (the gateway calls it per batch). */
  push(items: Iterable<T>, keep?: (item: T) => unknown): void {
    if (this.stopped) return;
    for (const i of items) if (!keep || keep(i)) this.pending.push(i);
    this.kick();
  }

  drain(): Promise<void> {
    if (!this.running && !this.pending.length) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }

  async stop(): Promise<void> {
    await this.drain();
    this.stopped = true;
  }

  private kick(): void {
    if (this.running || !this.pending.length) { if (!this.running) this.wake(); return; }
    this.running = (async () => {
      while (this.pending.length && !this.stopped) {
        const work = this.pending;
        this.pending = [];
        try { await this.handle(work); } catch (err) { this.onError(err as Error); }
      }
    })().finally(() => { this.running = null; this.kick(); });
  }

  private wake(): void {
    const w = this.waiters; this.waiters = [];
    for (const f of w) f();
  }
}

/** Items grouped by serial, each serial's in arrival order (serials in order of first arrival). */
export function bySerial<T extends { serial: string }>(items: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const f of items) { const l = out.get(f.serial); if (l) l.push(f); else out.set(f.serial, [f]); }
  return out;
}
