// Report files: XLSX (exceljs, streamed), CSV (pt-BR: ';', decimal comma, BOM) and PDF (pdf-table.ts: landscape table
// with the title, the parameters, the company, when it was generated and page numbers). Rows come from the read
// engine in batches of EXPORT_BATCH.
// exportReport() is the one seam: today the HTTP route streams its chunks; a background job (spool) can run the
// same call inside the company (withCompany) and write the chunks to storage, reporting onProgress.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReportColumnMeta } from '../../../shared/relatorio.ts';
import { cellText, columnTitle, dateTimeBr } from '../../../shared/relatorio-format.ts';
import type { Session } from '../../../server/app/env.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { badRequest } from '../../../server/http/envelope.ts';
import { readFields, readOptions } from '../../../server/read/engine.ts';
import { xlsxStream } from '../../../server/crud/export.ts';
import { pdfTable } from './pdf-table.ts';
import { readReport, readReportBatches, resolveReport, type ReportRequest, type ResolvedReport } from './reports.ts';

export type ReportFormat = 'xlsx' | 'csv' | 'pdf';
export const REPORT_FORMATS: ReportFormat[] = ['xlsx', 'csv', 'pdf'];
export interface ReportContext { em: EntityManager; session: Session }
export interface ReportFile { filename: string; contentType: string; total: number; title: string; parametros: [string, string][]; chunks: AsyncGenerator<Uint8Array> }
export type OnProgress = (done: number, total: number) => void;

export const EXPORT_BATCH = 1000;
export const maxExportRows = () => Number(process.env.RELATORIO_EXPORT_MAX ?? 100_000);
export const maxPdfRows = () => Number(process.env.RELATORIO_PDF_MAX ?? 10_000);

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** What heads the file: the title, the company, when, and the parameters in words. */
export interface ReportHeading { title: string; empresa: string; geradoEm: string; parametros: [string, string][] }

export const reportTitle = (r: ResolvedReport) => `Relatório de ${r.family.label} — ${r.kind.label}`;

async function heading(ctx: ReportContext, r: ResolvedReport, params: Record<string, unknown>): Promise<ReportHeading> {
  const empresa = await readFields(ctx.em, entityByKey('empresa')!, ctx.session, { id: ctx.session.empresaAtiva }, ['fantasia']);
  const parametros: [string, string][] = [];
  for (const p of r.kind.params) {
    const v = params[p.name];
    if (p.type === 'periodo') {
      parametros.push([p.label, `${dateTimeBr(String(r.bind.inicio), r.fuso)} até ${dateTimeBr(String(r.bind.fim), r.fuso)}`]);
    } else if (p.type === 'registros') {
      const ids = Array.isArray(v) ? (v as number[]) : [];
      if (!ids.length) { parametros.push([p.label, 'Todos']); continue; }
      const e = entityByKey(p.reference!)!;
      // labels of the chosen rows the caller's company scope sees (others: the id)
      const seen = await readOptions(ctx.em, e, ctx.session, 'id', e.recordRepresentation ?? 'descricao', { id: { $in: ids } }, ids.length);
      const by = new Map(seen.map((o) => [Number(o.value), String(o.label)]));
      parametros.push([p.label, ids.map((id) => by.get(id) ?? `#${id}`).join(', ')]);
    } else if (p.type === 'numero' || p.type === 'booleano') {
      const x = r.bind[p.name];
      parametros.push([p.label, typeof x === 'boolean' ? (x ? 'Sim' : 'Não') : String(x ?? '').replace('.', ',')]);
    } else {
      parametros.push([p.label, p.options?.find((o) => o.value === v)?.label ?? String(v ?? '')]);
    }
  }
  return { title: reportTitle(r), empresa: String(empresa?.fantasia ?? ''), geradoEm: dateTimeBr(new Date(), r.fuso), parametros };
}

// ---------- encoders ----------

const enc = new TextEncoder();
const tick = () => new Promise<void>((res) => setImmediate(res));
type Rows = AsyncIterable<Record<string, unknown>[]>;

/** Text cells that a spreadsheet would read as a formula get a leading quote. */
const safeText = (s: string) => (/^[=+\-@\t\r]/.test(s) && !/^-\d+(,\d+)?$/.test(s) ? `'${s}` : s);
const csvCell = (s: string) => {
  const v = safeText(s);
  return /[";\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
};

async function* csvChunks(cols: ReportColumnMeta[], h: ReportHeading, tz: string, rows: Rows): AsyncGenerator<Uint8Array> {
  yield enc.encode('\uFEFF' + cols.map((c) => csvCell(columnTitle(c))).join(';') + '\r\n');
  for await (const batch of rows) {
    yield enc.encode(batch.map((r) => cols.map((c) => csvCell(cellText(c, r[c.name], { timeZone: tz, plain: true }))).join(';')).join('\r\n') + '\r\n');
    await tick();
  }
}

/** XLSX value: numbers stay numbers (with the column's decimals as the format), the rest as the text shown. */
function xlsxValue(c: ReportColumnMeta, v: unknown, tz: string): unknown {
  if (v === null || v === undefined || v === '') return null;
  if (c.type === 'integer' || c.type === 'number') return Number(v);
  return safeText(cellText(c, v, { timeZone: tz }));
}

function xlsxChunks(cols: ReportColumnMeta[], h: ReportHeading, tz: string, rows: Rows): AsyncGenerator<Uint8Array> {
  return xlsxStream((wb) => {
    wb.title = h.title;
    wb.company = h.empresa;
    const ws = wb.addWorksheet('Relatório');
    ws.columns = cols.map((c) => ({
      key: c.name, width: Math.max(12, columnTitle(c).length + 2),
      ...(c.type === 'number' ? { style: { numFmt: c.decimals ? `0.${'0'.repeat(c.decimals)}` : '0' } } : {}),
    }));
    // title, company and parameters above the table
    ws.addRow([h.title]).font = { bold: true, size: 14 };
    ws.addRow([`${h.empresa} · Gerado em ${h.geradoEm}`]);
    for (const [k, v] of h.parametros) ws.addRow([`${k}: ${v}`]);
    ws.addRow([]);
    const head = ws.addRow(cols.map(columnTitle));
    head.font = { bold: true };
    head.commit();
    return ws;
  }, rows, (batch) => batch.map((r) => cols.map((c) => xlsxValue(c, r[c.name], tz))));
}

function pdfChunks(cols: ReportColumnMeta[], h: ReportHeading, tz: string, rows: Rows): AsyncGenerator<Uint8Array> {
  const right = (c: ReportColumnMeta) => ['integer', 'number', 'duration'].includes(c.type);
  async function* texts(): AsyncGenerator<string[][]> {
    for await (const batch of rows) yield batch.map((r) => cols.map((c) => cellText(c, r[c.name], { timeZone: tz })));
  }
  return pdfTable(cols.map((c) => ({ title: columnTitle(c), right: right(c) })), h, texts());
}

// ---------- the seam ----------

/**
 * One report as a file. Checks the request (404 unknown report; 400 bad parameters, columns, sort, or more rows than
 * the format allows) and reads the first batch before answering; the chunks read the next batches as they are
 * taken. Runs in the caller's company (the request's, or withCompany in a job) through ctx.session's scope.
 */
export async function exportReport(ctx: ReportContext, req: ReportRequest, format: ReportFormat, onProgress?: OnProgress): Promise<ReportFile> {
  if (!REPORT_FORMATS.includes(format)) throw badRequest('Formato de exportação inválido: use xlsx, csv ou pdf');
  const r = resolveReport(req);
  const first = await readReport(ctx.em, ctx.session, r, 0, EXPORT_BATCH);
  const total = first.total;
  if (total > maxExportRows()) throw badRequest(`O relatório tem ${total.toLocaleString('pt-BR')} linhas, acima do limite de ${maxExportRows().toLocaleString('pt-BR')} para exportar: escolha um período menor ou mais filtros`);
  if (format === 'pdf' && total > maxPdfRows()) throw badRequest(`O relatório tem ${total.toLocaleString('pt-BR')} linhas, acima do limite de ${maxPdfRows().toLocaleString('pt-BR')} do PDF: exporte em XLSX ou CSV`);
  const h = await heading(ctx, r, req.params);
  async function* batches(): AsyncGenerator<Record<string, unknown>[]> {
    // One page held everything: done. Else the whole result through one cursor (the statement runs once more, not
    // once per page: an aggregation re-run with OFFSET for each of 100 pages took minutes).
    if (first.rows.length >= total) {
      if (first.rows.length) yield first.rows;
      onProgress?.(first.rows.length, total);
      return;
    }
    let done = 0;
    const max = maxExportRows();
    for await (const rows of readReportBatches(ctx.em, ctx.session, r)) {
      const take = rows.length > max - done ? rows.slice(0, max - done) : rows;
      done += take.length;
      yield take;
      onProgress?.(done, total);
      if (done >= max) break;
    }
  }
  const encode = format === 'csv' ? csvChunks : format === 'xlsx' ? xlsxChunks : pdfChunks;
  return {
    filename: `relatorio_${r.family.key}_${r.kind.key}.${format}`, contentType: CONTENT_TYPES[format], total, title: h.title, parametros: h.parametros,
    chunks: encode(r.columns, h, r.fuso, batches()),
  };
}
