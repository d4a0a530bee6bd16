// Fence entries and exits at ingest: the gateway hands each committed batch's positions here (server/core/ingest.ts).
// Per company, the active fences live in an R-tree (fence-index.ts), checked against the register before each round
// (count and latest change of the company's fences: an edit takes effect for the next fix). Per device, the fences it
// is inside and since when. Between two fixes the straight segment is tested (geo.ts transitions), so a fence crossed
// between fixes yields its entry and exit at interpolated times; across a gap longer than MAX_GAP_MS only the
// end points count. Output: telemetria.evento (keys geofenceEnter/geofenceExit of the event catalogue, code
// 'cerca:<id>:entrada|saida', ON CONFLICT DO NOTHING) and telemetria.cerca_permanencia (upsert by serial, fence, entry).
// A fix older than what the device's state saw (buffered, or batches committed out of order), or a device without
// state here: its events after the last stored position before that fix are re-computed from the stored positions,
// so repeated or late fixes never duplicate an event.
// Vigência (../vigencia.ts): a fence with a schedule counts only while in force at the fix's time. Entering while it
// is out of force yields nothing; a vehicle inside when the window opens enters at the first fix inside the window,
// and one inside when it closes exits at the first fix after it closed (both stamped at that fix, as Wialon's
// schedule does: no event is made up between two fixes for a window edge). A crossing between two fixes both in
// force keeps its interpolated time. Schedules are compiled with the index; the company's holidays (calendario,
// feriado_* types, recorrente by month-day) are cached per company and reloaded when that register changes (the
// same per-round version check as the fences: count and latest change).
// Speeding (../excesso.ts, Wialon's "speeding in geofence"): while inside an in-force fence with velocidadeMaxima > 0,
// a fix over the limit opens an excursion: ONE event (key geofenceOverspeed, code 'cerca:<id>:velocidade:<fix ms>',
// at that fix) until a fix at or under the limit, the exit, or the fence going out of force; a re-computation starts
// from the excursions open at its first position (that fix's speed against the fences it was inside).
import type pg from 'pg';
import type { IngestFix, IngestLog } from '../../../server/core/ingest.ts';
import { CERCA_PERMANENCIA_COLUMNS, CERCA_PERMANENCIA_TYPES, EVENTO_COLUMNS, EVENTO_TYPES } from '../../../server/generated/telemetry.ts';
import { companySql, pgParams } from '../../../server/tenancy/scope.ts';
import { contains, transitions, type Prepared } from '../geo.ts';
import { FenceIndex } from './fence-index.ts';
import { excessoDescricao, excursions } from '../excesso.ts';
import { compile, inForce, localClock, dayOf, type Feriados, type Local, type Vigencia } from '../vigencia.ts';
import { Rounds, bySerial } from '../../../server/core/rounds.ts';

/** Longer than this between two fixes: no straight-line crossing is assumed. */
export const MAX_GAP_MS = 30 * 60_000;
export const ENTRY = { key: 'geofenceEnter', description: 'Entrada em cerca eletrônica' };
export const EXIT = { key: 'geofenceExit', description: 'Saída de cerca eletrônica' };
export const eventCode = (cercaId: number, entrada: boolean) => `cerca:${cercaId}:${entrada ? 'entrada' : 'saida'}`;
/** Speeding inside a fence with a limit (the event catalogue's key; one event per excursion, at its first fix). */
export const SPEEDING = { key: 'geofenceOverspeed' };
export const speedingCode = (cercaId: number, t: number) => `cerca:${cercaId}:velocidade:${t}`;

/** vig: the fences with a schedule (the others are always in force); limits: the fences with a speed limit > 0. */
interface Company { index: FenceIndex; names: Map<number, string>; limits: Map<number, number>; version: string; vig: Map<number, Vigencia>; feriados: Feriados; feriadosVersion: string }
interface Pt { t: number; lat: number; lon: number }
/** owner: the company the device's fixes belonged to (a device moved to another company starts afresh); over: the
 * fences where an excursion over the speed limit is open (and the ms of its first fix). */
interface DeviceState { last: Pt; owner: string; inside: Map<number, number>; over: Map<number, number> }
interface Fix extends Pt { empresaId: number; ativoId: number | null; motoristaId: number | null; speed: number | null }

const ownerOf = (f: { empresaId: number }) => String(f.empresaId);
const iso = (t: number) => new Date(Math.round(t)).toISOString();

const SQL_EVENTO = `
INSERT INTO telemetria.evento (${EVENTO_COLUMNS.join(', ')})
SELECT ${EVENTO_COLUMNS.join(', ')} FROM json_to_recordset($1::json) AS x(${EVENTO_COLUMNS.map((c) => `${c} ${EVENTO_TYPES[c]}`).join(', ')})
ON CONFLICT DO NOTHING`;
const PERM = CERCA_PERMANENCIA_COLUMNS.filter((c) => c !== 'calculado_em');
const SQL_PERMANENCIA = `
INSERT INTO telemetria.cerca_permanencia (${PERM.join(', ')}, calculado_em)
SELECT ${PERM.join(', ')}, now() FROM json_to_recordset($1::json) AS x(${PERM.map((c) => `${c} ${CERCA_PERMANENCIA_TYPES[c]}`).join(', ')})
ON CONFLICT (serial, cerca_id, entrada) DO UPDATE SET saida = excluded.saida, duracao = excluded.duracao, calculado_em = now()`;

const SQL_POSITIONS = `
SELECT (extract(epoch FROM p.fix_time) * 1000)::float8 AS t, p.lat, p.lon, p.speed, p.empresa_id, p.ativo_id, p.motorista_id
  FROM telemetria.posicao p
 WHERE p.serial = $1 AND p.fix_time > $2 AND p.valid AND p.empresa_id IS NOT NULL
 ORDER BY p.fix_time, p.tipo`;

/** What a round writes. */
class Out {
  eventos: Record<string, unknown>[] = [];
  visitas = new Map<string, Record<string, unknown>>();
  get size() { return this.eventos.length + this.visitas.size; }
  visit(serial: string, cercaId: number, entrada: number, saida: number | null, f: Fix) {
    this.visitas.set(`${serial}|${cercaId}|${entrada}`, {
      serial, cerca_id: cercaId, entrada: iso(entrada), saida: saida === null ? null : iso(saida),
      duracao: saida === null ? null : Math.round((saida - entrada) / 1000), empresa_id: f.empresaId, ativo_id: f.ativoId, motorista_id: f.motoristaId,
    });
  }
  /** The serials whose events this round writes, with their company (told on the latest-state bus once stored). */
  touched(): { empresaId: number; serial: string }[] {
    const by = new Map<string, { empresaId: number; serial: string }>();
    for (const e of this.eventos) by.set(`${e.empresa_id}|${e.serial}`, { empresaId: e.empresa_id as number, serial: e.serial as string });
    return [...by.values()];
  }
  async write(db: pg.ClientBase | pg.Pool) {
    if (this.eventos.length) await db.query(SQL_EVENTO, [JSON.stringify(this.eventos)]);
    if (this.visitas.size) await db.query(SQL_PERMANENCIA, [JSON.stringify([...this.visitas.values()])]);
  }
}

export class FenceProcessor {
  private readonly companies = new Map<number, Company>();
  private readonly devices = new Map<string, DeviceState>();
  private readonly rounds = new Rounds<IngestFix>((w) => this.process(bySerial(w)),
    (err) => this.log.error({ err: err.message }, 'cercas: falha ao processar posições'));
  /** Re-computations and index builds done (tests, metrics). */
  rebuilds = 0;
  indexBuilds = 0;
  feriadosLoads = 0;
  /** Local time of a fix (FUSO_HORARIO), for the schedules. */
  private readonly clock = localClock();

  /** publish: tells the API processes which serials got events (their live pushes, e.g. the fences map's card). */
  constructor(private pool: pg.Pool, private log: IngestLog, private maxDevices = 100_000,
              private publish: (rows: { empresaId: number; serial: string }[]) => void = () => undefined) {}

  positions(fixes: IngestFix[]): void { this.rounds.push(fixes, (f) => f.valid); }

  drain(): Promise<void> { return this.rounds.drain(); }

  stop(): Promise<void> { return this.rounds.stop(); }

  /** Reloads the fences of the companies whose register changed since their index was built. */
  async refresh(empresas: number[]): Promise<void> {
    if (!empresas.length) return;
    const p = pgParams();
    const sql = empresas.map((e) => `SELECT ${p.add(e)}::int AS empresa, count(*)::int AS n, max(c.updated_at)::text AS m,
      (SELECT count(*) || '/' || coalesce(max(k.updated_at)::text, '') FROM calendario k WHERE ${companySql('k', e, p)}) AS f
      FROM cerca c WHERE ${companySql('c', e, p)}`).join(' UNION ALL ');
    const { rows } = await this.pool.query<{ empresa: number; n: number; m: string | null; f: string }>(sql, p.values);
    for (const r of rows) {
      const version = `${r.n}/${r.m ?? ''}`;
      let co = this.companies.get(r.empresa);
      if (co?.version !== version) {
        const q = pgParams();
        const { rows: fences } = await this.pool.query<{
          id: number; tipo: 'poligono' | 'circulo' | 'rota'; geometria: unknown; raio: number | null; descricao: string;
          dias_semana: unknown; hora_inicial: string | null; hora_final: string | null; vigente_de: string | null; vigente_ate: string | null; nao_vale_em_feriados: boolean | null;
          velocidade_maxima: number | null;
        }>(`SELECT c.id, c.tipo, c.geometria, c.raio, c.descricao, c.velocidade_maxima, c.dias_semana, c.hora_inicial, c.hora_final, c.vigente_de::text AS vigente_de,
                   c.vigente_ate::text AS vigente_ate, c.nao_vale_em_feriados
              FROM cerca c WHERE ${companySql('c', r.empresa, q)} AND c.ativo`, q.values);
        this.indexBuilds++;
        const vig = new Map<number, Vigencia>();
        for (const f of fences) {
          const v = compile({ diasSemana: f.dias_semana, horaInicial: f.hora_inicial, horaFinal: f.hora_final, vigenteDe: f.vigente_de, vigenteAte: f.vigente_ate, naoValeEmFeriados: f.nao_vale_em_feriados });
          if (v) vig.set(f.id, v);
        }
        const next: Company = { index: new FenceIndex(fences), names: new Map(fences.map((f) => [f.id, f.descricao])),
          limits: new Map(fences.filter((f) => Number(f.velocidade_maxima) > 0).map((f) => [f.id, Number(f.velocidade_maxima)])), version, vig, feriados: co?.feriados ?? { dias: new Set(), recorrentes: new Set() }, feriadosVersion: co?.feriadosVersion ?? '' };
        this.companies.set(r.empresa, (co = next));
      }
      if (co.feriadosVersion !== r.f) {
        const q = pgParams();
        const { rows: dias } = await this.pool.query<{ data: string; recorrente: boolean }>(
          `SELECT k.data::text AS data, k.recorrente FROM calendario k WHERE ${companySql('k', r.empresa, q)} AND k.tipo IN ('feriado_nacional', 'feriado_estadual', 'feriado_municipal')`, q.values);
        const fer: Feriados = { dias: new Set(), recorrentes: new Set() };
        for (const d of dias) if (d.recorrente) fer.recorrentes.add(Number(d.data.slice(5, 7)) * 100 + Number(d.data.slice(8, 10))); else fer.dias.add(dayOf(d.data));
        co.feriados = fer;
        co.feriadosVersion = r.f;
        this.feriadosLoads++;
      }
    }
  }

  /** One round: devices whose state can go on take their fixes; the others are re-computed. */
  private async process(work: Map<string, IngestFix[]>): Promise<void> {
    this.now = new Date().toISOString();
    await this.refresh([...new Set([...work.values()].flatMap((l) => l.map((f) => f.empresaId)))]);
    const out = new Out();
    const rebuild = new Map<string, number>();
    for (const [serial, list] of work) {
      list.sort((a, b) => a.t - b.t);
      const st = this.devices.get(serial);
      if (!st || list[0]!.t < st.last.t) { rebuild.set(serial, list[0]!.t); continue; }
      for (const f of list) if (f.t > st.last.t) this.step(serial, st, f, out);
    }
    if (out.size) {
      try { await out.write(this.pool); this.publish(out.touched()); } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'cercas: falha ao gravar eventos de cerca; recalculando');
        for (const serial of work.keys()) if (!rebuild.has(serial)) { this.devices.delete(serial); rebuild.set(serial, work.get(serial)![0]!.t); }
      }
    }
    for (const [serial, oldest] of rebuild) {
      try { await this.rebuild(serial, oldest); } catch (err) {
        this.devices.delete(serial);
        this.log.warn({ err: (err as Error).message, serial }, 'cercas: falha ao recalcular eventos de cerca');
      }
    }
  }

  /** received_at of the events written this round. */
  private now = new Date().toISOString();

  /** Moves a device's state to fix f, adding the entries and exits on the way. */
  step(serial: string, st: DeviceState, f: Fix, out: Out): void {
    const co = this.companies.get(f.empresaId);
    const owner = ownerOf(f);
    if (st.owner !== owner) { st.inside.clear(); st.over.clear(); st.owner = owner; }
    const a = st.last;
    const gap = f.t - a.t > MAX_GAP_MS || a.t < 0;
    const cands = new Map<number, Prepared>();
    if (co) {
      for (const x of gap ? co.index.at(f.lon, f.lat) : co.index.candidates(a.lon, a.lat, f.lon, f.lat)) cands.set(x.id, x);
      for (const id of st.inside.keys()) { const x = co.index.byId.get(id); if (x) cands.set(id, x); }
    }
    // fences gone (deleted, deactivated): the stay ends at this fix, without an event
    for (const [id, since] of st.inside) if (!cands.has(id)) { out.visit(serial, id, since, f.t, f); st.inside.delete(id); }
    const changes: { fence: Prepared; entrada: boolean; s: number }[] = [];
    // local times, once per fix, only when a candidate has a schedule
    let lf: Local | undefined, la: Local | undefined;
    for (const fence of cands.values()) {
      const was = st.inside.has(fence.id);
      const v = co?.vig.get(fence.id);
      if (v) {
        const fer = co!.feriados;
        if (!inForce(v, (lf ??= this.clock(f.t)), fer)) {
          // out of force at this fix: a stay open ends here (at a crossing made while still in force, if any)
          if (!was) continue;
          let s = 1;
          if (!gap) for (const t of transitionsBetween(fence, true, a, f)) if (!t.entrada && t.s < 1) { if (inForce(v, this.clock(a.t + t.s * (f.t - a.t)), fer)) s = t.s; break; }
          changes.push({ fence, entrada: false, s });
          continue;
        }
        if (gap || !inForce(v, (la ??= this.clock(a.t)), fer)) {
          // the window opened since the last fix: only this fix's own state counts
          for (const t of transitionsAt(fence, was, f)) changes.push({ fence, ...t });
          continue;
        }
      }
      const ts = gap ? transitionsAt(fence, was, f) : transitionsBetween(fence, was, a, f);
      for (const t of ts) changes.push({ fence, ...t });
    }
    changes.sort((x, y) => x.s - y.s || Number(x.entrada) - Number(y.entrada) || x.fence.id - y.fence.id);
    for (const c of changes) {
      const t = a.t + c.s * (f.t - a.t);
      const tm = Math.round(t);
      const lat = a.lat + c.s * (f.lat - a.lat), lon = a.lon + c.s * (f.lon - a.lon);
      const name = co?.names.get(c.fence.id) ?? '';
      const def = c.entrada ? ENTRY : EXIT;
      out.eventos.push({
        serial, fix_time: iso(tm), code: eventCode(c.fence.id, c.entrada), key: def.key, description: `${def.description}: ${name}`, received_at: this.now,
        empresa_id: f.empresaId, ativo_id: f.ativoId, motorista_id: f.motoristaId, lat, lon, speed: f.speed,
        attributes: { cercaId: c.fence.id, cerca: name, interpolado: c.s < 1 },
      });
      if (c.entrada) { st.inside.set(c.fence.id, tm); out.visit(serial, c.fence.id, tm, null, f); }
      else {
        const since = st.inside.get(c.fence.id);
        if (since !== undefined) out.visit(serial, c.fence.id, since, tm, f);
        st.inside.delete(c.fence.id);
      }
    }
    // speeding: the fences the device is inside at this fix (in force: the others were left above)
    const tf = Math.round(f.t);
    for (const id of excursions(st.over, st.inside.keys(), co?.limits ?? NO_LIMITS, f.speed, tf)) {
      const name = co?.names.get(id) ?? '';
      const limite = co!.limits.get(id)!;
      out.eventos.push({
        serial, fix_time: iso(tf), code: speedingCode(id, tf), key: SPEEDING.key, description: excessoDescricao(name, f.speed!, limite), received_at: this.now,
        empresa_id: f.empresaId, ativo_id: f.ativoId, motorista_id: f.motoristaId, lat: f.lat, lon: f.lon, speed: f.speed,
        attributes: { cercaId: id, cerca: name, velocidade: f.speed, limite },
      });
    }
    st.last = { t: f.t, lat: f.lat, lon: f.lon };
  }

  /** Re-computes a device's entries, exits and stays after the last stored position before `oldest` (ms). */
  async rebuild(serial: string, oldest: number): Promise<void> {
    this.rebuilds++;
    this.devices.delete(serial);
    const c = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('telemetria.cerca_permanencia'), hashtext($1))`, [serial]);
      const { rows: [p0] } = await c.query<{ t: number; lat: number; lon: number; speed: number | null; empresa_id: number }>(
        `SELECT (extract(epoch FROM p.fix_time) * 1000)::float8 AS t, p.lat, p.lon, p.speed, p.empresa_id FROM telemetria.posicao p
          WHERE p.serial = $1 AND p.fix_time < $2 AND p.valid AND p.empresa_id IS NOT NULL ORDER BY p.fix_time DESC LIMIT 1`, [serial, iso(oldest)]);
      // the state at p0: the stays open then (their entry at or before it)
      const from = p0 ? iso(p0.t) : '-infinity';
      const st: DeviceState = { last: p0 ? { t: Number(p0.t), lat: p0.lat, lon: p0.lon } : { t: -1, lat: 0, lon: 0 }, owner: p0 ? String(p0.empresa_id) : '', inside: new Map(), over: new Map() };
      if (p0) {
        const { rows } = await c.query<{ cerca_id: number; entrada: Date }>(
          `SELECT cerca_id, entrada FROM telemetria.cerca_permanencia WHERE serial = $1 AND entrada <= $2 AND (saida IS NULL OR saida > $2)`, [serial, from]);
        for (const r of rows) st.inside.set(r.cerca_id, r.entrada.getTime());
      }
      await c.query(`DELETE FROM telemetria.evento WHERE serial = $1 AND fix_time > $2 AND code LIKE 'cerca:%'`, [serial, from]);
      await c.query('DELETE FROM telemetria.cerca_permanencia WHERE serial = $1 AND entrada > $2', [serial, from]);
      await c.query('UPDATE telemetria.cerca_permanencia SET saida = NULL, duracao = NULL WHERE serial = $1 AND saida > $2', [serial, from]);
      const { rows } = await c.query<{ t: number; lat: number; lon: number; speed: number | null; empresa_id: number; ativo_id: number | null; motorista_id: number | null }>(SQL_POSITIONS, [serial, from]);
      await this.refresh([...new Set([...rows.map((r) => r.empresa_id), ...(p0 ? [p0.empresa_id] : [])])].filter((e) => !this.companies.has(e)));
      // an excursion open at p0 (its event at or before p0 stays): the fences it was inside over their limit then
      if (p0) excursions(st.over, st.inside.keys(), this.companies.get(p0.empresa_id)?.limits ?? NO_LIMITS, p0.speed, Number(p0.t));
      const out = new Out();
      for (const r of rows) {
        const f: Fix = { t: Number(r.t), lat: r.lat, lon: r.lon, speed: r.speed, empresaId: r.empresa_id, ativoId: r.ativo_id, motoristaId: r.motorista_id };
        if (f.t > st.last.t) this.step(serial, st, f, out);
      }
      await out.write(c);
      await c.query('COMMIT');
      this.publish(out.touched());
      if (this.devices.size >= this.maxDevices) this.devices.clear();
      if (st.last.t >= 0) this.devices.set(serial, st);
    } catch (err) {
      broken = err as Error;
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release(broken);
    }
  }
}

const NO_LIMITS: ReadonlyMap<number, number> = new Map();
const transitionsBetween = (f: Prepared, was: boolean, a: Pt, b: Pt) => transitions(f, was, a.lon, a.lat, b.lon, b.lat);
/** Across a gap (or at a device's first fix): only the fix's own state counts. */
function transitionsAt(f: Prepared, was: boolean, b: Pt): { entrada: boolean; s: number }[] {
  const now = contains(f, b.lon, b.lat);
  return now !== was ? [{ entrada: now, s: 1 }] : [];
}
