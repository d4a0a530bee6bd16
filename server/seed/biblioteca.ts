// The editable libraries (registers biblioteca_evento, biblioteca_periferico, biblioteca_parametro; issue 9) seeded from
// metadata/catalogos (protocol/catalog.ts). Idempotent, on every start: an entry whose key (event) the register does not
// hold yet for its catalogue (tecnologia/origem) is added in catalogue order; entries already there are never overwritten, so the platform's edits stay.
// (An entry deleted through the register comes back at the next start: the catalogue is the floor of the library.)
// The decoder keeps reading the YAML; these registers are what the library screens list and edit.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Model } from '../../shared/model.ts';
import { biblioteca_evento, biblioteca_parametro, biblioteca_periferico } from '../generated/columns.ts';
import { getCatalog, type CatalogEntry } from '../../protocol/catalog.ts';
import { Seeder } from './index.ts';

export interface LibrarySource { catalogo: string; value: string }
export interface LibraryRegister {
  entity: 'biblioteca_evento' | 'biblioteca_periferico' | 'biblioteca_parametro';
  /** The field that says which catalogue (family or technology) an entry belongs to. */
  field: 'tecnologia' | 'origem';
  cols: typeof biblioteca_evento | typeof biblioteca_periferico | typeof biblioteca_parametro;
  /** The catalogues of metadata/catalogos the register holds, in order, and the field's value for each. */
  sources: LibrarySource[];
}

/** Every catalogue of metadata/catalogos lives in exactly one register. */
export const LIBRARY_REGISTERS: LibraryRegister[] = [
  { entity: 'biblioteca_evento', field: 'tecnologia', cols: biblioteca_evento, sources: [
    { catalogo: 'queclink-eventos', value: 'queclink' }, { catalogo: 'legacy-eventos', value: 'legacy' }, { catalogo: 'camera-alarmes', value: 'vdo' },
  ] },
  { entity: 'biblioteca_periferico', field: 'origem', cols: biblioteca_periferico, sources: [
    { catalogo: 'can-parametros', value: 'can' }, { catalogo: 'camera-parametros', value: 'camera' },
  ] },
  { entity: 'biblioteca_parametro', field: 'origem', cols: biblioteca_parametro, sources: [
    { catalogo: 'queclink-parametros', value: 'queclink' }, { catalogo: 'legacy-parametros', value: 'legacy' }, { catalogo: 'viagem-parametros', value: 'viagem' },
  ] },
];

/** The register (and the field value) that holds a catalogue. */
export function registerOf(catalogo: string): { register: LibraryRegister; value: string } | undefined {
  for (const register of LIBRARY_REGISTERS) {
    const s = register.sources.find((x) => x.catalogo === catalogo);
    if (s) return { register, value: s.value };
  }
  return undefined;
}

/** A catalogue entry as a register row (the fields the entities declare). */
export function entryRow(r: LibraryRegister, value: string, e: CatalogEntry, ordem: number): Record<string, unknown> {
  const row: Record<string, unknown> = {
    [r.field]: value, event: e.event, description: e.description || null, subtitle: e.subtitle || null, type: e.type,
    unitValue: e.unit.value || null, unitFull: e.unit.full || null, unitShort: e.unit.short || null, ordem,
  };
  if (r.entity === 'biblioteca_evento') {
    Object.assign(row, { code: typeof e.code === 'number' ? e.code : e.code !== undefined ? Number(e.code) : null, message: e.message ?? null, grupo: e.group ?? null, risk: e.risk ?? null });
  }
  return row;
}

/** Adds the catalogue entries the registers lack; answers how many rows were added. */
export async function seedBibliotecas(em: EntityManager, model: Model): Promise<number> {
  const s = new Seeder(em, model);
  const conn = em.getConnection();
  let added = 0;
  for (const r of LIBRARY_REGISTERS) {
    if (!s.has(r.entity)) continue;
    // An entry is its catalogue's (the field's value) and its key: two families may share a key (e.g. temperature).
    const key = (value: string, event: string) => `${value}\u0000${event}`;
    const have = new Set(((await conn.execute(`select ${(r.cols as Record<string, string>)[r.field]} AS value, ${r.cols.event} AS event from ${r.cols.table}`)) as { value: string; event: string }[]).map((x) => key(x.value, x.event)));
    const rows: Record<string, unknown>[] = [];
    let ordem = 0;
    for (const src of r.sources) {
      const file = getCatalog(src.catalogo);
      if (!file) throw new Error(`catálogo ausente: metadata/catalogos/${src.catalogo}.yaml`);
      for (const e of file.entries) {
        if (!have.has(key(src.value, e.event))) { rows.push(entryRow(r, src.value, e, ordem)); have.add(key(src.value, e.event)); }
        ordem++;
      }
    }
    await s.many(r.entity, rows);
    added += rows.length;
  }
  return added;
}
