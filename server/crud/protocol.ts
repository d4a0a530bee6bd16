// The ra-data-simple-rest protocol: parsing of ?filter/?sort/?range, ids and bodies, and the paged answer
// (JSON array + Content-Range). Shared by the generated CRUD routes and the providers.
import type { Context } from 'hono';
import { badRequest, notFound } from '../http/envelope.ts';
import { sortOrder, sortPair } from '../read/where.ts';

export const MAX_PAGE = 1000;

export function parseJson(raw: string | undefined, what: string): unknown {
  if (raw == null || raw === '') return undefined;
  try { return JSON.parse(raw); } catch { throw badRequest(`Parâmetro ${what} inválido: JSON malformado`); }
}

const filters = new WeakMap<object, unknown>();
/** ra's ?filter of the request, parsed once (the permission step of a list reads it too). */
export function listFilter(c: Context): unknown {
  if (!filters.has(c.req)) filters.set(c.req, parseJson(c.req.query('filter'), 'filter'));
  return filters.get(c.req);
}

export function parseRange(raw: string | undefined): { offset: number; limit: number } {
  const r = parseJson(raw, 'range');
  if (r === undefined) return { offset: 0, limit: 25 };
  if (!Array.isArray(r) || r.length !== 2 || !r.every((n) => Number.isSafeInteger(n) && n >= 0) || r[1] < r[0]) throw badRequest('Parâmetro range inválido');
  return { offset: r[0], limit: Math.min(r[1] - r[0] + 1, MAX_PAGE) };
}

export function parseId(c: Context, name = 'id'): number {
  const raw = c.req.param(name) ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

export async function readBody(c: Context): Promise<unknown> {
  try { return await c.req.json(); } catch { throw badRequest('Corpo da requisição inválido: JSON malformado'); }
}

/** ra's sort parameter ([field, order]); undefined when absent. */
export function parseSort(raw: string | undefined): { field: string; order: 'ASC' | 'DESC' } | undefined {
  const sort = parseJson(raw, 'sort');
  if (sort === undefined) return undefined;
  const [field, order] = sortPair(sort);
  return { field, order: sortOrder(order) };
}

/** Answers one page as ra-data-simple-rest expects: the rows and Content-Range {unit} {start}-{end}/{total}. */
export function sendPage(c: Context, unit: string, offset: number, rows: unknown[], total: number) {
  const end = rows.length ? offset + rows.length - 1 : offset;
  // the unit may come from a path parameter: a header holds printable ASCII only
  c.header('Content-Range', `${unit.replace(/[^\x21-\x7e]/gu, encodeURIComponent)} ${offset}-${end}/${total}`);
  c.header('Access-Control-Expose-Headers', 'Content-Range');
  return c.json(rows);
}

/** ?format (csv or xlsx) and ?columns (column names; undefined: the default ones) of an export. */
export function exportParams(c: Context): { format: 'csv' | 'xlsx'; columns: string[] | undefined } {
  const format = c.req.query('format') ?? 'csv';
  if (format !== 'csv' && format !== 'xlsx') throw badRequest('Formato de exportação inválido: use csv ou xlsx');
  return { format, columns: columnsParam(c) };
}

/** ?columns=["a","b"]: the column names asked for (an export's, a named call's list), unchecked; undefined if absent. */
export function columnsParam(c: Context): string[] | undefined {
  const columns = parseJson(c.req.query('columns'), 'columns');
  if (columns !== undefined && (!Array.isArray(columns) || !columns.length || !columns.every((x) => typeof x === 'string'))) throw badRequest('Parâmetro columns inválido');
  return columns as string[] | undefined;
}

/** Headers of a CSV/XLSX download. */
export const exportHeaders = (name: string, format: 'csv' | 'xlsx') => ({
  'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'Content-Disposition': `attachment; filename="${name}.${format}"`,
  'Cache-Control': 'no-store',
});
