// Whole-result export (CSV or XLSX) with bounded memory: rows come in batches (the read engine's cursor,
// server/read/engine.ts readBatches, or a provider's pages), and the next batch is read only when the client has
// taken the previous one (pull-based body). This module only encodes, streams and limits.
// A failure after the first bytes cannot change the status any more: the CSV gets a last line saying the file is
// incomplete, then the connection is aborted (no final chunk), so browsers and HTTP clients report a failed
// download instead of a short file. Concurrent exports are limited per user and in total.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EntityMeta, FieldMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { idOf, idsOf } from '../../shared/ids.ts';
import { HttpError } from '../http/envelope.ts';
import { entityByKey, ormName } from '../core/registry.ts';
import { LABELS } from '../read/index.ts';
import { exportHeaders } from './protocol.ts';

/** Rows encoded between two turns of the event loop. */
const SLICE = 250;

export interface ExportOpts {
  em: EntityManager; entity: EntityMeta; session: Session; columns: { field: FieldMeta; label: string }[];
  format: 'csv' | 'xlsx';
}

/** Last line of a CSV whose export failed midway (the connection is aborted right after it). */
export const CSV_ERROR_LINE = 'ERRO: a exportação foi interrompida por uma falha no servidor; este arquivo está incompleto.';

// ---------- concurrency limit ----------

const active = new Map<number, number>();
let total = 0;

export const exportLimits = () => ({
  perUser: Number(process.env.EXPORT_MAX_PER_USER ?? 2),
  total: Number(process.env.EXPORT_MAX_TOTAL ?? 6),
});

/** Takes an export slot of the user or answers 429; the returned release is idempotent. */
export function acquireExportSlot(usuarioId: number): () => void {
  const lim = exportLimits();
  const mine = active.get(usuarioId) ?? 0;
  if (mine >= lim.perUser) {
    throw new HttpError(429, lim.perUser === 1
      ? 'Você já tem uma exportação em andamento. Aguarde o término para iniciar outra.'
      : `Você já tem ${mine} exportações em andamento. Aguarde o término de uma delas para iniciar outra.`);
  }
  if (total >= lim.total) throw new HttpError(429, 'O servidor está com muitas exportações em andamento. Tente novamente em instantes.');
  active.set(usuarioId, mine + 1);
  total++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    total--;
    const n = (active.get(usuarioId) ?? 1) - 1;
    if (n > 0) active.set(usuarioId, n); else active.delete(usuarioId);
  };
}

/** Exports in progress (tests and diagnostics). */
export const activeExports = () => ({ total, byUser: Object.fromEntries(active) });

// ---------- rows ----------

function csvCell(v: unknown): string {
  if (v == null) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  // Guard against spreadsheet formula injection, then quote.
  // (a plain number, negative or decimal with a comma, is not a formula)
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-\d+(,\d+)?$/.test(s) ? `'${s}` : s;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

type Row = Record<string, any>;

async function cellValues(o: ExportOpts, rows: Record<string, any>[]): Promise<unknown[][]> {
  // Codes of a register (metadata lookup) as their labels.
  const codes = new Map<string, Map<string, string>>();
  for (const { field } of o.columns) {
    const target = field.lookup && entityByKey(field.lookup.entity);
    if (!target) continue;
    const values = [...new Set(rows.map((r) => r[field.name]).filter((v): v is string => typeof v === 'string'))];
    const refs = values.length ? (await o.em.find(ormName(o.em, target), { [field.lookup!.value]: { $in: values } } as never)) as Record<string, any>[] : [];
    codes.set(field.name, new Map(refs.map((r) => [String(r[field.lookup!.value]), String(r[target.recordRepresentation] ?? r[field.lookup!.value])])));
  }
  o.em.clear(); // the looked-up codes must not pile up in the identity map
  return rows.map((r) => o.columns.map(({ field }) => {
    const v = r[field.name];
    if (v == null) return null;
    // References: their labels, read with the rows by the engine (server/read/engine.ts LABELS, company-scoped).
    const label = r[LABELS]?.[field.name];
    if (field.type === 'reference') return label ?? idOf(v);
    if (field.type === 'referenceList') { const ls = Array.isArray(label) ? label : []; return idsOf(v).map((i, k) => ls[k] ?? i).join(', '); }
    if (field.type === 'enum') return field.options?.find((x) => x.value === v)?.label ?? v;
    if (field.lookup) return codes.get(field.name)?.get(String(v)) ?? v;
    if (field.type === 'boolean') return v ? 'Sim' : 'Não';
    if (v instanceof Date) return o.format === 'xlsx' ? v : v.toISOString();
    // pt-BR spreadsheets read '1234,5' in a semicolon CSV ('1234.5' becomes text or a date); XLSX keeps numbers.
    if (typeof v === 'number' && o.format === 'csv') return String(v).replace('.', ',');
    return v;
  }));
}

const enc = new TextEncoder();
const tick = () => new Promise<void>((r) => setImmediate(r));

async function* csvChunks(o: ExportOpts, source: AsyncIterable<Record<string, any>[]>): AsyncGenerator<Uint8Array> {
  yield enc.encode('\uFEFF' + o.columns.map((c) => csvCell(c.label)).join(';') + '\r\n');
  for await (const rows of source) {
    const vals = await cellValues(o, rows);
    // Small slices with a turn of the event loop between them: other requests are not held behind a batch.
    for (let i = 0; i < vals.length; i += SLICE) {
      yield enc.encode(vals.slice(i, i + SLICE).map((v) => v.map(csvCell).join(';')).join('\r\n') + '\r\n');
      await tick();
    }
  }
}

/** A streamed XLSX workbook (exceljs' writer): `setup` adds the sheet and its heading rows, then each batch's rows
 *  (cell values, `rowsOf`) are written as they come, with backpressure toward the client and a turn of the event loop
 *  between slices. Stops reading when the consumer stops. Also used by the reports module. */
export async function* xlsxStream<T>(setup: (wb: ExcelJS.stream.xlsx.WorkbookWriter) => ExcelJS.Worksheet, source: AsyncIterable<T>,
  rowsOf: (batch: T) => unknown[][] | Promise<unknown[][]>): AsyncGenerator<Uint8Array> {
  const pass = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: pass, useStyles: true, useSharedStrings: false });
  const ws = setup(wb);
  let stop = false;
  const ac = new AbortController();
  const producer = (async () => {
    for await (const batch of source) {
      if (stop) return;
      const vals = await rowsOf(batch);
      for (let i = 0; i < vals.length; i++) {
        ws.addRow(vals[i]).commit();
        if (i % SLICE === SLICE - 1) await tick();
      }
      // Backpressure: wait while the client has not taken what the zip writer produced.
      while (!stop && pass.readableLength > 1 << 20) await once(pass, 'data', { signal: ac.signal });
      await tick();
    }
    ws.commit();
    await wb.commit();
  })().catch((err) => { pass.destroy(err); });
  try {
    for await (const chunk of pass) yield chunk as Uint8Array;
  } finally {
    stop = true;
    ac.abort();
    await producer;
  }
}

function xlsxChunks(o: ExportOpts, source: AsyncIterable<Record<string, any>[]>): AsyncGenerator<Uint8Array> {
  return xlsxStream((wb) => {
    const ws = wb.addWorksheet(o.entity.label.plural.slice(0, 31));
    ws.columns = o.columns.map((c) => ({ header: c.label, key: c.field.name, width: Math.max(12, c.label.length + 2) }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    return ws;
  }, source, (rows) => cellValues(o, rows));
}

/** The encoded file as chunks (used by exportResponse; also handy in tests). The first batch is read before the
 *  first chunk: a source that refuses at once (a parent of another company: 404, a bad filter: 400) fails the first
 *  chunk, which exportBody takes before answering, so the client gets the JSON error instead of a broken file. */
export async function* exportChunks(o: ExportOpts, source: AsyncIterable<Record<string, any>[]>): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  let first: IteratorResult<Record<string, any>[]>;
  try { first = await it.next(); } catch (err) { await it.return?.(); throw err; }
  async function* rest() {
    try {
      for (let r = first; !r.done; r = await it.next()) yield r.value;
    } finally {
      await it.return?.();
    }
  }
  yield* o.format === 'csv' ? csvChunks(o, rest()) : xlsxChunks(o, rest());
}

/**
 * A streaming Response for an export. The first chunk (header and first batch) is produced before answering, so
 * an early failure is still an ordinary JSON error; later failures end the body as described at the top.
 */
export async function exportBody(chunks: AsyncGenerator<Uint8Array>, o: { format: 'csv' | 'xlsx'; log?: Logger; onEnd?: () => void; idleMs?: number }): Promise<ReadableStream<Uint8Array>> {
  const end = () => o.onEnd?.();
  let first: IteratorResult<Uint8Array>;
  try { first = await chunks.next(); } catch (err) { end(); throw err; }
  let pending: IteratorResult<Uint8Array> | null = first;
  let failure: unknown = null;
  // A client that stops reading for idleMs gives its slot and its database connection back.
  const idleMs = o.idleMs ?? Number(process.env.EXPORT_IDLE_TIMEOUT_MS ?? 60_000);
  let idle: NodeJS.Timeout | undefined;
  const stopIdle = () => clearTimeout(idle);
  const armIdle = (ctrl: ReadableStreamDefaultController<Uint8Array>) => {
    stopIdle();
    idle = setTimeout(() => {
      end();
      o.log?.warn({ idleMs }, 'exportação encerrada: o cliente parou de ler');
      void chunks.return(undefined).catch(() => undefined);
      try { ctrl.error(new Error(`exportação encerrada: o cliente não leu nada em ${idleMs} ms`)); } catch { /* already closed */ }
    }, idleMs);
    idle.unref();
  };
  return new ReadableStream<Uint8Array>({
    start(ctrl) { armIdle(ctrl); },
    async pull(ctrl) {
      stopIdle();
      if (failure) {
        // Give the error line a moment to leave before the connection is cut.
        await new Promise((r) => setTimeout(r, 50));
        ctrl.error(failure);
        return;
      }
      try {
        const r = pending ?? (await chunks.next());
        pending = null;
        if (r.done) { end(); ctrl.close(); } else { ctrl.enqueue(r.value); armIdle(ctrl); }
      } catch (err) {
        end();
        o.log?.error({ err }, 'exportação interrompida');
        failure = err instanceof Error ? err : new Error(String(err));
        if (o.format === 'csv') ctrl.enqueue(enc.encode(`\r\n${CSV_ERROR_LINE}\r\n`));
        else { await new Promise((r) => setTimeout(r, 50)); ctrl.error(failure); }
      }
    },
    async cancel() {
      // Client went away: close the cursor, free the slot.
      stopIdle();
      end();
      await chunks.return(undefined).catch(() => undefined);
    },
  }, { highWaterMark: 1 });
}

/** The download of an export (file named after o.entity.key): rows from `source`, streamed, within the caller's
 *  export slot. */
export async function exportResponse(o: ExportOpts & { log?: Logger }, source: AsyncIterable<Record<string, any>[]>): Promise<Response> {
  const release = acquireExportSlot(o.session.usuarioId);
  const body = await exportBody(exportChunks(o, source), { format: o.format, log: o.log, onEnd: release });
  return new Response(body, { status: 200, headers: exportHeaders(o.entity.key, o.format) });
}
