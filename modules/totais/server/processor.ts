// Daily totals as positions are stored: the gateway hands each committed batch here (after the trip detector,
// ingest.ts `after`); the asset-days it touches are queued and re-aggregated from the stored rows by one set-based
// statement per round (sql.ts), under a per-asset lock. Rounds coalesce: while one runs, or for TOTAIS_INTERVALO_MS
// after it started, new keys only join the queue. A fix at t touches the local days of [t - maxGap, t + maxGap]
// (a step across midnight changes both days). Late, buffered or out-of-order fixes and fixes stored by another
// gateway process need nothing special: a key whose new fixes all come after where its asset-day stands (same main
// device) only adds their steps (SQL_TOTAIS_INCREMENTAL: reads the positions after that point); any other is
// re-aggregated from every stored row of its asset-day (SQL_TOTAIS). Each key is counted once more
// TOTAIS_REPASSE_MS after its last round (incremental, cheap: the trips the detector closed meanwhile).
import type pg from 'pg';
import type { IngestFix, IngestLog } from '../../../server/core/ingest.ts';
import { dataLocalCache, fusoHorario } from '../../../server/core/fuso-horario.ts';
import { MAX_GAP_S, SQL_ESTADO, SQL_LOCK, SQL_TOTAIS, SQL_TOTAIS_INCREMENTAL } from './sql.ts';

const envMs = (name: string, dflt: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 && process.env[name] !== '' ? v : dflt;
};

export interface TotaisOptions {
  /** Minimum time between the starts of two rounds (ms). */
  intervalMs?: number;
  /** A key is aggregated once more this long after its last round (ms); 0: never. */
  settleMs?: number;
  /** Asset-days per statement. */
  chunk?: number;
  tz?: string;
}

/** What a round knows of a key's new fixes: the oldest time and the device (null: several). */
interface Touch { minT: number; serial: string | null }

export class TotaisProcessor {
  private pending = new Map<string, Touch>();
  /** Keys to count again at a time: a re-pass (incremental) or a retry after a failure (full). */
  private settle = new Map<string, { due: number; full: boolean }>();
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastStart = 0;
  private waiters: (() => void)[] = [];
  private flushNow = false;
  private stopped = false;
  private readonly day: (ms: number) => string;
  readonly opts: Required<TotaisOptions>;
  /** Rounds and asset-days aggregated (tests, metrics). */
  rounds = 0;
  aggregated = 0;
  full = 0;

  constructor(private pool: pg.Pool, private log: IngestLog, o: TotaisOptions = {}) {
    this.opts = {
      intervalMs: o.intervalMs ?? envMs('TOTAIS_INTERVALO_MS', 1000), settleMs: o.settleMs ?? envMs('TOTAIS_REPASSE_MS', 5000),
      chunk: o.chunk ?? 2000, tz: o.tz ?? fusoHorario(),
    };
    this.day = dataLocalCache(this.opts.tz);
  }

  /** The asset-day keys ('ativo|YYYY-MM-DD') a fix touches. */
  keysOf(f: Pick<IngestFix, 'ativoId' | 't'>): string[] {
    if (f.ativoId == null) return [];
    const a = this.day(f.t - MAX_GAP_S * 1000), b = this.day(f.t), c = this.day(f.t + MAX_GAP_S * 1000);
    const out = [`${f.ativoId}|${b}`];
    if (a !== b) out.push(`${f.ativoId}|${a}`);
    if (c !== b) out.push(`${f.ativoId}|${c}`);
    return out;
  }

  positions(fixes: IngestFix[]): void {
    if (this.stopped) return;
    for (const f of fixes) {
      if (!f.valid || f.ativoId == null) continue;
      for (const k of this.keysOf(f)) {
        const t = this.pending.get(k);
        if (!t) this.pending.set(k, { minT: f.t, serial: f.serial });
        else {
          if (f.t < t.minT) t.minT = f.t;
          if (t.serial !== f.serial) t.serial = null;
        }
      }
    }
    this.kick();
  }

  /** Starts a round now, or when the interval (or the next re-pass) allows. */
  private kick(): void {
    if (this.running || this.stopped) return;
    const now = Date.now();
    const dueSettle = this.nextSettle();
    if (!this.pending.size && dueSettle === null) { this.wake(); return; }
    const at = this.pending.size ? (this.flushNow ? now : Math.max(now, this.lastStart + this.opts.intervalMs)) : dueSettle!;
    if (at > now) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.timer = null; this.kick(); }, at - now);
      this.timer.unref?.();
      if (!this.pending.size) this.wake();
      return;
    }
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    this.lastStart = now;
    const fresh = this.pending;
    this.pending = new Map();
    const keys = new Map(fresh);
    for (const [k, x] of this.settle) {
      if (x.due > now) continue;
      const t = keys.get(k);
      if (x.full) keys.set(k, { minT: -Infinity, serial: null });
      else if (!t) keys.set(k, { minT: Infinity, serial: '' });
      this.settle.delete(k);
    }
    this.running = this.round(keys).then(() => {
      if (this.opts.settleMs > 0) { const due = Date.now() + this.opts.settleMs; for (const k of fresh.keys()) if (!this.settle.get(k)?.full) this.settle.set(k, { due, full: false }); }
    }).finally(() => {
      this.running = null;
      if (!this.pending.size) this.flushNow = false;
      this.kick();
    });
  }

  private nextSettle(): number | null {
    let min: number | null = null;
    for (const { due } of this.settle.values()) if (min === null || due < min) min = due;
    return min;
  }

  private wake(): void {
    const w = this.waiters; this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves when every key handed so far is aggregated (without waiting for the interval; re-passes excluded). */
  drain(): Promise<void> {
    if (!this.running && !this.pending.size) return Promise.resolve();
    this.flushNow = true;
    const p = new Promise<void>((r) => this.waiters.push(r));
    this.kick();
    return p;
  }

  async stop(): Promise<void> {
    await this.drain();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.settle.clear();
  }

  /** Aggregates the keys, in chunks; a failed chunk is queued again (the stored rows stay the truth). */
  private async round(touched: Map<string, Touch>): Promise<void> {
    const keys = [...touched.keys()].sort();
    for (let i = 0; i < keys.length; i += this.opts.chunk) {
      const part = keys.slice(i, i + this.opts.chunk);
      try {
        await this.aggregate(part, touched);
      } catch (err) {
        this.log.warn({ err: (err as Error).message, keys: part.length }, 'totais: falha ao recalcular os totais diários; nova tentativa');
        // rolled back: the state did not move, so the new fixes may lie before it — the retry is a full one
        if (!this.stopped) for (const k of part) this.settle.set(k, { due: Date.now() + Math.max(1000, this.opts.intervalMs), full: true });
      }
    }
    this.rounds++;
  }

  /** Brings asset-days ('ativo|YYYY-MM-DD') up to date with the stored rows: by increments where `touched` says every
   *  new fix comes after the asset-day's state (same device), else (or without `touched`) by a full re-aggregation. */
  async aggregate(keys: string[], touched?: Map<string, Touch>): Promise<void> {
    if (!keys.length) return;
    const split = (ks: string[]) => [ks.map((k) => Number(k.slice(0, k.indexOf('|')))), ks.map((k) => k.slice(k.indexOf('|') + 1))] as const;
    const [ativos, datas] = split(keys);
    const c = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      await c.query(SQL_LOCK, [ativos]);
      const inc: string[] = [], full: string[] = [];
      if (touched) {
        const { rows } = await c.query<{ ativo_id: number; data: string; serial: string; ate: number }>(SQL_ESTADO, [ativos, datas]);
        const state = new Map(rows.map((r) => [`${r.ativo_id}|${r.data}`, r]));
        for (const k of keys) {
          const st = state.get(k), t = touched.get(k);
          if (st && t && (t.serial === '' || (t.serial === st.serial && t.minT > st.ate))) inc.push(k); else full.push(k);
        }
      } else full.push(...keys);
      if (inc.length) await c.query(SQL_TOTAIS_INCREMENTAL, [...split(inc), this.opts.tz]);
      if (full.length) await c.query(SQL_TOTAIS, [...split(full), this.opts.tz]);
      this.full += full.length;
      await c.query('COMMIT');
      this.aggregated += keys.length;
    } catch (err) {
      broken = err as Error;
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release(broken);
    }
  }
}
