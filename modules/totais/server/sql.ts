// The aggregation of daily totals (telemetria.total_diario) for a set of asset-days, as ONE set-based statement:
// positions of each asset-day's window (an hour either side: the steps across midnight), its main device (most
// fixes that day), the steps between consecutive fixes (≤ maxGap apart, split at midnight), the stored trips of that
// device and the events of the asset; the rows of those asset-days are upserted and the ones no longer produced
// (e.g. a driver corrected by a late fix) deleted. Idempotent: it reads only stored rows.
import { analise_de_risco as risco, pontuacao_avancada as av, pontuacao_de_eventos as pe } from '../../../server/generated/columns.ts';
import { TOTAL_DIARIO_COLUMNS } from '../../../server/generated/telemetry.ts';
import { haversineSql, stepDistanceSql } from '../../../shared/distancia.ts';
import { sameCompany } from '../../../shared/scope-sql.ts';

/** The trip detector's defaults (modules/viagens DEFAULT_PARAMS): a fix at movingSpeed or above (and the ignition
 *  not off) is moving; steps longer than maxGap are no data. */
export const MOVING_SPEED = 3;
export const MAX_GAP_S = 3600;
/** Plausible counters: engine seconds at most the step's time (+ a minute), fuel at most 360 L/h (+ 1 L). */
const FUEL_MAX_LPS = 0.1;
/** A rise of the fuel level at least this large between two stopped fixes is a refuel (the level's unit: litres
 *  when the device reports litres). The refuel detection of the fuel reports (median filter) may replace it. */
export const REFUEL_MIN = 5;

const num = (k: string, a = 'ps') => `CASE WHEN jsonb_typeof(${a}.attributes->'${k}') = 'number' THEN (${a}.attributes->>'${k}')::float8 END`;
const first = (...keys: string[]) => `coalesce(${keys.map((k) => num(k)).join(', ')})`;

// Local hour of an event and whether a risk window [inicio, fim) holds it (wrapping past midnight): as the ranking.
const HOUR = `extract(hour FROM e.fix_time AT TIME ZONE $3)::int`;
const IN_WINDOW = `((r.${risco.horaInicio} <= r.${risco.horaFim} AND ${HOUR} >= r.${risco.horaInicio} AND ${HOUR} < r.${risco.horaFim})
  OR (r.${risco.horaInicio} > r.${risco.horaFim} AND (${HOUR} >= r.${risco.horaInicio} OR ${HOUR} < r.${risco.horaFim})))`;
/** Penalty points of one event: its weight × the advanced-scoring multiplier of its speed × the hour's risk factor. */
const PENALTY = `(SELECT p.${pe.pontos}::float8
    * coalesce((SELECT max(a.${av.multiplicador}) FROM ${av.table} a
         WHERE ${sameCompany('a', 'e')} AND a.${av.ativo} AND a.${av.evento} = e.key
           AND coalesce(e.speed, 0) >= a.${av.velocidadeMinima}
           AND (a.${av.velocidadeMaxima} IS NULL OR coalesce(e.speed, 0) <= a.${av.velocidadeMaxima})), 1)
    * coalesce((SELECT max(r.${risco.fatorRisco}) FROM ${risco.table} r WHERE ${sameCompany('r', 'e')} AND r.${risco.ativo} AND ${IN_WINDOW}), 1)
  FROM ${pe.table} p WHERE ${sameCompany('p', 'e')} AND p.${pe.evento} = e.key AND p.${pe.ativo} LIMIT 1)`;

const GPS = haversineSql('s.lat0', 's.lon0', 's.lat', 's.lon');

/** Counters (engine seconds, litres used, fuel level) between consecutive fixes of the main device that report
 *  them (a fix without one, e.g. an event report, is skipped): plausible increments, split at midnight like time
 *  (whole, on the later fix's day, for a refuel). Names its CTE c_<v> with (ativo_id, data, motorista_id, <out>). */
function counter(v: string, out: string, plausible: string, whole = false): string {
  return `l_${v} AS (
  SELECT s.ativo_id, s.data, s.ini, s.fim, s.fix_time, s.speed, s.${v} AS v, lag(s.${v}) OVER w AS v0, lag(s.fix_time) OVER w AS t0,
         lag(s.speed) OVER w AS speed0, lag(s.motorista_id) OVER w AS mot0
    FROM s WHERE s.${v} IS NOT NULL
  WINDOW w AS (PARTITION BY s.ativo_id, s.data ORDER BY s.fix_time)
), c_${v} AS (
  SELECT ativo_id, data, mot0 AS motorista_id, sum(${whole ? 'v - v0' : '(v - v0) * dentro / dt'}) FILTER (WHERE ${plausible}) AS ${out}
    FROM (SELECT l.*, extract(epoch FROM l.fix_time - l.t0)::float8 AS dt,
                 greatest(0, extract(epoch FROM least(l.fix_time, l.fim) - greatest(l.t0, l.ini)))::float8 AS dentro
            FROM l_${v} l WHERE l.t0 IS NOT NULL AND l.fix_time - l.t0 <= interval '${MAX_GAP_S} seconds' AND l.fix_time > l.t0) x
   WHERE dentro > 0 OR (fix_time >= ini AND fix_time < fim)
   GROUP BY 1, 2, 3
)`;
}

const cols = TOTAL_DIARIO_COLUMNS.filter((c) => c !== 'calculado_em');
const KEY = ['ativo_id', 'data', 'motorista_id'];

/** $1 int[] asset ids, $2 text[] local dates ('YYYY-MM-DD'), pairwise; $3 the time zone. */
export const SQL_TOTAIS = `
WITH k AS (
  SELECT DISTINCT x.ativo_id, x.data, (x.data::date::timestamp AT TIME ZONE $3) AS ini, ((x.data::date + 1)::timestamp AT TIME ZONE $3) AS fim
    FROM unnest($1::int[], $2::text[]) AS x(ativo_id, data)
), p AS (
  SELECT DISTINCT ON (k.ativo_id, k.data, ps.serial, ps.fix_time)
         k.ativo_id, k.data, k.ini, k.fim, ps.serial, ps.fix_time, ps.lat, ps.lon, coalesce(ps.speed, 0)::float8 AS speed, ps.ignition,
         ps.empresa_id, coalesce(ps.motorista_id, 0) AS motorista_id,
         ${first('odometer', 'odo_can', 'odo_gps')} AS odo, ${first('hourMeter', 'engine_running_time_meter')} AS horas,
         ${first('fuel_consumption_can')} AS comb, ${first('fuelLevel')} AS nivel
    FROM k JOIN telemetria.posicao ps ON ps.ativo_id = k.ativo_id
     AND ps.fix_time >= k.ini - interval '${MAX_GAP_S} seconds' AND ps.fix_time < k.fim + interval '${MAX_GAP_S} seconds'
   WHERE ps.valid AND ps.empresa_id IS NOT NULL
   ORDER BY k.ativo_id, k.data, ps.serial, ps.fix_time, ps.tipo
), dev AS (
  SELECT DISTINCT ON (ativo_id, data) ativo_id, data, serial
    FROM p WHERE fix_time >= ini AND fix_time < fim
   GROUP BY ativo_id, data, serial ORDER BY ativo_id, data, count(*) DESC, serial
), s AS (
  SELECT p.*, lag(p.fix_time) OVER w AS t0, lag(p.lat) OVER w AS lat0, lag(p.lon) OVER w AS lon0, lag(p.speed) OVER w AS speed0,
         lag(p.ignition) OVER w AS ign0, lag(p.motorista_id) OVER w AS mot0, lag(p.odo) OVER w AS odo0
    FROM p JOIN dev USING (ativo_id, data, serial)
  WINDOW w AS (PARTITION BY p.ativo_id, p.data ORDER BY p.fix_time)
), st AS (
  SELECT s.*, extract(epoch FROM s.fix_time - s.t0)::float8 AS dt,
         greatest(0, extract(epoch FROM least(s.fix_time, s.fim) - greatest(s.t0, s.ini)))::float8 AS dentro,
         ${GPS} AS gps, (s.speed0 >= ${MOVING_SPEED} AND s.ign0 IS DISTINCT FROM false) AS moving
    FROM s WHERE s.t0 IS NOT NULL AND s.fix_time - s.t0 <= interval '${MAX_GAP_S} seconds'
), steps AS (
  SELECT ativo_id, data, mot0 AS motorista_id,
         sum(${stepDistanceSql('st.gps', 'st.odo0', 'st.odo')} * dentro / dt) AS distancia,
         sum(dentro) FILTER (WHERE moving) AS conducao,
         sum(dentro) FILTER (WHERE NOT moving) AS parado,
         sum(dentro) FILTER (WHERE NOT moving AND ign0) AS lenta,
         sum(dentro) FILTER (WHERE NOT moving AND NOT ign0) AS estacionado
    FROM st WHERE dt > 0 AND (dentro > 0 OR (fix_time >= ini AND fix_time < fim))
   GROUP BY 1, 2, 3
), ${counter('horas', 'horimetro', 'v - v0 BETWEEN 0 AND dt + 60')}, ${counter('comb', 'combustivel', `v - v0 BETWEEN 0 AND dt * ${FUEL_MAX_LPS} + 1`)},
  ${counter('nivel', 'abastecido', `fix_time >= ini AND fix_time < fim AND speed0 < ${MOVING_SPEED} AND speed < ${MOVING_SPEED} AND v - v0 >= ${REFUEL_MIN}`, true)}, fixes AS (
  SELECT ativo_id, data, motorista_id, max(empresa_id) AS empresa_id, min(serial) AS serial, min(fix_time) AS primeira, max(fix_time) AS ultima,
         count(*)::int AS n, max(speed) AS vmax,
         (array_agg(odo ORDER BY fix_time) FILTER (WHERE odo > 0))[1] AS odo_ini, (array_agg(odo ORDER BY fix_time DESC) FILTER (WHERE odo > 0))[1] AS odo_fim
    FROM s WHERE fix_time >= ini AND fix_time < fim
   GROUP BY 1, 2, 3
), trips AS (
  SELECT k.ativo_id, k.data, coalesce(v.motorista_id, 0) AS motorista_id, max(v.empresa_id) AS empresa_id, count(*)::int AS n
    FROM k JOIN dev ON dev.ativo_id = k.ativo_id AND dev.data = k.data
    JOIN telemetria.viagem v ON v.serial = dev.serial AND v.inicio >= k.ini AND v.inicio < k.fim AND v.ativo_id = k.ativo_id
   GROUP BY 1, 2, 3
), ev AS (
  SELECT k.ativo_id, k.data, coalesce(e.motorista_id, 0) AS motorista_id, e.key, max(e.empresa_id) AS empresa_id, count(*)::int AS n,
         coalesce(sum(${PENALTY}), 0) AS pontos
    FROM k JOIN telemetria.evento e ON e.ativo_id = k.ativo_id AND e.fix_time >= k.ini AND e.fix_time < k.fim
   WHERE e.empresa_id IS NOT NULL
   GROUP BY 1, 2, 3, 4
), evs AS (
  SELECT ativo_id, data, motorista_id, max(empresa_id) AS empresa_id, jsonb_object_agg(key, n) AS eventos, sum(n)::int AS qtd, sum(pontos) AS pontos
    FROM ev GROUP BY 1, 2, 3
), pieces AS (
  SELECT ativo_id, data, motorista_id FROM steps UNION SELECT ativo_id, data, motorista_id FROM fixes
  UNION SELECT ativo_id, data, motorista_id FROM c_horas WHERE horimetro IS NOT NULL
  UNION SELECT ativo_id, data, motorista_id FROM c_comb WHERE combustivel IS NOT NULL
  UNION SELECT ativo_id, data, motorista_id FROM c_nivel WHERE abastecido IS NOT NULL
  UNION SELECT ativo_id, data, motorista_id FROM trips UNION SELECT ativo_id, data, motorista_id FROM evs
), novo AS (
  SELECT x.ativo_id, x.data, x.motorista_id, coalesce(f.empresa_id, t.empresa_id, e.empresa_id) AS empresa_id,
         coalesce(f.serial, dev.serial) AS serial, f.primeira AS primeira_posicao, f.ultima AS ultima_posicao, coalesce(f.n, 0) AS posicoes,
         coalesce(round(st.distancia::numeric, 1)::float8, 0) AS distancia,
         coalesce(round(st.conducao)::int, 0) AS tempo_conducao, coalesce(round(st.parado)::int, 0) AS tempo_parado,
         coalesce(round(st.lenta)::int, 0) AS tempo_marcha_lenta, coalesce(round(st.estacionado)::int, 0) AS tempo_estacionado,
         coalesce(t.n, 0) AS viagens, coalesce(round(f.vmax::numeric, 1)::real, 0) AS velocidade_maxima,
         f.odo_ini AS hodometro_inicial, f.odo_fim AS hodometro_final,
         round(ch.horimetro::numeric, 1)::float8 AS horimetro, round(cc.combustivel::numeric, 2)::float8 AS combustivel_utilizado,
         round(cn.abastecido::numeric, 2)::float8 AS combustivel_abastecido,
         coalesce(e.eventos, '{}'::jsonb) AS eventos, coalesce(e.qtd, 0) AS qtd_eventos, coalesce(round(e.pontos::numeric, 2)::float8, 0) AS pontuacao,
         NULL::int AS cerca_entradas, NULL::int AS cerca_saidas, NULL::int AS tempo_em_cerca
    FROM pieces x
    LEFT JOIN steps st USING (ativo_id, data, motorista_id)
    LEFT JOIN fixes f USING (ativo_id, data, motorista_id)
    LEFT JOIN c_horas ch USING (ativo_id, data, motorista_id)
    LEFT JOIN c_comb cc USING (ativo_id, data, motorista_id)
    LEFT JOIN c_nivel cn USING (ativo_id, data, motorista_id)
    LEFT JOIN trips t USING (ativo_id, data, motorista_id)
    LEFT JOIN evs e USING (ativo_id, data, motorista_id)
    LEFT JOIN dev ON dev.ativo_id = x.ativo_id AND dev.data = x.data
), apagado AS (
  DELETE FROM telemetria.total_diario d USING k
   WHERE d.ativo_id = k.ativo_id AND d.data = k.data
     AND NOT EXISTS (SELECT 1 FROM novo n WHERE n.ativo_id = d.ativo_id AND n.data = d.data AND n.motorista_id = d.motorista_id)
  RETURNING 1
), gravado AS (
  INSERT INTO telemetria.total_diario (${cols.join(', ')}, calculado_em)
  SELECT ${cols.join(', ')}, now() FROM novo WHERE empresa_id IS NOT NULL
  ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${cols.filter((c) => !KEY.includes(c)).map((c) => `${c} = excluded.${c}`).join(', ')}, calculado_em = now()
  RETURNING 1
)
SELECT (SELECT count(*) FROM gravado)::int AS gravados, (SELECT count(*) FROM apagado)::int AS apagados`;

/** Lock of each asset (sorted): two gateway processes never aggregate the same asset at once, and the later one
 *  reads what the earlier committed. */
export const SQL_LOCK = `SELECT pg_advisory_xact_lock(hashtext('telemetria.total_diario'), a) FROM (SELECT DISTINCT unnest($1::int[]) AS a ORDER BY 1) x`;
