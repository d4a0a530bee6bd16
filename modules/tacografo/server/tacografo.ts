// Tachograph transfers (issue 23; README.md of this module): frames in, files out.
// - POST /api/tacografo/quadros { serial, quadros: hex[] } — the frames a video-telemetry unit sent (the vdo family
//   reports to the video service, not to the gateway: its bridge posts them here with an API key holding
//   rel.rel.relatorios_registros.vdo_onboard.ingestao). Reassembled per device + transfer id (out of order and
//   repeated blocks welcome), each finished file stored in the uploads storage with one arquivo_tacografo row; every
//   step logged in log_tacografo. The answer carries the ack/nack frame of each transfer that ended.
// - POST /api/tacografo/comando { serial, comando, tipoArquivo, dataReferencia, cancelamento?, transferencia? } —
//   upload / download / interrupt queued in fila_processamento (the request frame in value.quadro).
// - POST /api/tacografo/comandos/retirar { seriais?, aguardarSegundos? } — the bridge takes the queued commands of its
//   units (also answered in every POST /quadros for that unit): handed over = enviado, logged; settled by the
//   transfer that follows, or erro when the unit stays silent (the module's sweep).
// - GET /api/tacografo/arquivo/{id} — the file's bytes (the list's Baixar link: the front end's cookie).
import { EventEmitter } from 'node:events';
import type { Context, Hono } from 'hono';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppEnv, Session } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import type { ModuleStart } from '../../../server/core/module.ts';
import { entityByKey, ormName } from '../../../server/core/registry.ts';
import { sessionFromCookie } from '../../../server/auth/middleware.ts';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { assertOwnDevices } from '../../../server/crud/commands.ts';
import type { ActionHandler } from '../../../server/crud/actions.ts';
import { newKey } from '../../../server/uploads/storage.ts';
import { companySql, qParams, sameCompany, scopeWhere, tenantOnly } from '../../../server/tenancy/scope.ts';
import { emitChange, events, type RowChange } from '../../../server/realtime/events.ts';
import { plain } from '../../../server/crud/history.ts';
import { documentCalls } from '../../../server/app/docs.ts';
import {
  FILE_TYPES, FrameError, HEADER, MAX_DATA, REASONS, addFrame, assemble, commandFrame, daysFromEpoch, dateFromDays, decodeFrame,
  encodeFrame, fileTypeLabel, missingBlocks, reasonLabel, type CancelType, type Command, type FileType, type Frame,
  type ReasonCode, type TransferState,
} from '../../../protocol/tacografo/index.ts';
import { requestEm } from '../../../server/db/context.ts';

type Row = Record<string, any>;
/** Frames per call (a 90-day file of ~1 MB is ~260 frames of 4 KB). */
export const MAX_FRAMES = 2000;
/** A first/single frame for a transfer id that ended longer ago than this starts a new transfer (else: a late repeat). */
export const REUSE_AFTER_MS = 60_000;
export const BODY_LIMIT = 24 * 1024 * 1024;
/** A transfer with no frame for this long fails ("Tempo esgotado"); TACOGRAFO_TIMEOUT_S, default 300 s. */
export const timeoutSeconds = () => (Number(process.env.TACOGRAFO_TIMEOUT_S) > 0 ? Math.floor(Number(process.env.TACOGRAFO_TIMEOUT_S)) : 300);
/** How often the server looks for silent transfers; TACOGRAFO_VERIFICA_MS, default 30 s. */
export const sweepMs = () => (Number(process.env.TACOGRAFO_VERIFICA_MS) > 0 ? Number(process.env.TACOGRAFO_VERIFICA_MS) : 30_000);

const ent = (key: string) => entityByKey(key)!;
const orm = (em: EntityManager, key: string) => ormName(em, ent(key));
const FILE_KEYS = Object.values(FILE_TYPES).map((t) => t.key) as FileType[];
const COMMANDS: Record<Command, string> = { upload: 'tacografoUpload', download: 'tacografoDownload', interrupt: 'tacografoInterrupt' };
const COMMAND_LABEL: Record<Command, string> = { upload: 'Enviar arquivo (upload)', download: 'Ler do VDR (download)', interrupt: 'Interromper transferência' };
const COMMAND_EVENTS = Object.values(COMMANDS);
const COMMAND_OF = Object.fromEntries(Object.entries(COMMANDS).map(([k, v]) => [v, k])) as Record<string, Command>;
/** Commands handed to a bridge per call. */
export const MAX_HANDOVER = 50;
/** Longest wait of POST /comandos/retirar for a command to be queued. */
export const MAX_WAIT_S = 25;
/** SQL: the label of the command of row alias `a` (COMMAND_LABEL), for log rows written in SQL. */
const labelSql = (a: string) => `CASE ${a}.event ${Object.entries(COMMANDS).map(([k, v]) => `WHEN '${v}' THEN '${COMMAND_LABEL[k as Command]}'`).join(' ')} END`;
/** SQL: the asset the device of row alias `a` is in now (its open link). */
const linkedAssetSql = (a: string) =>
  `(SELECT v.ativo_id FROM equipamento_ativo v WHERE v.serial = ${a}.serial AND ${sameCompany('v', a)} AND v.data_fim IS NULL ORDER BY v.data_inicio DESC LIMIT 1)`;

const brDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const fileName = (serial: string, t: FileType, days: number, transfer: number) =>
  `${serial.replace(/[^A-Za-z0-9_-]/g, '')}_${t}_${dateFromDays(days).replaceAll('-', '')}_${transfer}.ddd`;
const missingText = (m: number[]) => (m.length === 1 ? `Transferência incompleta: bloco ${m[0]} ausente`
  : `Transferência incompleta: blocos ${m.slice(0, 20).join(', ')}${m.length > 20 ? '…' : ''} ausentes`);

/** The caller's company's device of that serial, which must be a video-telemetry (vdo) one. */
async function vdoDevice(em: EntityManager, s: Session, serial: string): Promise<Row> {
  const eq = (await em.findOne(orm(em, 'equipamento'), { serial, ...scopeWhere(ent('equipamento'), s) } as never)) as Row | null;
  if (!eq) throw new HttpError(404, 'Equipamento não encontrado');
  if (eq.tecnologia !== 'vdo') throw new HttpError(422, `O equipamento ${serial} não é de vídeo telemetria (VDO)`);
  return eq;
}

/**
 * The asset the device is in now (its open link) and the driver: the one the device last identified
 * (telemetria.ultimo_estado of its serial), else the one the asset's other devices last reported (its tracker), else
 * the driver assigned to the asset now (motorista_temporario in force) — a VDO unit reports no positions itself.
 */
async function assetAndDriver(em: EntityManager, s: Session, serial: string): Promise<{ ativo: number | null; motorista: number | null }> {
  const link = (await em.findOne(orm(em, 'equipamento_ativo'), { serial, dataFim: null, ...scopeWhere(ent('equipamento_ativo'), s) } as never,
    { orderBy: { dataInicio: 'desc' } as never })) as Row | null;
  const ativo = link ? Number(typeof link.ativoId === "object" ? link.ativoId?.id : link.ativoId) || null : null;
  const p = qParams([serial]);
  const own = `SELECT u.motorista_id FROM telemetria.ultimo_estado u WHERE u.serial = ? AND u.motorista_id IS NOT NULL AND ${companySql('u', s.empresaAtiva, p)}`;
  let sql = own;
  if (ativo) {
    p.values.push(ativo);
    const viaAsset = `SELECT v.motorista_id FROM telemetria.ultimo_estado v WHERE v.ativo_id = ? AND v.motorista_id IS NOT NULL AND ${companySql('v', s.empresaAtiva, p)}
      ORDER BY v.ultima_comunicacao DESC NULLS LAST LIMIT 1`;
    p.values.push(ativo);
    const assigned = `SELECT m.motorista_id FROM motorista_temporario m WHERE m.ativo_id = ? AND m.data_inicio <= now() AND m.data_fim > now()
      AND ${companySql('m', s.empresaAtiva, p)} ORDER BY m.data_inicio DESC LIMIT 1`;
    sql = `SELECT coalesce((${own}), (${viaAsset}), (${assigned})) AS motorista_id`;
  }
  const [u] = (await em.getConnection().execute(sql, p.values)) as Row[];
  return { ativo, motorista: u?.motorista_id != null ? Number(u.motorista_id) : null };
}

function log(tx: EntityManager, s: Session, o: { serial: string; ativo: number | null; evento: string; descricao: string; arquivoVDR?: string | null; mensagem?: string | null; transferencia?: string }) {
  tx.create(orm(tx, 'log_tacografo'), { ...tenantOnly(ent('log_tacografo'), s), time: new Date(), arquivoVDR: null, mensagem: null, ...o } as never);
}

interface Outcome { transferencia: string; situacao: 'recebendo' | 'concluida' | 'falhou'; blocosRecebidos: number; duplicados: number; motivo: string | null; arquivo: Row | null; resposta: string | null }

/** Ends the oldest open command of that kind (pendente/enviado) of the device with the transfer's outcome. */
async function settleCommand(tx: EntityManager, s: Session, serial: string, status: 'concluido' | 'erro', resposta: string) {
  const e = ent('fila_processamento');
  const open = (await tx.findOne(orm(tx, 'fila_processamento'), { serial, event: { $in: [COMMANDS.upload, COMMANDS.download] }, status: { $in: ['pendente', 'enviado'] }, ...scopeWhere(e, s) } as never,
    { orderBy: { id: 'asc' } as never })) as Row | null;
  if (open) tx.assign(open as never, { status, processing: false, concluidoEm: new Date(), resposta } as never);
}

/** A transfer ended: the interrupt commands handed to the unit for it (or for no transfer in particular) are answered. */
async function settleInterrupts(tx: EntityManager, s: Session, serial: string, transferId: number, resposta: string) {
  const p = qParams();
  const id = String(transferId);
  await tx.getConnection().execute(
    `UPDATE fila_processamento f SET status = 'concluido', processing = false, concluido_em = now(), resposta = ${p.add(resposta)}, updated_at = now()
      WHERE f.serial = ${p.add(serial)} AND f.event = ${p.add(COMMANDS.interrupt)} AND f.status = 'enviado'
        AND coalesce(f.value->>'transferencia', ${p.add(id)}) = ${p.add(id)} AND ${companySql('f', s.empresaAtiva, p)}`,
    p.values, 'run', tx.getTransactionContext());
}

/** The frames of one transfer id of the device, in one transaction (advisory lock: concurrent calls queue). */
async function oneTransfer(c: Context<AppEnv>, serial: string, transferId: number, frames: Frame[], who: { ativo: number | null; motorista: number | null }): Promise<Outcome> {
  const s = c.get('session');
  const storage = c.get('storage');
  const written: string[] = [];
  try {
    return await requestEm(c).transactional(async (tx) => {
      await tx.getConnection().execute('SELECT pg_advisory_xact_lock(hashtext(?))', [`tacografo:${s.empresaAtiva}:${serial}:${transferId}`], 'all', tx.getTransactionContext());
      const where = { serial, transferencia: String(transferId), ...scopeWhere(ent('transferencia_tacografo'), s) };
      let row = (await tx.findOne(orm(tx, 'transferencia_tacografo'), where as never, { orderBy: { id: 'desc' } as never })) as Row | null;
      const now = new Date();
      let duplicatesAfterEnd = 0;
      let state: TransferState | null = null;
      const start = (f: Frame) => {
        row = tx.create(orm(tx, 'transferencia_tacografo'), {
          ...tenantOnly(ent('transferencia_tacografo'), s), serial, transferencia: String(transferId), ativo: who.ativo, tipoArquivo: f.fileType,
          dataReferencia: dateFromDays(f.referenceDate), situacao: 'recebendo', blocosRecebidos: 0, duplicados: 0, iniciadaEm: now, ultimoQuadroEm: now, blocos: {},
        } as never) as Row;
        state = { fileType: f.fileType, referenceDate: f.referenceDate, blocks: {}, last: null, reason: null, duplicates: 0 };
        log(tx, s, { serial, ativo: who.ativo, evento: 'transferencia_iniciada', transferencia: String(transferId),
          descricao: `Arquivo ${fileTypeLabel(f.fileType)} de ${brDate(dateFromDays(f.referenceDate))}` });
      };
      for (const f of frames) {
        if (!state) {
          const r = row as Row | null;
          const ended = r && r.situacao !== 'recebendo';
          const isStart = f.control === 'first_frame' || f.control === 'single_frame';
          if (!r || (ended && isStart && now.getTime() - new Date(r.ultimoQuadroEm).getTime() > REUSE_AFTER_MS)) start(f);
          else if (ended) { duplicatesAfterEnd++; continue; }
          else state = { fileType: r.tipoArquivo, referenceDate: daysFromEpoch(String(r.dataReferencia)), blocks: r.blocos ?? {}, last: r.ultimoBloco ?? null, reason: null, duplicates: r.duplicados };
        }
        addFrame(state!, f);
        if (state!.reason !== null) break;
      }
      const r = row as unknown as Row;
      if (!state) {
        tx.assign(r as never, { duplicados: r.duplicados + duplicatesAfterEnd } as never);
        return { transferencia: String(transferId), situacao: r.situacao, blocosRecebidos: r.blocosRecebidos, duplicados: r.duplicados, motivo: r.motivo ?? null, arquivo: null, resposta: null };
      }
      const st = state as TransferState;
      const missing = missingBlocks(st);
      const base = { blocosRecebidos: Object.keys(st.blocks).length, duplicados: st.duplicates, ultimoBloco: st.last, ultimoQuadroEm: now };
      const name = fileName(serial, st.fileType, st.referenceDate, transferId);
      let out: Outcome;
      const reply = (ok: boolean, reason: ReasonCode) => encodeFrame({ control: 'single_frame', service: 'upload', subCommand: 'response', transferId, blockSequence: st.last ?? 0,
        responseType: ok ? 'ack' : 'nack', fileType: st.fileType, reasonCode: reason, referenceDate: st.referenceDate, data: Buffer.alloc(0) }).toString('hex');
      if (st.reason !== null || (missing && missing.length)) {
        const motivo = st.reason !== null ? reasonLabel(st.reason) : missingText(missing!);
        tx.assign(r as never, { ...base, situacao: 'falhou', motivo, blocos: null } as never);
        log(tx, s, { serial, ativo: who.ativo, evento: 'transferencia_falhou', transferencia: String(transferId), arquivoVDR: name,
          descricao: `Arquivo ${fileTypeLabel(st.fileType)} de ${brDate(dateFromDays(st.referenceDate))}`, mensagem: motivo });
        await settleCommand(tx, s, serial, 'erro', motivo);
        await settleInterrupts(tx, s, serial, transferId, `Transferência ${transferId} interrompida: ${motivo}`);
        out = { transferencia: String(transferId), situacao: 'falhou', ...base, motivo, arquivo: null, resposta: reply(false, (st.reason ?? 1) as ReasonCode) };
      } else if (missing) {
        const body = assemble(st);
        const key = newKey('ddd');
        await storage.put(key, body, 'application/octet-stream');
        written.push(key);
        const arquivo = tx.create(orm(tx, 'arquivo_tacografo'), {
          ...tenantOnly(ent('arquivo_tacografo'), s), ativo: who.ativo, motorista: who.motorista, serial, tipoArquivo: st.fileType, dataReferencia: dateFromDays(st.referenceDate),
          tamanho: body.length, nomeArquivo: name, chave: key, transferencia: String(transferId), recebidoEm: now,
        } as never) as Row;
        await tx.flush();
        tx.assign(r as never, { ...base, situacao: 'concluida', motivo: null, blocos: null, arquivo: arquivo.id } as never);
        log(tx, s, { serial, ativo: who.ativo, evento: 'arquivo_recebido', transferencia: String(transferId), arquivoVDR: name,
          descricao: `Arquivo ${fileTypeLabel(st.fileType)} de ${brDate(dateFromDays(st.referenceDate))}`, mensagem: `${body.length} bytes em ${base.blocosRecebidos} blocos` });
        await settleCommand(tx, s, serial, 'concluido', `Arquivo recebido: ${name}`);
        await settleInterrupts(tx, s, serial, transferId, `Transferência ${transferId} concluída antes da interrupção: ${name}`);
        out = { transferencia: String(transferId), situacao: 'concluida', ...base, motivo: null, resposta: reply(true, 0),
          arquivo: { id: arquivo.id, nomeArquivo: name, tamanho: body.length, tipoArquivo: st.fileType, dataReferencia: dateFromDays(st.referenceDate) } };
      } else {
        tx.assign(r as never, { ...base, blocos: st.blocks } as never);
        out = { transferencia: String(transferId), situacao: 'recebendo', ...base, motivo: null, arquivo: null, resposta: null };
      }
      await tx.flush();
      return out;
    });
  } catch (e) {
    for (const k of written) await storage.delete(k).catch(() => undefined);
    throw e;
  }
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

export interface CommandInput { comando: Command; tipoArquivo: FileType; data: string; cancelamento?: CancelType; motivo?: ReasonCode; transferencia?: number }

/** Checks a command's fields (POST /tacografo/comando and the transfers' Enviar comando action). */
export function commandInput(b: Row): CommandInput {
  const comando = b.comando as Command;
  if (!(comando in COMMANDS)) throw badRequest('O campo Comando deve ser upload, download ou interrupt');
  const tipoArquivo = (b.tipoArquivo ?? '24h') as FileType;
  if (!FILE_KEYS.includes(tipoArquivo)) throw badRequest(`O campo Tipo de arquivo deve ser um de: ${FILE_KEYS.join(', ')}`);
  const data = typeof b.dataReferencia === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(b.dataReferencia) ? b.dataReferencia : null;
  if (!data || !Number.isFinite(Date.parse(`${data}T00:00:00Z`))) throw badRequest('O campo Data de referência é obrigatório (AAAA-MM-DD)');
  const cancelamento = b.cancelamento as CancelType | undefined;
  if (comando === 'interrupt' && cancelamento !== 'usb' && cancelamento !== 'rs232') throw badRequest('O campo Tipo de cancelamento deve ser usb ou rs232');
  let motivo: ReasonCode | undefined;
  if (comando === 'interrupt') {
    const m = b.motivo == null ? 1 : Number(b.motivo);
    if (!Number.isInteger(m) || !(m in REASONS)) throw badRequest(`O campo Motivo deve ser um de: ${Object.entries(REASONS).map(([k, v]) => `${k} (${v.label})`).join(', ')}`);
    motivo = m as ReasonCode;
  }
  const transferencia = b.transferencia == null ? undefined : Number(b.transferencia);
  if (transferencia !== undefined && (!Number.isInteger(transferencia) || transferencia < 0 || transferencia > 0xffffffff)) throw badRequest('O campo Transferência deve ser um inteiro de 0 a 4294967295');
  const dias = daysFromEpoch(data);
  if (dias < 0 || dias > 0xffff) throw badRequest('A data de referência deve estar entre 1970-01-01 e 2149-06-06');
  return { comando, tipoArquivo, data, ...(comando === 'interrupt' ? { cancelamento, motivo } : {}), ...(transferencia !== undefined ? { transferencia } : {}) };
}

/** What a command does, in words: "Interromper transferência (cancelamento USB, motivo VDR interrompido) — arquivo 7 dias de 27/11/2026". */
export function commandText(o: CommandInput): string {
  const extra = o.comando === 'interrupt' ? ` (cancelamento ${o.cancelamento === 'usb' ? 'USB' : 'RS232'}, motivo ${reasonLabel(o.motivo ?? 1)})` : '';
  return `${COMMAND_LABEL[o.comando]}${extra} — arquivo ${fileTypeLabel(o.tipoArquivo)} de ${brDate(o.data)}${o.transferencia !== undefined ? `, transferência ${o.transferencia}` : ''}`;
}

/** Queues the command (fila_processamento, the request frame in value.quadro) and logs it; the caller flushes. */
export function queueCommand(tx: EntityManager, s: Session, serial: string, ativo: number | null, o: CommandInput): { row: Row; quadro: string } {
  const quadro = commandFrame({ command: o.comando, fileType: o.tipoArquivo, referenceDate: daysFromEpoch(o.data), transferId: o.transferencia ?? 0, cancel: o.cancelamento, reason: o.motivo }).toString('hex');
  const row = tx.create(orm(tx, 'fila_processamento'), {
    ...tenantOnly(ent('fila_processamento'), s), serial, event: COMMANDS[o.comando], status: 'pendente', processing: false, tentativas: 0, usuario: s.apiKey ? null : s.usuarioId,
    value: { tipoArquivo: o.tipoArquivo, dataReferencia: o.data, ...(o.cancelamento ? { cancelamento: o.cancelamento, motivo: o.motivo } : {}), ...(o.transferencia !== undefined ? { transferencia: o.transferencia } : {}), quadro },
  } as never) as Row;
  log(tx, s, { serial, ativo, evento: 'comando_enfileirado', descricao: COMMAND_LABEL[o.comando], ...(o.transferencia !== undefined ? { transferencia: String(o.transferencia) } : {}),
    mensagem: `Arquivo ${fileTypeLabel(o.tipoArquivo)} de ${brDate(o.data)}${o.cancelamento ? `; cancelamento ${o.cancelamento === 'usb' ? 'USB' : 'RS232'}; motivo ${reasonLabel(o.motivo ?? 1)}` : ''}` });
  return { row, quadro };
}

/** The change a queued command is (pushed after commit: the queue screens refresh, waiting bridges look again). */
const queuedChange = (row: Row): RowChange => ({ entity: 'fila_processamento', id: Number(row.id), op: 'create', before: null, after: plain(ent('fila_processamento'), row) });

/**
 * Action "comando" of a transfer row (Transferências do tacógrafo → Enviar comando): upload / download / interrupt
 * for that transfer's device, file type, reference date and transfer id. The answer is the queued command, with
 * `resumo` saying what was queued for which vehicle (the front end's notification).
 */
export const transferCommand: ActionHandler = async (ctx) => {
  const r = ctx.row;
  const o = commandInput({ ...ctx.payload, tipoArquivo: r.tipoArquivo, dataReferencia: String(r.dataReferencia).slice(0, 10), transferencia: Number(r.transferencia) });
  const serial = String(r.serial);
  await assertOwnDevices(ctx.tx, ctx.session, [serial]);
  await vdoDevice(ctx.tx, ctx.session, serial);
  const ativoId = r.ativo == null ? null : Number(typeof r.ativo === 'object' ? r.ativo.id : r.ativo);
  const ativoRow = ativoId ? (await ctx.tx.findOne(orm(ctx.tx, 'ativo'), { id: ativoId, ...scopeWhere(ent('ativo'), ctx.session) } as never)) as Row | null : null;
  const veiculo = ativoRow ? [ativoRow.descricao, ativoRow.placa].filter(Boolean).join(' — ') : 'sem veículo vinculado';
  const { row, quadro } = queueCommand(ctx.tx, ctx.session, serial, ativoId, o);
  await ctx.tx.flush();
  const resumo = `${commandText(o)}: enfileirado para o veículo ${veiculo} (equipamento ${serial}), comando nº ${row.id}, situação pendente`;
  return { status: 201, body: [{ id: row.id, serial, event: COMMANDS[o.comando], status: 'pendente', quadro, resumo }], changes: [queuedChange(row)] };
};

// ---- Handing queued commands to the bridge ------------------------------------------------------------------------

/** A command as the bridge gets it: the frame to forward to the unit and what it asks. */
export interface Handed { id: number; serial: string; comando: Command; quadro: string; tipoArquivo: string; dataReferencia: string; transferencia: number | null }

/**
 * Hands the company's pending tachograph commands (of its vdo devices; all, or those of `seriais`) to the bridge,
 * oldest first, in one statement: enviado (one more attempt, enviadoEm now), one log_tacografo row each
 * (comando_entregue). SKIP LOCKED: two bridges asking at once never get the same command.
 */
export async function handOver(em: EntityManager, s: Session, seriais: string[] | null, limit = MAX_HANDOVER): Promise<Handed[]> {
  const p = qParams();
  // MikroORM's execute spreads an array parameter into a list: the serials go as one JSON text.
  const pick = `SELECT f.id FROM fila_processamento f
     WHERE ${companySql('f', s.empresaAtiva, p)} AND f.status = 'pendente' AND NOT f.processing AND f.event IN (${COMMAND_EVENTS.map((e) => `'${e}'`).join(', ')})
       ${seriais ? `AND f.serial IN (SELECT jsonb_array_elements_text(${p.add(JSON.stringify(seriais))}::jsonb))` : ''}
       AND EXISTS (SELECT 1 FROM equipamento e WHERE e.serial = f.serial AND ${sameCompany('e', 'f')} AND e.tecnologia = 'vdo')
     ORDER BY f.id LIMIT ${p.add(limit)} FOR UPDATE SKIP LOCKED`;
  const rows = (await em.getConnection().execute(`
    WITH q AS (
      UPDATE fila_processamento q SET status = 'enviado', processing = true, enviado_em = now(), tentativas = q.tentativas + 1, updated_at = now()
       WHERE q.id IN (${pick})
      RETURNING q.id, q.empresa_id, q.serial, q.event, q.value
    ), l AS (
      INSERT INTO log_tacografo (empresa_id, serial, ativo, evento, descricao, time, mensagem, transferencia, created_at, updated_at)
      SELECT q.empresa_id, q.serial, ${linkedAssetSql('q')}, 'comando_entregue', ${labelSql('q')}, now(), 'Comando nº ' || q.id || ' entregue à ponte para o equipamento', q.value->>'transferencia', now(), now()
      FROM q RETURNING id
    )
    SELECT q.id, q.serial, q.event, q.value, (SELECT count(*) FROM l)::int AS logs FROM q ORDER BY q.id`, p.values)) as Row[];
  return rows.map((r) => ({
    id: Number(r.id), serial: r.serial, comando: COMMAND_OF[r.event], quadro: r.value?.quadro, tipoArquivo: r.value?.tipoArquivo,
    dataReferencia: r.value?.dataReferencia, transferencia: r.value?.transferencia ?? null,
  }));
}

// A command queued (here or by any register's change): the bridges waiting in this process look again. Waiters also
// look every second, for commands queued by another process of the API.
const queued = new EventEmitter();
queued.setMaxListeners(0);
const onChange = (c: RowChange) => { if (c.entity === 'fila_processamento' && COMMAND_EVENTS.includes((c.after?.event ?? '') as never)) queued.emit('queued'); };

function nextQueued(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(t); queued.off('queued', done); signal.removeEventListener('abort', done); resolve(); };
    const t = setTimeout(done, ms);
    queued.once('queued', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

function seriaisOf(v: unknown): string[] | null {
  if (v == null) return null;
  if (!Array.isArray(v) || !v.length || v.length > 500) throw badRequest('O campo Seriais deve ser uma lista de 1 a 500 seriais');
  return [...new Set(v.map((x) => serialOf(x)))];
}

function waitOf(v: unknown): number {
  if (v == null) return 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > MAX_WAIT_S) throw badRequest(`O campo Aguardar (segundos) deve ser um inteiro de 0 a ${MAX_WAIT_S}`);
  return n;
}

/** Every serial must be a vdo device of the company: 404 / 422 naming the first that is not. */
async function vdoDevices(em: EntityManager, s: Session, seriais: string[]): Promise<void> {
  const found = (await em.find(orm(em, 'equipamento'), { serial: { $in: seriais }, ...scopeWhere(ent('equipamento'), s) } as never)) as Row[];
  for (const serial of seriais) {
    const eq = found.find((r) => r.serial === serial);
    if (!eq) throw new HttpError(404, `Equipamento não encontrado: ${serial}`);
    if (eq.tecnologia !== 'vdo') throw new HttpError(422, `O equipamento ${serial} não é de vídeo telemetria (VDO)`);
  }
}

function serialOf(v: unknown): string {
  if (typeof v !== 'string' || !v.trim() || v.length > 20) throw badRequest('O campo Serial é obrigatório (até 20 caracteres)');
  return v.trim();
}

async function body(c: Context<AppEnv>): Promise<Row> {
  const b = await c.req.json().catch(() => { throw badRequest('Requisição inválida: JSON malformado'); });
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Requisição inválida: envie um objeto JSON');
  return b as Row;
}

const TAG = ['Tacógrafo'];
const env = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } });
const jsonBody = (properties: Record<string, unknown>, required: string[] = []) =>
  ({ required: true, content: { 'application/json': { schema: { type: 'object', properties, required } } } });
const ERRORS = { 400: env('Entrada inválida (mensagem em português)'), 401: env('Sem sessão'), 403: env('Sem a chave de permissão'), 404: env('Equipamento não encontrado nesta empresa'), 422: env('O equipamento não é de vídeo telemetria (VDO)') };
documentCalls({
  '/api/tacografo/quadros': { post: {
    tags: TAG, operationId: 'tacografo_quadros', 'x-permission': 'rel.rel.relatorios_registros.vdo_onboard.ingestao',
    summary: 'Quadros de transferência do tacógrafo enviados pela unidade (a ponte do serviço de vídeo os repassa)',
    requestBody: jsonBody({ serial: { type: 'string', maxLength: 20 }, quadros: { type: 'array', maxItems: MAX_FRAMES, items: { type: 'string', pattern: '^([0-9a-fA-F]{2})+$' } } }, ['serial', 'quadros']),
    responses: { 200: env('payload: { serial, quadros, transferencias, respostas (quadros ack/nack a repassar), comandos (comandos pendentes da unidade, já entregues) }'), ...ERRORS },
  } },
  '/api/tacografo/comando': { post: {
    tags: TAG, operationId: 'tacografo_comando', 'x-permission': 'rel.rel.relatorios_registros.vdo_onboard.comando', summary: 'Enfileira upload, download ou interrupção para a unidade',
    requestBody: jsonBody({ serial: { type: 'string' }, comando: { enum: ['upload', 'download', 'interrupt'] }, tipoArquivo: { enum: FILE_KEYS }, dataReferencia: { type: 'string', format: 'date' },
      cancelamento: { enum: ['usb', 'rs232'] }, motivo: { type: 'integer' }, transferencia: { type: 'integer', minimum: 0, maximum: 0xffffffff } }, ['serial', 'comando', 'dataReferencia']),
    responses: { 201: env('payload: { id, serial, event, status: pendente, quadro }'), ...ERRORS },
  } },
  '/api/tacografo/comandos/retirar': { post: {
    tags: TAG, operationId: 'tacografo_comandos_retirar', 'x-permission': 'rel.rel.relatorios_registros.vdo_onboard.ingestao',
    summary: `A ponte retira os comandos pendentes das unidades VDO da empresa (até ${MAX_HANDOVER}); aguardarSegundos: espera até um comando ser enfileirado`,
    requestBody: jsonBody({ seriais: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'string', maxLength: 20 } }, aguardarSegundos: { type: 'integer', minimum: 0, maximum: MAX_WAIT_S } }),
    responses: { 200: env('payload: { comandos: [{ id, serial, comando, quadro, tipoArquivo, dataReferencia, transferencia }] }'), ...ERRORS },
  } },
  '/api/tacografo/arquivo/{id}': { get: {
    tags: TAG, operationId: 'tacografo_arquivo', 'x-permission': 'rel.rel.relatorios_registros.ultimos_registros_tacografo.lista',
    summary: 'Bytes do arquivo do tacógrafo (.ddd)', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
    responses: { 200: { description: 'O arquivo', content: { 'application/octet-stream': {} } }, 401: env('Sem sessão'), 403: env('Sem a chave de permissão'), 404: env('Arquivo não encontrado') },
  } },
});

export function routes(api: Hono<AppEnv>) {
  route(api, 'post', '/tacografo/quadros', { permission: ['rel.rel.relatorios_registros.vdo_onboard.ingestao'], scope: 'empresa' }, async (c) => {
    const b = await body(c);
    const serial = serialOf(b.serial);
    if (!Array.isArray(b.quadros) || !b.quadros.length) throw badRequest('O campo Quadros é obrigatório: uma lista de quadros em hexadecimal');
    if (b.quadros.length > MAX_FRAMES) throw badRequest(`Envie no máximo ${MAX_FRAMES} quadros por vez`);
    const frames: Frame[] = b.quadros.map((q: unknown, i: number) => {
      if (typeof q !== 'string' || !HEX.test(q) || q.length > (HEADER + MAX_DATA + 2) * 2) throw badRequest(`Quadro ${i + 1} inválido: esperado texto hexadecimal`);
      try {
        const { frame, length } = decodeFrame(Buffer.from(q, 'hex'));
        if (length * 2 !== q.length) throw new FrameError('LENGTH', `${q.length / 2 - length} bytes depois do quadro`);
        return frame;
      } catch (e) {
        if (e instanceof FrameError) throw badRequest(`Quadro ${i + 1} inválido: ${e.message}`);
        throw e;
      }
    });
    const em = requestEm(c);
    const s = c.get('session');
    await vdoDevice(em, s, serial);
    const who = await assetAndDriver(em, s, serial);
    const groups = new Map<number, Frame[]>();
    for (const f of frames) (groups.get(f.transferId) ?? groups.set(f.transferId, []).get(f.transferId)!).push(f);
    const out: Outcome[] = [];
    for (const [id, fs] of groups) {
      try { out.push(await oneTransfer(c, serial, id, fs, who)); } catch (e) {
        if (e instanceof FrameError) throw badRequest(`Transferência ${id}: ${e.message}`);
        throw e;
      }
    }
    // The unit is online: its queued commands go back with the answer (frames to forward, like respostas).
    const comandos = await handOver(em, s, [serial]);
    return ok(c, { serial, quadros: frames.length, transferencias: out.map(({ resposta: _r, ...o }) => o), respostas: out.flatMap((o) => (o.resposta ? [o.resposta] : [])), comandos },
      'Quadros recebidos');
  });

  route(api, 'post', '/tacografo/comando', { permission: ['rel.rel.relatorios_registros.vdo_onboard.comando'], scope: 'empresa' }, async (c) => {
    const b = await body(c);
    const serial = serialOf(b.serial);
    const o = commandInput(b);
    const em = requestEm(c);
    const s = c.get('session');
    await assertOwnDevices(em, s, [serial]);
    await vdoDevice(em, s, serial);
    const { ativo } = await assetAndDriver(em, s, serial);
    const { row, quadro } = await em.transactional(async (tx) => { const r = queueCommand(tx, s, serial, ativo, o); await tx.flush(); return r; });
    emitChange(queuedChange(row));
    return ok(c, { id: row.id, serial, event: COMMANDS[o.comando], status: 'pendente', quadro }, 'Comando enfileirado', 201);
  });

  route(api, 'post', '/tacografo/comandos/retirar', { permission: ['rel.rel.relatorios_registros.vdo_onboard.ingestao'], scope: 'empresa' }, async (c) => {
    const b = await body(c);
    const seriais = seriaisOf(b.seriais);
    const wait = waitOf(b.aguardarSegundos);
    const em = requestEm(c);
    const s = c.get('session');
    if (seriais) await vdoDevices(em, s, seriais);
    const end = Date.now() + wait * 1000;
    const signal = c.req.raw.signal;
    for (;;) {
      const comandos = await handOver(em, s, seriais);
      const left = end - Date.now();
      if (comandos.length || left <= 0 || signal.aborted) {
        return ok(c, { comandos }, comandos.length ? `${comandos.length} comando(s) entregue(s)` : 'Nenhum comando pendente');
      }
      await nextQueued(Math.min(1000, left), signal);
    }
  });

  // The list's Baixar link sends the front end's cookie, not a bearer header.
  api.get('/tacografo/arquivo/:id', sessionFromCookie());
  route(api, 'get', '/tacografo/arquivo/:id',
    { permission: ['rel.rel.relatorios_registros.ultimos_registros_tacografo.lista', 'rel.rel.relatorios_registros.ultimos_registros_tacografo.visualizar'], scope: 'empresa' },
    async (c) => {
      const id = Number(c.req.param('id'));
      const em = requestEm(c);
      const row = Number.isSafeInteger(id) && id > 0
        ? (await em.findOne(orm(em, 'arquivo_tacografo'), { id, ...scopeWhere(ent('arquivo_tacografo'), c.get('session')) } as never)) as Row | null
        : null;
      if (!row) throw new HttpError(404, 'Arquivo não encontrado');
      const data = await c.get('storage').get(String(row.chave));
      if (!data) throw new HttpError(404, 'Arquivo não encontrado');
      c.header('Content-Type', 'application/octet-stream');
      c.header('Cache-Control', 'private, max-age=3600');
      c.header('Content-Security-Policy', "default-src 'none'; sandbox");
      c.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(String(row.nomeArquivo))}`);
      return c.body(new Uint8Array(data));
    });
}

// ---- Transfers that stop receiving frames ------------------------------------------------------------------------

/**
 * Fails every transfer still `recebendo` whose last frame is older than `seconds`, in one statement (system role, all
 * companies): situacao falhou with its state in motivo, the blocks kept so far dropped, a log_tacografo row
 * (transferencia_falhou) with the state, and the device's oldest open upload/download command answered `erro`.
 * A transfer being written by POST /quadros holds its advisory lock and is left for the next pass.
 */
export async function expireTransfers(exec: ModuleStart['exec'], seconds = timeoutSeconds()): Promise<Row[]> {
  return exec(`
    WITH x AS (
      UPDATE transferencia_tacografo t SET situacao = 'falhou', blocos = NULL, updated_at = now(),
        motivo = 'Tempo esgotado: nenhum quadro em ' || ?::int || ' s (' || t.blocos_recebidos || CASE WHEN t.blocos_recebidos = 1 THEN ' bloco recebido' ELSE ' blocos recebidos' END
          || CASE WHEN t.ultimo_bloco IS NULL THEN ', último quadro não recebido' ELSE ', último bloco ' || t.ultimo_bloco END
          || ', último quadro em ' || to_char(t.ultimo_quadro_em AT TIME ZONE 'UTC', 'DD/MM/YYYY HH24:MI:SS') || ' UTC)'
      WHERE t.situacao = 'recebendo' AND t.ultimo_quadro_em < now() - make_interval(secs => ?::int)
        AND pg_try_advisory_xact_lock(hashtext('tacografo:' || t.empresa_id || ':' || t.serial || ':' || t.transferencia))
      RETURNING t.id, t.empresa_id, t.serial, t.ativo, t.transferencia, t.tipo_arquivo, t.data_referencia, t.motivo
    ), l AS (
      INSERT INTO log_tacografo (empresa_id, serial, ativo, evento, descricao, time, arquivo_vdr, mensagem, transferencia, created_at, updated_at)
      SELECT x.empresa_id, x.serial, x.ativo, 'transferencia_falhou',
        'Arquivo ' || CASE x.tipo_arquivo WHEN '24h' THEN '24 horas' WHEN '7d' THEN '7 dias' WHEN '90d_supressao' THEN '90 dias com supressão' ELSE '24 horas (dia atual)' END
          || ' de ' || to_char(x.data_referencia, 'DD/MM/YYYY'),
        now(), NULL, x.motivo, x.transferencia, now(), now()
      FROM x RETURNING id
    ), f AS (
      UPDATE fila_processamento q SET status = 'erro', processing = false, concluido_em = now(), resposta = x.motivo, updated_at = now()
      FROM x WHERE q.id = (SELECT min(o.id) FROM fila_processamento o WHERE ${sameCompany('o', 'x')} AND o.serial = x.serial
        AND o.event IN ('${COMMANDS.upload}', '${COMMANDS.download}') AND o.status IN ('pendente', 'enviado'))
      RETURNING q.id
    )
    SELECT x.id, x.empresa_id AS "empresaId", x.serial, x.transferencia, x.motivo, (SELECT count(*) FROM l)::int AS logs, (SELECT count(*) FROM f)::int AS comandos FROM x`,
  [seconds, seconds]);
}

/**
 * Commands handed to the bridge (enviado) longer than `seconds` ago with no transfer of their device under way: the
 * unit never answered. Answered erro, logged (comando_sem_resposta), in one statement (system role, all companies).
 * A command whose transfer started is settled by that transfer (its end, or expireTransfers).
 */
export async function expireCommands(exec: ModuleStart['exec'], seconds = timeoutSeconds()): Promise<Row[]> {
  return exec(`
    WITH x AS (
      UPDATE fila_processamento q SET status = 'erro', processing = false, concluido_em = now(), updated_at = now(),
        resposta = 'Sem resposta do equipamento em ' || ?::int || ' s'
      WHERE q.status = 'enviado' AND q.event IN (${COMMAND_EVENTS.map((e) => `'${e}'`).join(', ')})
        AND q.enviado_em < now() - make_interval(secs => ?::int)
        AND NOT EXISTS (SELECT 1 FROM transferencia_tacografo t WHERE ${sameCompany('t', 'q')} AND t.serial = q.serial
          AND t.situacao = 'recebendo' AND t.ultimo_quadro_em >= q.enviado_em)
      RETURNING q.id, q.empresa_id, q.serial, q.event, q.value, q.resposta
    ), l AS (
      INSERT INTO log_tacografo (empresa_id, serial, ativo, evento, descricao, time, mensagem, transferencia, created_at, updated_at)
      SELECT x.empresa_id, x.serial, ${linkedAssetSql('x')}, 'comando_sem_resposta', ${labelSql('x')}, now(), 'Comando nº ' || x.id || ': ' || x.resposta, x.value->>'transferencia', now(), now()
      FROM x RETURNING id
    )
    SELECT x.id, x.empresa_id AS "empresaId", x.serial, x.event, x.resposta, (SELECT count(*) FROM l)::int AS logs FROM x`,
  [seconds, seconds]);
}

/** The module's background work: expireTransfers and expireCommands every sweepMs(); waiting bridges woken by queued commands. */
export function startTimeouts(m: ModuleStart): { stop: () => Promise<void> } {
  let busy: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    busy = busy.then(() => expireTransfers(m.exec)).then((rows) => {
      for (const r of rows as Row[]) m.log.info({ empresaId: r.empresaId, serial: r.serial, transferencia: r.transferencia, motivo: r.motivo }, 'tacografo: transferência expirada');
    }).then(() => expireCommands(m.exec)).then((rows) => {
      for (const r of rows as Row[]) m.log.info({ empresaId: r.empresaId, serial: r.serial, id: r.id, event: r.event }, 'tacografo: comando sem resposta');
    }).catch((e) => m.log.error({ err: e }, 'tacografo: verificação de transferências falhou'));
  };
  const timer = setInterval(tick, sweepMs());
  timer.unref?.();
  events.on('change', onChange);
  return { stop: async () => { stopped = true; clearInterval(timer); events.off('change', onChange); await busy; } };
}
