// The utilities' providers (named calls only): CEP, valor por extenso, consulta de placa. The adapters are built from
// the environment on first use and again when their settings change (tests point them at a local double).
import type { Provider } from '../../../server/crud/provider.ts';
import { HttpError, badRequest } from '../../../server/http/envelope.ts';
import { CEP_INVALIDO, cepOptionsFromEnv, createCepAdapter, normalizeCep, type CepAdapter } from './cep.ts';
import { VALOR_INVALIDO, extensoCentavos, parseValor } from './extenso.ts';
import { PlacasError, createPlacasAdapter, placasOptionsFromEnv, type PlacasAdapter } from './placas.ts';

function fromEnv<A, O>(options: () => O, make: (o: O) => A): () => A {
  let key = '', adapter: A | undefined;
  return () => {
    const o = options();
    const k = JSON.stringify(o);
    if (!adapter || k !== key) { adapter = make(o); key = k; }
    return adapter;
  };
}
export const cepAdapter = fromEnv(cepOptionsFromEnv, createCepAdapter) as () => CepAdapter;
export const placasAdapter = fromEnv(placasOptionsFromEnv, createPlacasAdapter) as () => PlacasAdapter;

export const providers: Record<string, Provider> = {
  util_cep: {
    async list(q) {
      const cep = normalizeCep(String(q.params.cep ?? ''));
      if (!cep) throw badRequest(CEP_INVALIDO);
      const row = await cepAdapter().consulta(cep);
      return row ? { rows: [row], total: 1 } : { rows: [], total: 0 };
    },
  },
  util_extenso: {
    list(q) {
      const raw = String(q.params.valor ?? '');
      const c = parseValor(raw);
      if (c === null) throw badRequest(VALOR_INVALIDO);
      return { rows: [{ valor: Number(c) / 100, extenso: extensoCentavos(c) }], total: 1 };
    },
  },
  api_placas: {
    async list(q) {
      try {
        return { rows: [await placasAdapter().consulta(String(q.params.placa ?? ''))], total: 1 };
      } catch (e) {
        if (e instanceof PlacasError) throw new HttpError(e.status, e.message);
        throw e;
      }
    },
  },
};
