// The aggregation of daily totals (telemetria.total_diario) for a set of asset-days, each mode ONE set-based statement:
// - full (SQL_TOTAIS): positions of each asset-day's window (an hour either side: the steps across midnight), its
//   main device (most fixes that day), the steps between consecutive fixes (≤ maxGap apart, split at midnight), the
//   stored trips of that device and the events of the asset; the rows of those asset-days are upserted and the ones
//   no longer produced (e.g. a driver corrected by a late fix) deleted. Idempotent: it reads only stored rows.
// - incremental (SQL_TOTAIS_INCREMENTAL): from where the asset-day stands (telemetria.total_diario_estado), only the
//   main device's positions after its last counted fix: their steps are added to the rows; trips and events are
//   counted again (few rows, by index). The processor picks it when every new fix comes after that point.
// Both write the asset-day's state. Stored sums are unrounded (the providers round).
import { analise_de_risco as risco, pontuacao_avancada as av, pontuacao_de_eventos as pe } from '../../../server/generated/columns.ts';
import { TOTAL_DIARIO_COLUMNS, TOTAL_DIARIO_ESTADO_COLUMNS } from '../../../server/generated/telemetry.ts';
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

/** A CTE src_<v> (ativo_id, data, ini, fim, fix_time, speed, motorista_id, v) with the fixes that report counter v;
 *  then l_<v>/c_<v>: plausible increments between consecutive ones, split at midnight like time (whole, on the later
 *  fix's day, for a refuel), as c_<v> (ativo_id, data, motorista_id, <out>). */
function counter(v: string, out: string, plausible: string, src: string, whole = false): string {
  return `src_${v} AS (${src}
), l_${v} AS (
  SELECT c.*, lag(c.v) OVER w AS v0, lag(c.fix_time) OVER w AS t0, lag(c.speed) OVER w AS speed0, lag(c.motorista_id) OVER w AS mot0
    FROM src_${v} c
  WINDOW w AS (PARTITION BY c.ativo_id, c.data ORDER BY c.fix_time)
), c_${v} AS (
  SELECT ativo_id, data, mot0 AS motorista_id, sum(${whole ? 'v - v0' : '(v - v0) * dentro / dt'}) FILTER (WHERE ${plausible}) AS ${out}
    FROM (SELECT l.*, extract(epoch FROM l.fix_time - l.t0)::float8 AS dt,
                 greatest(0, extract(epoch FROM least(l.fix_time, l.fim) - greatest(l.t0, l.ini)))::float8 AS dentro
            FROM l_${v} l WHERE l.t0 IS NOT NULL AND l.fix_time - l.t0 <= interval '${MAX_GAP_S} seconds' AND l.fix_time > l.t0) x
   WHERE dentro > 0 OR (fix_time >= ini AND fix_time < fim)
   GROUP BY 1, 2, 3
)`;
}

const COUNTERS: [string, string, string, boolean][] = [
  ['horas', 'horimetro', 'v - v0 BETWEEN 0 AND dt + 60', false],
  ['comb', 'combustivel', `v - v0 BETWEEN 0 AND dt * ${FUEL_MAX_LPS} + 1`, false],
  ['nivel', 'abastecido', `fix_time >= ini AND fix_time < fim AND speed0 < ${MOVING_SPEED} AND speed < ${MOVING_SPEED} AND v - v0 >= ${REFUEL_MIN}`, true],
];

const cols = TOTAL_DIARIO_COLUMNS.filter((c) => c !== 'calculado_em');
const KEY = ['ativo_id', 'data', 'motorista_id'];
const ESTADO = TOTAL_DIARIO_ESTADO_COLUMNS;

/** The positions' columns a step needs (alias ps). */
const POS = `ps.serial, ps.fix_time, ps.lat, ps.lon, coalesce(ps.speed, 0)::float8 AS speed, ps.ignition,
         ps.empresa_id, coalesce(ps.motorista_id, 0) AS motorista_id,
         ${first('odometer', 'odo_can', 'odo_gps')} AS odo, ${first('hourMeter', 'engine_running_time_meter')} AS horas,
         ${first('fuel_consumption_can')} AS comb, ${first('fuelLevel')} AS nivel`;

/** From s (the main device's fixes with the previous one; 'estado' marks the stored last fix, not counted again): the
 *  steps, the fixes of the day, the counters, the trips and events (counted again), per piece. */
const PARTS = (incremental: boolean) => `st AS (
  SELECT s.*, extract(epoch FROM s.fix_time - s.t0)::float8 AS dt,
         greatest(0, extract(epoch FROM least(s.fix_time, s.fim) - greatest(s.t0, s.ini)))::float8 AS dentro,
         ${GPS} AS gps, (s.speed0 >= ${MOVING_SPEED} AND s.ign0 IS DISTINCT FROM false) AS moving
    FROM s WHERE s.t0 IS NOT NULL AND s.fix_time - s.t0 <= interval '${MAX_GAP_S} seconds'
), steps AS (
  SELECT ativo_id, data, mot0 AS motorista_id,
         sum(${stepDistanceSql('st.gps', 'st.odo0', 'st.odo', 'st.dt')} * dentro / dt) AS distancia,
         sum(dentro) FILTER (WHERE moving) AS conducao,
         sum(dentro) FILTER (WHERE NOT moving) AS parado,
         sum(dentro) FILTER (WHERE NOT moving AND ign0) AS lenta,
         sum(dentro) FILTER (WHERE NOT moving AND NOT ign0) AS estacionado
    FROM st WHERE dt > 0 AND (dentro > 0 OR (fix_time >= ini AND fix_time < fim))
   GROUP BY 1, 2, 3
), ${COUNTERS.map(([v, out, plausible, whole]) => counter(v, out, plausible, incremental
    ? `SELECT ativo_id, data, ini, fim, fix_time, speed, motorista_id, ${v} AS v FROM s WHERE NOT estado AND ${v} IS NOT NULL
  UNION ALL SELECT ativo_id, data, ini, fim, ${v}_em, speed, motorista_id, ${v} FROM k WHERE ${v} IS NOT NULL`
    : `SELECT ativo_id, data, ini, fim, fix_time, speed, motorista_id, ${v} AS v FROM s WHERE ${v} IS NOT NULL`, whole)).join(', ')}, fixes AS (
  SELECT ativo_id, data, motorista_id, max(empresa_id) AS empresa_id, min(serial) AS serial, min(fix_time) AS primeira, max(fix_time) AS ultima,
         count(*)::int AS n, max(speed) AS vmax,
         (array_agg(odo ORDER BY fix_time) FILTER (WHERE odo > 0))[1] AS odo_ini, (array_agg(odo ORDER BY fix_time DESC) FILTER (WHERE odo > 0))[1] AS odo_fim
    FROM s WHERE NOT estado AND fix_time >= ini AND fix_time < fim
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
), ult AS (
  -- the asset-day's new state: its main device's last fix and the last value of each counter
  SELECT DISTINCT ON (ativo_id, data) ativo_id, data, empresa_id, serial, fix_time AS ate, lat, lon, speed, ignition, motorista_id, odo
    FROM s ${incremental ? '' : 'WHERE true '}ORDER BY ativo_id, data, fix_time DESC
), ${COUNTERS.map(([v]) => `u_${v} AS (SELECT DISTINCT ON (ativo_id, data) ativo_id, data, v AS ${v}, fix_time AS ${v}_em FROM src_${v} ORDER BY ativo_id, data, fix_time DESC)`).join(', ')}`;

/** Pieces and the rows written (cur: the stored rows the increments add to; none in full mode). */
const WRITE = (incremental: boolean) => {
  const add = (col: string, expr: string) => incremental ? `coalesce(c.${col}, 0) + coalesce(${expr}, 0)` : `coalesce(${expr}, 0)`;
  const addNull = (col: string, expr: string) => incremental ? `CASE WHEN c.${col} IS NULL AND ${expr} IS NULL THEN NULL ELSE coalesce(c.${col}, 0) + coalesce(${expr}, 0) END` : expr;
  return `pieces AS (
  SELECT ativo_id, data, motorista_id FROM steps UNION SELECT ativo_id, data, motorista_id FROM fixes
  ${COUNTERS.map(([v, out]) => `UNION SELECT ativo_id, data, motorista_id FROM c_${v} WHERE ${out} IS NOT NULL`).join(' ')}
  UNION SELECT ativo_id, data, motorista_id FROM trips UNION SELECT ativo_id, data, motorista_id FROM evs
  ${incremental ? 'UNION SELECT ativo_id, data, motorista_id FROM cur' : ''}
), novo AS (
  SELECT x.ativo_id, x.data, x.motorista_id, coalesce(${incremental ? 'c.empresa_id, ' : ''}f.empresa_id, t.empresa_id, e.empresa_id) AS empresa_id,
         coalesce(${incremental ? 'c.serial, ' : ''}f.serial, dev.serial) AS serial,
         ${incremental ? 'least(c.primeira_posicao, f.primeira)' : 'f.primeira'} AS primeira_posicao,
         ${incremental ? 'greatest(c.ultima_posicao, f.ultima)' : 'f.ultima'} AS ultima_posicao,
         ${add('posicoes', 'f.n')} AS posicoes, ${add('distancia', 'st.distancia')} AS distancia,
         ${add('tempo_conducao', 'round(st.conducao)::int')} AS tempo_conducao, ${add('tempo_parado', 'round(st.parado)::int')} AS tempo_parado,
         ${add('tempo_marcha_lenta', 'round(st.lenta)::int')} AS tempo_marcha_lenta, ${add('tempo_estacionado', 'round(st.estacionado)::int')} AS tempo_estacionado,
         coalesce(t.n, 0) AS viagens, ${incremental ? 'greatest(c.velocidade_maxima, f.vmax, 0)' : 'coalesce(f.vmax, 0)'}::real AS velocidade_maxima,
         ${incremental ? 'coalesce(c.hodometro_inicial, f.odo_ini)' : 'f.odo_ini'} AS hodometro_inicial,
         ${incremental ? 'coalesce(f.odo_fim, c.hodometro_final)' : 'f.odo_fim'} AS hodometro_final,
         ${addNull('horimetro', 'ch.horimetro')} AS horimetro, ${addNull('combustivel_utilizado', 'cc.combustivel')} AS combustivel_utilizado,
         ${addNull('combustivel_abastecido', 'cn.abastecido')} AS combustivel_abastecido,
         coalesce(e.eventos, '{}'::jsonb) AS eventos, coalesce(e.qtd, 0) AS qtd_eventos, coalesce(e.pontos, 0) AS pontuacao,
         ${incremental ? 'c.cerca_entradas, c.cerca_saidas, c.tempo_em_cerca' : 'NULL::int AS cerca_entradas, NULL::int AS cerca_saidas, NULL::int AS tempo_em_cerca'}
    FROM pieces x
    LEFT JOIN steps st USING (ativo_id, data, motorista_id)
    LEFT JOIN fixes f USING (ativo_id, data, motorista_id)
    LEFT JOIN c_horas ch USING (ativo_id, data, motorista_id)
    LEFT JOIN c_comb cc USING (ativo_id, data, motorista_id)
    LEFT JOIN c_nivel cn USING (ativo_id, data, motorista_id)
    LEFT JOIN trips t USING (ativo_id, data, motorista_id)
    LEFT JOIN evs e USING (ativo_id, data, motorista_id)
    ${incremental ? 'LEFT JOIN cur c USING (ativo_id, data, motorista_id)' : ''}
    LEFT JOIN dev ON dev.ativo_id = x.ativo_id AND dev.data = x.data
), ${incremental ? '' : `apagado AS (
  DELETE FROM telemetria.total_diario d USING k
   WHERE d.ativo_id = k.ativo_id AND d.data = k.data
     AND NOT EXISTS (SELECT 1 FROM novo n WHERE n.ativo_id = d.ativo_id AND n.data = d.data AND n.motorista_id = d.motorista_id)
  RETURNING 1
), sem_estado AS (
  DELETE FROM telemetria.total_diario_estado d USING k WHERE d.ativo_id = k.ativo_id AND d.data = k.data
     AND NOT EXISTS (SELECT 1 FROM ult WHERE ult.ativo_id = d.ativo_id AND ult.data = d.data)
  RETURNING 1
), `}gravado AS (
  INSERT INTO telemetria.total_diario (${cols.join(', ')}, calculado_em)
  SELECT ${cols.join(', ')}, now() FROM novo WHERE empresa_id IS NOT NULL
  ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${cols.filter((c) => !KEY.includes(c)).map((c) => `${c} = excluded.${c}`).join(', ')}, calculado_em = now()
  RETURNING 1
), estado AS (
  INSERT INTO telemetria.total_diario_estado (${ESTADO.join(', ')})
  SELECT u.ativo_id, u.data, u.empresa_id, u.serial, u.ate, u.lat, u.lon, u.speed, u.ignition, u.motorista_id, u.odo,
         ${COUNTERS.map(([v]) => incremental ? `coalesce(u_${v}.${v}, k.${v}), coalesce(u_${v}.${v}_em, k.${v}_em)` : `u_${v}.${v}, u_${v}.${v}_em`).join(', ')}
    FROM ult u ${incremental ? 'JOIN k USING (ativo_id, data)' : ''}
    ${COUNTERS.map(([v]) => `LEFT JOIN u_${v} USING (ativo_id, data)`).join(' ')}
   WHERE u.empresa_id IS NOT NULL
  ON CONFLICT (ativo_id, data) DO UPDATE SET ${ESTADO.filter((c) => c !== 'ativo_id' && c !== 'data').map((c) => `${c} = excluded.${c}`).join(', ')}
  RETURNING 1
)
SELECT (SELECT count(*) FROM gravado)::int AS gravados`;
};

const K = `SELECT DISTINCT x.ativo_id, x.data, (x.data::date::timestamp AT TIME ZONE $3) AS ini, ((x.data::date + 1)::timestamp AT TIME ZONE $3) AS fim
    FROM unnest($1::int[], $2::text[]) AS x(ativo_id, data)`;
const LAG = `lag(p.fix_time) OVER w AS t0, lag(p.lat) OVER w AS lat0, lag(p.lon) OVER w AS lon0, lag(p.speed) OVER w AS speed0,
         lag(p.ignition) OVER w AS ign0, lag(p.motorista_id) OVER w AS mot0, lag(p.odo) OVER w AS odo0`;

/** Full re-aggregation. $1 int[] asset ids, $2 text[] local dates ('YYYY-MM-DD'), pairwise; $3 the time zone. */
export const SQL_TOTAIS = `
WITH k AS (
  ${K}
), p AS (
  SELECT DISTINCT ON (k.ativo_id, k.data, ps.serial, ps.fix_time) k.ativo_id, k.data, k.ini, k.fim, ${POS}
    FROM k JOIN telemetria.posicao ps ON ps.ativo_id = k.ativo_id
     AND ps.fix_time >= k.ini - interval '${MAX_GAP_S} seconds' AND ps.fix_time < k.fim + interval '${MAX_GAP_S} seconds'
   WHERE ps.valid AND ps.empresa_id IS NOT NULL
   ORDER BY k.ativo_id, k.data, ps.serial, ps.fix_time, ps.tipo
), dev AS (
  SELECT DISTINCT ON (ativo_id, data) ativo_id, data, serial
    FROM p WHERE fix_time >= ini AND fix_time < fim
   GROUP BY ativo_id, data, serial ORDER BY ativo_id, data, count(*) DESC, serial
), s AS (
  SELECT p.*, false AS estado, ${LAG}
    FROM p JOIN dev USING (ativo_id, data, serial)
  WINDOW w AS (PARTITION BY p.ativo_id, p.data ORDER BY p.fix_time)
), ${PARTS(false)}, ${WRITE(false)}`;

/** Increments from the stored state (same parameters; asset-days without a state are skipped). */
export const SQL_TOTAIS_INCREMENTAL = `
WITH k AS (
  SELECT k0.*, e.empresa_id, e.serial, e.ate, e.lat, e.lon, e.speed, e.ignition, e.motorista_id, e.odo,
         ${COUNTERS.map(([v]) => `e.${v}, e.${v}_em`).join(', ')}
    FROM (${K}) k0 JOIN telemetria.total_diario_estado e USING (ativo_id, data)
), dev AS (
  SELECT ativo_id, data, serial FROM k
), cur AS (
  SELECT d.* FROM telemetria.total_diario d JOIN k USING (ativo_id, data)
), p AS (
  SELECT k.ativo_id, k.data, k.ini, k.fim, k.serial, k.ate AS fix_time, k.lat, k.lon, k.speed, k.ignition, k.empresa_id, k.motorista_id, k.odo,
         NULL::float8 AS horas, NULL::float8 AS comb, NULL::float8 AS nivel, true AS estado
    FROM k
  UNION ALL
  SELECT * FROM (
    SELECT DISTINCT ON (k.ativo_id, k.data, ps.fix_time) k.ativo_id, k.data, k.ini, k.fim, ${POS}, false AS estado
      FROM k JOIN telemetria.posicao ps ON ps.serial = k.serial AND ps.fix_time > k.ate AND ps.fix_time < k.fim + interval '${MAX_GAP_S} seconds'
     WHERE ps.valid AND ps.empresa_id IS NOT NULL AND ps.ativo_id = k.ativo_id
     ORDER BY k.ativo_id, k.data, ps.fix_time, ps.tipo) n
), s AS (
  SELECT p.*, ${LAG}
    FROM p
  WINDOW w AS (PARTITION BY p.ativo_id, p.data ORDER BY p.fix_time)
), ${PARTS(true)}, ${WRITE(true)}`;

/** Where the asset-days stand: $1 int[] asset ids, $2 text[] dates. */
export const SQL_ESTADO = `SELECT e.ativo_id, e.data, e.serial, (extract(epoch FROM e.ate) * 1000)::float8 AS ate
  FROM telemetria.total_diario_estado e JOIN unnest($1::int[], $2::text[]) AS x(ativo_id, data) USING (ativo_id, data)`;

/** Lock of each asset (sorted): two gateway processes never aggregate the same asset at once, and the later one
 *  reads what the earlier committed. */
export const SQL_LOCK = `SELECT pg_advisory_xact_lock(hashtext('telemetria.total_diario'), a) FROM (SELECT DISTINCT unnest($1::int[]) AS a ORDER BY 1) x`;
