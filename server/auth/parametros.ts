// System parameters a company sets in its register parametro (/adm/sis/cadastro/parametro) and the code reads where
// it uses them. Each has a default, bounds, and falls back to the default (logged) on a value out of them.
import type { EntityManager } from '@mikro-orm/postgresql';
import { empresa as emp, parametro as par } from '../generated/columns.ts';
import { inCompany } from '../tenancy/scope.ts';
import { SESSION_HOURS } from './tokens.ts';

export interface ParametroDef { chave: string; descricao: string; padrao: number; min: number; max: number }

/** The parameters the code reads (their chave is what the company types in the register). */
export const PARAMETROS = {
  /** Lifetime of a sign-in, in hours (the session and its token end then). */
  sessaoHoras: { chave: 'sessao.duracao_horas', descricao: 'Duração da sessão após o login, em horas', padrao: SESSION_HOURS, min: 0.25, max: 720 },
  /** Inactivity before the front end signs the user out, in seconds (the warning shows its last 5 s). */
  inatividadeSegundos: { chave: 'sessao.inatividade_segundos', descricao: 'Tempo sem uso da tela até desconectar, em segundos', padrao: 6000, min: 60, max: 86_400 },
} satisfies Record<string, ParametroDef>;

/** Numeric values of these parameters for a company (defaults where unset or out of bounds). */
export async function parametrosDaEmpresa<K extends keyof typeof PARAMETROS>(em: EntityManager, empresaId: number, keys: K[],
  warn?: (msg: string, o: object) => void): Promise<Record<K, number>> {
  const defs = keys.map((k) => PARAMETROS[k]);
  const rows = await em.getConnection().execute(
    `select x.${par.chave} as chave, x.${par.valor} as valor from ${par.table} x join ${emp.table} e on ${inCompany('x', `e.${emp.id}`)}
      where e.${emp.id} = ? and x.${par.chave} in (${defs.map(() => '?').join(', ')})`, [empresaId, ...defs.map((d) => d.chave)]) as { chave: string; valor: string | null }[];
  const out = {} as Record<K, number>;
  for (const k of keys) {
    const d = PARAMETROS[k];
    const raw = rows.find((r) => r.chave === d.chave)?.valor?.trim().replace(',', '.');
    const n = raw ? Number(raw) : NaN;
    if (raw && !(Number.isFinite(n) && n >= d.min && n <= d.max)) warn?.('parâmetro fora dos limites: usado o padrão', { empresaId, chave: d.chave, valor: raw, padrao: d.padrao });
    out[k] = Number.isFinite(n) && n >= d.min && n <= d.max ? n : d.padrao;
  }
  return out;
}
