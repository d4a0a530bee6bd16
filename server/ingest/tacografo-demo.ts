// Demo VDO bridge: the video-telemetry units of the demo's tachograph trucks (server/seed/demo-data.ts
// DEMO_TACOGRAFOS, equipamento tecnologia vdo) and the bridge that carries their frames to the API the way the video
// service's bridge does (modules/tacografo README "How frames reach the server", "How commands reach the unit"), with
// an API key of the company:
// - every hour (and at start) the server side asks each unit for the 24-hour files of the last DIAS days it has not
//   received: an upload command (POST /api/tacografo/comando) per missing day;
// - the units act on the commands they are handed (one POST /api/tacografo/comandos/retirar kept open, and the
//   `comandos` of every /quadros answer), as a unit does with the request frame's bytes: upload/download → the file
//   of that type and day sent in 4 KB frames, a few per second; interrupt → the transfer under way (the one it names,
//   or any) stops with an interrupt frame carrying the command's cancel type and reason. A unit with nothing under
//   way has nothing to interrupt and stays silent (the server answers the command "Sem resposta do equipamento").
// So an operator's command from /cfg/dia/comandos_vdo_onboard or Transferências → Enviar comando gets its transfer.
// The key ("Ponte VDO (demonstração)", keys ingestao + comando) is created on the first start and given a new secret
// on each start (only its SHA-256 is stored).
import {
  daysFromEpoch, dateFromDays, decodeFrame, encodeFrame, splitFile, type FileType, type Frame,
} from '../../protocol/tacografo/index.ts';
import { companySql, pgParams } from '../tenancy/scope.ts';
import { rng } from './simulator.ts';
import { API_KEY_HEADER, secretToken } from '../auth/api-key.ts';
import { entityByKey } from '../core/registry.ts';

/** Days of 24-hour files kept sent (yesterday and the days before it). */
export const DIAS = 3;
export const PONTE = 'Ponte VDO (demonstração)';
const KEYS = ['rel.rel.relatorios_registros.vdo_onboard.ingestao', 'rel.rel.relatorios_registros.vdo_onboard.comando'];
const HOUR = 3_600_000;
/** Days of driving a file of each type holds (the 90-day file with suppression keeps about a third). */
const SPAN: Record<FileType, number> = { '24h': 1, '24h_dia_atual': 1, '7d': 7, '90d_supressao': 30 };
/** Frames a unit sends per call, and the pause between calls (a unit on a mobile link sends a few blocks a second). */
const BATCH = 8;
const PACE_MS = 1000;
const SITUACAO: Record<string, string> = { concluida: 'concluída', falhou: 'falhou', recebendo: 'em curso' };

/** The demo file of a unit, type and day (days since 1970-01-01): a short text header, then seeded bytes. */
export function demoTachographFile(serial: string, day: number, fileType: FileType = '24h'): Buffer {
  let h = day;
  for (const ch of fileType === '24h' ? serial : `${serial}:${fileType}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  const r = rng(h);
  const head = Buffer.from(`VDO DTCO ${fileType} ${serial} ${dateFromDays(day)}\n`, 'latin1');
  const body = Buffer.alloc(Math.floor((18_000 + r() * 12_000) * SPAN[fileType]));
  for (let i = 0; i < body.length; i++) body[i] = Math.floor(r() * 256);
  return Buffer.concat([head, body]);
}

interface Client { query(sql: string, values?: unknown[]): Promise<{ rows: any[] }> }
interface Unit { serial: string; empresa_id: number }
/** A command as the API hands it to the bridge. */
interface Handed { id: number; serial: string; comando: string; quadro: string }
/** What a unit did with a command. */
export interface Sent { serial: string; comando: number; tipoArquivo: FileType; dataReferencia: string; transferencia: number; tamanho: number; situacao: string }
export interface TachographRound { arquivos: Sent[] }

/** The demo VDO units linked to a vehicle now. */
async function units(db: Client): Promise<Unit[]> {
  const { DEMO_TACOGRAFOS, vdoSerial } = await import('../seed/demo-data.ts');
  const { rows } = await db.query(
    `SELECT e.serial, e.empresa_id FROM equipamento e
      WHERE e.serial = ANY($1::text[]) AND e.tecnologia = 'vdo' AND e.ativado
        AND EXISTS (SELECT 1 FROM equipamento_ativo ea WHERE ea.serial = e.serial AND ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now()))
      ORDER BY e.serial`, [DEMO_TACOGRAFOS.map(vdoSerial)]);
  return rows;
}

/** The units' serials by company. */
function byCompany(list: Unit[]): Map<number, string[]> {
  const m = new Map<number, string[]>();
  for (const u of list) { const l = m.get(u.empresa_id); if (l) l.push(u.serial); else m.set(u.empresa_id, [u.serial]); }
  return m;
}

/** The bridge's key of a company, created when missing, with a new secret (answered). */
async function bridgeKey(db: Client, empresa: number): Promise<string> {
  // a new secret as the register makes one (stored: its hash and visible start)
  const { columns, answer } = secretToken(entityByKey('chave_de_api')!)!;
  const token = String(answer.chave), hash = columns.chave, prefixo = columns.prefixo;
  const p = pgParams([hash, prefixo, JSON.stringify(KEYS), PONTE]);
  const { rows } = await db.query(`UPDATE chave_de_api k SET chave = $1, prefixo = $2, ativa = true, permissoes = $3::jsonb, updated_at = now()
    WHERE k.descricao = $4 AND ${companySql('k', empresa, p)} RETURNING k.id`, p.values);
  if (!rows.length) {
    await db.query(`INSERT INTO chave_de_api (empresa_id, descricao, limite_conexao_minutos, limite_conexao_horas, limite, permissoes, chave, prefixo, usos, ativa, created_at, updated_at)
      VALUES ($1, $5, 60, 1000, 2000000000, $4::jsonb, $2, $3, 0, true, now(), now())`, [empresa, hash, prefixo, JSON.stringify(KEYS), PONTE]);
  }
  return token;
}

/** A transfer a unit is sending. */
interface Transfer { id: number; frames: Buffer[]; stop: Frame | null }

/**
 * The demo bridge and its units. `apiUrl`: the app (http://host:port); `paceMs`: the pause between a unit's calls.
 */
export function demoBridge(o: { db: Client; apiUrl: string; paceMs?: number; batch?: number; log?: Log }) {
  const keys = new Map<number, string>();
  const pace = o.paceMs ?? PACE_MS, batch = o.batch ?? BATCH;
  const sending = new Map<string, Transfer>();
  /** Per unit, the commands it works through (one transfer at a time). */
  const queues = new Map<string, Promise<unknown>>();
  const aborts = new Set<AbortController>();
  /** Every transfer the units made, in order. */
  const made: Sent[] = [];
  let lastId = 0;
  let stopped = false;

  async function keyOf(empresa: number) {
    let key = keys.get(empresa);
    if (!key) { key = await bridgeKey(o.db, empresa); keys.set(empresa, key); }
    return key;
  }
  async function post(empresa: number, path: string, body: unknown, signal?: AbortSignal): Promise<any> {
    const res = await fetch(`${o.apiUrl}${path}`, { method: 'POST', signal, headers: { 'content-type': 'application/json', [API_KEY_HEADER]: await keyOf(empresa) }, body: JSON.stringify(body) });
    const j = (await res.json().catch(() => ({}))) as { msg?: string; payload?: any };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${j.msg ?? ''}`);
    return j.payload;
  }
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** The unit sends the file a request frame asks for, unless an interrupt stops it. */
  async function transfer(empresa: number, cmd: Handed, req: Frame): Promise<Sent> {
    // A unit numbers its transfers; the server may name one (a request for a transfer it saw before).
    const id = req.transferId || (lastId = Math.max(lastId + 1, Math.floor(Date.now() / 1000)));
    const file = demoTachographFile(cmd.serial, req.referenceDate, req.fileType);
    const t: Transfer = { id, frames: splitFile(file, { transferId: id, fileType: req.fileType, referenceDate: req.referenceDate }), stop: null };
    sending.set(cmd.serial, t);
    let last: any;
    try {
      for (let at = 0; at < t.frames.length; at += batch) {
        if (at && pace) await wait(pace);
        if (stopped) break; // the unit went offline mid-transfer: the server times the transfer out
        const quadros = t.stop
          ? [encodeFrame({ ...t.stop, control: 'single_frame', transferId: id, blockSequence: at, responseType: 'none', fileType: req.fileType, referenceDate: req.referenceDate, data: Buffer.alloc(0) })]
          : t.frames.slice(at, at + batch);
        last = await post(empresa, '/api/tacografo/quadros', { serial: cmd.serial, quadros: quadros.map((q) => q.toString('hex')) });
        take(empresa, last?.comandos ?? []);
        if (t.stop) break;
      }
    } finally { sending.delete(cmd.serial); }
    const sent: Sent = { serial: cmd.serial, comando: cmd.id, tipoArquivo: req.fileType, dataReferencia: dateFromDays(req.referenceDate), transferencia: id, tamanho: file.length,
      situacao: String(last?.transferencias?.find((x: any) => x.transferencia === String(id))?.situacao) };
    made.push(sent);
    o.log?.info({ arquivo: sent }, `demonstração: tacógrafo ${sent.serial}, arquivo ${sent.tipoArquivo} de ${sent.dataReferencia}: transferência ${id} ${SITUACAO[sent.situacao] ?? sent.situacao}`);
    return sent;
  }

  /** The unit reads each command's request frame: an interrupt acts at once, a file request waits its turn. */
  function take(empresa: number, cmds: Handed[]): Promise<unknown>[] {
    return cmds.map((cmd) => {
      const req = decodeFrame(Buffer.from(cmd.quadro, 'hex')).frame;
      if (req.service === 'interrupt') {
        const t = sending.get(cmd.serial);
        if (t && (!req.transferId || req.transferId === t.id)) t.stop = req;
        return Promise.resolve(null);
      }
      const next = (queues.get(cmd.serial) ?? Promise.resolve()).then(() => transfer(empresa, cmd, req))
        .catch((err) => o.log?.error({ err, comando: cmd.id }, `demonstração: tacógrafo ${cmd.serial} não enviou o arquivo`));
      queues.set(cmd.serial, next);
      return next;
    });
  }

  /** The server side's hourly pass: an upload command for each missing 24-hour file of the last DIAS days. */
  async function ask(now: number): Promise<Map<number, string[]>> {
    const today = daysFromEpoch(new Date(now));
    const list = await units(o.db);
    for (const u of list) {
      const p = pgParams([u.serial, dateFromDays(today - DIAS)]);
      // a day is done when its file arrived or an upload command for it is still open
      const { rows } = await o.db.query(
        `SELECT to_char(f.data_referencia, 'YYYY-MM-DD') AS dia FROM arquivo_tacografo f
          WHERE f.serial = $1 AND f.tipo_arquivo = '24h' AND f.data_referencia >= $2::date AND ${companySql('f', u.empresa_id, p)}
         UNION SELECT q.value->>'dataReferencia' FROM fila_processamento q
          WHERE q.serial = $1 AND q.event = 'tacografoUpload' AND q.status IN ('pendente', 'enviado') AND q.value->>'tipoArquivo' = '24h' AND ${companySql('q', u.empresa_id, p)}`, p.values);
      const done = new Set(rows.map((r) => r.dia));
      for (let day = today - DIAS; day < today; day++) {
        const dataReferencia = dateFromDays(day);
        // the day number names the transfer (one 24-hour file a day)
        if (!done.has(dataReferencia)) await post(u.empresa_id, '/api/tacografo/comando', { serial: u.serial, comando: 'upload', tipoArquivo: '24h', dataReferencia, transferencia: day });
      }
    }
    return byCompany(list);
  }

  /** Commands of a company's units handed over now (or within `waitS` seconds), acted on. */
  async function pick(empresa: number, seriais: string[], waitS: number, signal?: AbortSignal): Promise<Promise<unknown>[]> {
    const r = await post(empresa, '/api/tacografo/comandos/retirar', { seriais, aguardarSegundos: waitS }, signal);
    return take(empresa, r?.comandos ?? []);
  }

  return {
    /**
     * One pass without the listener: the missing files asked for, then every command of the units handed over and
     * done. Answers the transfers it made.
     */
    async round(now = Date.now()): Promise<TachographRound> {
      const from = made.length;
      for (const [empresa, seriais] of await ask(now)) {
        while ((await pick(empresa, seriais, 0)).length) await this.idle();
      }
      await this.idle();
      return { arquivos: made.slice(from) };
    },
    /** The hourly ask (the listener answers it). */
    ask,
    /** Keeps one long call open per company of the demo units, acting on each command as it comes. */
    async listen() {
      for (const [empresa, seriais] of byCompany(await units(o.db))) {
        void (async () => {
          while (!stopped) {
            const ac = new AbortController();
            aborts.add(ac);
            try {
              await pick(empresa, seriais, 25, ac.signal);
            } catch (err) {
              if (!stopped) { o.log?.error({ err }, 'demonstração: ponte VDO sem resposta da API'); await wait(5000); }
            } finally { aborts.delete(ac); }
          }
        })();
      }
    },
    /** Resolves when every unit finished what it was sending. */
    async idle() { while (queues.size) { const all = [...queues.values()]; await Promise.all(all); if ([...queues.values()].every((q, i) => q === all[i])) break; } },
    async stop() { stopped = true; for (const a of aborts) a.abort(); await this.idle(); },
    keys,
  };
}
interface Log { info: (o: object, m: string) => void; error: (o: object, m: string) => void }

/** The demo bridge in the app: its units listening for commands, the missing files asked for now and every hour. */
export async function startDemoTachographs(o: { databaseUrl: string; apiUrl: string; log?: Log }): Promise<{ stop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  db.on('error', () => {}); // a lost connection only delays the next file
  const bridge = demoBridge({ db, apiUrl: o.apiUrl.replace('//localhost:', '//127.0.0.1:'), log: o.log });
  await bridge.listen();
  let busy: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const ask = () => {
    if (stopped) return;
    busy = busy.then(() => bridge.ask(Date.now())).catch((err) => o.log?.error({ err }, 'demonstração: pedido de arquivos do tacógrafo falhou'));
  };
  ask();
  const timer = setInterval(ask, HOUR);
  timer.unref?.();
  return { async stop() { stopped = true; clearInterval(timer); await busy; await bridge.stop(); await db.end().catch(() => {}); } };
}
