// Provider painel_satelite (modules/satelite/metadata/esp/painel_satelite.yaml): the satellite panel /esp/sat/painel — one row per
// terminal (serial) of the company, from its messages: last received/sent, pending, failed, and the asset the serial
// is linked to now. The company condition is added by sqlPage (pushed into the grouping by PostgreSQL).
import { likeOf, sqlPage, type Provider } from '../../../server/crud/provider.ts';
import { ativo as a, equipamento_ativo as v, mensagem_satelite as m } from '../../../server/generated/columns.ts';
import { sameCompany } from '../../../server/tenancy/scope.ts';

const ATIVO = `(SELECT a.${a.descricao} FROM ${v.table} v JOIN ${a.table} a ON a.${a.id} = v.${v.ativoId}
  WHERE v.${v.serial} = m.${m.serial} AND ${sameCompany('v', 'm')} AND v.${v.dataInicio} <= now()
    AND (v.${v.dataFim} IS NULL OR v.${v.dataFim} > now()) ORDER BY v.${v.dataInicio} DESC LIMIT 1)`;
// The terminal's state: its last sent message failed, or some are still waiting for delivery, or all is delivered.
const SITUACAO = `CASE WHEN (array_agg(m.${m.situacao} ORDER BY m.${m.dataHora} DESC) FILTER (WHERE m.${m.direcao} = 'enviada'))[1] = 'erro' THEN 'Com erro'
  WHEN count(*) FILTER (WHERE m.${m.situacao} = 'pendente') > 0 THEN 'Aguardando entrega' ELSE 'Em dia' END`;

export const providers: Record<string, Provider> = {
  painel_satelite: {
    list: async (q, ctx) => {
      const where: string[] = [], params: unknown[] = [];
      if (typeof q.filter.q === 'string' && q.filter.q) { where.push('(x.serial ILIKE ? OR x.ativo ILIKE ?)'); params.push(likeOf(q.filter.q), likeOf(q.filter.q)); }
      if (q.filter.pendencias === true) where.push('(x.pendentes > 0 OR x.situacao = \'Com erro\')');
      return sqlPage(ctx, q, {
        select: 'x.serial AS id, x.serial, x.ativo, x.situacao, x."ultimaRecebida", x."ultimaEnviada", x.pendentes, x.erros, x.total, x."ultimaMensagem"',
        from: `(SELECT m.${m.empresaId} AS empresa_id, m.${m.serial} AS serial, ${ATIVO} AS ativo, ${SITUACAO} AS situacao,
                  max(m.${m.dataHora}) FILTER (WHERE m.${m.direcao} = 'recebida') AS "ultimaRecebida",
                  max(m.${m.dataHora}) FILTER (WHERE m.${m.direcao} = 'enviada') AS "ultimaEnviada",
                  count(*) FILTER (WHERE m.${m.situacao} = 'pendente')::int AS pendentes,
                  count(*) FILTER (WHERE m.${m.situacao} = 'erro')::int AS erros,
                  count(*)::int AS total,
                  (array_agg(m.${m.mensagem} ORDER BY m.${m.dataHora} DESC))[1] AS "ultimaMensagem"
                FROM ${m.table} m GROUP BY m.${m.empresaId}, m.${m.serial}) x`,
        scope: 'x', where, params,
        orderBy: {
          serial: 'x.serial', ativo: 'x.ativo', situacao: 'x.situacao', ultimaRecebida: 'x."ultimaRecebida"', ultimaEnviada: 'x."ultimaEnviada"',
          pendentes: 'x.pendentes', erros: 'x.erros', total: 'x.total',
        },
        tiebreak: 'x.serial',
      });
    },
  },
};
