// Trips and stops at ingest: the gateway hands each committed batch's positions here (server/core/ingest.ts); one
// detector per device lives in memory and closed segments are upserted in telemetria.viagem / telemetria.parada.
// The stored positions stay the truth: a device without a detector here (restart, another gateway worker), a fix
// older than what its detector saw (buffered, or batches committed out of order), positions stored meanwhile by
// another process, or a failed write: its segments are re-computed from the start of the stored trip or stop before
// the last one that ended before the batch's oldest fix (detector.ts restartPoint).
import type pg from 'pg';
import type { IngestFix, IngestLog } from '../../../server/core/ingest.ts';
import { PARADA_COLUMNS, PARADA_TYPES, VIAGEM_COLUMNS, VIAGEM_TYPES } from '../../../server/generated/telemetry.ts';
import { companySql, pgParams } from '../../../server/tenancy/scope.ts';
import { DEFAULT_PARAMS, TripDetector, type Fix, type Segment, type Trip, type TripParams } from './detector.ts';
import { Rounds, bySerial } from '../../../server/core/rounds.ts';
import { weightsSql } from '../../../shared/peso.ts';

/** Without a stored segment before the batch, the re-computation starts this long before its oldest fix. */
const LOOKBACK_MS = 24 * 3600_000;

const ODOMETER_SQL = ['odometer', 'odo_can', 'odo_gps']
  .map((k) => `CASE WHEN jsonb_typeof(p.attributes->'${k}') = 'number' THEN (p.attributes->>'${k}')::float8 END`).join(', ');
const WEIGHTS_SQL = weightsSql('p.attributes');

/** What the detector reads of a stored position (alias p), as FixRow. */
export const FIX_SELECT = `(extract(epoch FROM p.fix_time) * 1000)::float8 AS t, p.lat, p.lon, p.speed, p.ignition, p.empresa_id, p.ativo_id,
  p.motorista_id, coalesce(${ODOMETER_SQL}) AS odometer, ${WEIGHTS_SQL.axle1} AS axle1, ${WEIGHTS_SQL.axle2} AS axle2, ${WEIGHTS_SQL.gross} AS gross`;
export interface FixRow {
  t: number; lat: number; lon: number; speed: number | null; ignition: boolean | null; empresa_id: number; ativo_id: number | null;
  motorista_id: number | null; odometer: number | null; axle1: number | null; axle2: number | null; gross: number | null;
}
/** A stored position as the detector's fix. */
export const fixOfRow = (r: FixRow): Fix => ({
  t: Number(r.t), lat: r.lat, lon: r.lon, speed: r.speed, ignition: r.ignition, odometer: r.odometer, driverId: r.motorista_id,
  owner: owner(r.empresa_id, r.ativo_id), weights: r.gross == null ? null : { axle1: r.axle1, axle2: r.axle2, gross: r.gross },
});

export const SQL_POSITIONS = `
SELECT ${FIX_SELECT}
  FROM telemetria.posicao p
 WHERE p.serial = $1 AND p.fix_time >= $2 AND p.valid AND p.empresa_id IS NOT NULL
 ORDER BY p.fix_time, p.tipo`;

// The restart point (detector.ts restartPoint): the start of the segment before the last one that ended at or before
// $2 (of that one when it is the only one); else the start of the oldest stored one.
export const SQL_ANCHOR = `
SELECT (SELECT coalesce(min(i) FILTER (WHERE n = 2), min(i) FILTER (WHERE n = 1))
          FROM (SELECT i, row_number() OVER (ORDER BY i DESC) AS n
                  FROM ((SELECT inicio AS i FROM telemetria.viagem WHERE serial = $1 AND fim <= $2 ORDER BY inicio DESC LIMIT 2)
                        UNION (SELECT inicio FROM telemetria.parada WHERE serial = $1 AND fim <= $2 ORDER BY inicio DESC LIMIT 2)) a) b) AS anchor,
       (SELECT min(i) FROM (SELECT min(inicio) i FROM telemetria.viagem WHERE serial = $1
                            UNION ALL SELECT min(inicio) FROM telemetria.parada WHERE serial = $1) b) AS oldest`;

const SQL_STALE = `
SELECT x.serial FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS x(serial, a, b)
 WHERE EXISTS (SELECT 1 FROM telemetria.posicao p WHERE p.serial = x.serial AND p.fix_time > x.a AND p.fix_time < x.b AND p.valid)`;

// The tables' columns from their metadata (server/generated/telemetry.ts); calculado_em is set here.
const written = (cols: readonly string[]) => cols.filter((c) => c !== 'calculado_em');
const recordType = (cols: readonly string[], types: Record<string, string>) => cols.map((c) => `${c} ${types[c]}`).join(', ');
const upsert = (table: string, all: readonly string[], types: Record<string, string>) => {
  const cols = written(all);
  return `
INSERT INTO telemetria.${table} (${cols.join(', ')}, calculado_em)
SELECT ${cols.join(', ')}, now() FROM json_to_recordset($1::json) AS x(${recordType(cols, types)})
ON CONFLICT (serial, inicio) DO UPDATE SET ${cols.filter((c) => c !== 'serial' && c !== 'inicio').map((c) => `${c} = excluded.${c}`).join(', ')}, calculado_em = now()`;
};
const SQL_VIAGEM = upsert('viagem', VIAGEM_COLUMNS, VIAGEM_TYPES);
const SQL_PARADA = upsert('parada', PARADA_COLUMNS, PARADA_TYPES);

export const owner = (empresa: number, ativo: number | null) => `${empresa}:${ativo ?? ''}`;
const ownerOf = (o: string | undefined): [number, number | null] => {
  const [e, a] = (o ?? ':').split(':');
  return [Number(e), a ? Number(a) : null];
};
const iso = (t: number) => new Date(t).toISOString();

/** The spec's trip parameters (catalogues.md 3.5) by their library key (biblioteca_parametro, origem viagem). */
export function tripAttributes(t: Trip): Record<string, unknown> {
  return {
    trip_duration: Math.round((t.duration / 60) * 10) / 10, trip_distance: Math.round(t.distance / 10) / 100,
    trip_has_driver: t.driverId != null, trip_driver: t.driverId,
  };
}

/** A segment as its table's row (`open`: the trip still going on at the last fix). */
export function rowOf(serial: string, s: Segment, open = false): { table: 'viagem' | 'parada'; row: Record<string, unknown> } {
  const [empresa, ativo] = ownerOf(s.owner);
  const base = { serial, inicio: iso(s.start.t), fim: iso(s.end.t), empresa_id: empresa, ativo_id: ativo, motorista_id: s.driverId };
  if (s.kind === 'viagem') {
    return { table: 'viagem', row: { ...base, lat_inicio: s.start.lat, lon_inicio: s.start.lon, lat_fim: s.end.lat, lon_fim: s.end.lon,
      distancia: Math.round(s.distance * 10) / 10, duracao: Math.round(s.duration), velocidade_maxima: Math.round(s.maxSpeed * 10) / 10,
      velocidade_media: Math.round(s.avgSpeed * 10) / 10, tempo_ocioso: Math.round(s.idle), hodometro_inicio: s.odometerStart, hodometro_fim: s.odometerEnd,
      em_andamento: open, atributos: tripAttributes(s), peso_eixo1: s.axleWeight1, peso_eixo2: s.axleWeight2, carga: s.grossWeight } };
  }
  return { table: 'parada', row: { ...base, lat: s.start.lat, lon: s.start.lon, duracao: Math.round(s.duration), ignicao: s.ignition, tempo_ligado: Math.round(s.idle) } };
}

export async function writeSegments(db: pg.ClientBase | pg.Pool, items: { serial: string; seg: Segment; open?: boolean }[]): Promise<void> {
  const v: Record<string, unknown>[] = [], p: Record<string, unknown>[] = [];
  for (const { serial, seg, open } of items) { const r = rowOf(serial, seg, open); (r.table === 'viagem' ? v : p).push(r.row); }
  if (v.length) await db.query(SQL_VIAGEM, [JSON.stringify(v)]);
  if (p.length) await db.query(SQL_PARADA, [JSON.stringify(p)]);
}

/** Parameters of a company's asset (parametro_viagem: the asset's row, else the company's row without asset, else
 *  the defaults), read through `db` (any role that sees the company's rows). */
export async function paramsOf(db: Pick<pg.Pool, 'query'>, empresa: number, ativo: number | null): Promise<TripParams> {
  const p = pgParams();
  const { rows: [r] } = await db.query(`SELECT distancia_minima, duracao_minima, parada_minima, intervalo_sem_dados, usar_ignicao, velocidade_movimento
      FROM parametro_viagem x WHERE ${companySql('x', empresa, p)} AND (x.ativo = ${p.add(ativo)} OR x.ativo IS NULL)
     ORDER BY x.ativo NULLS LAST, x.id LIMIT 1`, p.values);
  if (!r) return DEFAULT_PARAMS;
  return { minTripDistance: r.distancia_minima, minTripDuration: r.duracao_minima, minParking: r.parada_minima, maxGap: r.intervalo_sem_dados,
    useIgnition: r.usar_ignicao, movingSpeed: Number(r.velocidade_movimento) };
}

/** Writes the trip open at the detector's last fix (em_andamento), if any. */
export async function writeOpenTrip(db: pg.ClientBase | pg.Pool, serial: string, det: TripDetector): Promise<void> {
  const t = det.openTrip();
  if (t) await writeSegments(db, [{ serial, seg: t, open: true }]);
}

const PARAMS_TTL_MS = 60_000;

export class TripProcessor {
  private readonly paramCache = new Map<string, { at: number; p: Promise<TripParams> }>();
  private readonly detectors = new Map<string, TripDetector>();
  private readonly rounds = new Rounds<IngestFix>((w) => this.process(bySerial(w)),
    (err) => this.log.error({ err: err.message }, 'viagens: falha ao processar posições'));
  /** Re-computations done (tests, metrics). */
  rebuilds = 0;

  /** `params`: fixed parameters for every device (tests); else each company's/asset's (parametro_viagem). */
  constructor(private pool: pg.Pool, private log: IngestLog, readonly params?: TripParams, private maxDevices = 100_000) {}

  /** The parameters of a company's asset, cached a minute (a change reaches ingest within that time). */
  paramsFor(empresa: number, ativo: number | null): Promise<TripParams> {
    if (this.params) return Promise.resolve(this.params);
    const k = owner(empresa, ativo);
    const c = this.paramCache.get(k);
    if (c && Date.now() - c.at < PARAMS_TTL_MS) return c.p;
    const p = paramsOf(this.pool, empresa, ativo).catch((err) => { this.paramCache.delete(k); this.log.warn({ err: (err as Error).message }, 'viagens: parâmetros'); return DEFAULT_PARAMS; });
    if (this.paramCache.size > 10_000) this.paramCache.clear();
    this.paramCache.set(k, { at: Date.now(), p });
    return p;
  }

  positions(fixes: IngestFix[]): void { this.rounds.push(fixes, (f) => f.valid); }

  drain(): Promise<void> { return this.rounds.drain(); }

  stop(): Promise<void> { return this.rounds.stop(); }

  /** One round: the devices whose detector can go on take their fixes; the others are re-computed. */
  private async process(work: Map<string, IngestFix[]>): Promise<void> {
    const incremental: { serial: string; fixes: IngestFix[]; det: TripDetector }[] = [];
    const rebuild = new Map<string, number>(); // serial → oldest fix
    for (const [serial, list] of work) {
      list.sort((a, b) => a.t - b.t);
      const det = this.detectors.get(serial);
      const last = det?.lastTime ?? null;
      const f0 = list[list.length - 1]!;
      const same = det && sameParams(det.p, await this.paramsFor(f0.empresaId, f0.ativoId));
      if (det && same && last !== null && list[0]!.t >= last) incremental.push({ serial, fixes: list, det });
      else rebuild.set(serial, list[0]!.t);
    }
    try {
      // positions of these devices stored meanwhile by another process: their detector missed them
      const probe = incremental.filter((x) => x.fixes[0]!.t > x.det.lastTime!);
      if (probe.length) {
        const { rows } = await this.pool.query<{ serial: string }>(SQL_STALE, [probe.map((x) => x.serial), probe.map((x) => iso(x.det.lastTime!)), probe.map((x) => iso(x.fixes[0]!.t))]);
        for (const r of rows) {
          const i = incremental.findIndex((x) => x.serial === r.serial);
          rebuild.set(r.serial, incremental[i]!.fixes[0]!.t);
          incremental.splice(i, 1);
        }
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'viagens: falha ao conferir posições; recalculando');
      for (const x of incremental.splice(0)) rebuild.set(x.serial, x.fixes[0]!.t);
    }
    const closed: { serial: string; seg: Segment; open?: boolean }[] = [];
    for (const { serial, fixes, det } of incremental) {
      for (const f of fixes) for (const seg of det.push(toFix(f))) closed.push({ serial, seg });
    }
    for (const { serial, det } of incremental) {
      const t = det.openTrip();
      if (t) closed.push({ serial, seg: t, open: true } as never);
    }
    if (closed.length) {
      try {
        await writeSegments(this.pool, closed);
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'viagens: falha ao gravar viagens; recalculando');
        // the detectors went on without their segments stored: re-computed from the positions next time
        for (const { serial } of closed) this.detectors.delete(serial);
      }
    }
    for (const [serial, oldest] of rebuild) {
      try {
        await this.rebuild(serial, oldest);
      } catch (err) {
        this.detectors.delete(serial);
        this.log.warn({ err: (err as Error).message, serial }, 'viagens: falha ao recalcular viagens');
      }
    }
  }

  /** Re-computes a device's segments from the restart point before `oldest` (ms). */
  async rebuild(serial: string, oldest: number): Promise<void> {
    this.rebuilds++;
    this.detectors.delete(serial);
    const c = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('telemetria.viagem'), hashtext($1))`, [serial]);
      const { rows: [a] } = await c.query<{ anchor: Date | null; oldest: Date | null }>(SQL_ANCHOR, [serial, iso(oldest)]);
      let from = a?.anchor?.getTime() ?? Math.min(oldest - LOOKBACK_MS, a?.oldest?.getTime() ?? Infinity);
      if (!Number.isFinite(from)) from = oldest - LOOKBACK_MS;
      await c.query('DELETE FROM telemetria.viagem WHERE serial = $1 AND inicio >= $2', [serial, iso(from)]);
      await c.query('DELETE FROM telemetria.parada WHERE serial = $1 AND inicio >= $2', [serial, iso(from)]);
      const { rows } = await c.query<FixRow>(SQL_POSITIONS, [serial, iso(from)]);
      const lastRow = rows[rows.length - 1];
      const det = new TripDetector(lastRow ? await this.paramsFor(lastRow.empresa_id, lastRow.ativo_id) : this.params ?? DEFAULT_PARAMS);
      const closed: { serial: string; seg: Segment; open?: boolean }[] = [];
      for (const r of rows) {
        for (const seg of det.push(fixOfRow(r))) closed.push({ serial, seg });
      }
      const open = det.openTrip();
      if (open) closed.push({ serial, seg: open, open: true });
      await writeSegments(c, closed);
      await c.query('COMMIT');
      if (this.detectors.size >= this.maxDevices) this.detectors.clear();
      this.detectors.set(serial, det);
    } catch (err) {
      broken = err as Error;
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release(broken);
    }
  }
}

const sameParams = (a: TripParams, b: TripParams) => (Object.keys(a) as (keyof TripParams)[]).every((k) => a[k] === b[k]);

export const toFix = (f: IngestFix): Fix => ({
  t: f.t, lat: f.lat, lon: f.lon, speed: f.speed, ignition: f.ignition, odometer: f.odometer, driverId: f.motoristaId, owner: owner(f.empresaId, f.ativoId),
  weights: f.weights ?? null,
});
