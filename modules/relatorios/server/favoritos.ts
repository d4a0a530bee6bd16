// relatorio_favorito's write hook: a favourite names a report the caller may run (its family's key), parameters its
// kind's schema accepts and columns among the allowed ones (400 pt-BR otherwise). The owner is the caller (owner:).
import type { WriteHook } from '../../../server/crud/hooks.ts';
import { invalid } from '../../../server/crud/hooks.ts';
import { can } from '../../../server/auth/users.ts';
import { HttpError } from '../../../server/http/envelope.ts';
import { checkColumns, checkParams, families } from './reports.ts';

export const relatorioFavorito: WriteHook = async ({ data, existing, session }) => {
  const get = (k: string) => (k in data ? data[k] : existing?.[k]);
  const family = families().find((f) => f.key === get('familia'));
  if (!family) throw invalid('familia', 'Relatório', `Relatório desconhecido: ${String(get('familia'))}`);
  if (!can(session, family.permission)) throw new HttpError(403, 'Você não tem permissão para fazer isso');
  const kind = family.tipos.find((t) => t.key === get('tipo'));
  if (!kind) throw invalid('tipo', 'Tipo', `Tipo desconhecido no relatório ${family.label}: ${String(get('tipo'))}`);
  try { checkParams(family, kind, get('parametros')); } catch (e) { throw invalid('parametros', 'Parâmetros', (e as Error).message); }
  try { checkColumns(kind, get('colunas') as string[]); } catch (e) { throw invalid('colunas', 'Colunas', (e as Error).message); }
};
