// The billing calls (/wkd/adm/superlogica/…) over the Superlógica adapter, built from the environment on first use and
// again when the settings change. Pages: pagina ≥ 1, itensPorPagina 1..200 (default 1 and 50).
import type { Provider, ProviderQuery } from '../../../server/crud/provider.ts';
import { HttpError, badRequest } from '../../../server/http/envelope.ts';
import { SuperlogicaError, createSuperlogica, superlogicaOptionsFromEnv, type Superlogica } from './adapter.ts';

export const MAX_ITENS = 200;
let cached: { key: string; a: Superlogica } | undefined;
export function superlogica(): Superlogica {
  const o = superlogicaOptionsFromEnv();
  const key = JSON.stringify(o);
  if (cached?.key !== key) cached = { key, a: createSuperlogica(o) };
  return cached.a;
}

const STATUS = ['pendentes', 'liquidadas', 'canceladas', 'todos'];

function page(q: ProviderQuery, from: Record<string, unknown>): [number, number] {
  const pagina = from.pagina === undefined ? 1 : Number(from.pagina);
  const itens = from.itensPorPagina === undefined ? 50 : Number(from.itensPorPagina);
  if (!Number.isSafeInteger(pagina) || pagina < 1) throw badRequest('Página inválida: informe um número a partir de 1');
  if (!Number.isSafeInteger(itens) || itens < 1 || itens > MAX_ITENS) throw badRequest(`Itens por página: de 1 a ${MAX_ITENS}`);
  void q;
  return [pagina, itens];
}

async function run<T>(f: () => Promise<T>): Promise<T> {
  try { return await f(); } catch (e) {
    if (e instanceof SuperlogicaError) throw new HttpError(e.status, e.message);
    throw e;
  }
}
const all = <T>(rows: T[]) => ({ rows, total: rows.length });

export const providers: Record<string, Provider> = {
  superlogica_clientes: { list: (q) => run(async () => all(await superlogica().clientes(...page(q, q.params)))) },
  superlogica_adimplentes: { list: (q) => run(async () => all(await superlogica().adimplentes(...page(q, q.filter)))) },
  superlogica_inadimplentes: { list: (q) => run(async () => all(await superlogica().inadimplentes(...page(q, q.filter)))) },
  superlogica_cobrancas: {
    list: (q) => run(async () => {
      const status = q.filter.status === undefined ? 'pendentes' : String(q.filter.status);
      if (!STATUS.includes(status)) throw badRequest(`Situação inválida: use ${STATUS.join(', ')}`);
      return all(await superlogica().cobrancas(status, ...page(q, q.filter)));
    }),
  },
  superlogica_token: { list: async () => all([await superlogica().token()]) },
};
