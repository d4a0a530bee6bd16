// Change history (historico_alteracao): the row as recorded and the diff of a write.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { HistoricoAlteracaoSchema } from '../db/system-entities.ts';
import { SYSTEM, fmt, type Row } from './query.ts';

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

