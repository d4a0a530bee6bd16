// Provider `ranking_motorista` (modules/ranking/metadata/tlm/ranking_motorista.yaml): the record tab /tlm/fro/motorista/:id/ranking.
// The company's drivers ranked by their score over the period, computed in SQL from telemetria.evento:
//   score = Σ over the driver's events whose key has an active weight (pontuacao_de_eventos) of
//           pontos × the highest multiplier of the active speed rules of the event holding its speed (pontuacao_avancada, else 1)
//                  × the highest factor of the active hour windows holding its local hour (analise_de_risco, else 1).
// Lower is better: posição 1 is the lowest score (ties share the position). classificacao: Verde up to verdeAte,
// Âmbar up to ambarAte, else Vermelho, by the company's padrão RAG (pontuacao_rag; none: empty).
// The company is the session's (RLS applies too); the driver of the route must be the company's (else 404).
import { HttpError, badRequest } from '../../../server/http/envelope.ts';
import { memoryPage, type Provider, type ProviderQuery } from '../../../server/crud/provider.ts';
import { analise_de_risco as risco, motorista as m, pontuacao_avancada as av, pontuacao_de_eventos as pe, pontuacao_rag as rag } from '../../../server/generated/columns.ts';
import type { Session } from '../../../server/app/env.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { companySql, qParams, sameCompany, scopeSql, type Params } from '../../../server/tenancy/scope.ts';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;
export const TIME_ZONE = 'America/Sao_Paulo';
const DAY = 86_400_000;

/** The period asked for ([from, to]): defaults to the last 30 days (or the 30 days before `to`). */
export function rankingPeriod(filter: Record<string, unknown>, now = new Date()): [Date, Date] {
  const to = typeof filter.data_lte === 'string' ? new Date(filter.data_lte) : now;
  const from = typeof filter.data_gte === 'string' ? new Date(filter.data_gte) : new Date(to.getTime() - DEFAULT_DAYS * DAY);
  if (from > to) throw badRequest('O início do período deve ser anterior ao fim');
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY) throw badRequest(`O período deve ter no máximo ${MAX_DAYS} dias`);
  return [from, to];
}

// Local hour of the event, and whether a window [inicio, fim) holds it (wrapping past midnight when inicio > fim).
const HOUR = `extract(hour FROM e.fix_time AT TIME ZONE '${TIME_ZONE}')::int`;
const IN_WINDOW = `((r.${risco.horaInicio} <= r.${risco.horaFim} AND ${HOUR} >= r.${risco.horaInicio} AND ${HOUR} < r.${risco.horaFim})
  OR (r.${risco.horaInicio} > r.${risco.horaFim} AND (${HOUR} >= r.${risco.horaInicio} OR ${HOUR} < r.${risco.horaFim})))`;

/** The ranking statement of the session's company over [from, to]; values go to `p` in text order. */
const rankingSql = (s: Session, from: Date, to: Date, p: Params) => `
WITH ev AS (
  SELECT e.motorista_id, p.${pe.pontos}::float8
    * coalesce((SELECT max(a.${av.multiplicador}) FROM ${av.table} a
         WHERE ${sameCompany('a', 'e')} AND a.${av.ativo} AND a.${av.evento} = e.key
           AND coalesce(e.speed, 0) >= a.${av.velocidadeMinima}
           AND (a.${av.velocidadeMaxima} IS NULL OR coalesce(e.speed, 0) <= a.${av.velocidadeMaxima})), 1)
    * coalesce((SELECT max(r.${risco.fatorRisco}) FROM ${risco.table} r
         WHERE ${sameCompany('r', 'e')} AND r.${risco.ativo} AND ${IN_WINDOW}), 1) AS pontos
  FROM telemetria.evento e
  JOIN ${pe.table} p ON ${sameCompany('p', 'e')} AND p.${pe.evento} = e.key AND p.${pe.ativo}
  WHERE ${companySql('e', s.empresaAtiva, p)} AND e.fix_time >= ${p.add(from)} AND e.fix_time <= ${p.add(to)} AND e.motorista_id IS NOT NULL
), por AS (
  SELECT d.${m.id} AS id, d.${m.nome} AS nome, count(ev.motorista_id)::int AS eventos,
         round(coalesce(sum(ev.pontos), 0)::numeric, 2)::float8 AS pontuacao
  FROM ${m.table} d LEFT JOIN ev ON ev.motorista_id = d.${m.id}
  WHERE ${scopeSql(entityByKey('motorista')!, s, 'd', p)}
  GROUP BY d.${m.id}, d.${m.nome}
), padrao AS (
  SELECT g.${rag.verdeAte} AS verde, g.${rag.ambarAte} AS ambar FROM ${rag.table} g WHERE ${scopeSql(entityByKey('pontuacao_rag')!, s, 'g', p)}
  ORDER BY g.${rag.padrao} DESC, g.${rag.id} LIMIT 1
)
SELECT por.id, por.nome, por.eventos, por.pontuacao,
       rank() OVER (ORDER BY por.pontuacao)::int AS posicao, count(*) OVER ()::int AS total,
       CASE WHEN padrao.verde IS NULL THEN NULL WHEN por.pontuacao <= padrao.verde THEN 'Verde'
            WHEN por.pontuacao <= padrao.ambar THEN 'Âmbar' ELSE 'Vermelho' END AS classificacao
FROM por LEFT JOIN padrao ON true
ORDER BY posicao, por.nome, por.id`;

interface Row { id: number; nome: string; eventos: number; pontuacao: number; posicao: number; totalMotoristas: number; classificacao: string | null; este: boolean }

export const providers: Record<string, Provider> = {
  ranking_motorista: {
    list: async (q: ProviderQuery, ctx) => {
      const conn = ctx.em.getConnection();
      const id = Number(q.params.id);
      const fp = qParams();
      const found = await conn.execute(`SELECT 1 FROM ${m.table} d WHERE d.${m.id} = ${fp.add(id)} AND ${scopeSql(entityByKey('motorista')!, ctx.session, 'd', fp)}`, fp.values);
      if (!found.length) throw new HttpError(404, 'Motorista não encontrado');
      const [from, to] = rankingPeriod(q.filter);
      const p = qParams();
      const sql = rankingSql(ctx.session, from, to, p);
      const raw = (await conn.execute(sql, p.values)) as Record<string, unknown>[];
      const rows: Row[] = raw.map((r) => ({
        id: Number(r.id), nome: String(r.nome), eventos: Number(r.eventos), pontuacao: Number(r.pontuacao),
        posicao: Number(r.posicao), totalMotoristas: Number(r.total), classificacao: (r.classificacao as string | null) ?? null,
        este: Number(r.id) === id,
      }));
      const { data_gte: _g, data_lte: _l, ...filter } = q.filter;
      return memoryPage(rows, { ...q, filter }, ctx.meta, { search: (r) => [r.nome] });
    },
  },
};
