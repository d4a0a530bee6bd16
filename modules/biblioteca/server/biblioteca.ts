// Event and parameter libraries: the registers biblioteca_evento, biblioteca_periferico and biblioteca_parametro
// (editable, seeded from metadata/catalogos by server/seed/biblioteca.ts; issue 9), listed catalogue by catalogue.
// Providers (server/crud/provider.ts): their columns, filters, sorts, paths and permission keys are declared in
// modules/biblioteca/metadata/adm/biblioteca_lista.yaml, biblioteca_tecnologias.yaml, modules/biblioteca/metadata/tlm/biblioteca_familia.yaml and
// biblioteca_familias.yaml; the core serves them (session, permission, ra-data-simple-rest protocol):
//   GET /api/biblioteca/tecnologias                          technologies with libraries, their models and lists
//   GET /api/biblioteca/{tecnologia}/{modelo}/eventos         /adm/bib/biblioteca_de_eventos (adm.bib.biblioteca_de_eventos.lista)
//   GET /api/biblioteca/{tecnologia}/{modelo}/parametros
//   GET /api/biblioteca/familias                              the families of /tlm/cfg/biblioteca (tlm.cfg.biblioteca.lista)
//   GET /api/biblioteca/familia/{familia}                    eventos | perifericos | parametros | viagem | alarmes
// filter q searches (case and accent insensitive) event key, description, subtitle, code and @Track message.
// sort id = catalogue order (the default; entries added later come after); empty values sort last.
// A row's id is {catalogo}:{event}; registro is the register row's id (its edit form).
// The catalogues (which catalogue each list shows, its title) are loaded and validated once, at start through the
// default export or on the first request (an invalid file answers 500 and is logged); the rows are read per request.
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { HttpError } from '../../../server/http/envelope.ts';
import { route } from '../../../server/core/pipeline.ts';
import { getModel } from '../../../server/core/registry.ts';
import type { PermissionKey } from '../../../server/generated/permissions.ts';
import { memoryPage, type Provider } from '../../../server/crud/provider.ts';
import { knownTecnologia, metadataTecnologias, tecnologias } from '../../../server/crud/params.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { getCatalog, type CatalogFile } from '../../../protocol/catalog.ts';
import { registerOf } from '../../../server/seed/biblioteca.ts';

/** Technologies, their models and the catalogues of their libraries (metadata/_tecnologias.yaml); models share
 *  their technology's catalogues. */
const TECNOLOGIAS = () => metadataTecnologias().map((t) => ({ id: t.id, label: t.label, modelos: t.modelos, eventos: t.bibliotecas.eventos, parametros: t.bibliotecas.parametros }));

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
  /** Id of the register row (biblioteca_evento, _periferico or _parametro). */
  registro: number;
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

type DbRow = Record<string, any>;

/** The rows of the catalogues, register by register, each catalogue in its order (ordem, then the later additions). */
async function rowsOf(em: EntityManager, files: CatalogFile[]): Promise<LibraryRow[]> {
  const conn = em.getConnection();
  const out: LibraryRow[] = [];
  for (const f of files) {
    const at = registerOf(f.name);
    if (!at) continue;
    const c = at.register.cols as Record<string, string>;
    const evento = at.register.entity === 'biblioteca_evento';
    const cols = ['id', 'event', 'description', 'subtitle', 'type', 'unitValue', 'unitFull', 'unitShort', ...(evento ? ['code', 'message', 'grupo', 'risk'] : [])];
    const rows = (await conn.execute(
      `select ${cols.map((k) => `${c[k]} AS "${k}"`).join(', ')} from ${c.table} where ${c[at.register.field]} = ? order by ${c.ordem} asc nulls last, ${c.id} asc`,
      [at.value],
    )) as DbRow[];
    for (const r of rows) {
      out.push({
        id: `${f.name}:${r.event}`, ordem: out.length, event: r.event, description: r.description ?? '', subtitle: r.subtitle ?? '', type: r.type,
        unit: { value: r.unitValue ?? '', full: r.unitFull ?? '', short: r.unitShort ?? '' },
        code: r.code ?? null, message: r.message ?? null, group: r.grupo ?? null, risk: r.risk ?? null, undescribed: !r.description,
        catalogo: f.name, origem: f.family, origemLabel: ORIGENS[f.family] ?? f.family, registro: Number(r.id),
      });
    }
  }
  return out;
}

function infoOf(files: CatalogFile[], rows: LibraryRow[]): ListInfo {
  const count = (name: string) => rows.filter((r) => r.catalogo === name).length;
  const origens = [...new Set(files.map((f) => f.family))].map((id) => ({ id, label: ORIGENS[id] ?? id }));
  const colunas: string[] = [];
  if (rows.some((r) => r.code !== null || r.message !== null)) colunas.push('codigo');
  if (rows.some((r) => r.risk !== null)) colunas.push('risco');
  if (origens.length > 1) colunas.push('origem');
  return {
    catalogos: files.map((f) => ({ id: f.name, title: f.title, source: f.source ?? null, total: count(f.name) })),
    total: rows.length,
    semDescricao: rows.filter((r) => r.undescribed).length,
    tipos: [...new Set(rows.map((r) => r.type))].sort(),
    origens,
    colunas,
  };
}

/** The catalogue files of a list (validated by protocol/catalog.ts); undefined when none exists. */
function library(names: string[]): CatalogFile[] | undefined {
  const files = names.map((n) => getCatalog(n)).filter((f): f is CatalogFile => !!f);
  return files.length ? files : undefined;
}

async function read(em: EntityManager, files: CatalogFile[]): Promise<{ rows: LibraryRow[]; info: ListInfo }> {
  const rows = await rowsOf(em, files);
  return { rows, info: infoOf(files, rows) };
}

/** Loads (and validates: protocol/catalog.ts throws CatalogError on an invalid file) every library's catalogues once. */
export function buildLibraries() {
  const tecnologias = TECNOLOGIAS().flatMap((t) => {
    const eventos = t.eventos ? library([t.eventos]) : undefined;
    const parametros = t.parametros ? library([t.parametros]) : undefined;
    if (!eventos && !parametros) return [];
    return [{ ...t, listas: { eventos, parametros } }];
  });
  const familias = FAMILIAS.flatMap((f) => {
    const lib = library(f.catalogos);
    return lib ? [{ ...f, lib }] : [];
  });
  return { tecnologias, familias };
}


const SORT_KEYS: Record<string, (r: LibraryRow) => string | number | null> = {
  id: (r) => r.ordem,
  unit: (r) => r.unit.short || null,
  code: (r) => r.code ?? r.message,
  risk: (r) => (r.risk === null ? null : ['baixo', 'médio', 'alto'].indexOf(r.risk)),
  origem: (r) => r.origemLabel,
};
const SEARCH = (r: LibraryRow) => [r.event, r.description, r.subtitle, r.message, r.code];

let libs: ReturnType<typeof buildLibraries> | undefined;
const loaded = () => (libs ??= buildLibraries());

/** Export cells: the unit's short form, the code or else the @Track message. */
const CELL = { unit: (r: LibraryRow) => r.unit.short, code: (r: LibraryRow) => r.code ?? r.message, origem: (r: LibraryRow) => r.origemLabel } as unknown as Record<string, (r: Record<string, any>) => unknown>;

const byOrder = <T,>(rows: T[]) => rows.map((r, ordem) => ({ ...r, ordem }));
const ordemKey = { id: (r: { ordem: number }) => r.ordem };

export const providers: Record<string, Provider> = {
  biblioteca_tecnologias: {
    list: async (q, { meta, em }) => {
      const known = await tecnologias(); // models: metadata's and the register's
      const rows = byOrder(await Promise.all(loaded().tecnologias.map(async (t) => ({
        id: t.id, label: t.label, modelos: known.find((x) => x.id === t.id)?.modelos ?? t.modelos,
        listas: {
          eventos: t.listas.eventos ? (await read(em, t.listas.eventos)).info : null,
          parametros: t.listas.parametros ? (await read(em, t.listas.parametros)).info : null,
        },
      }))));
      const page = memoryPage(rows, q, meta, { sortKeys: ordemKey });
      return { rows: page.rows.map(({ ordem: _, ...r }) => r), total: page.total };
    },
  },
  biblioteca_familias: {
    list: async (q, { meta, em }) => {
      const rows = byOrder(await Promise.all(loaded().familias.map(async (f) => ({ id: f.id, label: f.label, ...(await read(em, f.lib)).info }))));
      const page = memoryPage(rows, q, meta, { sortKeys: ordemKey });
      return { rows: page.rows.map(({ ordem: _, ...r }) => r), total: page.total };
    },
  },
  biblioteca_familia: {
    cell: CELL,
    list: async (q, { meta, em }) => {
      const { familias } = loaded();
      const id = String(q.params.familia);
      const f = familias.find((x) => x.id === id);
      if (!f) throw new HttpError(404, `Família de biblioteca desconhecida: ${id}. Use ${familias.map((x) => x.id).join(', ')}.`);
      return memoryPage((await read(em, f.lib)).rows, q, meta, { search: SEARCH, sortKeys: SORT_KEYS });
    },
  },
  biblioteca_lista: {
    cell: CELL,
    list: async (q, { meta, em }) => {
      const { tecnologias } = loaded();
      const tid = String(q.params.tecnologia), mid = String(q.params.modelo), tipo = q.params.lista as 'eventos' | 'parametros';
      // The core checked both (params values: metadata and the modelo register); a technology without libraries is 404 too.
      await knownTecnologia(tid, mid);
      const t = tecnologias.find((x) => x.id === tid);
      if (!t) throw new HttpError(404, `A tecnologia ${tid} não tem biblioteca.`);
      const lib = t.listas[tipo];
      if (!lib) throw new HttpError(404, `A tecnologia ${t.label} não tem biblioteca de ${tipo === 'eventos' ? 'eventos' : 'parâmetros'}.`);
      return memoryPage((await read(em, lib)).rows, q, meta, { search: SEARCH, sortKeys: SORT_KEYS });
    },
  },
};

/** Keys of the screens that navigate by technology and model (entities and providers with such params). */
function navigationKeys(): PermissionKey[] {
  const m = getModel();
  return [
    ...m.entities.filter((e) => e.params?.some((p) => p.values)).flatMap((e) => [`${e.permission}.lista`, `${e.permission}.visualizar`]),
    ...(m.providers ?? []).filter((p) => p.params.some((x) => x.values)).flatMap((p) => p.permission),
  ] as PermissionKey[];
}

/** Loads (and validates) the catalogues now: an invalid file stops the start. */
export default (api: Hono<AppEnv>) => {
  loaded();
  const keys = navigationKeys();
  // GET /api/tecnologias: technologies and their models (metadata and the modelo register) for the navigation of the
  // screens with technology/model route parameters; for whoever may open one of them.
  route(api, 'get', '/tecnologias', { permission: keys, scope: 'global' }, async (c) =>
    c.json((await tecnologias()).map((t) => ({ id: t.id, label: t.label, modelos: t.modelos }))));
};
