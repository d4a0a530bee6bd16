// The operator's overview (home page cards) and the fleet monitoring list, in SQL over the telemetria tables of the
// active company. One definition of a vehicle's situation, used by both:
//  - sem_comunicacao: its latest device report is older than SEM_COMUNICACAO_MIN minutes (default 10), or it never reported;
//  - em_movimento: speed > 0 and the ignition on (or not reported);
//  - parado: ignition on, speed 0;
//  - desligado: ignition off.
// A vehicle (ativo) takes the state of its device that reported last (telemetria.ultimo_estado). "Today" starts at
// midnight in FUSO_HORARIO (default America/Sao_Paulo; the company register has no time zone of its own yet).
// Distance: sum of the great-circle steps between consecutive valid positions of each device since midnight
// (telemetria.posicao), the device that ran most per vehicle. Alarms: today's events (telemetria.evento) whose key has
// an active weight in the company's Pontuação de eventos (no alarm treatment register exists: all of today's count).
import type { Hono } from 'hono';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppEnv, Session } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { memoryPage, type Provider, type ProviderRow } from '../../../server/crud/provider.ts';
import { ativo, equipamento_pendente as pend, fila_processamento as fila, pontuacao_de_eventos as pe } from '../../../server/generated/columns.ts';
import { fusoHorario } from '../../../server/core/fuso-horario.ts';
import { ok } from '../../../server/http/envelope.ts';
import { companySql, qParams, sameCompany, scopeSql, type Params } from '../../../server/tenancy/scope.ts';
import { requestEm } from '../../../server/db/context.ts';

export const semComunicacaoMin = () => {
  const v = Number(process.env.SEM_COMUNICACAO_MIN ?? 10);
  return Number.isFinite(v) && v > 0 ? v : 10;
};
export { fusoHorario };

export const ESTADOS = ['em_movimento', 'parado', 'desligado', 'sem_comunicacao'] as const;
export type EstadoFrota = (typeof ESTADOS)[number];
const LABEL: Record<EstadoFrota, string> = { em_movimento: 'Em movimento', parado: 'Parado', desligado: 'Desligado', sem_comunicacao: 'Sem comunicação' };

/** Midnight of today in the time zone, as timestamptz. */
const midnight = (p: Params) => `(date_trunc('day', now() AT TIME ZONE ${p.add(fusoHorario())}) AT TIME ZONE ${p.add(fusoHorario())})`;

/** Every vehicle of the session's company (values go to `p` in text order) with its state, speed, ignition, last report, distance and alarms today. */
export function frotaSql(s: Session, p: Params): string {
  const a = ativo;
  return `(WITH est AS (
    SELECT DISTINCT ON (u.ativo_id) u.ativo_id, u.serial, u.ignition, u.speed, u.ultima_comunicacao
    FROM telemetria.ultimo_estado u
    WHERE ${companySql('u', s.empresaAtiva, p)} AND u.ativo_id IS NOT NULL
    ORDER BY u.ativo_id, u.ultima_comunicacao DESC
  ), passo AS (
    SELECT x.ativo_id, x.serial,
      2 * 6371 * asin(sqrt(power(sin(radians(x.lat - x.lat0) / 2), 2)
        + cos(radians(x.lat0)) * cos(radians(x.lat)) * power(sin(radians(x.lon - x.lon0) / 2), 2))) AS km
    FROM (SELECT ps.ativo_id, ps.serial, ps.lat, ps.lon,
            lag(ps.lat) OVER w AS lat0, lag(ps.lon) OVER w AS lon0
          FROM telemetria.posicao ps
          WHERE ${companySql('ps', s.empresaAtiva, p)} AND ps.ativo_id IS NOT NULL AND ps.valid AND ps.fix_time >= ${midnight(p)}
          WINDOW w AS (PARTITION BY ps.serial ORDER BY ps.fix_time)) x
    WHERE x.lat0 IS NOT NULL
  ), dist AS (
    SELECT ativo_id, max(km) AS km FROM (SELECT ativo_id, serial, sum(km) AS km FROM passo GROUP BY ativo_id, serial) d GROUP BY ativo_id
  ), alarme AS (
    SELECT e.ativo_id, count(*)::int AS n
    FROM telemetria.evento e
    WHERE ${companySql('e', s.empresaAtiva, p)} AND e.ativo_id IS NOT NULL AND e.fix_time >= ${midnight(p)}
      AND EXISTS (SELECT 1 FROM ${pe.table} w WHERE ${sameCompany('w', 'e')} AND w.${pe.evento} = e.key AND w.${pe.ativo})
    GROUP BY e.ativo_id
  )
  SELECT v.${a.id} AS id, v.${a.empresaId}, v.${a.descricao} AS descricao, v.${a.placa} AS placa, est.serial,
    CASE WHEN est.ultima_comunicacao IS NULL OR est.ultima_comunicacao < now() - make_interval(mins => ${p.add(semComunicacaoMin())}) THEN 'sem_comunicacao'
         WHEN coalesce(est.speed, 0) > 0 AND est.ignition IS NOT FALSE THEN 'em_movimento'
         WHEN est.ignition THEN 'parado'
         ELSE 'desligado' END AS estado,
    est.speed::float8 AS velocidade, est.ignition AS ignicao, est.ultima_comunicacao AS "ultimaComunicacao",
    CASE WHEN est.ultima_comunicacao IS NULL THEN NULL
         ELSE est.ultima_comunicacao + make_interval(mins => ${p.add(semComunicacaoMin())}) END AS "semComunicacaoEm",
    round(coalesce(dist.km, 0)::numeric, 1)::float8 AS "distanciaHoje", coalesce(alarme.n, 0) AS "alarmesHoje"
  FROM ${a.table} v
  LEFT JOIN est ON est.ativo_id = v.${a.id}
  LEFT JOIN dist ON dist.ativo_id = v.${a.id}
  LEFT JOIN alarme ON alarme.ativo_id = v.${a.id}
  WHERE ${scopeSql(entityByKey('ativo')!, s, 'v', p)})`;
}

export interface ResumoFrota {
  emMovimento: number; parado: number; desligado: number; semComunicacao: number; total: number;
  distanciaHoje: number; alarmesHoje: number;
  /** The window (minutes) after which a vehicle is 'sem comunicação'. */
  semComunicacaoMin: number;
  /** When the next vehicle falls into 'sem comunicação' without any report (the client refreshes then), or null. */
  proximaMudanca: string | null;
}

export async function resumoFrota(s: Session, em: EntityManager): Promise<ResumoFrota> {
  const p = qParams();
  const sql = `SELECT
      count(*) FILTER (WHERE f.estado = 'em_movimento')::int AS "emMovimento",
      count(*) FILTER (WHERE f.estado = 'parado')::int AS parado,
      count(*) FILTER (WHERE f.estado = 'desligado')::int AS desligado,
      count(*) FILTER (WHERE f.estado = 'sem_comunicacao')::int AS "semComunicacao",
      count(*)::int AS total,
      round(coalesce(sum(f."distanciaHoje"), 0)::numeric, 1)::float8 AS "distanciaHoje",
      coalesce(sum(f."alarmesHoje"), 0)::int AS "alarmesHoje",
      min(f."semComunicacaoEm") FILTER (WHERE f.estado <> 'sem_comunicacao') AS "proximaMudanca"
    FROM ${frotaSql(s, p)} f`;
  const [r] = (await em.getConnection().execute(sql, p.values)) as Record<string, unknown>[];
  const n = (k: string) => Number(r?.[k] ?? 0);
  const next = r?.proximaMudanca;
  return {
    emMovimento: n('emMovimento'), parado: n('parado'), desligado: n('desligado'), semComunicacao: n('semComunicacao'), total: n('total'),
    distanciaHoje: n('distanciaHoje'), alarmesHoje: n('alarmesHoje'), semComunicacaoMin: semComunicacaoMin(),
    proximaMudanca: next ? new Date(next as string).toISOString() : null,
  };
}

export const providers: Record<string, Provider> = {
  // The company's fleet is read whole (one statement) and paged here: its size is that of the ativo register.
  situacao_frota: {
    list: async (q, ctx) => {
      const p = qParams();
      const sql = `SELECT f.id, f.descricao, f.placa, f.serial, f.estado, f.velocidade, f.ignicao, f."ultimaComunicacao", f."distanciaHoje", f."alarmesHoje"
        FROM ${frotaSql(ctx.session, p)} f`;
      const all = (await ctx.em.getConnection().execute(sql, p.values)) as ProviderRow[];
      const situacao = String(q.params.situacao);
      const rows = all
        .filter((r) => situacao === 'todos' || (situacao === 'com_alarme' ? Number(r.alarmesHoje) > 0 : r.estado === situacao))
        .map((r): ProviderRow => ({ ...r, estado: LABEL[r.estado as EstadoFrota] ?? r.estado }));
      return memoryPage(rows, q, ctx.meta, { search: (r) => [r.descricao, r.placa, r.serial].map((x) => String(x ?? '')) });
    },
  },
};

/** GET /api/home/{frota,comandos,pendentes}: one number (or one group of numbers) per call, each behind the key of
 *  the list its card opens. */
export function routes(api: Hono<AppEnv>) {
  route(api, 'get', '/home/frota', { permission: ['rel.ges.gestao_a_vista.monitoramento'], scope: 'empresa' }, async (c) => ok(c, await resumoFrota(c.get('session'), requestEm(c))));
  route(api, 'get', '/home/comandos', { permission: ['adm.cfg.equipamentos.fila_processamento.lista'], scope: 'empresa' }, async (c) => {
    const p = qParams();
    const [r] = (await requestEm(c).getConnection().execute(
      `SELECT count(*)::int AS n FROM ${fila.table} f WHERE f.${fila.status} IN ('pendente', 'enviado') AND ${scopeSql(entityByKey('fila_processamento')!, c.get('session'), 'f', p)}`,
      p.values)) as { n: number }[];
    return ok(c, { pendentes: Number(r?.n ?? 0) });
  });
  route(api, 'get', '/home/pendentes', { permission: ['adm.cfg.equipamentos.pendentes.lista'], scope: 'empresa' }, async (c) => {
    const p = qParams();
    const [r] = (await requestEm(c).getConnection().execute(
      `SELECT count(*)::int AS n FROM ${pend.table} x WHERE ${scopeSql(entityByKey('equipamento_pendente')!, c.get('session'), 'x', p)}`, p.values)) as { n: number }[];
    return ok(c, { equipamentos: Number(r?.n ?? 0) });
  });
}
