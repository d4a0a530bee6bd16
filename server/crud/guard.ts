// Actions with a guard (metadata actions[].guard, e.g. ativo.bloqueia_motor): the row's latest state comes from a
// declared provider (read engine, filtered by `by` = the row's id, same company); when any state is moving above
// `speedAbove` km/h, the caller must have typed the row's `typed` field (the plate) into the payload's confirmacao.
// The browser asks for it too, but this is the rule: a client that skips the dialog is refused here (409 pt-BR).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActionMeta, EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { HttpError } from '../http/envelope.ts';
import { getModel } from '../core/registry.ts';
import { planDeclared, providerSql } from '../read/provider.ts';
import { pgParams } from '../tenancy/scope.ts';
import type { Row } from './query.ts';

/** Upper case, letters and digits only: 'abc-1d23' and 'ABC1D23' are the same plate. */
export const typedForm = (v: unknown) => String(v ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The highest speed among the row's latest states (null: no state with a speed). */
export async function guardSpeed(tx: EntityManager, s: Session, action: ActionMeta, row: Row): Promise<number | null> {
  const g = action.guard!;
  const meta = getModel().providers.find((p) => p.key === g.provider);
  const decl = meta && providerSql(meta);
  if (!meta || !decl) throw new Error(`ação ${action.name}: guard.provider ${g.provider} não é um provider declarado`);
  const q = { params: {}, filter: { [g.by]: Number(row.id) }, sort: { field: 'ultimaComunicacao', order: 'DESC' as const }, offset: 0, limit: 20 };
  const { sql, params } = planDeclared(meta, decl, q, meta.scope === 'empresa' ? s.empresaAtiva : null, pgParams());
  // The plan repeats its WHERE ($n used twice): in the transaction, as `?` with the values in order of use.
  const values: unknown[] = [];
  const rows = (await tx.execute(sql.replace(/\$(\d+)/g, (_, n: string) => { values.push(params[Number(n) - 1]); return '?'; }), values)) as Row[];
  const speeds = rows.filter((r) => r.__row != null).map((r) => Number(r.velocidade)).filter((v) => Number.isFinite(v));
  return speeds.length ? Math.max(...speeds) : null;
}

/** Refuses (409) an action on a moving row unless the payload's confirmacao repeats the row's `typed` field. */
export async function assertGuard(tx: EntityManager, s: Session, entity: EntityMeta, action: ActionMeta, row: Row, payload: Row): Promise<void> {
  const g = action.guard;
  if (!g?.typed || g.speedAbove == null) return;
  const speed = await guardSpeed(tx, s, action, row);
  if (speed == null || speed <= g.speedAbove) return;
  const expected = String(row[g.typed] ?? '');
  if (typedForm(payload.confirmacao) && typedForm(payload.confirmacao) === typedForm(expected)) return;
  throw new HttpError(409, `O veículo ${row[entity.recordRepresentation ?? 'id'] ?? ''} (${expected}) está em movimento (${Math.round(speed)} km/h): `
    + `para confirmar "${action.label}", digite a placa ${expected}`);
}
