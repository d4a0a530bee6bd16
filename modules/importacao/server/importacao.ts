// Import of registers from a spreadsheet (screens /cfg/cfg/importacao and /adm/sis/integracao/importar): for the
// registers declared `importable: true` in metadata (scope empresa), a CSV or XLSX sheet whose first row names the
// columns (field labels or names, accents and case ignored) becomes rows created exactly like POST /api/{key}
// (server/crud/write.ts prepare: JSON Schema, references, uniqueness; history), in the active company.
//   GET  /api/importacao/registros          the importable registers the caller may add to, with their columns
//   GET  /api/importacao/{key}/modelo       an XLSX with the header row to fill
//   POST /api/importacao/{key}/previa       multipart `file`: every row checked (written and rolled back, so rows
//                                           repeating each other are caught too), with its pt-BR errors
//   POST /api/importacao/{key}              multipart `file`: all rows written in one transaction, or none (400 with
//                                           the rows' errors)
// Each route needs the screen key of either import screen; the register's `adicionar` key is checked per register.
import ExcelJS from 'exceljs';
import type { Context, Hono } from 'hono';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppEnv, Session } from '../../../server/app/env.ts';
import type { EntityMeta, FieldMeta } from '../../../shared/model.ts';
import { can } from '../../../server/auth/users.ts';
import { HttpError, badRequest, notFound } from '../../../server/http/envelope.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey, getModel, ormName } from '../../../server/core/registry.ts';
import { mapDbError, prepare } from '../../../server/crud/write.ts';
import { history, plain } from '../../../server/crud/history.ts';
import { runHook } from '../../../server/crud/hooks.ts';
import type { RowChange } from '../../../server/realtime/events.ts';
import { tenantOnly, scopeWhere } from '../../../server/tenancy/scope.ts';
import { type Row } from '../../../server/crud/query.ts';
import { emitChange } from '../../../server/realtime/events.ts';
import type { FieldError } from '../../../server/crud/validation.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { requestEm } from '../../../server/db/context.ts';

export const SCREEN_KEYS = ['cfg.cfg.importacao', 'adm.sis.integracao.importar'] as PermissionKey[];
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_ROWS = 5000;
const SKIP = new Set(['password', 'file', 'image', 'geometry', 'referenceList']);

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').trim().toLocaleLowerCase('pt-BR');

/** The fields a sheet may fill: declared, writable, of a type a cell can hold. */
export function importFields(e: EntityMeta): FieldMeta[] {
  return e.fields.filter((f) => !f.system && !f.readOnly && !f.hidden && !SKIP.has(f.type) && !(f.type === 'json' && !f.items) &&
    !(e.params ?? []).some((p) => p.field === f.name));
}

function importable(s: Session, key: string): EntityMeta {
  const e = entityByKey(key);
  if (!e || !e.importable) throw notFound('Cadastro não disponível para importação');
  if (!can(s, `${e.permission}.adicionar`)) throw new HttpError(403, 'Você não tem permissão para fazer isso');
  return e;
}

// ---------- reading the sheet ----------

type Cell = string | number | boolean | Date | null;

/** CSV (delimiter ; or , as found in the header line; quotes "" escaped) → rows of cells. */
export function parseCsv(text: string): string[][] {
  const src = text.replace(/^\uFEFF/, '');
  const first = src.split(/\r?\n/, 1)[0] ?? '';
  const sep = (first.match(/;/g)?.length ?? 0) >= (first.match(/,/g)?.length ?? 0) && first.includes(';') ? ';' : first.includes('\t') && !first.includes(',') ? '\t' : ',';
  const rows: string[][] = [];
  let row: string[] = [], cell = '', quoted = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === sep) { row.push(cell); cell = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(cell); rows.push(row); row = []; cell = '';
    } else cell += ch;
  }
  if (quoted) throw badRequest('Arquivo CSV inválido: aspas sem fechamento');
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

async function parseXlsx(buf: Buffer): Promise<Cell[][]> {
  const wb = new ExcelJS.Workbook();
  try { await wb.xlsx.load(buf as never); } catch { throw badRequest('Arquivo XLSX inválido'); }
  const ws = wb.worksheets[0];
  if (!ws) return [];
  const out: Cell[][] = [];
  ws.eachRow({ includeEmpty: true }, (r, n) => {
    const cells: Cell[] = [];
    for (let i = 1; i <= ws.columnCount; i++) {
      let v = r.getCell(i).value as unknown;
      if (v && typeof v === 'object' && !(v instanceof Date)) {
        const o = v as { text?: unknown; result?: unknown; richText?: { text: string }[] };
        v = o.richText ? o.richText.map((t) => t.text).join('') : o.result ?? o.text ?? null;
      }
      cells.push((v as Cell) ?? null);
    }
    out[n - 1] = cells;
  });
  return Array.from(out, (r) => r ?? []);
}

async function readSheet(c: Context<AppEnv>): Promise<Cell[][]> {
  let form: Record<string, unknown>;
  try { form = await c.req.parseBody(); } catch { throw badRequest('Requisição inválida: envie a planilha no campo file (multipart)'); }
  const file = form.file;
  if (!(file instanceof File)) throw badRequest('Envie a planilha no campo file');
  if (file.size > MAX_FILE_BYTES) throw new HttpError(413, 'A planilha excede o limite de 10 MB');
  const buf = Buffer.from(await file.arrayBuffer());
  const zip = buf.length > 3 && buf[0] === 0x50 && buf[1] === 0x4b; // XLSX is a zip (magic bytes "PK")
  if (zip) return parseXlsx(buf);
  if (/\.xlsx?$/i.test(file.name)) throw badRequest('Formato de arquivo inválido: envie CSV ou XLSX');
  const text = buf.toString('utf8');
  if (text.includes('\u0000') || text.includes('\uFFFD')) throw badRequest('Formato de arquivo inválido: envie CSV (UTF-8) ou XLSX');
  return parseCsv(text);
}

// ---------- cells → request bodies ----------

const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

function dateOf(v: Cell, withTime: boolean): unknown {
  if (v instanceof Date) return withTime ? v.toISOString() : isoDate(v);
  const s = String(v).trim();
  const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (br) {
    const [, d, m, y, hh, mi, ss] = br;
    const date = `${y}-${pad(+m)}-${pad(+d)}`;
    if (!withTime) return date;
    return new Date(`${date}T${pad(+(hh ?? 0))}:${mi ?? '00'}:${ss ?? '00'}-03:00`).toISOString();
  }
  return s;
}

/** One cell to the value POST /api/{key} expects; what cannot be converted is passed as is (the schema refuses it in pt-BR). */
function valueOf(f: FieldMeta, v: Cell): unknown {
  const s = typeof v === 'string' ? v.trim() : v;
  switch (f.type) {
    case 'integer': case 'number': case 'reference': {
      if (typeof s === 'number') return s;
      const t = String(s).replace(/\s/g, '');
      const n = f.type === 'number' ? Number(t.includes(',') ? t.replace(/\./g, '').replace(',', '.') : t) : /^-?\d+$/.test(t) ? Number(t) : NaN;
      return Number.isFinite(n) ? n : s;
    }
    case 'boolean': {
      if (typeof s === 'boolean') return s;
      const t = fold(String(s));
      if (['sim', 's', 'true', 'verdadeiro', '1', 'x'].includes(t)) return true;
      if (['nao', 'n', 'false', 'falso', '0'].includes(t)) return false;
      return s;
    }
    case 'date': return dateOf(s, false);
    case 'datetime': return dateOf(s, true);
    case 'enum': {
      const t = fold(String(s));
      return f.options?.find((o) => fold(String(o.value)) === t || fold(o.label) === t)?.value ?? s;
    }
    case 'json': return String(s).split(/[;,]/).map((x) => x.trim()).filter(Boolean);
    default: return s instanceof Date ? isoDate(s) : String(s);
  }
}

interface Linha { linha: number; dados: Row; erros: string[] }

/** Header row → field per column; rows → bodies (empty cells omitted, so defaults apply). References named by
 *  their text (the target's representation) become ids when exactly one visible row has it. */
async function bodiesOf(em: EntityManager, s: Session, e: EntityMeta, sheet: Cell[][]): Promise<Linha[]> {
  const fields = importFields(e);
  const header = (sheet[0] ?? []).map((h) => (h == null ? '' : fold(String(h))));
  if (!header.some(Boolean)) throw badRequest('A planilha está vazia: a primeira linha deve ter os nomes das colunas');
  const cols = header.map((h, i) => {
    if (!h) return null;
    const f = fields.find((x) => fold(x.label) === h || fold(x.name) === h);
    if (!f) throw badRequest(`Coluna desconhecida na planilha: ${String(sheet[0][i])}. Use: ${fields.map((x) => x.label).join(', ')}`);
    return f;
  });
  const dup = cols.find((f, i) => f && cols.indexOf(f) !== i);
  if (dup) throw badRequest(`Coluna repetida na planilha: ${dup.label}`);
  const rows: Linha[] = [];
  for (let r = 1; r < sheet.length; r++) {
    const cells = sheet[r] ?? [];
    if (!cells.some((v) => v !== null && v !== undefined && String(v).trim() !== '')) continue;
    const dados: Row = {};
    cols.forEach((f, i) => {
      const v = cells[i];
      if (!f || v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return;
      dados[f.name] = valueOf(f, v);
    });
    rows.push({ linha: r + 1, dados, erros: [] });
  }
  if (!rows.length) throw badRequest('A planilha não tem linhas para importar');
  if (rows.length > MAX_ROWS) throw badRequest(`A planilha tem ${rows.length} linhas; o limite é ${MAX_ROWS} por importação`);
  // References by text: one query per referenced register.
  for (const f of fields.filter((x) => x.type === 'reference' && x.reference)) {
    const named = [...new Set(rows.map((r) => r.dados[f.name]).filter((v): v is string => typeof v === 'string'))];
    if (!named.length) continue;
    const target = entityByKey(f.reference!)!;
    const rep = target.recordRepresentation;
    const found = (await em.find(ormName(em, target), { $and: [{ [rep]: { $in: named } }, scopeWhere(target, s)] } as never,
      { fields: ['id', rep] as never })) as Row[];
    const ids = new Map<string, number[]>();
    for (const x of found) ids.set(String(x[rep]), [...(ids.get(String(x[rep])) ?? []), Number(x.id)]);
    for (const r of rows) {
      const v = r.dados[f.name];
      if (typeof v !== 'string') continue;
      const m = ids.get(v);
      if (m?.length === 1) r.dados[f.name] = m[0];
      else r.erros.push(m?.length ? `${f.label}: mais de um registro com o nome ${v}` : `${f.label}: ${v} não encontrado`);
    }
  }
  return rows;
}

const messagesOf = (err: unknown): string[] => {
  if (err instanceof HttpError) {
    const list = Array.isArray(err.payload) ? (err.payload as FieldError[]).map((x) => x.message).filter(Boolean) : [];
    return list.length ? list : [err.message];
  }
  throw err;
};

class Rollback extends Error {}

/** Writes the rows in one transaction as POST /api/{key} would; rolls back when any row fails or when `commit` is
 *  false (the preview). Each row's errors are kept in its `erros`. */
async function run(c: Context<AppEnv>, e: EntityMeta, rows: Linha[], commit: boolean): Promise<{ created: Row[]; related: RowChange[] }> {
  const em = requestEm(c), s = c.get('session');
  const created: Row[] = [], related: RowChange[] = [];
  try {
    await em.transactional(async (tx) => {
      for (const r of rows) {
        if (r.erros.length) continue;
        let data: Row;
        try {
          data = await prepare(tx, e, s, r.dados, null);
          // The register's write hook (metadata hook), as on POST /api/{key}.
          related.push(...await runHook({ tx, session: s, entity: e, data, existing: null, storage: c.get('storage') }));
        } catch (err) { r.erros.push(...messagesOf(err)); continue; }
        try {
          const row = tx.create(ormName(tx, e), { ...data, ...tenantOnly(e, s) } as never) as Row;
          await tx.flush();
          if (e.history) history(tx, e, s, Number(row.id), 'create', null, plain(e, row));
          created.push(row);
        } catch (err) {
          // A database refusal ends the transaction: the rows after it are not checked.
          try { mapDbError(e, err); } catch (mapped) { r.erros.push(...messagesOf(mapped)); }
          throw new Rollback();
        }
      }
      await tx.flush();
      if (!commit || rows.some((r) => r.erros.length)) throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
    return { created: [], related: [] };
  }
  return { created, related };
}

function summary(rows: Linha[]) {
  const invalidas = rows.filter((r) => r.erros.length).length;
  return { total: rows.length, validas: rows.length - invalidas, invalidas, linhas: rows };
}

export default function importacao(api: Hono<AppEnv>): void {
  const spec = { permission: SCREEN_KEYS, scope: 'empresa' as const };
  route(api, 'get', '/importacao/registros', spec, (c) => {
    const s = c.get('session');
    const list = getModel().entities.filter((e) => e.importable && can(s, `${e.permission}.adicionar`)).map((e) => ({
      key: e.key, label: e.label.plural,
      colunas: importFields(e).map((f) => ({
        name: f.name, label: f.label, type: f.type, required: !!f.required,
        ...(f.options ? { options: f.options.map((o) => o.label) } : {}), ...(f.reference ? { reference: f.reference } : {}),
      })),
    })).sort((a, b) => a.label.localeCompare(b.label, 'pt-BR'));
    return c.json(list);
  });
  route(api, 'get', '/importacao/:key/modelo', spec, async (c) => {
    const e = importable(c.get('session'), c.req.param('key') ?? '');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(e.label.plural.slice(0, 31));
    ws.addRow(importFields(e).map((f) => f.label));
    ws.getRow(1).font = { bold: true };
    const buf = await wb.xlsx.writeBuffer();
    return new Response(buf as ArrayBuffer, { headers: {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': `attachment; filename="importacao_${e.key}.xlsx"`,
    } });
  });
  route(api, 'post', '/importacao/:key/previa', spec, async (c) => {
    const s = c.get('session');
    const e = importable(s, c.req.param('key') ?? '');
    const rows = await bodiesOf(requestEm(c), s, e, await readSheet(c));
    await run(c, e, rows, false);
    return c.json(summary(rows));
  });
  route(api, 'post', '/importacao/:key', spec, async (c) => {
    const s = c.get('session');
    const e = importable(s, c.req.param('key') ?? '');
    const rows = await bodiesOf(requestEm(c), s, e, await readSheet(c));
    const { created, related } = await run(c, e, rows, true);
    const sum = summary(rows);
    if (sum.invalidas || created.length !== rows.length) {
      throw new HttpError(400, `A planilha tem ${sum.invalidas} linha(s) com erro; nenhuma linha foi importada`, sum, 'Erro de validação');
    }
    for (const ch of related) emitChange(ch);
    for (const row of created) emitChange({ entity: e.key, id: Number(row.id), op: 'create', before: null, after: plain(e, row) });
    return c.json({ importados: created.length, total: rows.length }, 201);
  });
}
