// Passengers by RFID at ingest: the gateway hands each committed batch's positions here (server/core/ingest.ts); a
// position carrying a card read (IngestFix.rfid, the decoders' `rfid` attribute: Queclink GTIDA …) boards or alights.
// Rules (issue 23): the first read of a card boards, the next alights; a read of the same card within a minute of its
// previous one is ignored (the reader repeats); a read while the vehicle has no open passenger trip opens one, on the
// itinerary the vehicle is on (itinerario.ativos, the week day and the ida/volta window). The trip closes when the
// ignition turns off (or after MAX_IDLE_MS without a read); whoever is still on board then alights at the close with
// 'Desembarque não registrado'. A card no passenger holds boards as 'Cartão não cadastrado'; a passenger not registered
// on the trip's itinerary as 'Passageiro fora do itinerário' — and is added to it (itinerario_passageiro, criadoAuto).
// State per device lives in memory and is loaded from the stored open trip at the device's first read here (restart).
// Output: telemetria.viagem_passageiro and telemetria.embarque (upserts), then the latest-state bus is told which
// serials changed (the ingest context's publish, server/realtime/bus.ts) so /esp/pas/passageiros_ao_vivo updates.
import type pg from 'pg';
import type { IngestFix, IngestLog } from '../../../server/core/ingest.ts';
import { EMBARQUE_COLUMNS, EMBARQUE_TYPES, VIAGEM_PASSAGEIRO_COLUMNS, VIAGEM_PASSAGEIRO_TYPES } from '../../../server/generated/telemetry.ts';
import { companySql, pgParams } from '../../../server/tenancy/scope.ts';
import { ofCompany } from '../../../shared/scope-sql.ts';
import { itinerarioEm, localAt, type Itinerario } from './itinerario.ts';
import { Rounds } from '../../../server/core/rounds.ts';

/** A read of the same card within this of its previous read is ignored. */
export const REPEAT_MS = 60_000;
/** An open trip without a read for this long is closed at its last read before a new one opens. */
export const MAX_IDLE_MS = 6 * 3600_000;
export const SEM_CADASTRO = 'Cartão não cadastrado';
export const FORA_DO_ITINERARIO = 'Passageiro fora do itinerário';
export const SEM_DESEMBARQUE = 'Desembarque não registrado';

interface Trip {
  inicio: number; fim: number | null; empresaId: number; ativoId: number | null; motoristaId: number | null;
  itinerarioId: number | null; direcao: string | null; qtd: number; lotacao: number; aBordo: number;
  hodIni: number | null; hodFim: number | null; lat: number | null; lon: number | null; ultima: number;
}
interface Board {
  tag: string; entrada: number; saida: number | null; passageiroId: number | null; inconsistencia: string | null;
  lat: number | null; lon: number | null; latS: number | null; lonS: number | null;
}
interface DeviceState { owner: number; trip: Trip | null; onBoard: Map<string, Board>; lastRead: Map<string, number> }
interface Company { version: string; tags: Map<string, number>; itinerarios: Itinerario[]; cadastrados: Map<number, Set<number>> }

const iso = (t: number) => new Date(Math.round(t)).toISOString();
const ms = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());
export const normalTag = (t: string) => t.trim().toUpperCase();

const upsert = (table: string, cols: readonly string[], types: Record<string, string>, key: string[], update: string[]) => `
INSERT INTO telemetria.${table} (${cols.join(', ')}, calculado_em)
SELECT ${cols.join(', ')}, now() FROM json_to_recordset($1::json) AS x(${cols.map((c) => `${c} ${types[c]}`).join(', ')})
ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}, calculado_em = now()`;
const TRIP_COLS = VIAGEM_PASSAGEIRO_COLUMNS.filter((c) => c !== 'calculado_em');
const BOARD_COLS = EMBARQUE_COLUMNS.filter((c) => c !== 'calculado_em');
const SQL_TRIP = upsert('viagem_passageiro', TRIP_COLS, VIAGEM_PASSAGEIRO_TYPES, ['serial', 'inicio'],
  ['fim', 'itinerario_id', 'direcao', 'qtd_passageiros', 'lotacao', 'a_bordo', 'hodometro_fim', 'motorista_id']);
// A registered passenger boarding an itinerary they are not on is added to it (criadoAuto), at the boarding's local
// time and the trip's direction, once.
const SQL_CADASTRO = `
INSERT INTO itinerario_passageiro (empresa_id, itinerario, passageiro, horario, direcao, criado_auto, created_at, updated_at)
SELECT x.empresa_id, x.itinerario, x.passageiro, x.horario, x.direcao, true, now(), now()
  FROM json_to_recordset($1::json) AS x(empresa_id int, itinerario int, passageiro int, horario text, direcao text)
 WHERE NOT EXISTS (SELECT 1 FROM itinerario_passageiro ip WHERE ip.itinerario = x.itinerario AND ip.passageiro = x.passageiro)`;
const SQL_BOARD = upsert('embarque', BOARD_COLS, EMBARQUE_TYPES, ['serial', 'tag', 'entrada'], ['saida', 'lat_saida', 'lon_saida', 'inconsistencia']);

/** What a round writes (the latest state of each trip and boarding). */
class Out {
  trips = new Map<string, Record<string, unknown>>();
  boards = new Map<string, Record<string, unknown>>();
  changed = new Map<string, number>();
  cadastros: Record<string, unknown>[] = [];
  trip(serial: string, t: Trip) {
    this.changed.set(serial, t.empresaId);
    this.trips.set(`${serial}|${t.inicio}`, {
      serial, inicio: iso(t.inicio), fim: t.fim === null ? null : iso(t.fim), empresa_id: t.empresaId, ativo_id: t.ativoId, motorista_id: t.motoristaId,
      itinerario_id: t.itinerarioId, direcao: t.direcao, qtd_passageiros: t.qtd, lotacao: t.lotacao, a_bordo: t.aBordo,
      hodometro_inicio: t.hodIni, hodometro_fim: t.hodFim, lat_inicio: t.lat, lon_inicio: t.lon,
    });
  }
  board(serial: string, t: Trip, b: Board) {
    this.boards.set(`${serial}|${b.tag}|${b.entrada}`, {
      serial, tag: b.tag, entrada: iso(b.entrada), saida: b.saida === null ? null : iso(b.saida), viagem_inicio: iso(t.inicio),
      empresa_id: t.empresaId, ativo_id: t.ativoId, motorista_id: t.motoristaId, passageiro_id: b.passageiroId, itinerario_id: t.itinerarioId,
      lat_entrada: b.lat, lon_entrada: b.lon, lat_saida: b.latS, lon_saida: b.lonS, inconsistencia: b.inconsistencia,
    });
  }
  get size() { return this.trips.size + this.boards.size; }
}

export class PassengerProcessor {
  private readonly companies = new Map<number, Company>();
  private readonly devices = new Map<string, DeviceState>();
  private readonly rounds = new Rounds<IngestFix>((w) => this.process(w),
    (err) => this.log.error({ err: err.message }, 'passageiros: falha ao processar leituras RFID'));
  /** Reads ignored as repeats (tests, metrics). */
  ignored = 0;

  constructor(private pool: pg.Pool, private log: IngestLog, private maxDevices = 100_000,
              private publish: (rows: { empresaId: number; serial: string }[]) => void = () => undefined) {}

  positions(fixes: IngestFix[]): void {
    // reads, and the fixes that may close a trip (ignition off) or move its odometer, of devices with a trip here
    this.rounds.push(fixes, (f) => f.rfid || ((f.ignition === false || f.odometer !== null) && this.devices.get(f.serial)?.trip));
  }

  drain(): Promise<void> { return this.rounds.drain(); }

  stop(): Promise<void> { return this.rounds.stop(); }

  /** Reloads the tags, itineraries and registrations of the companies whose registers changed. */
  async refresh(empresas: number[]): Promise<void> {
    for (const e of empresas) {
      const p = pgParams();
      const v = (t: string, a: string) => `(SELECT count(*) || '/' || coalesce(max(${a}.updated_at)::text, '') FROM ${t} ${a} WHERE ${companySql(a, e, p)})`;
      const { rows: [r] } = await this.pool.query<{ v: string }>(`SELECT ${v('passageiro', 'p')} || '|' || ${v('itinerario', 'i')} || '|' || ${v('itinerario_passageiro', 'ip')} AS v`, p.values);
      if (this.companies.get(e)?.version === r!.v) continue;
      const q1 = pgParams(), q2 = pgParams(), q3 = pgParams();
      const [tags, its, cad] = await Promise.all([
        this.pool.query<{ id: number; tag: string }>(`SELECT p.id, t.v AS tag FROM passageiro p, jsonb_array_elements_text(coalesce(p.tags, '[]'::jsonb)) t(v) WHERE ${companySql('p', e, q1)} ORDER BY p.id`, q1.values),
        this.pool.query<Itinerario>(`SELECT i.id, coalesce(i.ativos, '{}') AS ativos, coalesce(i.dias_semana, '[]'::jsonb) AS "diasSemana", i.inicio_ida::text AS "inicioIda",
            i.fim_ida::text AS "fimIda", i.inicio_volta::text AS "inicioVolta", i.fim_volta::text AS "fimVolta" FROM itinerario i WHERE ${companySql('i', e, q2)} ORDER BY i.id`, q2.values),
        this.pool.query<{ itinerario: number; passageiro: number }>(`SELECT ip.itinerario, ip.passageiro FROM itinerario_passageiro ip WHERE ${companySql('ip', e, q3)}`, q3.values),
      ]);
      const co: Company = { version: r!.v, tags: new Map(), itinerarios: its.rows, cadastrados: new Map() };
      for (const t of tags.rows) { const k = normalTag(t.tag); if (k && !co.tags.has(k)) co.tags.set(k, t.id); }
      for (const c of cad.rows) { const s = co.cadastrados.get(c.itinerario); if (s) s.add(c.passageiro); else co.cadastrados.set(c.itinerario, new Set([c.passageiro])); }
      this.companies.set(e, co);
    }
  }

  /** The device's state: in memory, else its open trip as stored (after a restart). */
  private async state(serial: string, empresa: number): Promise<DeviceState> {
    const known = this.devices.get(serial);
    if (known && known.owner === empresa) return known;
    const st: DeviceState = { owner: empresa, trip: null, onBoard: new Map(), lastRead: new Map() };
    const p = pgParams();
    const where = `v.serial = ${p.add(serial)} AND v.fim IS NULL AND ${companySql('v', empresa, p)}`;
    const { rows: [t] } = await this.pool.query<Record<string, unknown>>(`SELECT * FROM telemetria.viagem_passageiro v WHERE ${where} ORDER BY v.inicio DESC LIMIT 1`, p.values);
    if (t) {
      const { rows } = await this.pool.query<Record<string, unknown>>(`SELECT * FROM telemetria.embarque e WHERE e.serial = $1 AND e.viagem_inicio = $2`, [serial, t.inicio]);
      let ultima = ms(t.inicio as Date)!;
      for (const b of rows) {
        const entrada = ms(b.entrada as Date)!, saida = ms(b.saida as Date | null);
        const tag = b.tag as string;
        st.lastRead.set(tag, Math.max(st.lastRead.get(tag) ?? 0, saida ?? entrada));
        ultima = Math.max(ultima, saida ?? entrada);
        if (saida === null) st.onBoard.set(tag, { tag, entrada, saida, passageiroId: b.passageiro_id as number | null, inconsistencia: b.inconsistencia as string | null, lat: b.lat_entrada as number | null, lon: b.lon_entrada as number | null, latS: null, lonS: null });
      }
      st.trip = {
        inicio: ms(t.inicio as Date)!, fim: null, empresaId: empresa, ativoId: t.ativo_id as number | null, motoristaId: t.motorista_id as number | null,
        itinerarioId: t.itinerario_id as number | null, direcao: t.direcao as string | null, qtd: t.qtd_passageiros as number, lotacao: t.lotacao as number,
        aBordo: st.onBoard.size, hodIni: t.hodometro_inicio as number | null, hodFim: t.hodometro_fim as number | null, lat: t.lat_inicio as number | null, lon: t.lon_inicio as number | null, ultima,
      };
    }
    if (this.devices.size >= this.maxDevices) this.devices.clear();
    this.devices.set(serial, st);
    return st;
  }

  private async process(work: IngestFix[]): Promise<void> {
    work.sort((a, b) => a.t - b.t);
    await this.refresh([...new Set(work.filter((f) => f.rfid).map((f) => f.empresaId))]);
    const out = new Out();
    for (const f of work) {
      const st = f.rfid ? await this.state(f.serial, f.empresaId) : this.devices.get(f.serial);
      if (!st || !ofCompany(f, st.owner)) continue; // a device moved to another company: its state is not this one's
      if (st.trip && f.odometer !== null && f.t >= st.trip.inicio) { st.trip.hodFim = f.odometer; st.trip.hodIni ??= f.odometer; out.trip(f.serial, st.trip); }
      if (f.rfid) this.read(f, st, normalTag(f.rfid), out);
      else if (f.ignition === false && st.trip && f.t >= st.trip.ultima) this.close(f.serial, st, f.t, f, out);
    }
    if (!out.size) return;
    const c = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      if (out.trips.size) await c.query(SQL_TRIP, [JSON.stringify([...out.trips.values()])]);
      if (out.boards.size) await c.query(SQL_BOARD, [JSON.stringify([...out.boards.values()])]);
      if (out.cadastros.length) await c.query(SQL_CADASTRO, [JSON.stringify(out.cadastros)]);
      await c.query('COMMIT');
      // the live rows of these vehicles changed (/esp/pas/passageiros_ao_vivo): told on the latest-state bus
      // (PostgreSQL or Redis, as the gateway's writer tells it)
      this.publish([...out.changed].map(([serial, empresaId]) => ({ serial, empresaId })));
    } catch (err) {
      broken = err as Error;
      await c.query('ROLLBACK').catch(() => undefined);
      // the memory is ahead of the tables: forget these devices (their state is loaded again from what is stored)
      for (const serial of out.changed.keys()) this.devices.delete(serial);
      throw err;
    } finally {
      c.release(broken);
    }
  }

  /** One card read. */
  read(f: IngestFix, st: DeviceState, tag: string, out: Out): void {
    const last = st.lastRead.get(tag);
    if (last !== undefined && Math.abs(f.t - last) < REPEAT_MS) { this.ignored++; return; }
    if (st.trip && f.t < st.trip.inicio) { this.ignored++; return; } // older than the open trip: not of it
    if (st.trip && f.t - st.trip.ultima > MAX_IDLE_MS) this.close(f.serial, st, st.trip.ultima, null, out);
    st.lastRead.set(tag, f.t);
    const co = this.companies.get(f.empresaId);
    let trip = st.trip;
    if (!trip) {
      const it = co ? itinerarioEm(co.itinerarios, f.ativoId, f.t) : null;
      trip = st.trip = {
        inicio: f.t, fim: null, empresaId: f.empresaId, ativoId: f.ativoId, motoristaId: f.motoristaId, itinerarioId: it?.id ?? null,
        direcao: it?.direcao ?? null, qtd: 0, lotacao: 0, aBordo: 0, hodIni: f.odometer, hodFim: f.odometer, lat: f.lat, lon: f.lon, ultima: f.t,
      };
    }
    trip.ultima = Math.max(trip.ultima, f.t);
    if (f.motoristaId !== null) trip.motoristaId = f.motoristaId;
    const b = st.onBoard.get(tag);
    if (b) {
      b.saida = f.t; b.latS = f.lat; b.lonS = f.lon;
      st.onBoard.delete(tag);
      trip.aBordo = st.onBoard.size;
      out.board(f.serial, trip, b);
    } else {
      const pid = co?.tags.get(tag) ?? null;
      const inconsistencia = pid === null ? SEM_CADASTRO
        : trip.itinerarioId !== null && !co!.cadastrados.get(trip.itinerarioId)?.has(pid) ? FORA_DO_ITINERARIO : null;
      if (inconsistencia === FORA_DO_ITINERARIO) {
        const { min } = localAt(f.t);
        out.cadastros.push({ empresa_id: f.empresaId, itinerario: trip.itinerarioId, passageiro: pid, direcao: trip.direcao ?? 'ida',
          horario: `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}` });
        co!.cadastrados.set(trip.itinerarioId!, new Set([...(co!.cadastrados.get(trip.itinerarioId!) ?? []), pid!]));
      }
      const nb: Board = { tag, entrada: f.t, saida: null, passageiroId: pid, inconsistencia, lat: f.lat, lon: f.lon, latS: null, lonS: null };
      st.onBoard.set(tag, nb);
      trip.qtd++;
      trip.aBordo = st.onBoard.size;
      trip.lotacao = Math.max(trip.lotacao, trip.aBordo);
      out.board(f.serial, trip, nb);
    }
    out.trip(f.serial, trip);
  }

  /** Closes the device's open trip at time t: whoever is on board alights then. */
  close(serial: string, st: DeviceState, t: number, f: IngestFix | null, out: Out): void {
    const trip = st.trip!;
    for (const b of st.onBoard.values()) {
      b.saida = t; b.latS = f?.lat ?? null; b.lonS = f?.lon ?? null;
      b.inconsistencia ??= SEM_DESEMBARQUE;
      out.board(serial, trip, b);
    }
    trip.fim = t; trip.aBordo = 0;
    out.trip(serial, trip);
    st.trip = null; st.onBoard.clear(); st.lastRead.clear();
  }
}
