// Hono environment shared by every server module (see .notes/CONTRACT.md, server conventions).
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { SessionCheck } from '../auth/session-cache.ts';
import type { Storage } from '../uploads/storage.ts';

export interface Session {
  id: number;
  usuarioId: number;
  login: string;
  ambienteId: number;
  empresaAtiva: number;
  empresas: number[];
  roles: string[];
  permissoes: Set<string>;
  /** Set when the call authenticated with an API key (chave_de_api id): no user, no session row. */
  apiKey?: number;
}

export type AppEnv = {
  Variables: {
    session: Session;
    /** The request's entity manager: read it through requestEm(c) (server/db/context.ts), which forks it on first use. */
    em?: EntityManager;
    /** The app's ORM, for requestEm. */
    orm?: MikroORM;
    log: Logger;
    /** Set by staleSessionRetry: a cached session may be handed out before its check (GET only). */
    sessionDefer?: boolean;
    /** The check of a session handed out unverified; settled before the answer leaves (server/auth/middleware.ts). */
    sessionCheck?: SessionCheck;
    /** Where uploaded files live (server/uploads/storage.ts). */
    storage: Storage;
    /** A public route's subject (server/core/pipeline.ts publicRoute), e.g. the public link its token names. */
    publicSubject?: { empresaId: number; ambienteId?: number; subject: unknown };
  };
};
