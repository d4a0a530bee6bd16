// Batched, idempotent persistence. Messages queue up; a flush takes up to maxBatch of them, resolves the
// devices, writes positions/events/latest state/pending list in ONE transaction, and only after COMMIT
// sends the replies (acks). On database errors the batch is retried with backoff (nothing acked, nothing
// lost); ON CONFLICT DO NOTHING makes a retry of an already committed batch harmless.
import type pg from 'pg';
import type { DecodeResult } from '../../protocol/types.ts';
import { DeviceDirectory, protocolAllowed } from './devices.ts';
import { networkAllowed } from './networks.ts';
import { envNumber } from './env.ts';
import { jsonbOrderedJson } from './jsonb-order.ts';
import { equipamento as eqp, equipamento_pendente as pend } from '../generated/columns.ts';
import { EVENTO_COLUMNS, EVENTO_TYPES, POSICAO_COLUMNS, ULTIMO_ESTADO_COLUMNS, ULTIMO_ESTADO_TYPES, type PosicaoColumn, type UltimoEstadoColumn } from '../generated/telemetry.ts';
import { log } from './log.ts';
import type { GatewayMetrics } from './metrics.ts';
import { monthKey } from './migrate.ts';
import { pipelined } from './pipelined.ts';
import { rawOf, type DeviceInfo, type IngestMessage, type Link } from './types.ts';
import type { IngestFix } from '../core/ingest.ts';
import { weightsOf, type Weights } from '../../shared/peso.ts';
import { rpmOf } from '../../shared/rpm.ts';
import type { EstadoPublisher } from '../realtime/bus.ts';

export interface WriterOptions {
  maxBatch?: number;      // messages per transaction
  maxInFlight?: number;   // concurrent transactions
  lingerMs?: number;      // wait this long for more messages before flushing a partial batch
  maxQueued?: number;     // above this, links are paused (backpressure)
  retryMinMs?: number;
  retryMaxMs?: number;
  /** After COMMIT, with the batch's messages that acknowledge or answer a command (result.ack, result.configuration). */
  onAcksCommitted?: (acks: IngestMessage[]) => void;
  /** Bounds of the pending list; default pendingLimitsFromEnv(). */
  pending?: Partial<PendingLimits>;
  /** After COMMIT, with the batch's stored positions (the modules' ingest consumers, server/core/ingest.ts). */
  onPositionsCommitted?: (fixes: IngestFix[]) => void;
  /** With REDIS_URL: the latest-state bus's publisher (server/realtime/bus.ts); else the table's trigger notifies. */
  estadoBus?: EstadoPublisher;
}

/** The device's columns, put in front of each row per batch (the rest of the row text is made when queued). */
const DEVICE_COLS = ['empresa_id', 'ativo_id', 'motorista_id'] as const;
/** Columns of telemetria.posicao written by the gateway (COPY order), from metadata/telemetria/posicao.yaml: the
 * device's columns first, then the others in the metadata's order — the order prepare() writes the row text in. */
export const POSICAO_COLS: readonly PosicaoColumn[] = [...DEVICE_COLS, ...POSICAO_COLUMNS.filter((c) => !(DEVICE_COLS as readonly string[]).includes(c))];

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

// Events: every column of metadata/telemetria/evento.yaml, typed from it (a key the batch lacks is NULL).
const SQL_EVENTO = `
INSERT INTO telemetria.evento (${EVENTO_COLUMNS.join(', ')})
SELECT ${EVENTO_COLUMNS.join(', ')}
  FROM json_to_recordset($1::json) AS x(${EVENTO_COLUMNS.map((c) => `${c} ${EVENTO_TYPES[c]}`).join(', ')})
ON CONFLICT DO NOTHING`;

// The row's company changed (the serial was registered to another company): nothing of the previous company's
// state is kept (position, attributes, last event...), whatever the fix times.
const OTHER = '(u.empresa_id IS DISTINCT FROM excluded.empresa_id)';
const NEWER = `(${OTHER} OR (excluded.fix_time IS NOT NULL AND (u.fix_time IS NULL OR excluded.fix_time >= u.fix_time)))`;
const pos = (c: string) => `${c} = CASE WHEN ${NEWER} THEN excluded.${c} ELSE u.${c} END`;
const keep = (c: string) => `${c} = CASE WHEN ${OTHER} THEN excluded.${c} ELSE coalesce(excluded.${c}, u.${c}) END`;
/** Columns of the latest-state upsert (metadata/telemetria/ultimo_estado.yaml), each sent as one typed array
 * (unnest: no JSON to parse per row). */
export const ULTIMO_COLS = ULTIMO_ESTADO_COLUMNS.map((c) => [c, ULTIMO_ESTADO_TYPES[c]] as const);
type UltimoCol = UltimoEstadoColumn;
/** Latest-state upsert; the rows come sorted by serial (a fixed lock order between concurrent batches). */
const SQL_ULTIMO = `
INSERT INTO telemetria.ultimo_estado AS u (${ULTIMO_COLS.map(([c]) => c).join(', ')})
SELECT * FROM unnest(${ULTIMO_COLS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')})
ON CONFLICT (serial) DO UPDATE SET
  empresa_id = excluded.empresa_id, ativo_id = excluded.ativo_id, motorista_id = excluded.motorista_id,
  protocolo = excluded.protocolo, modelo = coalesce(excluded.modelo, u.modelo),
  ${['lat', 'lon', 'speed', 'course', 'altitude', 'valid', 'fix_time'].map(pos).join(', ')},
  ${['ignition', 'battery', 'power', 'ultimo_evento'].map(keep).join(', ')},
  ultimo_tipo = excluded.ultimo_tipo,
  ultima_comunicacao = CASE WHEN ${OTHER} THEN excluded.ultima_comunicacao ELSE greatest(u.ultima_comunicacao, excluded.ultima_comunicacao) END,
  attributes = CASE WHEN ${OTHER} THEN excluded.attributes WHEN excluded.attributes IS NULL THEN coalesce(u.attributes, '{}')
               WHEN u.attributes IS NULL THEN excluded.attributes ELSE u.attributes || excluded.attributes END`;

// Pending list: known serials are updated; new ones are listed while the list has fewer than $2 serials (0 = no cap).
const SQL_PENDENTE = `
WITH x AS (SELECT * FROM json_to_recordset($1::json) AS x(serial text, protocolo text, primeira timestamptz,
             ultima timestamptz, quantidade int, bruta text)),
upd AS (UPDATE ${pend.table} p SET ${pend.ultimaMensagem} = greatest(p.${pend.ultimaMensagem}, x.ultima),
          ${pend.quantidade} = p.${pend.quantidade} + x.quantidade, ${pend.ultimaMensagemBruta} = x.bruta, ${pend.protocolo} = x.protocolo,
          ${pend.updatedAt} = now()
        FROM x WHERE p.${pend.serial} = x.serial RETURNING p.${pend.serial} AS serial)
INSERT INTO ${pend.table} (${pend.serial}, ${pend.protocolo}, ${pend.primeiraMensagem}, ${pend.ultimaMensagem}, ${pend.quantidade}, ${pend.descartadas},
  ${pend.ultimaMensagemBruta}, ${pend.createdAt}, ${pend.updatedAt})
SELECT serial, protocolo, primeira, ultima, quantidade, 0, bruta, now(), now() FROM x
 WHERE x.serial NOT IN (SELECT serial FROM upd)
 ORDER BY x.ultima DESC
 LIMIT CASE WHEN $2::int > 0 THEN greatest(0, $2::int - (SELECT count(*) FROM ${pend.table})) END
ON CONFLICT (${pend.serial}) DO UPDATE SET ${pend.ultimaMensagem} = greatest(${pend.table}.${pend.ultimaMensagem}, excluded.${pend.ultimaMensagem}),
  ${pend.quantidade} = ${pend.table}.${pend.quantidade} + excluded.${pend.quantidade}, ${pend.ultimaMensagemBruta} = excluded.${pend.ultimaMensagemBruta},
  ${pend.protocolo} = excluded.${pend.protocolo}, ${pend.updatedAt} = now()`;

// Raw messages, only of listed serials (a serial left out by the cap keeps nothing).
const SQL_MENSAGEM_PENDENTE = `
INSERT INTO telemetria.mensagem_pendente (serial, protocolo, received_at, tipo, raw)
SELECT x.serial, x.protocolo, x.received_at, x.tipo, x.raw
  FROM ROWS FROM (json_to_recordset($1::json) AS (serial text, protocolo text, received_at timestamptz, tipo text, raw text))
       WITH ORDINALITY AS x(serial, protocolo, received_at, tipo, raw, n)
 WHERE EXISTS (SELECT 1 FROM ${pend.table} p WHERE p.${pend.serial} = x.serial)
 ORDER BY x.n`; // ids in arrival order: the bounds keep the newest by id

/** Counts removed raw messages (RETURNING serial of the DELETE in CTE d) in equipamento_pendente.descartadas. */
const COUNT_DROPPED = `
c AS (SELECT serial, count(*)::int n FROM d GROUP BY serial)
UPDATE ${pend.table} p SET ${pend.descartadas} = p.${pend.descartadas} + c.n FROM c WHERE p.${pend.serial} = c.serial`;

// Per serial, only the newest $2 raw messages are kept.
const SQL_PENDENTE_POR_SERIAL = `
WITH d AS (
  DELETE FROM telemetria.mensagem_pendente m USING (
    SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY serial ORDER BY id DESC) rn
                      FROM telemetria.mensagem_pendente WHERE serial = ANY($1::text[])) r WHERE rn > $2) o
   WHERE m.id = o.id RETURNING m.serial),
${COUNT_DROPPED}`;

// In total, only the newest $1 raw messages are kept.
export const SQL_PENDENTE_TOTAL = `
WITH d AS (
  DELETE FROM telemetria.mensagem_pendente WHERE id IN (
    SELECT id FROM telemetria.mensagem_pendente ORDER BY id
     LIMIT greatest(0, (SELECT count(*) FROM telemetria.mensagem_pendente) - $1::int)) RETURNING serial),
${COUNT_DROPPED}`;

/** Bounds of the messages of unknown devices (0 = no bound). */
export interface PendingLimits {
  /** Raw messages kept per serial (the newest). */
  perSerial: number;
  /** Raw messages kept in total (the newest). */
  total: number;
  /** Serials listed in equipamento_pendente; messages of further new serials are not kept. */
  serials: number;
  /** Raw messages and listed serials silent for longer are deleted. */
  retentionDays: number;
  /** How often the total bound and the retention are applied (also after total/10 new messages). */
  maintenanceMs: number;
}

export function pendingLimitsFromEnv(): PendingLimits {
  return {
    perSerial: envNumber('GATEWAY_PENDENTES_POR_SERIAL', 100),
    total: envNumber('GATEWAY_PENDENTES_TOTAL', 100_000),
    serials: envNumber('GATEWAY_PENDENTES_SERIAIS', 10_000),
    retentionDays: envNumber('GATEWAY_PENDENTES_RETENCAO_DIAS', 30),
    maintenanceMs: 60_000,
  };
}

/**
 * Batching from env: INGEST_MAX_BATCH (10000), INGEST_MAX_IN_FLIGHT (2), INGEST_LINGER_MS (10), INGEST_MAX_QUEUED (40000).
 * Under load a batch holds many messages per device, and the latest-state upsert (one row per device and batch,
 * its attributes merged) is the write path's main cost beyond the COPY: 10,000 instead of 4,000 cut PostgreSQL's
 * CPU per message by ~1 µs in npm run bench:ingest (see the README).
 * The queue holds the in-flight batches plus two more.
 */
export function writerOptionsFromEnv(): Pick<Required<WriterOptions>, 'maxBatch' | 'maxInFlight' | 'lingerMs' | 'maxQueued'> {
  return {
    maxBatch: envNumber('INGEST_MAX_BATCH', 10_000, { min: 1 }),
    maxInFlight: envNumber('INGEST_MAX_IN_FLIGHT', 2, { min: 1 }),
    lingerMs: envNumber('INGEST_LINGER_MS', 10),
    maxQueued: envNumber('INGEST_MAX_QUEUED', 40_000, { min: 1 }),
  };
}

const SQL_TOUCH = `
UPDATE ${eqp.table} e SET ${eqp.ultimaComunicacao} = x.t
  FROM json_to_recordset($1::json) AS x(id int, t timestamptz) WHERE e.${eqp.id} = x.id`;

/** Transient = worth retrying as is (connection lost, server shutting down, out of resources...). */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  // No SQLSTATE: connection-level failures are transient; anything else (a bug) is not retried forever.
  if (!code) return /connection|terminated|timeout|timed out|socket|ECONN|EPIPE|not queryable|Connection ended/i.test(String((err as Error)?.message));
  if (/^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET ...
  // Connection, resources, shutdown, serialization; also missing tables/permissions/database (setup not finished).
  return /^(08|53|57|58|40|28|3D)/.test(code) || ['55P03', '42P01', '42501', '42883'].includes(code);
}

/** Event keys that are just the report kind (periodic position, heartbeat) or a command's answer (configuration read:
 *  kept in the command's row): not in evento. */
export const NON_EVENT_KEYS = new Set(['fixedReport', 'heartbeat', 'configurationReport']);

const DAY = 86_400_000;
/** The day of the last decoder time read ("YYYY-MM-DDT") and its midnight in ms: messages of one batch share days. */
let dayKey = '', dayMs = 0;

/** Milliseconds of an ISO-8601 UTC time; the decoders' "YYYY-MM-DDTHH:MM:SS.sssZ" by arithmetic, others by Date.parse. */
export function isoMs(t: string): number {
  if (t.length === 24 && t.charCodeAt(4) === 45 && t.charCodeAt(7) === 45 && t.charCodeAt(10) === 84 && t.charCodeAt(13) === 58
    && t.charCodeAt(16) === 58 && t.charCodeAt(19) === 46 && t.charCodeAt(23) === 90) {
    const h = digits(t, 11, 2), mi = digits(t, 14, 2), s = digits(t, 17, 2), ms = digits(t, 20, 3);
    if (h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59 && ms >= 0) {
      if (dayKey && t.startsWith(dayKey)) return dayMs + ((h * 60 + mi) * 60 + s) * 1000 + ms;
      const y = digits(t, 0, 4), mo = digits(t, 5, 2), d = digits(t, 8, 2);
      // Out-of-range fields (month 13, 31 February...) are left to Date.parse, which knows its own rules.
      if (y >= 100 && mo >= 1 && mo <= 12 && d >= 1 && d <= 28) {
        dayKey = t.slice(0, 11);
        dayMs = Date.UTC(y, mo - 1, d);
        return dayMs + ((h * 60 + mi) * 60 + s) * 1000 + ms;
      }
    }
  }
  return Date.parse(t);
}
/** Decimal digits t[i, i + n) as a number; -1 if one is not a digit. */
function digits(t: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = t.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}
/** A fix time the device clock could really have produced: not in the future, not over 5 years old (GPS week rollover). */
function plausible(fixMs: number, receivedMs: number): boolean {
  return fixMs <= receivedMs + DAY && fixMs >= receivedMs - 5 * 366 * DAY;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const ZEROS = ['', '0', '00', '000', '0000', '00000'];
/**
 * A number (or nothing) in COPY text, the same text as String(v). Decoded coordinates, speeds and altitudes have at
 * most 6 decimals: those are written from the integer v × 10⁶ (String() of a fraction costs ~0.3 µs, of a small
 * integer a few ns); anything else by String().
 */
export function copyNum(v: unknown): string {
  if (typeof v !== 'number') return '\\N';
  if ((v | 0) === v) return String(v); // 32-bit integers (-0 → "0", as String)
  const k = Math.round(v * 1e6);
  if (k / 1e6 !== v || k > 0x3fffffff || k < -0x3fffffff) return Number.isFinite(v) ? String(v) : '\\N';
  // v is the double nearest to k / 10⁶: the decimal k / 10⁶ without trailing zeros is its shortest round-trip text.
  const a = k < 0 ? -k : k;
  const int = Math.floor(a / 1e6);
  let frac = a - int * 1e6, digits = 6;
  while (frac % 10 === 0) { frac /= 10; digits--; } // frac > 0: v is not an integer
  const f = String(frac);
  return `${k < 0 ? '-' : ''}${int}.${ZEROS[digits - f.length]}${f}`;
}

function ignitionOf(r: DecodeResult): boolean | null {
  const a = r.attributes;
  if (typeof a.ignition === 'boolean') return a.ignition;
  for (const e of r.events) {
    if (e.key === 'ignitionOn') return true;
    if (e.key === 'ignitionOff') return false;
  }
  return null;
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/**
 * A message as the writer keeps it until COMMIT. Built once when the message is queued, so that the decoded
 * object graph (attributes, positions, field strings) dies young instead of surviving in the queue:
 * the position rows are already COPY text (without the device columns, which are resolved per batch),
 * the attributes already JSON, and only what the latest state, the events and the replies need is kept.
 */
export interface Prepared {
  link: Link;
  raw: string | Buffer;
  done: ((ok: boolean) => void) | undefined;
  /** The original message, kept only when it acknowledges or answers a command (see WriterOptions.onAcksCommitted). */
  ack: IngestMessage | null;
  reply: string | Buffer | undefined;
  deviceId: string;
  protocol: string;
  type: string;
  model: string | null;
  received: string;
  /** COPY lines (UTF-8) of the plausible positions, columns POSICAO_COLS after the device columns; null when none. */
  rows: Buffer | null;
  positions: number;
  implausible: number;
  /** Months (YYYY-MM) of the plausible positions. */
  months: string | string[] | null;
  /** Latest plausible position (by fix time). */
  fixTime: string | null;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  valid: boolean | null;
  ignition: boolean | null;
  battery: number | null;
  power: number | null;
  /** Events to store (report kinds that are not events left out); null when none. */
  events: DecodeResult['events'] | null;
  sentTime: string | null;
  /** The attributes as JSON; null when there are none; ROWS when they are to be read from the rows' last column. */
  attributes: string | null;
  /** Set per write: the device is registered with another tecnologia (e.g. OsmAnd HTTP for a Queclink serial). */
  refused: boolean;
  /** The plausible positions, kept only while a writer hands positions on (keepFixes); else null. */
  fixes: { t: number; lat: number; lon: number; speed: number | null; valid: boolean }[] | null;
  odometer: number | null;
  /** An RFID card read the message carries (generic attribute `rfid`), kept with the fixes. */
  rfid: string | null;
  /** Weights the message reports (CAN), kept with the fixes. */
  weights: Weights | null;
  buffered: boolean;
}

/** Whether prepare() keeps each position for the ingest consumers (set by a writer that has onPositionsCommitted). */
let keepFixes = false;

/** Text of a prepared message's frame (ASCII as is, binary as hex), computed only when needed. */
export function preparedRaw(p: Prepared): string {
  if (typeof p.raw === 'string') return p.raw;
  return (p.raw = rawOf({ raw: p.raw } as IngestMessage));
}

let lastDate: Date | null = null, lastIso = '';
/**
 * One string per device id: the decoders' ids are slices of the whole frame text, which they would keep alive
 * while the message waits in the queue; the interned copy also keeps its hash for the batch's map lookups.
 */
const ids = new Map<string, string>();
function intern(id: string): string {
  const known = ids.get(id);
  if (known !== undefined) return known;
  if (ids.size >= 200_000) ids.clear();
  const copy = Buffer.from(id, 'utf8').toString('utf8'); // a flat string of its own
  ids.set(copy, copy);
  return copy;
}

const SLAB_BYTES = 1 << 20;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES), slabOff = 0;
/** The UTF-8 bytes of a message's rows, in a 1 MB slab shared by many messages (Buffer.from's own 8 KB pools are
 *  refilled a hundred times as often); a slab lives while a queued message uses it. */
function slabBytes(text: string): Buffer {
  const max = text.length * 3;
  if (max > SLAB_BYTES >> 4) return Buffer.from(text);
  if (slabOff + max > SLAB_BYTES) { slab = Buffer.allocUnsafeSlow(SLAB_BYTES); slabOff = 0; }
  const n = slab.write(text, slabOff);
  const out = slab.subarray(slabOff, slabOff + n);
  slabOff += n;
  return out;
}

/** Folds a decoded message into what the writer keeps (see Prepared). */
export function prepare(m: IngestMessage): Prepared {
  const r = m.result;
  if (m.receivedAt !== lastDate) { lastDate = m.receivedAt; lastIso = lastDate.toISOString(); }
  const received = lastIso, receivedMs = lastDate.getTime();
  const ign = ignitionOf(r);
  const attributes = hasKeys(r.attributes) ? jsonbOrderedJson(r.attributes) : null;
  const p: Prepared = {
    link: m.link, raw: m.raw, done: m.done, ack: (r.ack || r.configuration !== undefined) ? m : null, reply: r.reply, deviceId: intern(r.deviceId), protocol: r.protocol,
    type: r.type, model: r.model ?? null, received, rows: null, positions: 0, implausible: 0, months: null,
    fixTime: null, lat: null, lon: null, speed: null, course: null, altitude: null, valid: null, ignition: ign,
    battery: num(r.attributes.batteryLevel) ?? num(r.attributes.battery),
    power: num(r.attributes.externalPowerSupplyVoltage) ?? num(r.attributes.power),
    events: null, sentTime: r.sentTime ?? null, attributes, refused: false,
    fixes: null, odometer: keepFixes ? num(r.attributes.odometer) ?? num(r.attributes.odo_can) ?? num(r.attributes.odo_gps) : null,
    rfid: keepFixes && typeof r.attributes.rfid === 'string' && r.attributes.rfid ? r.attributes.rfid : null,
    weights: keepFixes ? weightsOf(r.attributes) : null,
    buffered: !!r.buffered,
  };
  if (r.positions.length) {
    // serial, fix_time, tipo, received_at | lat ... | ignition, buffered, rpm, attributes (device columns go in front per batch)
    const pre = `${copyText(r.deviceId)}\t`;
    const mid = `\t${copyText(r.type)}\t${received}\t`;
    const post = `\t${ign === null ? '\\N' : ign ? 't' : 'f'}\t${r.buffered ? 't' : 'f'}\t${copyNum(rpmOf(r.attributes))}\t${attributes === null ? '\\N' : copyJson(attributes)}\n`;
    let text = '';
    for (const pos of r.positions) {
      const ms = isoMs(pos.fixTime);
      if (!plausible(ms, receivedMs)) { p.implausible++; continue; }
      text += pre + copyText(pos.fixTime) + mid + copyNum(pos.latitude) + '\t' + copyNum(pos.longitude) + '\t' + copyNum(pos.speedKmh) + '\t'
        + copyNum(pos.course) + '\t' + copyNum(pos.altitude) + '\t' + (pos.valid ? 't' : 'f') + '\t' + copyNum(pos.satellites) + '\t'
        + copyNum(pos.hdop) + post;
      p.positions++;
      if (keepFixes) (p.fixes ??= []).push({ t: ms, lat: pos.latitude, lon: pos.longitude, speed: num(pos.speedKmh), valid: pos.valid });
      const month = pos.fixTime.slice(0, 7);
      if (p.months === null) p.months = month;
      else if (typeof p.months === 'string') { if (p.months !== month) p.months = [p.months, month]; }
      else if (!p.months.includes(month)) p.months.push(month);
      if (p.fixTime === null || pos.fixTime >= p.fixTime) {
        p.fixTime = pos.fixTime; p.lat = pos.latitude; p.lon = pos.longitude; p.speed = num(pos.speedKmh);
        p.course = num(pos.course); p.altitude = num(pos.altitude); p.valid = pos.valid;
      }
    }
    if (p.positions) {
      // Encoded now: the queue keeps bytes outside the JS heap, and the pieces of the `+`-built text die young.
      p.rows = slabBytes(text);
      // The attributes are in the rows already (last column): read back from there when needed (see attributesOf).
      if (attributes !== null) p.attributes = ROWS;
    }
  }
  for (const e of r.events) {
    if (NON_EVENT_KEYS.has(e.key)) continue;
    (p.events ??= []).push(e);
  }
  return p;
}

const TAB = 9, NL = 10;

/** Marks Prepared.attributes as "the last column of the rows". */
const ROWS = '\u0000rows';

/** The attributes JSON of a prepared message (see prepare). */
function attributesOf(m: Prepared): string | null {
  if (m.attributes !== ROWS) return m.attributes;
  const rows = m.rows!;
  const end = rows.length - 1; // the final '\n'
  const start = rows.lastIndexOf(TAB, end) + 1;
  const j = rows.toString('utf8', start, end);
  return j.indexOf('\\') < 0 ? j : j.replace(/\\\\/g, '\\');
}

/** JSON text as a COPY value: JSON.stringify never emits raw tabs/newlines; only backslashes need doubling. */
function copyJson(j: string): string {
  return j.indexOf('\\') < 0 ? j : j.replace(/\\/g, '\\\\');
}

/** JSON of a row object with a pre-serialized `attributes` JSON (or null) spliced in. */
function withAttributes(row: Record<string, unknown>, attributes: string | null): string {
  const j = JSON.stringify(row);
  return `${j.slice(0, -1)}${j.length > 2 ? ',' : ''}"attributes":${attributes ?? 'null'}}`;
}

/** Rows of one batch; positions already as COPY text (POSICAO_COLS order). */
export interface BatchRows {
  posicao: Buffer;
  posicaoCount: number;
  implausible: number; // positions dropped for an impossible fix time
  eventos: string;     // JSON array (json_to_recordset)
  eventoCount: number;
  ultimos: unknown[][]; // one array per column of ULTIMO_COLS (SQL_ULTIMO's parameters)
  ultimoCount: number;
  pendentes: Record<string, unknown>[];
  mensagensPendentes: Record<string, unknown>[];
  touches: { id: number; t: string }[];
  months: Set<string>;
  refused: number;     // messages of a protocol the device is not registered with: not stored, not acked
  /** Of `refused`: sent from outside the company's allowed networks (empresa.redes_permitidas). */
  networkRefused: number;
  pendingKept: number; // raw messages of unknown devices stored (set by the transaction)
}

/** A latest-state row: a key per column of ultimo_estado (attributes apart), so a column added to the metadata
 * fails the type check until the writer fills it. */
export interface Ultimo extends Record<Exclude<UltimoEstadoColumn, 'attributes'>, unknown> {
  serial: string; empresa_id: number; ativo_id: number | null; motorista_id: number | null; protocolo: string;
  modelo: string | null; fix_time: string | null; lat: number | null; lon: number | null; speed: number | null;
  course: number | null; altitude: number | null; valid: boolean | null; ignition: boolean | null; battery: number | null;
  power: number | null; ultimo_tipo: string; ultimo_evento: string | null; ultima_comunicacao: string;
}

const networkLogged = new Map<string, number>();
/** A frame of a registered device from outside its company's networks: logged once a minute per serial and address. */
function logForeignNetwork(dev: DeviceInfo, address: string | undefined): void {
  const key = `${dev.serial}|${address}`, now = Date.now();
  if (now - (networkLogged.get(key) ?? 0) < 60_000) return;
  if (networkLogged.size > 10_000) networkLogged.clear();
  networkLogged.set(key, now);
  log.warn({ serial: dev.serial, empresa: dev.empresaId, address: address ?? null, redes: dev.redes?.entries },
    'quadro de rede não permitida descartado (redes permitidas da empresa)');
}

export function buildRows(batch: Prepared[], devices: Map<string, DeviceInfo | null>, touch: (s: string) => boolean): BatchRows {
  const out: BatchRows = { posicao: EMPTY, posicaoCount: 0, implausible: 0, eventos: '', eventoCount: 0, ultimos: [], ultimoCount: 0,
    pendentes: [], mensagensPendentes: [], touches: [], months: new Set(), refused: 0, networkRefused: 0, pendingKept: 0 };
  const ultimo = new Map<string, { u: Ultimo; last: Prepared | null }>();
  const pend = new Map<string, Record<string, unknown>>();
  const prefixes = new Map<DeviceInfo, Buffer>();
  const copy: Buffer[] = [];
  let eventos = '';
  for (const m of batch) {
    const received = m.received;
    const dev = devices.get(m.deviceId) ?? null;
    m.refused = dev !== null && !protocolAllowed(dev, m.protocol);
    if (!m.refused && dev !== null && !networkAllowed(dev.redes, m.link.address)) {
      m.refused = true;
      out.networkRefused++;
      logForeignNetwork(dev, m.link.address);
    }
    if (m.refused) { out.refused++; continue; }
    if (!dev) {
      const raw = preparedRaw(m);
      const p = pend.get(m.deviceId);
      if (p) { p.quantidade = (p.quantidade as number) + 1; p.ultima = received; p.bruta = raw; p.protocolo = m.protocol; }
      else pend.set(m.deviceId, { serial: m.deviceId, protocolo: m.protocol, primeira: received, ultima: received, quantidade: 1, bruta: raw });
      out.mensagensPendentes.push({ serial: m.deviceId, protocolo: m.protocol, received_at: received, tipo: m.type, raw });
      continue;
    }
    out.implausible += m.implausible;
    if (m.rows) {
      // Device columns (empresa_id, ativo_id, motorista_id) in front of every line.
      let prefix = prefixes.get(dev);
      if (prefix === undefined) {
        prefix = Buffer.from(`${copyNum(dev.empresaId)}\t${copyNum(dev.ativoId)}\t${copyNum(dev.motoristaId)}\t`);
        prefixes.set(dev, prefix);
      }
      const rows = m.rows;
      if (m.positions === 1) copy.push(prefix, rows);
      else {
        for (let s = 0; s < rows.length;) {
          const e = rows.indexOf(NL, s) + 1;
          copy.push(prefix, rows.subarray(s, e));
          s = e;
        }
      }
      out.posicaoCount += m.positions;
      if (typeof m.months === 'string') out.months.add(m.months);
      else if (m.months) for (const k of m.months) out.months.add(k);
    }
    if (m.events) {
      const evTime = m.fixTime ?? m.sentTime ?? received;
      for (const e of m.events) {
        eventos += (eventos ? ',' : '') + withAttributes({
          serial: m.deviceId, empresa_id: dev.empresaId, ativo_id: dev.ativoId, motorista_id: dev.motoristaId, fix_time: evTime,
          code: e.code, key: e.key, description: e.description ?? '', received_at: received, lat: m.lat, lon: m.lon, speed: m.speed,
        }, attributesOf(m));
        out.eventoCount++;
      }
    }
    // Latest state: merge the batch's messages of the same device.
    let x = ultimo.get(m.deviceId);
    if (!x) {
      x = { u: { serial: m.deviceId, empresa_id: dev.empresaId, ativo_id: dev.ativoId, motorista_id: dev.motoristaId, protocolo: m.protocol,
        modelo: m.model ?? dev.modelo, fix_time: null, lat: null, lon: null, speed: null, course: null, altitude: null, valid: null,
        ignition: null, battery: null, power: null, ultimo_tipo: m.type, ultimo_evento: null, ultima_comunicacao: received }, last: null };
      ultimo.set(m.deviceId, x);
    }
    const u = x.u;
    if (m.fixTime !== null && (u.fix_time === null || m.fixTime >= u.fix_time)) {
      u.fix_time = m.fixTime; u.lat = m.lat; u.lon = m.lon; u.speed = m.speed; u.course = m.course; u.altitude = m.altitude; u.valid = m.valid;
    }
    if (m.ignition !== null) u.ignition = m.ignition;
    if (m.battery !== null) u.battery = m.battery;
    if (m.power !== null) u.power = m.power;
    if (m.model) u.modelo = m.model;
    u.ultimo_tipo = m.type;
    if (m.events) u.ultimo_evento = m.events[m.events.length - 1]!.key;
    if (received > u.ultima_comunicacao) u.ultima_comunicacao = received;
    if (m.attributes !== null) x.last = m; // newest message's attributes; SQL merges them over the stored ones
  }
  if (copy.length) out.posicao = Buffer.concat(copy);
  out.eventos = `[${eventos}]`;
  out.ultimos = ultimoParams([...ultimo.values()].map(({ u, last }) => ({ ...u, attributes: last && attributesOf(last) })));
  out.ultimoCount = ultimo.size;
  for (const u of ultimo.values()) {
    const dev = devices.get(u.u.serial);
    if (dev && touch(dev.serial)) out.touches.push({ id: dev.equipamentoId, t: u.u.ultima_comunicacao });
  }
  out.pendentes = [...pend.values()];
  return out;
}

const EMPTY = Buffer.alloc(0);

/** The stored positions of a committed batch (messages of registered devices, not refused). */
function committedFixes(batch: Prepared[], devices: Map<string, DeviceInfo | null>): IngestFix[] {
  const out: IngestFix[] = [];
  for (const m of batch) {
    if (!m.fixes || m.refused) continue;
    const dev = devices.get(m.deviceId);
    if (!dev) continue;
    // a card read belongs to the message's newest position (one read, whatever the number of positions)
    let newest = 0;
    for (let i = 1; i < m.fixes.length; i++) if (m.fixes[i]!.t >= m.fixes[newest]!.t) newest = i;
    m.fixes.forEach((f, i) => {
      out.push({ serial: m.deviceId, empresaId: dev.empresaId, ativoId: dev.ativoId, motoristaId: dev.motoristaId, t: f.t, lat: f.lat, lon: f.lon,
        speed: f.speed, ignition: m.ignition, valid: f.valid, odometer: m.odometer, buffered: m.buffered, rfid: i === newest ? m.rfid : null,
        weights: m.weights });
    });
  }
  return out;
}

/**
 * A string as a dollar-quoted SQL literal, without escaping: the text does not contain the tag without its final
 * "$" (so neither the tag nor, at its end, the start of one).
 */
export function dollarQuote(text: string): string {
  let open = '$r';
  for (let i = 0; text.includes(open); i++) open = `$r${i}`;
  return `${open}$${text}${open}$`;
}

/** An array as a PostgreSQL array literal's text (elements quoted; null as NULL). */
export function arrayLiteral(values: unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'number') out += Number.isFinite(v) ? String(v) : 'NULL';
    else if (typeof v === 'boolean') out += v ? 't' : 'f';
    else {
      const t = String(v);
      out += `"${/["\\]/.test(t) ? t.replace(/["\\]/g, '\\$&') : t}"`;
    }
  }
  return `${out}}`;
}

/** A statement with its $n parameters (strings or arrays) written in as literals, for a multi-statement simple query. */
export function inlineParams(sql: string, params: unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    return dollarQuote(Array.isArray(v) ? arrayLiteral(v) : String(v));
  });
}

const SERIAL_AT = ULTIMO_COLS.findIndex(([c]) => c === 'serial');
const EMPRESA_AT = ULTIMO_COLS.findIndex(([c]) => c === 'empresa_id');
/** Company and serial of each latest-state row of a batch (the bus's message). */
export function ultimoKeys(rows: BatchRows): { empresaId: number | null; serial: string }[] {
  const serials = rows.ultimos[SERIAL_AT] as string[], empresas = rows.ultimos[EMPRESA_AT] as (number | null)[];
  return serials.map((serial, i) => ({ serial, empresaId: empresas[i] ?? null }));
}

/** SQL_ULTIMO's parameters: one array per column, rows sorted by serial; attributes as JSON text (or null). */
export function ultimoParams(rows: (Ultimo & { attributes: string | null })[]): unknown[][] {
  rows.sort((a, b) => (a.serial < b.serial ? -1 : a.serial > b.serial ? 1 : 0));
  return ULTIMO_COLS.map(([c]) => rows.map((r) => r[c as UltimoCol]));
}

/**
 * Backpressure in the log: under load reading pauses and resumes with every batch (hundreds of times a second),
 * so instead of a line per pause, ONE line when an episode starts and one when it ends (no pause for quietMs),
 * with how many times reading was paused and how many messages came in meanwhile.
 */
export class BackpressureLog {
  private active = false;
  private since = 0;
  private pauses = 0;
  private messages = 0;
  private maxQueued = 0;
  private timer: NodeJS.Timeout | null = null;
  constructor(private quietMs = 1000, private logger: Pick<typeof log, 'warn' | 'info'> = log) {}

  get inEpisode(): boolean { return this.active; }

  /** Reading was paused with this many messages waiting. */
  paused(queued: number): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (!this.active) {
      this.active = true;
      this.since = Date.now();
      this.pauses = 0;
      this.messages = 0;
      this.maxQueued = 0;
      this.logger.warn({ queued }, 'fila de gravação cheia: pausando leitura das conexões');
    }
    this.pauses++;
    if (queued > this.maxQueued) this.maxQueued = queued;
  }

  /** A message was queued (counted only during an episode). */
  message(): void { if (this.active) this.messages++; }

  /** Reading resumed: the episode ends unless it pauses again within quietMs. */
  resumed(): void {
    if (!this.active || this.timer) return;
    this.timer = setTimeout(() => { this.timer = null; this.end(); }, this.quietMs);
    this.timer.unref();
  }

  /** Ends the episode now (also on stop), logging its summary. */
  end(): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (!this.active) return;
    this.active = false;
    this.logger.info({ pausas: this.pauses, mensagens: this.messages, maiorFila: this.maxQueued, duracaoMs: Date.now() - this.since },
      `fila de gravação normalizada: leitura pausada ${this.pauses} vez(es), ${this.messages} mensagens recebidas durante o episódio`);
  }
}

export class BatchWriter {
  readonly directory: DeviceDirectory;
  private queue: Prepared[] = [];
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
  readonly opts: Required<Omit<WriterOptions, 'onAcksCommitted' | 'pending' | 'onPositionsCommitted' | 'estadoBus'>> & Pick<WriterOptions, 'onAcksCommitted' | 'estadoBus'>;
  readonly pendingLimits: PendingLimits;
  private pendingAdded = 0;      // raw pending messages stored since the last maintenance
  private maintaining: Promise<void> | null = null;
  private maintenanceTimer: NodeJS.Timeout | null = null;
  private lastFullLog = 0;
  readonly backpressure = new BackpressureLog();
  private onPositions: ((fixes: IngestFix[]) => void) | undefined;

  constructor(private pool: pg.Pool, private metrics: GatewayMetrics, opts: WriterOptions = {}, directory?: DeviceDirectory) {
    this.opts = { ...writerOptionsFromEnv(), retryMinMs: 100, retryMaxMs: 5000, ...opts };
    delete (this.opts as WriterOptions).pending;
    delete (this.opts as WriterOptions).onPositionsCommitted;
    this.onPositions = opts.onPositionsCommitted;
    this.pendingLimits = { ...pendingLimitsFromEnv(), ...opts.pending };
    this.directory = directory ?? new DeviceDirectory(pool);
    if (opts.onPositionsCommitted) keepFixes = true;
  }

  get queued(): number { return this.queue.length + this.inFlightMsgs; }

  /** Applies the total bound and the retention of the pending list now and then (see PendingLimits). */
  startMaintenance(): void {
    if (this.maintenanceTimer || !this.pendingLimits.maintenanceMs) return;
    this.maintenanceTimer = setInterval(() => void this.maintainPending(), this.pendingLimits.maintenanceMs);
    this.maintenanceTimer.unref();
    void this.maintainPending();
  }

  /** Total bound (oldest raw messages dropped, counted per serial in descartadas) and retention. */
  maintainPending(): Promise<void> {
    this.maintaining ??= (async () => {
      const lim = this.pendingLimits;
      this.pendingAdded = 0;
      try {
        if (lim.retentionDays > 0) {
          await this.pool.query(`DELETE FROM telemetria.mensagem_pendente WHERE received_at < now() - make_interval(days => $1)`, [lim.retentionDays]);
          await this.pool.query(`DELETE FROM ${pend.table} WHERE ${pend.ultimaMensagem} < now() - make_interval(days => $1)`, [lim.retentionDays]);
        }
        if (lim.total > 0) await this.pool.query(SQL_PENDENTE_TOTAL, [lim.total]);
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'falha na limpeza dos equipamentos pendentes');
      } finally {
        this.maintaining = null;
      }
    })();
    return this.maintaining;
  }

  private pendingSinceTrim(n: number): void {
    this.pendingAdded += n;
    const total = this.pendingLimits.total;
    if (total > 0 && this.pendingAdded >= Math.max(100, total / 10)) void this.maintainPending();
  }

  private pendingListFull(dropped: number): void {
    this.metrics.pendingDropped += dropped;
    const now = Date.now();
    if (now - this.lastFullLog < 10_000) return;
    this.lastFullLog = now;
    log.warn({ serials: this.pendingLimits.serials, dropped: this.metrics.pendingDropped }, 'lista de equipamentos pendentes cheia: mensagens de novos seriais descartadas');
  }

  private get resumeAt(): number {
    return Math.max(this.opts.maxQueued / 2, this.opts.maxQueued - this.opts.maxBatch);
  }

  /** Links register here so they can be paused when the queue is full. */
  register(l: { pause?(): void; resume?(): void }): () => void {
    this.pausables.add(l);
    if (this.paused) l.pause?.();
    return () => this.pausables.delete(l);
  }

  enqueue(m: IngestMessage): void {
    this.queue.push(prepare(m));
    this.metrics.queued = this.queued;
    if (this.backpressure.inEpisode) this.backpressure.message();
    if (!this.paused && this.queued >= this.opts.maxQueued) {
      this.paused = true;
      this.metrics.readPauses++;
      this.backpressure.paused(this.queued);
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
      // Resume as soon as one batch's worth fits again: short reading bursts keep this process's event loop
      // free to answer the database (a long burst of decoding would leave PostgreSQL idle meanwhile).
      if (this.paused && this.queued <= this.resumeAt) {
        this.paused = false;
        for (const l of this.pausables) l.resume?.();
        this.backpressure.resumed();
      }
      if (this.queue.length) this.schedule(); else this.notifyIdle();
    }
  }

  /** Writes; a permanent (data) error splits the batch to isolate and drop the bad message(s). */
  private async writeWithBisect(batch: Prepared[]): Promise<void> {
    try {
      await this.write(batch);
      this.committed(batch);
    } catch (err) {
      if (isTransient(err)) throw err;
      if (batch.length === 1) {
        this.metrics.rejectedMessages++;
        log.error({ err: (err as Error).message, serial: batch[0]!.deviceId, raw: preparedRaw(batch[0]!).slice(0, 300) }, 'mensagem rejeitada pelo banco');
        batch[0]!.done?.(false);
        return;
      }
      const half = batch.length >> 1;
      await this.writeWithBisect(batch.slice(0, half));
      await this.writeWithBisect(batch.slice(half));
    }
  }

  private async write(batch: Prepared[]): Promise<void> {
    const devices = await this.directory.resolve(batch.map((m) => m.deviceId));
    const rows = buildRows(batch, devices, (s) => this.directory.shouldTouch(s));
    const client = await this.pool.connect();
    let broken = false;
    try {
      const newMonths = [...rows.months].filter((k) => !this.knownMonths.has(k));
      if (newMonths.length) {
        await client.query(`SELECT telemetria.garante_particao('posicao', t) FROM unnest($1::timestamptz[]) t`, [newMonths.map((k) => `${k}-01T00:00:00Z`)]);
        for (const k of newMonths) this.knownMonths.add(k);
      }
      // Fast path: COPY straight into posicao. A duplicate (device resend, retry after an ambiguous commit)
      // fails it: then once more with COPY into the staging table + INSERT ... ON CONFLICT DO NOTHING.
      let direct = true;
      try {
        await this.transaction(client, rows, false);
      } catch (err) {
        if ((err as { code?: string }).code !== '23505') throw err;
        direct = false;
        await client.query('ROLLBACK');
        await this.transaction(client, rows, true);
      }
      if (rows.ultimoCount && this.opts.estadoBus) this.opts.estadoBus.publish(ultimoKeys(rows));
      if (direct && rows.posicaoCount) this.metrics.directCopies++;
      if (this.onPositions && rows.posicaoCount) {
        // committed: a consumer's failure is its own (never a retry of the batch)
        try { this.onPositions(committedFixes(batch, devices)); } catch (err) { log.error({ err: (err as Error).message }, 'falha ao repassar posições gravadas'); }
      }
      this.metrics.positions += rows.posicaoCount;
      this.metrics.implausiblePositions += rows.implausible;
      this.metrics.events += rows.eventoCount;
      this.metrics.pendingMessages += rows.pendingKept;
      if (rows.pendingKept < rows.mensagensPendentes.length) this.pendingListFull(rows.mensagensPendentes.length - rows.pendingKept);
      if (rows.pendingKept) this.pendingSinceTrim(rows.pendingKept);
      this.metrics.refusedMessages += rows.refused;
      this.metrics.networkRefused += rows.networkRefused;
      this.metrics.batches++;
    } catch (err) {
      broken = isTransient(err);
      if (!broken) await client.query('ROLLBACK').catch(() => { broken = true; });
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /**
   * One transaction in ONE round trip (see pipelined.ts): BEGIN, the COPY of the positions (its data written right
   * behind the query), the statements of unknown devices, events, latest state, equipment touches and COMMIT as one
   * simple query, their parameters inlined as literals (see inlineParams). A failed statement skips the rest: the
   * error is thrown and write() rolls back.
   */
  private async transaction(client: pg.PoolClient, rows: BatchRows, staging: boolean): Promise<void> {
    const sql = ['BEGIN'];
    // Published on Redis after COMMIT instead of the trigger's NOTIFY (server/realtime/bus.ts).
    if (rows.ultimoCount && this.opts.estadoBus) sql.push(`SET LOCAL rastro.estado_bus = 'redis'`);
    if (rows.posicaoCount) {
      if (staging && !this.staged.has(client)) { sql.push(SQL_STAGING); this.staged.add(client); }
      sql.push(staging ? SQL_COPY_POSICAO : SQL_COPY_DIRECT);
      if (staging) sql.push(SQL_POSICAO);
    }
    let pendingAt = -1;
    if (rows.pendentes.length) {
      const lim = this.pendingLimits;
      sql.push(inlineParams(SQL_PENDENTE, [JSON.stringify(rows.pendentes), lim.serials]));
      pendingAt = sql.length;
      sql.push(inlineParams(SQL_MENSAGEM_PENDENTE, [JSON.stringify(rows.mensagensPendentes)]));
      if (lim.perSerial > 0) sql.push(inlineParams(SQL_PENDENTE_POR_SERIAL, [rows.pendentes.map((p) => p.serial), lim.perSerial]));
    }
    if (rows.eventoCount) sql.push(inlineParams(SQL_EVENTO, [rows.eventos]));
    if (rows.ultimoCount) sql.push(inlineParams(SQL_ULTIMO, rows.ultimos));
    if (rows.touches.length) sql.push(inlineParams(SQL_TOUCH, [JSON.stringify(rows.touches)]));
    sql.push('COMMIT');
    try {
      const tags = await pipelined(client, sql.join(';\n'), rows.posicaoCount ? rows.posicao : null);
      const tag = tags[tags.length - 1];
      if (tags.length !== sql.length || tag !== 'COMMIT') throw Object.assign(new Error(`transação não confirmada (${tag})`), { code: '40000' });
      if (pendingAt >= 0) rows.pendingKept = Number(tags[pendingAt]!.split(' ').pop());
    } catch (err) {
      if (staging) this.staged.delete(client); // the CREATE may have been rolled back with the rest
      throw err;
    }
  }

  /** After COMMIT: replies to the devices (one write per link), then callbacks. */
  private committed(batch: Prepared[]): void {
    const out = new Map<Link, (string | Buffer)[]>();
    let acks: IngestMessage[] | null = null;
    for (const m of batch) {
      if (m.refused) continue;
      const reply = m.reply;
      if (reply !== undefined && m.link.alive) {
        if (!m.link.stream) { if (m.link.send(reply)) this.metrics.acksSent++; }
        else {
          const l = out.get(m.link);
          if (l) l.push(reply); else out.set(m.link, [reply]);
        }
      }
      if (m.ack) (acks ??= []).push(m.ack);
    }
    for (const m of batch) m.done?.(!m.refused);
    for (const [link, replies] of out) {
      const data = replies.length === 1 ? replies[0]! : replies.every((r) => typeof r === 'string') ? (replies as string[]).join('')
        : Buffer.concat(replies.map((r) => (typeof r === 'string' ? Buffer.from(r, 'latin1') : r)));
      if (link.send(data)) this.metrics.acksSent += replies.length;
    }
    if (acks) this.opts.onAcksCommitted?.(acks);
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
    this.backpressure.end();
    if (this.maintenanceTimer) clearInterval(this.maintenanceTimer);
    this.maintenanceTimer = null;
    await this.maintaining;
    const w = this.idleWaiters; this.idleWaiters = [];
    for (const f of w) f();
  }
}

export { monthKey };
