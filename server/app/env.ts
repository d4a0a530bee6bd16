// Hono environment shared by every server module (see .notes/CONTRACT.md, server conventions).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';

export interface Session {
  id: number;
  usuarioId: number;
  login: string;
  ambienteId: number;
  empresaAtiva: number;
  empresas: number[];
  roles: string[];
  permissoes: Set<string>;
}

export type AppEnv = {
  Variables: {
    session: Session;
    em: EntityManager;
    log: Logger;
  };
};
