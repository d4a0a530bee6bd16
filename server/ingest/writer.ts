// Batched, idempotent persistence. Messages queue up; a flush takes up to maxBatch of them, resolves the
// devices, writes positions/events/latest state/pending list in ONE transaction, and only after COMMIT
// sends the replies (acks). On database errors the batch is retried with backoff (nothing acked, nothing
// lost); ON CONFLICT DO NOTHING makes a retry of an already committed batch harmless.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DecodeResult } from '../../protocol/types.ts';
import { DeviceDirectory } from './devices.ts';
import { log } from './log.ts';
import type { GatewayMetrics } from './metrics.ts';
import { monthKey } from './migrate.ts';
import { rawOf, type DeviceInfo, type IngestMessage } from './types.ts';

export interface WriterOptions {
  maxBatch?: number;      // messages per transaction
  maxInFlight?: number;   // concurrent transactions
  lingerMs?: number;      // wait this long for more messages before flushing a partial batch
  maxQueued?: number;     // above this, links are paused (backpressure)
  retryMinMs?: number;
  retryMaxMs?: number;
  onCommitted?: (batch: IngestMessage[]) => void;
}

/** Columns of telemetria.posicao written by the gateway (COPY order). */
export const POSICAO_COLS = ['serial', 'fix_time', 'tipo', 'received_at', 'empresa_id', 'ativo_id', 'motorista_id', 'lat', 'lon',
  'speed', 'course', 'altitude', 'valid', 'satellites', 'hdop', 'ignition', 'buffered', 'attributes'] as const;

// Positions: COPY into a per-session staging table, then one INSERT ... ON CONFLICT DO NOTHING.
const SQL_STAGING = `CREATE TEMP TABLE IF NOT EXISTS stg_posicao (LIKE telemetria.posicao) ON COMMIT DELETE ROWS`;
const SQL_COPY_POSICAO = `COPY stg_posicao (${POSICAO_COLS.join(', ')}) FROM STDIN`;
const SQL_COPY_DIRECT = `COPY telemetria.posicao (${POSICAO_COLS.join(', ')}) FROM STDIN`;
const SQL_POSICAO = `INSERT INTO telemetria.posicao (${POSICAO_COLS.join(', ')})
SELECT ${POSICAO_COLS.join(', ')} FROM stg_posicao ON CONFLICT DO NOTHING`;

const COPY_ESC: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
/** A value in COPY text format. */
export function copyText(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  switch (typeof v) {
    case 'number': return Number.isFinite(v) ? String(v) : '\\N';
    case 'boolean': return v ? 't' : 'f';
    case 'object': {
      // JSON.stringify never emits raw tabs/newlines; only backslashes need doubling.
      const j = JSON.stringify(v);
      return j.indexOf('\\') < 0 ? j : j.replace(/\\/g, '\\\\');
    }
    default: {
      const t = String(v);
      return /[\\\t\n\r]/.test(t) ? t.replace(/[\\\t\n\r]/g, (c) => COPY_ESC[c]!) : t;
    }
  }
}

/** Rows as COPY text lines. */
export function copyLines(rows: Record<string, unknown>[], cols: readonly string[]): string {
  let out = '';
  for (const r of rows) {
    for (let i = 0; i < cols.length; i++) out += (i ? '\t' : '') + copyText(r[cols[i]!]);
    out += '\n';
  }
  return out;
}

const SQL_EVENTO = `
INSERT INTO telemetria.evento (serial, fix_time, code, key, description, received_at, empresa_id, ativo_id,
  motorista_id, lat, lon, speed, attributes)
SELECT serial, fix_time, code, key, description, received_at, empresa_id, ativo_id, motorista_id, lat, lon, speed, attributes
  FROM json_to_recordset($1::json) AS x(serial text, fix_time timestamptz, code text, key text, description text,
    received_at timestamptz, empresa_id int, ativo_id int, motorista_id int, lat float8, lon float8, speed real,
    attributes jsonb)
ON CONFLICT DO NOTHING`;

const NEWER = '(excluded.fix_time IS NOT NULL AND (u.fix_time IS NULL OR excluded.fix_time >= u.fix_time))';
const pos = (c: string) => `${c} = CASE WHEN ${NEWER} THEN excluded.${c} ELSE u.${c} END`;
const SQL_ULTIMO = `
INSERT INTO telemetria.ultimo_estado AS u (serial, empresa_id, ativo_id, motorista_id, protocolo, modelo, fix_time,
  lat, lon, speed, course, altitude, valid, ignition, battery, power, ultimo_tipo, ultimo_evento, ultima_comunicacao, attributes)
SELECT * FROM json_to_recordset($1::json) AS x(serial text, empresa_id int, ativo_id int, motorista_id int,
  protocolo text, modelo text, fix_time timestamptz, lat float8, lon float8, speed real, course real, altitude real,
  valid bool, ignition bool, battery real, power real, ultimo_tipo text, ultimo_evento text,
  ultima_comunicacao timestamptz, attributes jsonb)
ORDER BY serial
ON CONFLICT (serial) DO UPDATE SET
  empresa_id = excluded.empresa_id, ativo_id = excluded.ativo_id, motorista_id = excluded.motorista_id,
  protocolo = excluded.protocolo, modelo = coalesce(excluded.modelo, u.modelo),
  ${['lat', 'lon', 'speed', 'course', 'altitude', 'valid'].map(pos).join(', ')},
  fix_time = CASE WHEN ${NEWER} THEN excluded.fix_time ELSE u.fix_time END,
  ignition = coalesce(excluded.ignition, u.ignition),
  battery = coalesce(excluded.battery, u.battery),
  power = coalesce(excluded.power, u.power),
  ultimo_tipo = excluded.ultimo_tipo,
  ultimo_evento = coalesce(excluded.ultimo_evento, u.ultimo_evento),
  ultima_comunicacao = greatest(u.ultima_comunicacao, excluded.ultima_comunicacao),
  attributes = coalesce(u.attributes, '{}'::jsonb) || coalesce(excluded.attributes, '{}'::jsonb)`;

const SQL_PENDENTE = `
WITH x AS (SELECT * FROM json_to_recordset($1::json) AS x(serial text, protocolo text, primeira timestamptz,
             ultima timestamptz, quantidade int, bruta text)),
upd AS (UPDATE equipamento_pendente p SET ultima_mensagem = greatest(p.ultima_mensagem, x.ultima),
          quantidade = p.quantidade + x.quantidade, ultima_mensagem_bruta = x.bruta, protocolo = x.protocolo,
          updated_at = now()
        FROM x WHERE p.serial = x.serial RETURNING p.serial)
INSERT INTO equipamento_pendente (serial, protocolo, primeira_mensagem, ultima_mensagem, quantidade,
  ultima_mensagem_bruta, created_at, updated_at)
SELECT serial, protocolo, primeira, ultima, quantidade, bruta, now(), now() FROM x
 WHERE x.serial NOT IN (SELECT serial FROM upd)`;

const SQL_MENSAGEM_PENDENTE = `
INSERT INTO telemetria.mensagem_pendente (serial, protocolo, received_at, tipo, raw)
SELECT serial, protocolo, received_at, tipo, raw FROM json_to_recordset($1::json)
  AS x(serial text, protocolo text, received_at timestamptz, tipo text, raw text)`;

const SQL_TOUCH = `
UPDATE equipamento e SET ultima_comunicacao = x.t
  FROM json_to_recordset($1::json) AS x(id int, t timestamptz) WHERE e.id = x.id`;

/** Transient = worth retrying as is (connection lost, server shutting down, out of resources...). */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  // No SQLSTATE: connection-level failures are transient; anything else (a bug) is not retried forever.
  if (!code) return /connection|terminated|timeout|timed out|socket|ECONN|EPIPE|not queryable|Connection ended/i.test(String((err as Error)?.message));
  if (/^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET ...
  // Connection, resources, shutdown, serialization; also missing tables/permissions/database (setup not finished).
  return /^(08|53|57|58|40|28|3D)/.test(code) || ['55P03', '42P01', '42501', '42883'].includes(code);
}

/** Event keys that are just the report kind (periodic position, heartbeat): kept in posicao/ultimo_estado, not in evento. */
export const NON_EVENT_KEYS = new Set(['fixedReport', 'heartbeat']);

const DAY = 86_400_000;
/** A fix time the device clock could really have produced: not in the future, not over 5 years old (GPS week rollover). */
function plausible(fixTime: string, received: Date): boolean {
  const t = Date.parse(fixTime);
  return t <= received.getTime() + DAY && t >= received.getTime() - 5 * 366 * DAY;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function ignitionOf(r: DecodeResult): boolean | null {
  const a = r.attributes;
  if (typeof a.ignition === 'boolean') return a.ignition;
  for (const e of r.events) {
    if (e.key === 'ignitionOn') return true;
    if (e.key === 'ignitionOff') return false;
  }
  return null;
}

/** Rows of one batch; positions already as COPY text (POSICAO_COLS order). */
export interface BatchRows {
  posicaoCopy: string;
  posicaoCount: number;
  implausible: number; // positions dropped for an impossible fix time
  eventos: Record<string, unknown>[];
  ultimos: Record<string, unknown>[];
  pendentes: Record<string, unknown>[];
  mensagensPendentes: Record<string, unknown>[];
  touches: { id: number; t: string }[];
  months: Set<string>;
}

export function buildRows(batch: IngestMessage[], devices: Map<string, DeviceInfo | null>, touch: (s: string) => boolean): BatchRows {
  const out: BatchRows = { posicaoCopy: '', posicaoCount: 0, implausible: 0, eventos: [], ultimos: [], pendentes: [], mensagensPendentes: [], touches: [], months: new Set() };
  let lastDate: Date | null = null, lastIso = '';
  const ultimo = new Map<string, Record<string, unknown>>();
  const pend = new Map<string, Record<string, unknown>>();
  for (const m of batch) {
    const r = m.result;
    if (m.receivedAt !== lastDate) { lastDate = m.receivedAt; lastIso = lastDate.toISOString(); }
    const received = lastIso;
    const dev = devices.get(r.deviceId) ?? null;
    if (!dev) {
      const p = pend.get(r.deviceId);
      if (p) { p.quantidade = (p.quantidade as number) + 1; p.ultima = received; p.bruta = rawOf(m); p.protocolo = r.protocol; }
      else pend.set(r.deviceId, { serial: r.deviceId, protocolo: r.protocol, primeira: received, ultima: received, quantidade: 1, bruta: rawOf(m) });
      out.mensagensPendentes.push({ serial: r.deviceId, protocolo: r.protocol, received_at: received, tipo: r.type, raw: rawOf(m) });
      continue;
    }
    const ign = ignitionOf(r);
    const attrs = Object.keys(r.attributes).length ? r.attributes : null;
    const base = { serial: r.deviceId, empresa_id: dev.empresaId, ativo_id: dev.ativoId, motorista_id: dev.motoristaId };
    let last: DecodeResult['positions'][number] | undefined;
    const positions = r.positions.length ? r.positions.filter((p) => plausible(p.fixTime, m.receivedAt)) : r.positions;
    out.implausible += r.positions.length - positions.length;
    if (positions.length) {
      // serial, fix_time, tipo, received_at, empresa_id, ativo_id, motorista_id | lat ... | ignition, buffered, attributes
      const pre = `${copyText(r.deviceId)}\t`;
      const mid = `\t${copyText(r.type)}\t${received}\t${copyText(dev.empresaId)}\t${copyText(dev.ativoId)}\t${copyText(dev.motoristaId)}\t`;
      const post = `\t${copyText(ign)}\t${r.buffered ? 't' : 'f'}\t${attrs ? copyText(attrs) : '\\N'}\n`;
      for (const p of positions) {
        out.posicaoCopy += pre + copyText(p.fixTime) + mid + copyText(num(p.latitude)) + '\t' + copyText(num(p.longitude)) + '\t'
          + copyText(num(p.speedKmh)) + '\t' + copyText(num(p.course)) + '\t' + copyText(num(p.altitude)) + '\t'
          + (p.valid ? 't' : 'f') + '\t' + copyText(num(p.satellites)) + '\t' + copyText(num(p.hdop)) + post;
        out.posicaoCount++;
      }
    }
    for (const p of positions) {
      out.months.add(p.fixTime.slice(0, 7));
      if (!last || p.fixTime >= last.fixTime) last = p;
    }
    const evTime = last?.fixTime ?? r.sentTime ?? received;
    const events = r.events.filter((e) => !NON_EVENT_KEYS.has(e.key));
    for (const e of events) {
      out.eventos.push({
        ...base, fix_time: evTime, code: e.code, key: e.key, description: e.description ?? '', received_at: received,
        lat: last?.latitude ?? null, lon: last?.longitude ?? null, speed: last ? num(last.speedKmh) : null, attributes: attrs,
      });
    }
    // Latest state: merge the batch's messages of the same device.
    const u = ultimo.get(r.deviceId) ?? { ...base, protocolo: r.protocol, modelo: r.model ?? dev.modelo, fix_time: null,
      lat: null, lon: null, speed: null, course: null, altitude: null, valid: null, ignition: null, battery: null,
      power: null, ultimo_tipo: r.type, ultimo_evento: null, ultima_comunicacao: received, attributes: null };
    if (last && (u.fix_time === null || last.fixTime >= (u.fix_time as string))) {
      Object.assign(u, { fix_time: last.fixTime, lat: last.latitude, lon: last.longitude, speed: num(last.speedKmh),
        course: num(last.course), altitude: num(last.altitude), valid: last.valid });
    }
    if (ign !== null) u.ignition = ign;
    const bat = num(r.attributes.batteryLevel) ?? num(r.attributes.battery);
    if (bat !== null) u.battery = bat;
    const pw = num(r.attributes.externalPowerSupplyVoltage) ?? num(r.attributes.power);
    if (pw !== null) u.power = pw;
    if (r.model) u.modelo = r.model;
    u.ultimo_tipo = r.type;
    if (events.length) u.ultimo_evento = events[events.length - 1].key;
    if (received > (u.ultima_comunicacao as string)) u.ultima_comunicacao = received;
    if (attrs) u.attributes = attrs; // newest message's attributes; SQL merges them over the stored ones
    ultimo.set(r.deviceId, u);
  }
  out.ultimos = [...ultimo.values()];
  out.pendentes = [...pend.values()];
  for (const u of out.ultimos) {
    const dev = devices.get(u.serial as string);
    if (dev && touch(dev.serial)) out.touches.push({ id: dev.equipamentoId, t: u.ultima_comunicacao as string });
  }
  return out;
}

export class BatchWriter {
  readonly directory: DeviceDirectory;
  private queue: IngestMessage[] = [];
  private inFlight = 0;         // batches being written
  private inFlightMsgs = 0;
  private timer: NodeJS.Timeout | null = null;
  private backoff = 0;
  private paused = false;
  private stopped = false;
  private knownMonths = new Set<string>();
  private staged = new WeakSet<object>(); // pooled clients that have the staging table
  private idleWaiters: (() => void)[] = [];
  private pausables = new Set<{ pause?(): void; resume?(): void }>();
  readonly opts: Required<Omit<WriterOptions, 'onCommitted'>> & Pick<WriterOptions, 'onCommitted'>;

  constructor(private pool: pg.Pool, private metrics: GatewayMetrics, opts: WriterOptions = {}, directory?: DeviceDirectory) {
    const env = (k: string, d: number) => (process.env[k] ? Number(process.env[k]) : d);
    this.opts = {
      maxBatch: env('INGEST_MAX_BATCH', 2000), maxInFlight: env('INGEST_MAX_IN_FLIGHT', 2), lingerMs: env('INGEST_LINGER_MS', 10),
      maxQueued: env('INGEST_MAX_QUEUED', 20_000), retryMinMs: 100, retryMaxMs: 5000, ...opts,
    };
    this.directory = directory ?? new DeviceDirectory(pool);
  }

  get queued(): number { return this.queue.length + this.inFlightMsgs; }

  /** Links register here so they can be paused when the queue is full. */
  register(l: { pause?(): void; resume?(): void }): () => void {
    this.pausables.add(l);
    if (this.paused) l.pause?.();
    return () => this.pausables.delete(l);
  }

  enqueue(m: IngestMessage): void {
    this.queue.push(m);
    this.metrics.queued = this.queued;
    if (!this.paused && this.queued >= this.opts.maxQueued) {
      this.paused = true;
      log.warn({ queued: this.queued }, 'fila de gravação cheia: pausando leitura das conexões');
      for (const l of this.pausables) l.pause?.();
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    // Up to maxInFlight batches overlap (building/acking one while the database writes another);
    // after a failure, one at a time with backoff.
    const max = this.backoff ? 1 : this.opts.maxInFlight;
    while (this.inFlight < max && this.queue.length >= this.opts.maxBatch && !this.backoff) {
      this.clearTimer();
      void this.flush();
    }
    if (!this.timer && this.queue.length && this.inFlight < max) {
      this.timer = setTimeout(() => { this.timer = null; void this.flush(); }, this.backoff || this.opts.lingerMs);
    }
  }

  private clearTimer(): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
  }

  private async flush(): Promise<void> {
    const max = this.backoff ? 1 : this.opts.maxInFlight;
    if (this.inFlight >= max || !this.queue.length) { this.notifyIdle(); return; }
    const batch = this.queue.splice(0, this.opts.maxBatch);
    this.inFlight++;
    this.inFlightMsgs += batch.length;
    try {
      await this.writeWithBisect(batch);
      this.backoff = 0;
    } catch (err) {
      // Transient failure: put the batch back in front, retry later with backoff.
      this.metrics.batchFailures++;
      this.backoff = Math.min(this.opts.retryMaxMs, Math.max(this.opts.retryMinMs, this.backoff * 2));
      log.warn({ err: (err as Error).message, batch: batch.length, retryInMs: this.backoff }, 'falha ao gravar lote; nova tentativa');
      this.queue.unshift(...batch);
    } finally {
      this.inFlight--;
      this.inFlightMsgs -= batch.length;
      this.metrics.queued = this.queued;
      if (this.paused && this.queued < this.opts.maxQueued / 2) {
        this.paused = false;
        for (const l of this.pausables) l.resume?.();
      }
      if (this.queue.length) this.schedule(); else this.notifyIdle();
    }
  }

  /** Writes; a permanent (data) error splits the batch to isolate and drop the bad message(s). */
  private async writeWithBisect(batch: IngestMessage[]): Promise<void> {
    try {
      await this.write(batch);
      this.committed(batch);
    } catch (err) {
      if (isTransient(err)) throw err;
      if (batch.length === 1) {
        this.metrics.rejectedMessages++;
        log.error({ err: (err as Error).message, serial: batch[0].result.deviceId, raw: rawOf(batch[0]).slice(0, 300) }, 'mensagem rejeitada pelo banco');
        batch[0].done?.(false);
        return;
      }
      const half = batch.length >> 1;
      await this.writeWithBisect(batch.slice(0, half));
      await this.writeWithBisect(batch.slice(half));
    }
  }

  private async write(batch: IngestMessage[]): Promise<void> {
    const devices = await this.directory.resolve(batch.map((m) => m.result.deviceId));
    const rows = buildRows(batch, devices, (s) => this.directory.shouldTouch(s));
    const client = await this.pool.connect();
    let broken = false;
    try {
      const newMonths = [...rows.months].filter((k) => !this.knownMonths.has(k));
      if (newMonths.length) {
        await client.query('SELECT telemetria.garante_particao(t) FROM unnest($1::timestamptz[]) t', [newMonths.map((k) => `${k}-01T00:00:00Z`)]);
        for (const k of newMonths) this.knownMonths.add(k);
      }
      await client.query('BEGIN');
      if (rows.posicaoCount) {
        // Fast path: COPY straight into posicao. A duplicate (device resend, retry after an ambiguous
        // commit) aborts it: then COPY into the staging table + INSERT ... ON CONFLICT DO NOTHING.
        const data = Buffer.from(rows.posicaoCopy);
        await client.query('SAVEPOINT direto');
        try {
          await pipeline(Readable.from([data]), client.query(copyFrom(SQL_COPY_DIRECT)));
          await client.query('RELEASE SAVEPOINT direto');
          this.metrics.directCopies++;
        } catch (err) {
          if ((err as { code?: string }).code !== '23505') throw err;
          await client.query('ROLLBACK TO SAVEPOINT direto');
          if (!this.staged.has(client)) { await client.query(SQL_STAGING); this.staged.add(client); }
          await pipeline(Readable.from([data]), client.query(copyFrom(SQL_COPY_POSICAO)));
          await client.query(SQL_POSICAO);
        }
      }
      if (rows.eventos.length) await client.query(SQL_EVENTO, [JSON.stringify(rows.eventos)]);
      if (rows.ultimos.length) await client.query(SQL_ULTIMO, [JSON.stringify(rows.ultimos)]);
      if (rows.pendentes.length) {
        await client.query(SQL_PENDENTE, [JSON.stringify(rows.pendentes)]);
        await client.query(SQL_MENSAGEM_PENDENTE, [JSON.stringify(rows.mensagensPendentes)]);
      }
      if (rows.touches.length) await client.query(SQL_TOUCH, [JSON.stringify(rows.touches)]);
      await client.query('COMMIT');
      this.metrics.positions += rows.posicaoCount;
      this.metrics.implausiblePositions += rows.implausible;
      this.metrics.events += rows.eventos.length;
      this.metrics.pendingMessages += rows.mensagensPendentes.length;
      this.metrics.batches++;
    } catch (err) {
      broken = isTransient(err);
      if (!broken) await client.query('ROLLBACK').catch(() => { broken = true; });
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /** After COMMIT: replies to the devices (one write per link), then callbacks. */
  private committed(batch: IngestMessage[]): void {
    const out = new Map<IngestMessage['link'], (string | Buffer)[]>();
    for (const m of batch) {
      const reply = m.result.reply;
      if (reply !== undefined && m.link.alive) {
        if (!m.link.stream) { if (m.link.send(reply)) this.metrics.acksSent++; continue; }
        const l = out.get(m.link);
        if (l) l.push(reply); else out.set(m.link, [reply]);
      }
    }
    for (const m of batch) m.done?.(true);
    for (const [link, replies] of out) {
      const data = replies.every((r) => typeof r === 'string') ? (replies as string[]).join('') : Buffer.concat(replies.map((r) => (typeof r === 'string' ? Buffer.from(r, 'latin1') : r)));
      if (link.send(data)) this.metrics.acksSent += replies.length;
    }
    this.opts.onCommitted?.(batch);
  }

  private notifyIdle(): void {
    if (this.queue.length || this.inFlight) return;
    const w = this.idleWaiters; this.idleWaiters = [];
    for (const f of w) f();
  }

  /** Resolves when everything queued so far is committed (or the writer is stopped). */
  drain(): Promise<void> {
    if (!this.queue.length && !this.inFlight) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  async stop(timeoutMs = 5000): Promise<void> {
    await Promise.race([this.drain(), new Promise((r) => setTimeout(r, timeoutMs))]);
    this.stopped = true;
    this.clearTimer();
    const w = this.idleWaiters; this.idleWaiters = [];
    for (const f of w) f();
  }
}

export { monthKey };
