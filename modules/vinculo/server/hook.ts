// Write hook of equipamento_ativo (metadata hook: vinculo_equipamento): a link in force (no end, or an end still to
// come) is refused with 409 when its device already has another one, or when the vehicle already holds as many
// devices of that technology as metadata/_tecnologias.yaml `vinculosPorAtivo` allows (default 1). The vehicle's row
// is locked first, so two links to one vehicle are decided one after the other; two links of one device race only
// to the partial unique index (serial while dataFim is empty), which the second loses (409 too).
// The serial is a device of the company and the vehicle one of its vehicles: checked before (lookup, reference).
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Session } from '../../../server/app/env.ts';
import { entityByKey, getModel, ormName } from '../../../server/core/registry.ts';
import type { Row } from '../../../server/crud/query.ts';
import type { Fields, WriteHook } from '../../../server/crud/hooks.ts';
import { HttpError } from '../../../server/http/envelope.ts';
import { scopeWhere } from '../../../server/tenancy/scope.ts';
import { idOf } from '../../../shared/ids.ts';

const conflict = (msg: string) => new HttpError(409, msg, null, 'Vínculo recusado');
const veiculo = (a: Row) => `${String(a.descricao)} (${String(a.placa)})`;

/** Links of the company in force now, other than `except`, matching `where`. */
async function openLinks(tx: EntityManager, s: Session, where: Fields<'equipamento_ativo'>, except: unknown): Promise<Row[]> {
  const link = entityByKey('equipamento_ativo')!;
  const inForce: Fields<'equipamento_ativo'>[] = [{ dataFim: null }, { dataFim: { $gt: new Date() } }];
  const cond = [scopeWhere(link, s), where, { $or: inForce }, ...(except != null ? [{ id: { $ne: Number(except) } }] : [])];
  const orderBy: Fields<'equipamento_ativo'> = { serial: 'ASC' };
  return (await tx.find(ormName(tx, link), { $and: cond } as never, { orderBy: orderBy as never })) as Row[];
}

/** The company's rows of `key` with these ids/serials. */
async function rows(tx: EntityManager, s: Session, key: 'ativo' | 'equipamento', where: Record<string, unknown>, lock = false): Promise<Row[]> {
  const e = entityByKey(key)!;
  return (await tx.find(ormName(tx, e), { $and: [scopeWhere(e, s), where] } as never, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})) as Row[];
}

export const vinculoEquipamento: WriteHook = async ({ tx, session, data, existing }) => {
  const value = (k: string) => (k in data ? data[k] : existing?.[k]);
  const fim = value('dataFim');
  if (fim != null && fim !== '' && new Date(String(fim instanceof Date ? fim.toISOString() : fim)) <= new Date()) return; // history
  const serial = String(value('serial'));
  const ativoId = idOf(value('ativoId'));
  const [ativo] = await rows(tx, session, 'ativo', { id: ativoId }, true);
  if (!ativo) return; // the reference check answers
  const other = (await openLinks(tx, session, { serial }, existing?.id))[0];
  if (other) {
    const [a] = await rows(tx, session, 'ativo', { id: idOf(other.ativoId) });
    throw conflict(`O equipamento ${serial} já está vinculado ao ativo ${a ? veiculo(a) : String(idOf(other.ativoId))}: desvincule-o antes de vinculá-lo a outro ativo`);
  }
  const [device] = await rows(tx, session, 'equipamento', { serial });
  if (!device) return; // the lookup check answers
  const tecnologia = String(device.tecnologia);
  const meta = (getModel().tecnologias ?? []).find((t) => t.id === tecnologia);
  const limit = meta?.vinculosPorAtivo ?? 1;
  const serials = (await openLinks(tx, session, { ativoId }, existing?.id)).map((l) => String(l.serial));
  const same = serials.length ? (await rows(tx, session, 'equipamento', { serial: { $in: serials }, tecnologia })).map((d) => String(d.serial)).sort() : [];
  if (same.length < limit) return;
  const label = meta?.label ?? tecnologia;
  throw conflict(same.length === 1
    ? `O ativo ${veiculo(ativo)} já tem um equipamento ${label} vinculado (${same[0]}): desvincule-o antes de vincular outro`
    : `O ativo ${veiculo(ativo)} já tem ${same.length} equipamentos ${label} vinculados (${same.join(', ')}): desvincule um deles antes de vincular outro`);
};

export const hooks: Record<string, WriteHook> = { vinculo_equipamento: vinculoEquipamento };
