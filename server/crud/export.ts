// Whole-result export (CSV or XLSX), streamed in batches; references shown by their representation.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta, FieldMeta } from '../../generator/model.ts';
import type { Session } from '../app/env.ts';
import { idOf, idsOf } from '../auth/users.ts';
import { entityByKey, ormName } from './registry.ts';

const BATCH = 2000;

interface Opts {
  em: EntityManager; entity: EntityMeta; session: Session; where: Record<string, unknown>;
  orderBy: Record<string, 'ASC' | 'DESC'>[]; columns: { field: FieldMeta; label: string }[];
  format: 'csv' | 'xlsx'; write: (chunk: string | Uint8Array) => Promise<unknown>;
}

function csvCell(v: unknown): string {
  if (v == null) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  // Guard against spreadsheet formula injection, then quote.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[";\n\r,]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

async function* batches(o: Opts) {
  const name = ormName(o.em, o.entity);
  for (let offset = 0; ; offset += BATCH) {
    const rows = (await o.em.find(name, o.where as never, { orderBy: o.orderBy as never, limit: BATCH, offset })) as Record<string, any>[];
    if (!rows.length) return;
    yield rows;
    o.em.clear();
    if (rows.length < BATCH) return;
  }
}

async function cellValues(o: Opts, rows: Record<string, any>[]): Promise<unknown[][]> {
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

export async function exportRows(o: Opts): Promise<void> {
  if (o.format === 'csv') {
    await o.write('\uFEFF' + o.columns.map((c) => csvCell(c.label)).join(';') + '\r\n');
    for await (const rows of batches(o)) {
      const lines = (await cellValues(o, rows)).map((vals) => vals.map(csvCell).join(';')).join('\r\n');
      await o.write(lines + '\r\n');
    }
    return;
  }
  const pass = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: pass, useStyles: true });
  const ws = wb.addWorksheet(o.entity.label.plural.slice(0, 31));
  ws.columns = o.columns.map((c) => ({ header: c.label, key: c.field.name, width: Math.max(12, c.label.length + 2) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  const pump = (async () => { for await (const chunk of pass) await o.write(chunk as Uint8Array); })();
  for await (const rows of batches(o)) {
    for (const vals of await cellValues(o, rows)) ws.addRow(vals).commit();
  }
  ws.commit();
  await wb.commit();
  await pump;
}
