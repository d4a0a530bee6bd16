// The address cache (telemetria.endereco: per company and point rounded to 3 decimals, ~110 m) and its resolver,
// run outside requests (system role). No timer: it is woken by the latest-state bus (server/realtime/bus.ts, heard by
// every API process) for the serials written, and by the points asked for (enqueue); a full pass runs at start. It
// writes the nearest municipality at once and, with a provider, asks it (rate-limited) and replaces the municipality
// with its answer. Several API processes share the work through the cache rows: a point is asked of the provider by
// the process whose INSERT created its row, or that claimed its retry (atualizado_em older than RETRY_MS) — never twice.
import { companySql, qParams, sameCompany } from '../../../server/tenancy/scope.ts';
import { addressKeySql } from '../../../server/core/addresses.ts';
import type { Endereco, Geocoder } from './adapter.ts';
import { offlineAddress } from './adapter.ts';

export type Exec = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The cache key of a point in SQL (the lists' computed columns write the same expression). */
const keySql = addressKeySql;

const RETRY_MS = 10 * 60_000;

export interface Point { empresa: number; lat: number; lon: number }

export class Resolver {
  private pending = new Map<string, Point>();
  private failed = new Map<string, number>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Serials the bus named since the last pass (null: a full pass is due). */
  private serials: Set<string> | null = new Set();
  private wake: () => void = () => undefined;

  constructor(private exec: Exec, readonly geocoder: Geocoder, private log?: { error: (o: object, m: string) => void }) {}

  /** Remembers a point to resolve on the next tick (bounded: the oldest are dropped). */
  enqueue(p: Point): void {
    if (!Number.isFinite(p.lat) || !Number.isFinite(p.lon)) return;
    const k = `${p.empresa}|${Math.round(p.lat * 1000)}|${Math.round(p.lon * 1000)}`;
    if (this.pending.size >= 1000) this.pending.delete(this.pending.keys().next().value!);
    this.pending.set(k, p);
    this.wake();
  }

  /** The bus named these serials (null: anything of a company). */
  written(serials: string[] | null): void {
    if (!serials) this.serials = null;
    else if (this.serials) {
      for (const s of serials) this.serials.add(s);
      if (this.serials.size > 5000) this.serials = null;
    }
    this.wake();
  }

  /** The company's cached address of a point, if any. */
  async cached(p: Point): Promise<Endereco | undefined> {
    const q = qParams();
    const rows = await this.exec(
      `SELECT g.endereco, g.fonte FROM telemetria.endereco g
        WHERE (g.lat_key, g.lon_key) = (${keySql(q.add(p.lat), q.add(p.lon))}) AND ${companySql('g', p.empresa, q)}`, q.values);
    return rows[0] ? { endereco: String(rows[0].endereco), fonte: rows[0].fonte as Endereco['fonte'] } : undefined;
  }

  private async store(p: Point, e: Endereco): Promise<void> {
    const q = qParams();
    await this.exec(
      `INSERT INTO telemetria.endereco (empresa_id, lat_key, lon_key, endereco, fonte)
       VALUES (${q.add(p.empresa)}, ${keySql(q.add(p.lat), q.add(p.lon))}, ${q.add(e.endereco)}, ${q.add(e.fonte)})
       ON CONFLICT (empresa_id, lat_key, lon_key) DO UPDATE SET endereco = excluded.endereco, fonte = excluded.fonte, atualizado_em = now()`, q.values);
  }

  /** The address of a point for a company: its cache; else another company's provider answer for the same point
   *  (no second request); else the provider (rate-limited) or the municipality. Written to the cache. */
  async resolve(p: Point): Promise<Endereco> {
    const own = await this.cached(p);
    if (own && (own.fonte === 'provedor' || !this.geocoder.online)) return own;
    const q = qParams();
    const shared = await this.exec(
      `SELECT g.endereco FROM telemetria.endereco g
        WHERE (g.lat_key, g.lon_key) = (${keySql(q.add(p.lat), q.add(p.lon))}) AND g.fonte = 'provedor' LIMIT 1`, q.values);
    const k = `${Math.round(p.lat * 1000)}|${Math.round(p.lon * 1000)}`;
    let e: Endereco;
    if (shared[0]) e = { endereco: String(shared[0].endereco), fonte: 'provedor' };
    else if (own && (this.failed.get(k) ?? 0) > Date.now() - RETRY_MS) return own;
    else {
      e = await this.geocoder.reverse(p.lat, p.lon);
      if (e.fonte !== 'provedor' && this.geocoder.online) this.failed.set(k, Date.now());
    }
    if (!own || own.endereco !== e.endereco || own.fonte !== e.fonte) await this.store(p, e);
    return e;
  }

  /** Whether this process is the one to ask the provider for a point: it created the point's row now (the
   *  municipality), or claimed a retry of a municipality older than RETRY_MS. */
  private async claim(p: Point): Promise<boolean> {
    const q = qParams();
    const made = await this.exec(
      `INSERT INTO telemetria.endereco (empresa_id, lat_key, lon_key, endereco, fonte)
       VALUES (${q.add(p.empresa)}, ${keySql(q.add(p.lat), q.add(p.lon))}, ${q.add(offlineAddress(p.lat, p.lon).endereco)}, 'municipio')
       ON CONFLICT (empresa_id, lat_key, lon_key) DO NOTHING RETURNING 1 AS ok`, q.values);
    if (made.length || !this.geocoder.online) return made.length > 0;
    const r = qParams();
    const retry = await this.exec(
      `UPDATE telemetria.endereco g SET atualizado_em = now()
        WHERE (g.lat_key, g.lon_key) = (${keySql(r.add(p.lat), r.add(p.lon))}) AND ${companySql('g', p.empresa, r)}
          AND g.fonte = 'municipio' AND g.atualizado_em < now() - make_interval(secs => ${r.add(RETRY_MS / 1000)})
        RETURNING 1 AS ok`, r.values);
    return retry.length > 0;
  }

  /** One pass over the latest positions without an address (or with the municipality only, when a provider is set) —
   *  of the serials given, or all (null) — and the points enqueued: the municipality first for all (cheap), then the
   *  provider one by one for the points this process claimed. */
  async tick(serials: string[] | null = null): Promise<void> {
    const q = qParams();
    const only = serials ? `AND u.serial IN (SELECT jsonb_array_elements_text(${q.add(JSON.stringify(serials))}::jsonb))` : '';
    const rows = serials?.length === 0 ? [] : await this.exec(
      `SELECT DISTINCT u.empresa_id AS empresa, u.lat, u.lon, g.fonte FROM telemetria.ultimo_estado u
         LEFT JOIN telemetria.endereco g ON ${sameCompany('g', 'u')} AND (g.lat_key, g.lon_key) = (${keySql('u.lat', 'u.lon')})
        WHERE u.empresa_id IS NOT NULL AND u.lat IS NOT NULL AND u.lon IS NOT NULL ${only}
          AND (g.fonte IS NULL OR (${q.add(this.geocoder.online)} AND g.fonte = 'municipio'))
        LIMIT 500`, q.values);
    const points: Point[] = rows.map((r) => ({ empresa: Number(r.empresa), lat: Number(r.lat), lon: Number(r.lon) }));
    points.push(...this.pending.values());
    this.pending.clear();
    const mine: Point[] = [];
    for (const p of points) if (await this.claim(p)) mine.push(p);
    if (this.geocoder.online) for (const p of mine) { if (this.stopped) return; await this.resolve(p); }
  }

  /** A full pass now, then a pass whenever the bus names serials or a point is enqueued (at most one per `ms`, one at
   *  a time) until stop(). */
  start(onEstado: (fn: (m: { serials: string[] | null }) => void) => () => void, ms: number): { stop: () => Promise<void> } {
    let last = 0;
    const run = () => {
      this.timer = undefined;
      if (this.stopped) return;
      if (this.running) { this.wake(); return; }
      const serials = this.serials;
      this.serials = new Set();
      if (serials?.size === 0 && !this.pending.size) return;
      last = Date.now();
      this.running = this.tick(serials && [...serials]).catch((err) => this.log?.error({ err }, 'geocodificação: falha ao resolver endereços'))
        .finally(() => { this.running = undefined; });
    };
    this.wake = () => {
      if (this.timer || this.stopped) return;
      this.timer = setTimeout(run, Math.max(50, last + ms - Date.now()));
      this.timer.unref();
    };
    const off = onEstado((m) => this.written(m.serials));
    this.serials = null;
    run();
    return { stop: async () => { this.stopped = true; off(); clearTimeout(this.timer); await this.running; } };
  }
}
