// Whole-result export (CSV or XLSX) with bounded memory: rows come in batches (keyset paging), and the next batch
// is read only when the client has taken the previous one (pull-based body).
// A failure after the first bytes cannot change the status any more: the CSV gets a last line saying the file is
// incomplete, then the connection is aborted (no final chunk), so browsers and HTTP clients report a failed
// download instead of a short file. Concurrent exports are limited per user and in total.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EntityMeta, FieldMeta } from '../../generator/model.ts';
import type { Session } from '../app/env.ts';
import { idOf, idsOf } from '../auth/users.ts';
import { HttpError } from '../http/envelope.ts';
import { entityByKey, ormName } from './registry.ts';

// Rows per query: each batch re-runs the filter, so larger batches mean fewer passes; memory stays bounded by it.
const BATCH = Number(process.env.EXPORT_BATCH ?? 2000);

export interface ExportOpts {
  em: EntityManager; entity: EntityMeta; session: Session; where: Record<string, unknown>;
  orderBy: Record<string, 'ASC' | 'DESC'>[]; columns: { field: FieldMeta; label: string }[];
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
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[";\n\r,]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

type Row = Record<string, any>;

/** Sort field types whose values round-trip exactly between PostgreSQL and JS (keyset paging is safe). */
const EXACT = new Set(['integer', 'reference', 'string', 'text', 'enum', 'boolean', 'date', 'time', 'number']);

/** Rows after `last` in the order [{field: dir}, {id: ASC}] (PostgreSQL: NULLS LAST for ASC, FIRST for DESC). */
function after(field: string, dir: 'ASC' | 'DESC', last: Row, nullable: boolean): Row {
  const id = last.id, v = last[field];
  if (field === 'id') return { id: { [dir === 'ASC' ? '$gt' : '$lt']: id } };
  const asc = dir === 'ASC';
  if (v == null) return asc ? { [field]: null, id: { $gt: id } } : { $or: [{ [field]: null, id: { $gt: id } }, { [field]: { $ne: null } }] };
  return { $or: [{ [field]: { [asc ? '$gt' : '$lt']: v } }, { [field]: v, id: { $gt: id } }, ...(asc && nullable ? [{ [field]: null }] : [])] };
}

/**
 * Batches of plain rows (property names, references as ids), one ordinary query per batch: keyset paging after
 * the last row (offset only when sorting by a timestamp, whose microseconds JS cannot carry). No connection is
 * held between batches (a slow client cannot pin the pool) and a lost connection fails the next batch — the
 * ORM's cursor stream instead waits forever for a dead connection. Many-to-many columns are loaded per batch.
 */
async function* batches(o: ExportOpts): AsyncGenerator<Row[]> {
  const name = ormName(o.em, o.entity);
  const meta = o.em.getMetadata().find(name)!;
  const m2n = o.columns.map((c) => c.field.name).filter((n) => meta.properties[n as never]?.kind === 'm:n');
  const [sortField, dir] = Object.entries(o.orderBy[0] ?? { id: 'ASC' })[0] as [string, 'ASC' | 'DESC'];
  const f = o.entity.fields.find((x) => x.name === sortField);
  const keyset = sortField === 'id' || (!!f && EXACT.has(f.type));
  const nullable = meta.properties[sortField as never]?.nullable !== false;
  let last: Row | null = null;
  for (let offset = 0; ; offset += BATCH) {
    const where = keyset && last ? { $and: [o.where, after(sortField, dir, last, nullable)] } : o.where;
    const qb = o.em.createQueryBuilder(name).select('*').where(where as never).orderBy(o.orderBy as never).limit(BATCH);
    if (!keyset) qb.offset(offset);
    const rows = (await qb.execute('all', true)) as Row[]; // plain data keyed by property, no entities
    if (!rows.length) return;
    last = rows[rows.length - 1];
    if (m2n.length) {
      const full = (await o.em.find(name, { id: { $in: rows.map((r) => r.id) } } as never, { populate: m2n as never[], filters: false })) as Row[];
      const byId = new Map(full.map((r) => [Number(r.id), r]));
      for (const r of rows) for (const n of m2n) r[n] = idsOf(byId.get(Number(r.id))?.[n]);
    }
    yield rows;
    if (rows.length < BATCH) return;
  }
}

async function cellValues(o: ExportOpts, rows: Record<string, any>[]): Promise<unknown[][]> {
  const labels = new Map<string, Map<number, string>>();
  for (const { field } of o.columns) {
    if (!field.reference || (field.type !== 'reference' && field.type !== 'referenceList')) continue;
    const target = entityByKey(field.reference);
    if (!target) continue;
    const ids = [...new Set(rows.flatMap((r) => (field.type === 'reference' ? [idOf(r[field.name])] : idsOf(r[field.name]))).filter((x): x is number => x != null))];
    const m = new Map<number, string>();
    if (ids.length) {
      const refs = (await o.em.find(ormName(o.em, target), { id: { $in: ids } } as never, { filters: false })) as Record<string, any>[];
      for (const r of refs) m.set(Number(r.id), String(r[target.recordRepresentation] ?? r.id));
    }
    labels.set(field.name, m);
  }
  o.em.clear(); // the looked-up references must not pile up in the identity map
  return rows.map((r) => o.columns.map(({ field }) => {
    const v = r[field.name];
    if (v == null) return null;
    const m = labels.get(field.name);
    if (m && field.type === 'reference') return m.get(idOf(v)!) ?? idOf(v);
    if (m) return idsOf(v).map((i) => m.get(i) ?? i).join(', ');
    if (field.type === 'enum') return field.options?.find((x) => x.value === v)?.label ?? v;
    if (field.type === 'boolean') return v ? 'Sim' : 'Não';
    if (v instanceof Date) return o.format === 'xlsx' ? v : v.toISOString();
    return v;
  }));
}

const enc = new TextEncoder();
const tick = () => new Promise<void>((r) => setImmediate(r));

async function* csvChunks(o: ExportOpts, source: AsyncIterable<Record<string, any>[]>): AsyncGenerator<Uint8Array> {
  yield enc.encode('\uFEFF' + o.columns.map((c) => csvCell(c.label)).join(';') + '\r\n');
  for await (const rows of source) {
    const lines = (await cellValues(o, rows)).map((vals) => vals.map(csvCell).join(';')).join('\r\n');
    yield enc.encode(lines + '\r\n');
    await tick(); // let other requests run between batches
  }
}

async function* xlsxChunks(o: ExportOpts, source: AsyncIterable<Record<string, any>[]>): AsyncGenerator<Uint8Array> {
  const pass = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: pass, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(o.entity.label.plural.slice(0, 31));
  ws.columns = o.columns.map((c) => ({ header: c.label, key: c.field.name, width: Math.max(12, c.label.length + 2) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let stop = false;
  const ac = new AbortController();
  const producer = (async () => {
    for await (const rows of source) {
      if (stop) return;
      for (const vals of await cellValues(o, rows)) ws.addRow(vals).commit();
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

/** The encoded file as chunks (used by exportResponse; also handy in tests). */
export function exportChunks(o: ExportOpts, source: AsyncIterable<Record<string, any>[]> = batches(o)): AsyncGenerator<Uint8Array> {
  return o.format === 'csv' ? csvChunks(o, source) : xlsxChunks(o, source);
}

/**
 * A streaming Response for an export. The first chunk (header and first batch) is produced before answering, so
 * an early failure is still an ordinary JSON error; later failures end the body as described at the top.
 */
export async function exportBody(chunks: AsyncGenerator<Uint8Array>, o: { format: 'csv' | 'xlsx'; log?: Logger; onEnd?: () => void }): Promise<ReadableStream<Uint8Array>> {
  const end = () => o.onEnd?.();
  let first: IteratorResult<Uint8Array>;
  try { first = await chunks.next(); } catch (err) { end(); throw err; }
  let pending: IteratorResult<Uint8Array> | null = first;
  let failure: unknown = null;
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      if (failure) {
        // Give the error line a moment to leave before the connection is cut.
        await new Promise((r) => setTimeout(r, 50));
        ctrl.error(failure);
        return;
      }
      try {
        const r = pending ?? (await chunks.next());
        pending = null;
        if (r.done) { end(); ctrl.close(); } else ctrl.enqueue(r.value);
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
      end();
      await chunks.return(undefined).catch(() => undefined);
    },
  }, { highWaterMark: 1 });
}

export async function exportResponse(o: ExportOpts & { log?: Logger }): Promise<Response> {
  const release = acquireExportSlot(o.session.usuarioId);
  const body = await exportBody(exportChunks(o), { format: o.format, log: o.log, onEnd: release });
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': o.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': `attachment; filename="${o.entity.key}.${o.format}"`,
      'Cache-Control': 'no-store',
    },
  });
}

/** Writes a whole export through `write` (kept for callers that own the stream). */
export async function exportRows(o: ExportOpts & { write: (chunk: string | Uint8Array) => Promise<unknown> }): Promise<void> {
  for await (const chunk of exportChunks(o)) await o.write(chunk);
}
