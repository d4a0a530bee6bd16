// Commands to devices (fila_processamento): sent while the device is connected, marked 'enviado' +
// processing, then 'concluido'/'erro' on the device's acknowledgement. Cancelled rows are never sent.
// A command belongs to its company: it reaches the device only when the serial's ONE registration (equipamento)
// is of that company and older than the command (a command queued for a previous registration of the serial is
// not for the current one). Checked when the command is picked and again in the UPDATE that marks it sent.
import type pg from 'pg';
import { CommandValidationError, type CommandParamValue, type CommandType, type Decoder } from '../../protocol/types.ts';
import { equipamento as eqp, fila_processamento as fila } from '../generated/columns.ts';
import { log } from './log.ts';
import { sameCompany } from '../../shared/scope-sql.ts';
import type { GatewayMetrics } from './metrics.ts';
import { rawOf, type IngestMessage, type Link } from './types.ts';

const COMMAND_TYPES = new Set<CommandType>(['reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock', 'output']);
const MAX_ATTEMPTS = 3;

/** Protocols whose command frame carries the device's serial in its header: the params the encoder reads it from. */
const DEVICE_ADDRESS: Record<string, (serial: string) => Record<string, CommandParamValue>> = {
  legacy: (serial) => ({ deviceId: Number(serial) }), // SV header (protocol/legacy encode(): params.deviceId)
};

// The serial's only registration, active, of the command's company, created before the command (one row f).
const LEGIT = `(SELECT count(*) FROM ${eqp.table} o WHERE o.${eqp.serial} = f.${fila.serial}) = 1
  AND EXISTS (SELECT 1 FROM ${eqp.table} e WHERE e.${eqp.serial} = f.${fila.serial} AND ${sameCompany('e', 'f')} AND e.${eqp.ativado}
              AND e.${eqp.createdAt} <= f.${fila.createdAt})`;

// The registrations of the connected serials ($1), each with how many the serial has: counted once per serial
// for the poll (not once per queued command).
const REGISTROS = `reg AS (SELECT e.${eqp.serial} AS serial, e.${eqp.empresaId} AS empresa_id, e.${eqp.ativado} AS ativado,
                         e.${eqp.createdAt} AS created_at, e.${eqp.modelo} AS modelo, count(*) OVER (PARTITION BY e.${eqp.serial}) AS n
                    FROM ${eqp.table} e WHERE e.${eqp.serial} = ANY($1::text[]))`;

/** Why a pending command of a connected serial is not for the registered device (status 'erro', resposta). */
export const REFUSED = {
  conflito: 'Serial registrado em mais de uma empresa: comando não enviado',
  outraEmpresa: 'Equipamento não registrado nesta empresa: comando não enviado',
  anterior: 'Comando criado antes do registro atual do equipamento: não enviado',
} as const;

/** How long after a read (readConfig) was sent the device's configuration report is taken as its answer. */
const READ_ANSWER_MINUTES = 30;

export interface DispatcherOptions { pollMs?: number; ackTimeoutMs?: number }

export class CommandDispatcher {
  private links = new Map<string, Link>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private missingTable = false;

  constructor(private pool: pg.Pool, private decoders: Record<string, Decoder>, private metrics: GatewayMetrics,
              private opts: DispatcherOptions = {}) {}

  attach(link: Link): void { if (link.serial) { this.links.set(link.serial, link); this.kick(); } }
  detach(link: Link): void { if (link.serial && this.links.get(link.serial) === link) this.links.delete(link.serial); }

  start(): void {
    const ms = this.opts.pollMs ?? 2000;
    this.timer = setInterval(() => void this.poll(), ms);
    this.timer.unref();
  }

  stop(): void { if (this.timer) clearInterval(this.timer); this.timer = null; }

  /** Polls soon (a device just connected). */
  kick(): void { setImmediate(() => void this.poll()); }

  async poll(): Promise<void> {
    if (this.polling || this.missingTable) return;
    this.polling = true;
    try {
      const timeoutS = Math.round((this.opts.ackTimeoutMs ?? 120_000) / 1000);
      // Sent by this gateway but never acknowledged: retry, or give up after MAX_ATTEMPTS. Only the kinds it sends:
      // other queued kinds (e.g. the tachograph's, handed to the video units' bridge) have their owner's timeout.
      await this.pool.query(
        `UPDATE ${fila.table} SET
           ${fila.status} = CASE WHEN ${fila.tentativas} >= $2 THEN 'erro' ELSE 'pendente' END,
           ${fila.processing} = false,
           ${fila.resposta} = CASE WHEN ${fila.tentativas} >= $2 THEN 'Sem resposta do equipamento' ELSE ${fila.resposta} END,
           ${fila.updatedAt} = now()
         WHERE ${fila.status} = 'enviado' AND ${fila.enviadoEm} < now() - make_interval(secs => $1) AND ${fila.event} = ANY($3::text[])`,
        [timeoutS, MAX_ATTEMPTS, [...COMMAND_TYPES]]);
      const serials = [...this.links.keys()];
      if (!serials.length) return;
      // Pending commands of the connected serials that are not for the serial's registration: refused for good.
      // Per serial (s): registrations, whether one is active, whether one is of the command's company.
      await this.pool.query(
        `WITH ${REGISTROS},
         s AS (SELECT serial, max(n) n, bool_or(ativado) ativo FROM reg GROUP BY serial)
         UPDATE ${fila.table} f SET ${fila.status} = 'erro', ${fila.processing} = false, ${fila.updatedAt} = now(),
           ${fila.resposta} = CASE
             WHEN s.n > 1 THEN $2
             WHEN EXISTS (SELECT 1 FROM reg WHERE reg.serial = f.${fila.serial} AND ${sameCompany('reg', 'f')}) THEN $4
             ELSE $3 END
           FROM s
          WHERE s.serial = f.${fila.serial} AND s.ativo
            AND f.${fila.status} = 'pendente' AND NOT f.${fila.processing} AND f.${fila.serial} = ANY($1::text[])
            AND NOT (s.n = 1 AND EXISTS (SELECT 1 FROM reg WHERE reg.serial = f.${fila.serial} AND ${sameCompany('reg', 'f')}
                                           AND reg.ativado AND reg.created_at <= f.${fila.createdAt}))`,
        [serials, REFUSED.conflito, REFUSED.outraEmpresa, REFUSED.anterior]);
      const { rows } = await this.pool.query(
        `WITH ${REGISTROS}
         SELECT f.${fila.id} AS id, f.${fila.serial} AS serial, f.${fila.event} AS event, f.${fila.value} AS value, reg.modelo
           FROM ${fila.table} f
           JOIN reg ON reg.serial = f.${fila.serial} AND reg.n = 1 AND ${sameCompany('reg', 'f')} AND reg.ativado
                   AND reg.created_at <= f.${fila.createdAt}
          WHERE f.${fila.status} = 'pendente' AND NOT f.${fila.processing} AND f.${fila.serial} = ANY($1::text[])
          ORDER BY f.${fila.id} LIMIT 200`, [serials]);
      for (const row of rows) await this.send(row);
    } catch (err) {
      if ((err as { code?: string }).code === '42P01') {
        this.missingTable = true;
        log.warn('tabela fila_processamento ausente: comandos desativados');
      } else log.warn({ err: (err as Error).message }, 'falha ao consultar a fila de processamento');
    } finally {
      this.polling = false;
    }
  }

  private async send(row: { id: number; serial: string; event: string; value: unknown; modelo: string | null }): Promise<void> {
    const link = this.links.get(row.serial);
    const decoder = link && this.decoders[link.protocol];
    if (!link || !link.alive || !decoder) return;
    let bytes: Buffer;
    try {
      if (!COMMAND_TYPES.has(row.event as CommandType)) throw new CommandValidationError('UNSUPPORTED', 'event', `Comando não suportado: ${row.event}`);
      let params = row.value && typeof row.value === 'object' && !Array.isArray(row.value)
        ? (row.value as Record<string, CommandParamValue | CommandParamValue[]>) : undefined;
      // Binary frames addressed by the device's serial: the connected device's, whatever the queued row says.
      const address = DEVICE_ADDRESS[link.protocol];
      if (address) params = { ...params, ...address(row.serial) };
      bytes = decoder.encode({ type: row.event as CommandType, serial: row.id & 0xffff, model: link.model ?? row.modelo ?? undefined, params });
    } catch (err) {
      const msg = err instanceof CommandValidationError ? err.message : `Falha ao montar o comando: ${(err as Error).message}`;
      await this.pool.query(
        `UPDATE ${fila.table} SET ${fila.status} = 'erro', ${fila.processing} = false, ${fila.resposta} = $2, ${fila.updatedAt} = now()
          WHERE ${fila.id} = $1 AND ${fila.status} = 'pendente'`, [row.id, msg]);
      return;
    }
    const r = await this.pool.query(
      `UPDATE ${fila.table} SET ${fila.status} = 'enviado', ${fila.processing} = true, ${fila.enviadoEm} = now(),
         ${fila.tentativas} = ${fila.tentativas} + 1, ${fila.updatedAt} = now()
       WHERE ${fila.id} = $1 AND ${fila.status} = 'pendente' AND NOT ${fila.processing}
         AND EXISTS (SELECT 1 FROM ${fila.table} f WHERE f.${fila.id} = $1 AND ${LEGIT}) RETURNING ${fila.id}`, [row.id]);
    if (!r.rowCount) return; // cancelled meanwhile, or the registration changed
    if (link.send(bytes)) {
      this.metrics.commandsSent++;
      log.info({ serial: row.serial, id: row.id, event: row.event }, 'comando enviado ao equipamento');
    }
  }

  /** Called after the batch holding the ack committed. */
  async handleAcks(batch: IngestMessage[]): Promise<void> {
    for (const m of batch) {
      if (m.result.configuration !== undefined) await this.configurationRead(m);
      const ack = m.result.ack;
      if (!ack) continue;
      // No sequence in the ack (a bare SV ACK/NACK): it answers the oldest command sent to the device.
      const bare = ack.serial === '';
      const n = bare ? -1 : Number.parseInt(ack.serial, 16);
      if (!Number.isFinite(n)) continue;
      try {
        const r = await this.pool.query(
          `UPDATE ${fila.table} SET ${fila.status} = $3, ${fila.processing} = false, ${fila.concluidoEm} = now(), ${fila.resposta} = $4, ${fila.updatedAt} = now()
            WHERE ${fila.id} = (SELECT f.${fila.id} FROM ${fila.table} f
                         WHERE f.${fila.serial} = $1 AND f.${fila.status} = 'enviado' AND ($2 < 0 OR (f.${fila.id} & 65535) = $2) AND ${LEGIT}
                         ORDER BY f.${fila.enviadoEm}, f.${fila.id} LIMIT 1 FOR UPDATE)
              AND ${fila.status} = 'enviado' RETURNING ${fila.id}`,
          [m.result.deviceId, n, ack.success ? 'concluido' : 'erro', rawOf(m).slice(0, 1000)]);
        if (r.rowCount) this.metrics.commandsDone++;
      } catch (err) {
        log.warn({ err: (err as Error).message, serial: m.result.deviceId }, 'falha ao registrar confirmação de comando');
      }
    }
  }

  /** The device reported its configuration: the answer of its latest read (readConfig sent in the last
   *  READ_ANSWER_MINUTES, of the serial's registration), kept as the row's resposta; the row is done. */
  private async configurationRead(m: IngestMessage): Promise<void> {
    try {
      await this.pool.query(
        `UPDATE ${fila.table} SET ${fila.status} = 'concluido', ${fila.processing} = false, ${fila.concluidoEm} = coalesce(${fila.concluidoEm}, now()),
                ${fila.resposta} = $2, ${fila.updatedAt} = now()
          WHERE ${fila.id} = (SELECT f.${fila.id} FROM ${fila.table} f
                       WHERE f.${fila.serial} = $1 AND f.${fila.event} = 'readConfig' AND f.${fila.status} IN ('enviado', 'concluido')
                         AND f.${fila.enviadoEm} > now() - make_interval(mins => $3) AND ${LEGIT}
                       ORDER BY f.${fila.enviadoEm} DESC, f.${fila.id} DESC LIMIT 1 FOR UPDATE)`,
        [m.result.deviceId, `${m.result.type}: ${m.result.configuration}`.slice(0, 20_000), READ_ANSWER_MINUTES]);
    } catch (err) {
      log.warn({ err: (err as Error).message, serial: m.result.deviceId }, 'falha ao registrar a configuração lida do equipamento');
    }
  }
}
