// In-process change events, emitted after a write commits (generic CRUD, sessions). The realtime socket
// (server/realtime/index.ts) turns them into pushes; anything else may listen too.
import { EventEmitter } from 'node:events';

/** The pt-BR texts of the pushes (also the 401 of a session ended by someone else, server/auth/middleware.ts). */
export const MSG = {
  permissoesAlteradas: 'Atenção, suas permissões de usuário foram alteradas pelo administrador do sistema, o sistema será recarregado em 5 segundos.',
  sessaoFinalizada: 'Sua sessão foi finalizada por um administrador do sistema.',
  senhaAlterada: 'Sua senha foi alterada. Entre novamente com a nova senha.',
  sessaoInvalida: 'Sessão inválida ou expirada. Entre novamente.',
};

export interface RowChange {
  entity: string;                       // metadata key, e.g. usuario
  id: number;
  op: 'create' | 'update' | 'delete' | string; // or the action name (desativa, elimina ...)
  before: Record<string, unknown> | null; // API-shaped values (reference lists as ids)
  after: Record<string, unknown> | null;
}
export interface SessionEnded { sessaoId: number; usuarioId: number; motivo: 'administrador' | 'logout' | 'senha' }

interface Events { change: [RowChange]; sessionEnded: [SessionEnded] }

export const events = new EventEmitter<Events>();
events.setMaxListeners(100);

export const emitChange = (c: RowChange) => { events.emit('change', c); };
export const emitSessionEnded = (e: SessionEnded) => { events.emit('sessionEnded', e); };
