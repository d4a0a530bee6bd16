// Event and parameter libraries (metadata/catalogos/*.yaml through protocol/catalog.ts, issue 3 §1), read-only.
// Providers (server/crud/provider.ts): their columns, filters, sorts, paths and permission keys are declared in
// metadata/adm/biblioteca_lista.yaml, biblioteca_tecnologias.yaml, metadata/tlm/biblioteca_familia.yaml and
// biblioteca_familias.yaml; the core serves them (session, permission, ra-data-simple-rest protocol):
//   GET /api/biblioteca/tecnologias                          technologies with libraries, their models and lists
//   GET /api/biblioteca/{tecnologia}/{modelo}/eventos         /adm/bib/biblioteca_de_eventos (adm.bib.biblioteca_de_eventos.lista)
//   GET /api/biblioteca/{tecnologia}/{modelo}/parametros
//   GET /api/biblioteca/familias                              the families of /tlm/cfg/biblioteca (tlm.cfg.biblioteca.lista)
//   GET /api/biblioteca/familia/{familia}                    eventos | perifericos | parametros | viagem | alarmes
// filter q searches (case and accent insensitive) event key, description, subtitle, code and @Track message.
// sort id = catalogue order (the default); empty values sort last.
// The catalogues are loaded and validated once, on the first request (an invalid file answers 500 and is logged)
// or at start through buildLibraries().
import { HttpError } from '../http/envelope.ts';
import { memoryPage, type Provider } from '../crud/provider.ts';
import { knownTecnologia, tecnologias } from '../crud/params.ts';
import { getCatalog, type CatalogEntry, type CatalogFile } from '../../protocol/catalog.ts';

/** Technologies, their models and the catalogues of their libraries (metadata/_tecnologias.yaml); models share
 *  their technology's catalogues. */
const TECNOLOGIAS = () => tecnologias().map((t) => ({ id: t.id, label: t.label, modelos: t.modelos, eventos: t.bibliotecas.eventos, parametros: t.bibliotecas.parametros }));

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
    list: (q, { meta }) => {
      const rows = byOrder(loaded().tecnologias.map((t) => ({
        id: t.id, label: t.label, modelos: t.modelos,
        listas: { eventos: t.listas.eventos?.info ?? null, parametros: t.listas.parametros?.info ?? null },
      })));
      const page = memoryPage(rows, q, meta, { sortKeys: ordemKey });
      return { rows: page.rows.map(({ ordem: _, ...r }) => r), total: page.total };
    },
  },
  biblioteca_familias: {
    list: (q, { meta }) => {
      const rows = byOrder(loaded().familias.map((f) => ({ id: f.id, label: f.label, ...f.lib.info })));
      const page = memoryPage(rows, q, meta, { sortKeys: ordemKey });
      return { rows: page.rows.map(({ ordem: _, ...r }) => r), total: page.total };
    },
  },
  biblioteca_familia: {
    cell: CELL,
    list: (q, { meta }) => {
      const { familias } = loaded();
      const id = String(q.params.familia);
      const f = familias.find((x) => x.id === id);
      if (!f) throw new HttpError(404, `Família de biblioteca desconhecida: ${id}. Use ${familias.map((x) => x.id).join(', ')}.`);
      return memoryPage(f.lib.rows, q, meta, { search: SEARCH, sortKeys: SORT_KEYS });
    },
  },
  biblioteca_lista: {
    cell: CELL,
    list: (q, { meta }) => {
      const { tecnologias } = loaded();
      const tid = String(q.params.tecnologia), mid = String(q.params.modelo), tipo = q.params.lista as 'eventos' | 'parametros';
      // The core checked both against metadata/_tecnologias.yaml (params values); a technology without libraries is 404 too.
      knownTecnologia(tid, mid);
      const t = tecnologias.find((x) => x.id === tid);
      if (!t) throw new HttpError(404, `A tecnologia ${tid} não tem biblioteca.`);
      const lib = t.listas[tipo];
      if (!lib) throw new HttpError(404, `A tecnologia ${t.label} não tem biblioteca de ${tipo === 'eventos' ? 'eventos' : 'parâmetros'}.`);
      return memoryPage(lib.rows, q, meta, { search: SEARCH, sortKeys: SORT_KEYS });
    },
  },
};

/** Loads (and validates) the catalogues now: an invalid file stops the start. */
export default () => { loaded(); };
