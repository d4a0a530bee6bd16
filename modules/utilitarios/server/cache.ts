// A small in-memory cache with a time to live and a size cap (oldest entry out first), for the adapters' answers.
export class TtlCache<V> {
  private map = new Map<string, { v: V; at: number }>();
  constructor(private ttlMs: number, private max = 5000, private now = () => Date.now()) {}
  get(k: string): V | undefined {
    const e = this.map.get(k);
    if (!e) return undefined;
    if (this.now() - e.at > this.ttlMs) { this.map.delete(k); return undefined; }
    return e.v;
  }
  set(k: string, v: V): void {
    this.map.delete(k);
    this.map.set(k, { v, at: this.now() });
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  get size() { return this.map.size; }
  clear() { this.map.clear(); }
}

/** A provider URL template: {x} replaced by the (already validated) value; without {x} the value is appended as a path segment. */
export function fillUrl(template: string, name: string, value: string): string {
  const slot = `{${name}}`;
  if (template.includes(slot)) return template.replaceAll(slot, encodeURIComponent(value));
  return `${template.replace(/\/+$/, '')}/${encodeURIComponent(value)}`;
}
