// A read-engine session for tests that call the engine directly (no HTTP): the signed-in user's ambiente and id, one
// active company, and the given companies and roles (default: that company only, role wiki — every key).
import type { Session } from '../../app/env.ts';
import type { Api } from '../../test/harness.ts';

export const engineSession = (user: Api['user'], empresa: number, o: { empresas?: number[]; roles?: string[] } = {}): Session =>
  ({ empresaAtiva: empresa, ambienteId: user.ambienteId, empresas: o.empresas ?? [empresa], roles: o.roles ?? ['wiki'], permissoes: new Set(), usuarioId: user.id }) as unknown as Session;
