// Providers of the passengers' dashboard (/rel/ges/passageiros): boardings per day and line occupancy of a period.
// Grouped in SQL (one statement each, the company condition from the scope module on every table read, RLS the
// backstop); at most 186 days or the company's itineraries, paged in memory.
import { badRequest } from '../../../server/http/envelope.ts';
import { memoryPage, type Provider, type ProviderContext, type ProviderQuery, type ProviderRow } from '../../../server/crud/provider.ts';
import { companySql, qParams, scopeSql } from '../../../server/tenancy/scope.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { sameCompany } from '../../../shared/scope-sql.ts';

const FUSO = () => process.env.FUSO_HORARIO || 'America/Sao_Paulo';
const DAY = 86_400_000;

/** The period of the query (default: the last 30 days; at most 186 days). */
export function periodo(q: ProviderQuery): { inicio: string; fim: string } {
  const fim = typeof q.filter.fim === 'string' ? new Date(q.filter.fim) : new Date();
  const inicio = typeof q.filter.inicio === 'string' ? new Date(q.filter.inicio) : new Date(fim.getTime() - 30 * DAY);
  if (inicio > fim) throw badRequest('O início do período deve ser anterior ao fim');
  if (fim.getTime() - inicio.getTime() > 186 * DAY) throw badRequest('O período deve ser de no máximo 186 dias');
  return { inicio: inicio.toISOString(), fim: fim.toISOString() };
}

const page = (rows: ProviderRow[], q: ProviderQuery, ctx: ProviderContext) =>
  memoryPage(rows, { ...q, filter: {} }, ctx.meta, { sortKeys: Object.fromEntries(ctx.meta.columns.map((c) => [c.name, (r: ProviderRow) => (r[c.name] ?? null) as string | number | null])) });

export const providers: Record<string, Provider> = {
  painel_passageiros: {
    list: async (q, ctx) => {
      const { inicio, fim } = periodo(q);
      const p = qParams();
      const sql = `SELECT to_char(d, 'YYYY-MM-DD') AS id, to_char(d, 'YYYY-MM-DD') AS dia, embarques, passageiros, inconsistencias FROM (
          SELECT (e.entrada AT TIME ZONE ${p.add(FUSO())})::date AS d, count(*)::int AS embarques,
            count(DISTINCT coalesce(e.passageiro_id::text, e.tag))::int AS passageiros, count(e.inconsistencia)::int AS inconsistencias
          FROM telemetria.embarque e
         WHERE ${companySql('e', ctx.empresaId!, p)} AND e.entrada >= ${p.add(inicio)} AND e.entrada <= ${p.add(fim)}
         GROUP BY 1) x`;
      const rows = (await ctx.em.getConnection().execute(sql, p.values)) as ProviderRow[];
      return page(rows, q, ctx);
    },
  },
  ocupacao_linha: {
    list: async (q, ctx) => {
      const { inicio, fim } = periodo(q);
      const p = qParams();
      const scopeIp = scopeSql(entityByKey('itinerario_passageiro')!, ctx.session, 'ip', p);
      const period = `v.inicio >= ${p.add(inicio)} AND v.inicio <= ${p.add(fim)}`;
      const scopeL = scopeSql(entityByKey('linha')!, ctx.session, 'l', p);
      const scopeI = scopeSql(entityByKey('itinerario')!, ctx.session, 'i', p);
      const sql = `SELECT y.*, CASE WHEN y.cadastrados > 0 THEN round((100.0 * y.lotacao / y.cadastrados)::numeric, 1)::float8 END AS "percLotacao" FROM (
          SELECT i.id, i.descricao AS itinerario, l.descricao AS linha, s.qtd_viagens AS "qtdViagens", s.qtd_passageiros AS "qtdPassageiros",
            s.lotacao, s.lotacao_media AS "lotacaoMedia",
            (SELECT count(*)::int FROM itinerario_passageiro ip WHERE ip.itinerario = i.id AND ${scopeIp}) AS cadastrados
          FROM itinerario i
          JOIN LATERAL (SELECT count(*)::int AS qtd_viagens, sum(v.qtd_passageiros)::int AS qtd_passageiros, max(v.lotacao)::int AS lotacao,
              round(avg(v.lotacao)::numeric, 1)::float8 AS lotacao_media
            FROM telemetria.viagem_passageiro v WHERE v.itinerario_id = i.id AND ${sameCompany('v', 'i')} AND ${period}) s ON s.qtd_viagens > 0
          LEFT JOIN linha l ON l.id = i.linha AND ${scopeL}
         WHERE ${scopeI}) y`;
      const rows = (await ctx.em.getConnection().execute(sql, p.values)) as ProviderRow[];
      return page(rows, q, ctx);
    },
  },
};
