// serial → registered device (equipamento + current equipamento_ativo link), cached. While the gateway LISTENs to the
// database's change notifications (startDirectoryListener) an entry lives for minutes, longer than a report period,
// and is forgotten on a change that concerns it; without the notifications (connection lost, plain pool) for 30 s.
// Either way an entry never outlives the next time its resolution changes by the clock alone (a link or a driver
// assignment starting or ending), which the lookup returns as proxima_mudanca.
// A serial resolves to its ONE registration. The database keeps serials unique across the platform; should two
// rows with the same serial exist anyway (inserted around the API), the serial resolves to nobody: its traffic
// goes to the pending list and no company gets it (never "the newest registration").
import type pg from 'pg';
import { ativo as atv, empresa as emp, equipamento as eqp, equipamento_ativo as vin, motorista_temporario as esc } from '../generated/columns.ts';
import { parseRedes } from './networks.ts';
import { log } from './log.ts';
import { inCompany, ofCompany, sameCompany } from '../../shared/scope-sql.ts';
import type { DeviceInfo } from './types.ts';

// The asset link counts only when link and asset belong to the device's company; the driver is the one assigned to
// the asset now (motorista_temporario in force) until a device identifies drivers itself.
const LOOKUP = `
SELECT e.${eqp.id} AS id, e.${eqp.serial} AS serial, e.${eqp.empresaId} AS empresa_id, e.${eqp.modelo} AS modelo,
       e.${eqp.tecnologia} AS tecnologia, e.${eqp.ativado} AS ativado, l.ativo_id, d.motorista_id,
       (SELECT c.${emp.redesPermitidas} FROM ${emp.table} c WHERE ${inCompany('e', `c.${emp.id}`)}) AS redes,
       count(*) OVER (PARTITION BY e.${eqp.serial})::int AS registros,
       LEAST(
         (SELECT min(t) FROM ${vin.table} ea, LATERAL (VALUES (ea.${vin.dataInicio}), (ea.${vin.dataFim})) x(t)
           WHERE ea.${vin.serial} = e.${eqp.serial} AND ${sameCompany('ea', 'e')} AND t > now()),
         (SELECT min(t) FROM ${esc.table} m, LATERAL (VALUES (m.${esc.dataInicio}), (m.${esc.dataFim})) x(t)
           WHERE m.${esc.ativoId} = l.ativo_id AND ${sameCompany('m', 'e')} AND t > now())) AS proxima_mudanca
  FROM ${eqp.table} e
  LEFT JOIN LATERAL (
    SELECT ea.${vin.ativoId} AS ativo_id FROM ${vin.table} ea
     WHERE ea.${vin.serial} = e.${eqp.serial} AND ${sameCompany('ea', 'e')}
       AND ea.${vin.dataInicio} <= now() AND (ea.${vin.dataFim} IS NULL OR ea.${vin.dataFim} > now())
       AND EXISTS (SELECT 1 FROM ${atv.table} a WHERE a.${atv.id} = ea.${vin.ativoId} AND ${sameCompany('a', 'e')})
     ORDER BY ea.${vin.dataInicio} DESC LIMIT 1) l ON true
  LEFT JOIN LATERAL (
    SELECT t.${esc.motoristaId} AS motorista_id FROM ${esc.table} t
     WHERE t.${esc.ativoId} = l.ativo_id AND ${sameCompany('t', 'e')}
       AND t.${esc.dataInicio} <= now() AND t.${esc.dataFim} > now()
     ORDER BY t.${esc.dataInicio} DESC LIMIT 1) d ON true
 WHERE e.${eqp.serial} = ANY($1::text[])`;

/** Protocols a registration's tecnologia must match (other protocol names, e.g. test ones, are not checked). */
// vdo (video telemetry cameras) reports to the video service, never to this gateway: every protocol is refused.
const TECNOLOGIAS = new Set(['queclink', 'legacy', 'osmand', 'vdo']);

/** True when a message of this protocol may be attributed to this device (tecnologia of the registration). */
export function protocolAllowed(dev: DeviceInfo, protocol: string): boolean {
  const t = dev.tecnologia;
  if (!t || !TECNOLOGIAS.has(t) || !TECNOLOGIAS.has(protocol)) return true;
  return t === protocol;
}

interface Entry { info: DeviceInfo | null; conflict: boolean; at: number; until: number }

/** Cache lifetimes: while change notifications arrive, and without them. */
export const DIRECTORY_TTL = { notified: 10 * 60_000, polled: 30_000, negative: 10_000 };

export class DeviceDirectory {
  private cache = new Map<string, Entry>();
  private lastSeenWrite = new Map<string, number>();
  private lastConflictLog = new Map<string, number>();

  /** True while a listener delivers the database's change notifications (set by startDirectoryListener). */
  private notified = false;
  /** Lookups run (each resolves its missing serials in one query). */
  lookups = 0;

  constructor(private pool: pg.Pool, private ttlMs = DIRECTORY_TTL.polled, private negativeTtlMs = DIRECTORY_TTL.negative) {}

  /** Notifications up: entries may live DIRECTORY_TTL.notified; down: back to the short TTL. Both forget everything
   *  (what was cached may have missed a message). */
  setNotified(up: boolean): void {
    this.notified = up;
    this.cache.clear();
  }

  /** A change notification from the database (payload of channel rastro_equipamento). */
  notification(payload: string): void {
    const i = payload.indexOf(':');
    const kind = payload.slice(0, i);
    const key = payload.slice(i + 1);
    const id = Number(key);
    if (kind === 'q') this.cache.delete(key);
    else if (kind === 'a') this.invalidateChange({ entity: 'ativo', id, before: null, after: null });
    else if (kind === 'm') this.invalidateChange({ entity: 'motorista_temporario', id: 0, before: { ativoId: id }, after: null });
    else if (kind === 'e') this.invalidateChange({ entity: 'empresa', id, before: null, after: null });
    else this.cache.clear();
  }

  /** Resolves many serials with at most one query; null = unknown, deactivated or registered more than once. */
  async resolve(serials: Iterable<string>): Promise<Map<string, DeviceInfo | null>> {
    const now = Date.now();
    const out = new Map<string, DeviceInfo | null>();
    const missing: string[] = [];
    for (const s of serials) {
      if (out.has(s)) continue;
      const e = this.cache.get(s);
      if (e && now < e.until && now - e.at < (e.info ? (this.notified ? DIRECTORY_TTL.notified : this.ttlMs) : this.negativeTtlMs)) out.set(s, e.info);
      else { out.set(s, null); missing.push(s); }
    }
    if (missing.length) {
      this.lookups++;
      const { rows } = await this.pool.query(LOOKUP, [missing]);
      const found = new Map<string, { info: DeviceInfo | null; conflict: boolean; until: number }>();
      for (const r of rows) {
        if (r.registros > 1) {
          found.set(r.serial, { info: null, conflict: true, until: Infinity });
          this.logConflict(r.serial, r.registros, now);
          continue;
        }
        found.set(r.serial, {
          conflict: false, until: r.proxima_mudanca ? new Date(r.proxima_mudanca).getTime() : Infinity,
          info: r.ativado ? {
            equipamentoId: r.id, serial: r.serial, empresaId: r.empresa_id, ativoId: r.ativo_id ?? null,
            motoristaId: r.motorista_id ?? null, modelo: r.modelo ?? null, tecnologia: r.tecnologia ?? null,
            redes: parseRedes(r.redes),
          } : null,
        });
      }
      for (const s of missing) {
        const f = found.get(s);
        this.cache.set(s, { info: f?.info ?? null, conflict: f?.conflict ?? false, at: now, until: f?.until ?? Infinity });
        out.set(s, f?.info ?? null);
      }
    }
    return out;
  }

  get(serial: string): DeviceInfo | null | undefined {
    return this.cache.get(serial)?.info;
  }

  /** The serial is registered more than once (as of the last lookup): nobody gets its traffic. */
  isConflict(serial: string): boolean {
    return this.cache.get(serial)?.conflict ?? false;
  }

  invalidate(serial?: string): void {
    if (serial === undefined) this.cache.clear();
    else this.cache.delete(serial);
  }

  /**
   * Forgets what a committed change of a register can change (API-shaped row values before/after): an equipamento
   * or equipamento_ativo row, its serial(s); an ativo, the serials linked to it and the ones without an asset
   * (a link to it may have become valid); a driver assignment, the serials of its asset. Other serials keep their
   * cached resolution.
   */
  invalidateChange(c: { entity: string; id: number; before: Record<string, unknown> | null; after: Record<string, unknown> | null }): void {
    if (c.entity === 'motorista_temporario') { // the driver of the asset's serials
      const ativos = new Set([c.before?.ativoId, c.after?.ativoId]);
      for (const [serial, e] of this.cache) if (e.info && ativos.has(e.info.ativoId)) this.cache.delete(serial);
      return;
    }
    if (c.entity === 'empresa') { // its allowed networks: the serials of its devices
      for (const [serial, e] of this.cache) if (ofCompany(e.info, c.id)) this.cache.delete(serial);
      return;
    }
    if (c.entity === 'ativo') {
      for (const [serial, e] of this.cache) if (e.info && (e.info.ativoId === c.id || e.info.ativoId === null)) this.cache.delete(serial);
      return;
    }
    const serials = [c.before?.serial, c.after?.serial].filter((s): s is string => typeof s === 'string');
    if (!serials.length) this.cache.clear(); // a row without its serial: nothing to go by
    for (const s of serials) this.cache.delete(s);
  }

  /** True at most once per interval per device: throttles equipamento.ultima_comunicacao writes. */
  shouldTouch(serial: string, intervalMs = 60_000): boolean {
    const now = Date.now();
    const last = this.lastSeenWrite.get(serial) ?? 0;
    if (now - last < intervalMs) return false;
    this.lastSeenWrite.set(serial, now);
    return true;
  }

  private logConflict(serial: string, n: number, now: number): void {
    if (now - (this.lastConflictLog.get(serial) ?? 0) < 60_000) return;
    if (this.lastConflictLog.size > 10_000) this.lastConflictLog.clear();
    this.lastConflictLog.set(serial, now);
    log.error({ serial, registros: n }, 'serial registrado mais de uma vez: mensagens não atribuídas a nenhuma empresa');
  }
}
