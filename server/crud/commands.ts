// Commands to devices (fila_processamento) are queued only for a device registered in the caller's active company:
// checked right before queueing, whatever named the serial (a link row, a record, a form), so a link that points at
// another company's tracker (written before links were checked, or around the API) cannot send it anything.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Session } from '../app/env.ts';
import { HttpError } from '../http/envelope.ts';
import { scopeWhere } from '../tenancy/scope.ts';
import { type Row } from './query.ts';
import { entityByKey, ormName } from '../core/registry.ts';

/** Refuses (422, pt-BR) when any serial is not a device (equipamento) of the caller's active company. */
export async function assertOwnDevices(tx: EntityManager, s: Session, serials: unknown[]): Promise<void> {
  const wanted = [...new Set(serials.map(String))];
  if (!wanted.length) return;
  const e = entityByKey('equipamento')!;
  // The one company-scope function: the caller's active company (the request's RLS role is the backstop).
  const where = { serial: { $in: wanted }, ...scopeWhere(e, s) };
  const found = (await tx.find(ormName(tx, e), where as never)) as Row[];
  const own = new Set(found.map((r) => String(r.serial)));
  const alien = wanted.filter((x) => !own.has(x));
  if (alien.length) {
    throw new HttpError(422, alien.length === 1
      ? `O equipamento ${alien[0]} não está cadastrado nesta empresa: o comando não foi enfileirado`
      : `Os equipamentos ${alien.join(', ')} não estão cadastrados nesta empresa: o comando não foi enfileirado`);
  }
}
