// Event and parameter libraries (metadata/catalogos/*.yaml through protocol/catalog.ts, issue 3 §1), read-only,
// in the ra-data-simple-rest shape (array + Content-Range; ?sort, ?range, ?filter) so the shared list helpers
// page, sort and filter them like any resource:
//   GET /api/biblioteca/tecnologias                          technologies with libraries, their models and lists
//   GET /api/biblioteca/{tecnologia}/{modelo}/eventos         /adm/bib/biblioteca_de_eventos (adm.bib.biblioteca_de_eventos.lista)
//   GET /api/biblioteca/{tecnologia}/{modelo}/parametros
//   GET /api/biblioteca/familias                              the families of /tlm/cfg/biblioteca (tlm.cfg.biblioteca.lista)
//   GET /api/biblioteca/familia/{familia}                    eventos | perifericos | parametros | viagem | alarmes
// filter: q (contains, case and accent insensitive, over event key, description, subtitle, code and @Track message),
// type (one or a list), undescribed (true/false), origem (catalogue family, family lists), id (list: getMany).
// sort: id (catalogue order, the default), event, description, subtitle, type, unit, code, origem, risk.
// The catalogues are loaded and validated once, when the calls are mounted (an invalid file stops the start).
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { requireSession } from '../auth/middleware.ts';
import { can } from '../auth/users.ts';
import { HttpError, badRequest } from '../http/envelope.ts';
import { getCatalog, type CatalogEntry, type CatalogFile } from '../../protocol/catalog.ts';

export const PERM_TECNOLOGIA = 'adm.bib.biblioteca_de_eventos.lista';
export const PERM_FAMILIA = 'tlm.cfg.biblioteca.lista';
export const MAX_PAGE = 1000;

/** Technologies and the catalogues of their libraries. Models share their technology's catalogues. */
const TECNOLOGIAS: { id: string; label: string; modelos: { id: string; label: string }[]; eventos: string; parametros: string }[] = [
  { id: 'queclink', label: 'Queclink @Track', eventos: 'queclink-eventos', parametros: 'queclink-parametros',
    modelos: [{ id: 'gv50cg', label: 'GV50CG' }, { id: 'gv58cg', label: 'GV58CG' }, { id: 'gv350ceu', label: 'GV350CEU' }] },
  { id: 'legacy', label: 'Legado (binário)', eventos: 'legacy-eventos', parametros: 'legacy-parametros',
    modelos: [{ id: 'legacy', label: 'Legado' }] },
  { id: 'vdo', label: 'Câmera (vídeo telemetria)', eventos: 'camera-alarmes', parametros: 'camera-parametros',
    modelos: [{ id: 'vdo_telemetria', label: 'VDO Telemetria' }, { id: 'vdo_compact', label: 'VDO Compact' }, { id: 'mix', label: 'Mix' }] },
];

/** Families of /tlm/cfg/biblioteca: the catalogues each one lists. */
const FAMILIAS: { id: string; label: string; catalogos: string[] }[] = [
  { id: 'eventos', label: 'Biblioteca do evento', catalogos: ['queclink-eventos', 'legacy-eventos', 'camera-alarmes'] },
  { id: 'perifericos', label: 'Biblioteca de periférico', catalogos: ['can-parametros', 'camera-parametros'] },
  { id: 'parametros', label: 'Biblioteca de parâmetros', catalogos: ['queclink-parametros', 'legacy-parametros', 'viagem-parametros'] },
  { id: 'viagem', label: 'Parâmetros de viagem', catalogos: ['viagem-parametros'] },
  { id: 'alarmes', label: 'Alarmes de câmera', catalogos: ['camera-alarmes'] },
];

/** pt-BR label of a catalogue family (the origem column of the family lists). */
const ORIGENS: Record<string, string> = { queclink: 'Queclink', legacy: 'Legado', camera: 'Câmera', can: 'CAN', viagem: 'Viagem' };

export interface LibraryRow {
  id: string;
  ordem: number;
  event: string;
  description: string;
  subtitle: string;
  type: string;
  unit: { value: string; full: string; short: string };
  code: number | string | null;
  message: string | null;
  group: string | null;
  risk: string | null;
  undescribed: boolean;
  catalogo: string;
  origem: string;
  origemLabel: string;
}

export interface ListInfo {
  catalogos: { id: string; title: string; source: string | null; total: number }[];
  total: number;
  semDescricao: number;
  tipos: string[];
  origens: { id: string; label: string }[];
  /** Optional columns with a value somewhere in the list: codigo (code or @Track message), risco, origem. */
  colunas: string[];
}

function rowsOf(files: CatalogFile[]): LibraryRow[] {
  let ordem = 0;
  return files.flatMap((f) => f.entries.map((e: CatalogEntry) => ({
    id: `${f.name}:${e.event}`, ordem: ordem++, event: e.event, description: e.description, subtitle: e.subtitle, type: e.type,
    unit: { value: e.unit.value, full: e.unit.full, short: e.unit.short },
    code: e.code ?? null, message: e.message ?? null, group: e.group ?? null, risk: e.risk ?? null, undescribed: e.undescribed === true,
    catalogo: f.name, origem: f.family, origemLabel: ORIGENS[f.family] ?? f.family,
  })));
}

function infoOf(files: CatalogFile[], rows: LibraryRow[]): ListInfo {
  const origens = [...new Set(files.map((f) => f.family))].map((id) => ({ id, label: ORIGENS[id] ?? id }));
  const colunas: string[] = [];
  if (rows.some((r) => r.code !== null || r.message !== null)) colunas.push('codigo');
  if (rows.some((r) => r.risk !== null)) colunas.push('risco');
  if (origens.length > 1) colunas.push('origem');
  return {
    catalogos: files.map((f) => ({ id: f.name, title: f.title, source: f.source ?? null, total: f.entries.length })),
    total: rows.length,
    semDescricao: rows.filter((r) => r.undescribed).length,
    tipos: [...new Set(rows.map((r) => r.type))].sort(),
    origens,
    colunas,
  };
}

interface Library { rows: LibraryRow[]; info: ListInfo }

function library(names: string[]): Library | undefined {
  const files = names.map((n) => getCatalog(n)).filter((f): f is CatalogFile => !!f);
  if (!files.length) return undefined;
  const rows = rowsOf(files);
  return { rows, info: infoOf(files, rows) };
}

/** Loads (and validates: protocol/catalog.ts throws CatalogError on an invalid file) every library once. */
export function buildLibraries() {
  const tecnologias = TECNOLOGIAS.flatMap((t) => {
    const eventos = library([t.eventos]);
    const parametros = library([t.parametros]);
    if (!eventos && !parametros) return [];
    return [{ ...t, listas: { eventos, parametros } }];
  });
  const familias = FAMILIAS.flatMap((f) => {
    const lib = library(f.catalogos);
    return lib ? [{ ...f, lib }] : [];
  });
  return { tecnologias, familias };
}

// ---- ra-data-simple-rest query: filter, sort, range --------------------------------------------

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('pt-BR');
const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

function parseJson(raw: string | undefined, what: string): unknown {
  if (raw == null || raw === '') return undefined;
  try { return JSON.parse(raw); } catch { throw badRequest(`Parâmetro ${what} inválido: JSON malformado`); }
}

const FILTERS = new Set(['q', 'type', 'undescribed', 'origem', 'id']);

export function applyFilter(rows: LibraryRow[], filter: unknown): LibraryRow[] {
  if (filter === undefined) return rows;
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw badRequest('Parâmetro filter inválido');
  let out = rows;
  for (const [k, v] of Object.entries(filter as Record<string, unknown>)) {
    if (!FILTERS.has(k)) throw badRequest(`Filtro desconhecido: ${k}`);
    if (v === undefined || v === null || v === '') continue;
    if (k === 'q') {
      if (typeof v !== 'string') throw badRequest('O filtro q deve ser um texto');
      const q = fold(v.trim());
      if (!q) continue;
      out = out.filter((r) => [r.event, r.description, r.subtitle, r.message ?? '', r.code === null ? '' : String(r.code)].some((s) => fold(s).includes(q)));
    } else if (k === 'undescribed') {
      if (v !== true && v !== false && v !== 'true' && v !== 'false') throw badRequest('O filtro undescribed deve ser true ou false');
      const want = v === true || v === 'true';
      out = out.filter((r) => r.undescribed === want);
    } else {
      const list = Array.isArray(v) ? v : [v];
      if (!list.every((x) => typeof x === 'string')) throw badRequest(`O filtro ${k} deve ser um texto ou uma lista de textos`);
      const set = new Set(list as string[]);
      const field = k === 'type' ? 'type' : k === 'origem' ? 'origem' : 'id';
      out = out.filter((r) => set.has(r[field]));
    }
  }
  return out;
}

const SORTS: Record<string, (r: LibraryRow) => string | number | null> = {
  id: (r) => r.ordem,
  ordem: (r) => r.ordem,
  event: (r) => r.event,
  description: (r) => r.description || null,
  subtitle: (r) => r.subtitle || null,
  type: (r) => r.type,
  unit: (r) => r.unit.short || null,
  'unit.short': (r) => r.unit.short || null,
  code: (r) => r.code ?? r.message,
  message: (r) => r.message,
  risk: (r) => (r.risk === null ? null : ['baixo', 'médio', 'alto'].indexOf(r.risk)),
  origem: (r) => r.origemLabel,
  origemLabel: (r) => r.origemLabel,
};

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // empty values last (ascending)
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

export function applySort(rows: LibraryRow[], sort: unknown): LibraryRow[] {
  let field = 'id', order = 'ASC';
  if (sort !== undefined) {
    if (!Array.isArray(sort) || sort.length !== 2 || typeof sort[0] !== 'string' || typeof sort[1] !== 'string') throw badRequest('Parâmetro sort inválido');
    [field, order] = [sort[0], sort[1].toUpperCase()];
  }
  const key = SORTS[field];
  if (!key) throw badRequest(`Campo de ordenação desconhecido: ${field}`);
  if (order !== 'ASC' && order !== 'DESC') throw badRequest('Direção de ordenação inválida: use ASC ou DESC');
  const sign = order === 'ASC' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(key(a), key(b)) || a.ordem - b.ordem);
}

function parseRange(raw: string | undefined): { offset: number; limit: number } {
  const r = parseJson(raw, 'range');
  if (r === undefined) return { offset: 0, limit: 25 };
  if (!Array.isArray(r) || r.length !== 2 || !r.every((n) => Number.isSafeInteger(n) && n >= 0) || r[1] < r[0]) throw badRequest('Parâmetro range inválido');
  return { offset: r[0], limit: Math.min(r[1] - r[0] + 1, MAX_PAGE) };
}

/** Answers rows as ra-data-simple-rest expects: the page as a JSON array and Content-Range {unit} {start}-{end}/{total}
 * (unit = the path with dots, e.g. biblioteca.queclink.gv58cg.eventos: a token without '/'). */
function page<T>(c: Context<AppEnv>, resource: string, rows: T[]) {
  const { offset, limit } = parseRange(c.req.query('range'));
  const slice = rows.slice(offset, offset + limit);
  const end = slice.length ? offset + slice.length - 1 : offset;
  c.header('Content-Range', `${resource.replaceAll('/', '.')} ${offset}-${end}/${rows.length}`);
  c.header('Access-Control-Expose-Headers', 'Content-Range');
  return c.json(slice);
}

function list(c: Context<AppEnv>, resource: string, lib: Library) {
  const filtered = applyFilter(lib.rows, parseJson(c.req.query('filter'), 'filter'));
  return page(c, resource, applySort(filtered, parseJson(c.req.query('sort'), 'sort')));
}

function requireAny(c: Context<AppEnv>, keys: string[]): void {
  const s = c.get('session');
  if (!keys.some((k) => can(s, k))) throw new HttpError(403, 'Você não tem permissão para fazer isso');
}

export default (api: Hono<AppEnv>) => {
  const { tecnologias, familias } = buildLibraries();

  api.get('/biblioteca/tecnologias', requireSession(), (c) => {
    requireAny(c, [PERM_TECNOLOGIA, PERM_FAMILIA]);
    return page(c, 'biblioteca/tecnologias', tecnologias.map((t) => ({
      id: t.id, label: t.label, modelos: t.modelos,
      listas: { eventos: t.listas.eventos?.info ?? null, parametros: t.listas.parametros?.info ?? null },
    })));
  });

  api.get('/biblioteca/familias', requireSession(), (c) => {
    requireAny(c, [PERM_FAMILIA]);
    return page(c, 'biblioteca/familias', familias.map((f) => ({ id: f.id, label: f.label, ...f.lib.info })));
  });

  api.get('/biblioteca/familia/:familia', requireSession(), (c) => {
    requireAny(c, [PERM_FAMILIA]);
    const id = c.req.param('familia');
    const f = familias.find((x) => x.id === id);
    if (!f) throw new HttpError(404, `Família de biblioteca desconhecida: ${id}. Use ${familias.map((x) => x.id).join(', ')}.`);
    return list(c, `biblioteca/familia/${f.id}`, f.lib);
  });

  for (const tipo of ['eventos', 'parametros'] as const) {
    api.get(`/biblioteca/:tecnologia/:modelo/${tipo}`, requireSession(), (c) => {
      requireAny(c, [PERM_TECNOLOGIA]);
      const tid = c.req.param('tecnologia'), mid = c.req.param('modelo');
      const t = tecnologias.find((x) => x.id === tid);
      if (!t) throw new HttpError(404, `Tecnologia desconhecida: ${tid}. Use ${tecnologias.map((x) => x.id).join(', ')}.`);
      if (!t.modelos.some((m) => m.id === mid)) throw new HttpError(404, `Modelo desconhecido para a tecnologia ${t.label}: ${mid}. Use ${t.modelos.map((m) => m.id).join(', ')}.`);
      const lib = t.listas[tipo];
      if (!lib) throw new HttpError(404, `A tecnologia ${t.label} não tem biblioteca de ${tipo === 'eventos' ? 'eventos' : 'parâmetros'}.`);
      return list(c, `biblioteca/${t.id}/${mid}/${tipo}`, lib);
    });
  }
};
