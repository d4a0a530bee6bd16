// Ending every session of a user (password change or reset): rows end inside the caller's transaction;
// notify() after commit closes their realtime sockets with sessao_finalizada (motivo 'senha').
import type { EntityManager } from '@mikro-orm/postgresql';
import { entityByKey, ormName } from '../core/registry.ts';
import { emitSessionEnded } from '../realtime/events.ts';
import { sessaoName } from './middleware.ts';

export interface EndedSessions { ids: number[]; notify(): void }

export const NO_SESSIONS: EndedSessions = { ids: [], notify: () => undefined };

export async function endUserSessions(em: EntityManager, usuarioId: number): Promise<EndedSessions> {
  const rows = (await em.find(sessaoName(em), { usuario: usuarioId, ativa: true } as never, { fields: ['id'] as never })) as { id: number }[];
  const ids = rows.map((r) => Number(r.id));
  if (ids.length) {
    await em.nativeUpdate(sessaoName(em), { id: { $in: ids } } as never, { ativa: false, dataFim: new Date(), motivoFim: 'senha' } as never);
  }
  const h = entityByKey('historico_de_login');
  if (h && ['estaLogado', 'usuario'].every((n) => h.fields.some((f) => f.name === n))) {
    await em.nativeUpdate(ormName(em, h), { usuario: usuarioId, estaLogado: true } as never, { estaLogado: false } as never);
  }
  return { ids, notify: () => { for (const sessaoId of ids) emitSessionEnded({ sessaoId, usuarioId, motivo: 'senha' }); } };
}
