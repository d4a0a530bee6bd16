// Change history (historico_alteracao): the row as recorded and the diff of a write.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { HistoricoAlteracaoSchema } from '../db/system-entities.ts';
import { SYSTEM, fmt, type Row } from './query.ts';
import { idOf, idsOf } from '../../shared/ids.ts';
import { entityByKey } from '../core/registry.ts';
import { readOptions } from '../read/index.ts';

export function plain(e: EntityMeta, row: Row): Row {
  const o: Row = {};
  for (const f of e.fields) {
    if (SYSTEM.has(f.name) && f.name !== 'id') continue;
    o[f.name] = f.type === 'password' || f.writeOnly || f.hidden ? (row[f.name] ? '***' : null) : fmt(f, row[f.name]);
  }
  return o;
}

function diff(before: Row | null, after: Row | null): Record<string, { antes: unknown; depois: unknown }> {
  const out: Record<string, { antes: unknown; depois: unknown }> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    const a = before?.[k] ?? null, b = after?.[k] ?? null;
    if (k === 'id' && before && after) continue;
    if (JSON.stringify(a) !== JSON.stringify(b)) out[k] = { antes: a, depois: b };
  }
  return out;
}

export function history(em: EntityManager, e: EntityMeta, s: Session, id: number, operacao: string, before: Row | null, after: Row | null, passwordChanged = false) {
  if (!e.history) return;
  const alteracoes = diff(before, after);
  if (passwordChanged) for (const f of e.fields) if (f.type === 'password' && after) alteracoes[f.name] = { antes: '***', depois: '***' };
  if (operacao === 'update' && !Object.keys(alteracoes).length) return;
  em.create(HistoricoAlteracaoSchema, {
    usuarioId: s.usuarioId, login: s.login, empresaId: s.empresaAtiva, ambienteId: s.ambienteId,
    entidade: e.key, registroId: id, operacao, alteracoes, data: new Date(),
  } as never);
}


type Change = { antes: unknown; depois: unknown; antesTexto?: string; depoisTexto?: string };

/**
 * The change history as the list shows it: references and register codes (lookups) get the label of the row they
 * name ('Garagem Centro', not 3), read by the engine among the rows the caller sees (an id of another company's
 * row, or of a deleted one, is not resolved: 'nº 3 (indisponível)'). Numbers, dates and enums are formatted by
 * the client from the field's metadata.
 */
export async function withLabels(em: EntityManager, e: EntityMeta, s: Session, entries: { alteracoes: Record<string, Change> }[]): Promise<void> {
  for (const f of e.fields) {
    const ref = f.reference && (f.type === 'reference' || f.type === 'referenceList') ? f.reference : undefined;
    const target = entityByKey(ref ?? f.lookup?.entity ?? '');
    if (!target) continue;
    const valueField = ref ? 'id' : f.lookup!.value;
    const rep = target.recordRepresentation;
    const label = rep && target.fields.some((x) => x.name === rep && !x.hidden) ? rep : valueField;
    const keyOf = (v: unknown) => (ref ? (f.type === 'reference' ? [idOf(v)] : idsOf(v)) : [v == null || v === '' ? null : String(v)]).filter((x) => x != null) as (string | number)[];
    const values = new Set<string | number>();
    for (const h of entries) {
      const c = h.alteracoes?.[f.name];
      if (c) for (const v of [...keyOf(c.antes), ...keyOf(c.depois)]) values.add(v);
    }
    if (!values.size) continue;
    const rows = await readOptions(em, target, s, valueField, label, { [valueField]: { $in: [...values] } }, values.size);
    const names = new Map(rows.map((r) => [String(r.value), String(r.label ?? r.value)]));
    const text = (v: unknown) => {
      const keys = keyOf(v);
      if (!keys.length) return undefined;
      return keys.map((k) => names.get(String(k)) ?? (ref ? `nº ${k} (indisponível)` : String(k))).join(', ');
    };
    for (const h of entries) {
      const c = h.alteracoes?.[f.name];
      if (!c) continue;
      const a = text(c.antes), d = text(c.depois);
      if (a !== undefined) c.antesTexto = a;
      if (d !== undefined) c.depoisTexto = d;
    }
  }
}
