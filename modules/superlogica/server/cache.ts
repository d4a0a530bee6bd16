// A small time-to-live cache with a size cap (oldest out first) for the adapter's answers.
export class TtlCacheLite<V> {
  private map = new Map<string, { v: V; at: number }>();
  constructor(private ttlMs: number, private max = 500) {}
  get(k: string): V | undefined {
    const e = this.map.get(k);
    if (!e) return undefined;
    if (Date.now() - e.at > this.ttlMs) { this.map.delete(k); return undefined; }
    return e.v;
  }
  set(k: string, v: V): void {
    this.map.delete(k);
    this.map.set(k, { v, at: Date.now() });
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
}
