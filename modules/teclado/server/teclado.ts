// Provider logs_teclado (modules/teclado/metadata/esp/logs_teclado.yaml): the Logs tab of a keyboard's command console
// (/esp/tcl/comandos/:serial/logs) — every recorded change of the device and of its messages/macros, deleted ones
// included (a message belongs to the device named when it was created). Its rows are declared in the YAML (`sql:`,
// read by the engine); the code only answers 404 for a serial that is not a device of the company.
import { HttpError } from '../../../server/http/envelope.ts';
import type { Provider } from '../../../server/crud/provider.ts';
import { providerSql, readDeclared } from '../../../server/read/provider.ts';
import { dispositivo_teclado as dev } from '../../../server/generated/columns.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { qParams, scopeSql } from '../../../server/tenancy/scope.ts';

export const providers: Record<string, Provider> = {
  logs_teclado: {
    list: async (q, ctx) => {
      const p = qParams();
      const found = await ctx.em.getConnection().execute(
        `SELECT d.${dev.id} AS id FROM ${dev.table} d WHERE d.${dev.serial} = ${p.add(q.params.serial)} AND ${scopeSql(entityByKey('dispositivo_teclado')!, ctx.session, 'd', p)}`, p.values) as { id: number }[];
      if (!found.length) throw new HttpError(404, 'Dispositivo não encontrado');
      return readDeclared(ctx.em, ctx.meta, providerSql(ctx.meta)!, q, ctx.empresaId);
    },
  },
};
