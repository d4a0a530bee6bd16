// Provider logs_teclado (modules/teclado/metadata/esp/logs_teclado.yaml): the Logs tab of a keyboard's command console
// (/esp/tcl/comandos/:serial/logs) — every recorded change of the device and of its messages/macros, deleted ones
// included (a message belongs to the device named when it was created). The company condition is added by sqlPage.
import { HttpError } from '../../../server/http/envelope.ts';
import { likeOf, sqlPage, type Provider } from '../../../server/crud/provider.ts';
import { dispositivo_teclado as dev } from '../../../server/generated/columns.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { qParams, scopeSql } from '../../../server/tenancy/scope.ts';

const OPERACAO = `CASE h.operacao WHEN 'create' THEN 'Inclusão' WHEN 'update' THEN 'Alteração' WHEN 'delete' THEN 'Exclusão' ELSE h.operacao END`;
// The change in words: the message text on create, else the changed fields (situação: pendente → entregue).
const DETALHE = `CASE WHEN h.operacao = 'create' AND h.entidade = 'comando_teclado' THEN h.alteracoes->'mensagem'->>'depois'
  ELSE (SELECT string_agg(k || ': ' || coalesce(v->>'antes', '—') || ' → ' || coalesce(v->>'depois', '—'), '; ' ORDER BY k)
          FROM jsonb_each(h.alteracoes) AS a(k, v)) END`;

export const providers: Record<string, Provider> = {
  logs_teclado: {
    list: async (q, ctx) => {
      const p = qParams();
      const found = await ctx.em.getConnection().execute(
        `SELECT d.${dev.id} AS id FROM ${dev.table} d WHERE d.${dev.serial} = ${p.add(q.params.serial)} AND ${scopeSql(entityByKey('dispositivo_teclado')!, ctx.session, 'd', p)}`, p.values) as { id: number }[];
      if (!found.length) throw new HttpError(404, 'Dispositivo não encontrado');
      const id = Number(found[0]!.id);
      // The id goes into the subquery as a literal (an integer read from the database): sqlPage's parameters follow its WHERE.
      const where: string[] = [], params: unknown[] = [];
      if (typeof q.filter.q === 'string' && q.filter.q) { where.push('(x.usuario ILIKE ? OR x.detalhe ILIKE ?)'); params.push(likeOf(q.filter.q), likeOf(q.filter.q)); }
      return sqlPage(ctx, q, {
        select: 'x.id, x.data, x.registro, x.operacao, x.usuario, x.detalhe',
        from: `(SELECT h.id, h.data, h.empresa_id, h.login AS usuario, ${OPERACAO} AS operacao, ${DETALHE} AS detalhe,
                  CASE h.entidade WHEN 'comando_teclado' THEN 'Mensagem ' || h.registro_id ELSE 'Dispositivo' END AS registro
                FROM historico_alteracao h
                WHERE (h.entidade = 'dispositivo_teclado' AND h.registro_id = ${id})
                   OR (h.entidade = 'comando_teclado' AND h.registro_id IN (
                        SELECT c.registro_id FROM historico_alteracao c
                         WHERE c.entidade = 'comando_teclado' AND c.operacao = 'create' AND c.alteracoes->'dispositivo'->>'depois' = '${id}'))) x`,
        scope: 'x', where, params,
        orderBy: { data: 'x.data', usuario: 'x.usuario' }, tiebreak: 'x.id',
      });
    },
  },
};
