// Server-owned tables (not metadata registers): change history, password recovery tokens.
// Sessions are the metadata entity `sessao` (metadata/adm/sessao.yaml).
import { EntitySchema } from '@mikro-orm/core';

export interface HistoricoAlteracao {
  id: number; data: Date; usuarioId: number | null; login: string | null; empresaId: number | null;
  ambienteId: number | null; entidade: string; registroId: number; operacao: string;
  alteracoes: Record<string, { antes: unknown; depois: unknown }>;
}

export const HistoricoAlteracaoSchema = new EntitySchema<HistoricoAlteracao>({
  name: 'HistoricoAlteracao',
  tableName: 'historico_alteracao',
  indexes: [{ properties: ['entidade', 'registroId'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    data: { type: 'datetime', onCreate: () => new Date() },
    usuarioId: { type: 'integer', nullable: true },
    login: { type: 'string', length: 120, nullable: true },
    empresaId: { type: 'integer', nullable: true },
    ambienteId: { type: 'integer', nullable: true },
    entidade: { type: 'string', length: 80 },
    registroId: { type: 'integer' },
    operacao: { type: 'string', length: 40 },
    alteracoes: { type: 'json' },
  },
});

export interface RecuperacaoSenha { id: number; tokenHash: string; usuarioId: number; criadaEm: Date; expiraEm: Date; usadaEm: Date | null }

export const RecuperacaoSenhaSchema = new EntitySchema<RecuperacaoSenha>({
  name: 'RecuperacaoSenha',
  tableName: 'recuperacao_senha',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    tokenHash: { type: 'string', length: 128, unique: true },
    usuarioId: { type: 'integer' },
    criadaEm: { type: 'datetime', onCreate: () => new Date() },
    expiraEm: { type: 'datetime' },
    usadaEm: { type: 'datetime', nullable: true },
  },
});

export const systemEntities = [HistoricoAlteracaoSchema, RecuperacaoSenhaSchema];
