// Daily totals as positions are stored: the gateway hands each committed batch here (after the trip detector,
// ingest.ts `after`); the asset-days it touches are queued and re-aggregated from the stored rows by one set-based
// statement per round (sql.ts), under a per-asset lock. Rounds coalesce: while one runs, or for TOTAIS_INTERVALO_MS
// after it started, new keys only join the queue. A fix at t touches the local days of [t - maxGap, t + maxGap]
// (a step across midnight changes both days). Late, buffered or out-of-order fixes and fixes stored by another
// gateway process need nothing special: each round reads every stored row of its asset-days. Each key is
// re-aggregated once more TOTAIS_REPASSE_MS after its last round (the trips the detector closed meanwhile).
import type pg from 'pg';
import type { IngestFix, IngestLog } from '../../../server/core/ingest.ts';
import { dataLocalCache, fusoHorario } from '../../../server/core/fuso-horario.ts';
import { MAX_GAP_S, SQL_LOCK, SQL_TOTAIS } from './sql.ts';

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

export class TotaisProcessor {
  private pending = new Set<string>();
  private settle = new Map<string, number>();
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
    let last = '';
    for (const f of fixes) {
      if (!f.valid || f.ativoId == null) continue;
      for (const k of this.keysOf(f)) if (k !== last) { this.pending.add(k); last = k; }
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
    this.pending = new Set();
    const keys = new Set(fresh);
    for (const [k, due] of this.settle) if (due <= now) { keys.add(k); this.settle.delete(k); }
    this.running = this.round([...keys]).then(() => {
      if (this.opts.settleMs > 0) { const due = Date.now() + this.opts.settleMs; for (const k of fresh) this.settle.set(k, due); }
    }).finally(() => {
      this.running = null;
      if (!this.pending.size) this.flushNow = false;
      this.kick();
    });
  }

  private nextSettle(): number | null {
    let min: number | null = null;
    for (const due of this.settle.values()) if (min === null || due < min) min = due;
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
  private async round(keys: string[]): Promise<void> {
    keys.sort();
    for (let i = 0; i < keys.length; i += this.opts.chunk) {
      const part = keys.slice(i, i + this.opts.chunk);
      try {
        await this.aggregate(part);
      } catch (err) {
        this.log.warn({ err: (err as Error).message, keys: part.length }, 'totais: falha ao recalcular os totais diários; nova tentativa');
        if (!this.stopped) for (const k of part) this.settle.set(k, Date.now() + Math.max(1000, this.opts.intervalMs));
      }
    }
    this.rounds++;
  }

  /** Re-aggregates asset-days ('ativo|YYYY-MM-DD') from the stored rows. */
  async aggregate(keys: string[]): Promise<void> {
    if (!keys.length) return;
    const ativos = keys.map((k) => Number(k.slice(0, k.indexOf('|'))));
    const datas = keys.map((k) => k.slice(k.indexOf('|') + 1));
    const c = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      await c.query(SQL_LOCK, [ativos]);
      await c.query(SQL_TOTAIS, [ativos, datas, this.opts.tz]);
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
