// Demo VDO bridge: the video-telemetry units of the demo's tachograph trucks (server/seed/demo-data.ts
// DEMO_TACOGRAFOS, equipamento tecnologia vdo) read their tachograph every day and the bridge posts the file to the
// API the way the video service's bridge does (modules/tacografo README "How frames reach the server"): an upload
// command through POST /api/tacografo/comando, then the file's frames (first, middles, last) through
// POST /api/tacografo/quadros, with an API key of the company. So the file is reassembled, stored in the uploads
// storage, listed per asset and driver and logged by the module's own code, and the command shows (concluído) in
// /cfg/dia/comandos_vdo_onboard.
// The key ("Ponte VDO (demonstração)", keys ingestao + comando) is created on the first start and given a new secret
// on each start (only its SHA-256 is stored). At start, and then every hour, each unit sends the 24-hour files of the
// last DIAS days it has not sent yet (a new file a day).
import { daysFromEpoch, dateFromDays, splitFile } from '../../protocol/tacografo/index.ts';
import { companySql, pgParams } from '../tenancy/scope.ts';
import { rng } from './simulator.ts';
import { API_KEY_HEADER, secretToken } from '../auth/api-key.ts';
import { entityByKey } from '../core/registry.ts';

/** Days of 24-hour files kept sent (yesterday and the days before it). */
export const DIAS = 3;
export const PONTE = 'Ponte VDO (demonstração)';
const KEYS = ['rel.rel.relatorios_registros.vdo_onboard.ingestao', 'rel.rel.relatorios_registros.vdo_onboard.comando'];
const HOUR = 3_600_000;

/** The demo 24-hour file of a unit and day (days since 1970-01-01): a short text header, then seeded bytes. */
export function demoTachographFile(serial: string, day: number): Buffer {
  let h = day;
  for (const ch of serial) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  const r = rng(h);
  const head = Buffer.from(`VDO DTCO 24h ${serial} ${dateFromDays(day)}\n`, 'latin1');
  const body = Buffer.alloc(18_000 + Math.floor(r() * 12_000));
  for (let i = 0; i < body.length; i++) body[i] = Math.floor(r() * 256);
  return Buffer.concat([head, body]);
}

interface Client { query(sql: string, values?: unknown[]): Promise<{ rows: any[] }> }
interface Unit { serial: string; empresa_id: number }

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

export interface TachographRound { arquivos: { serial: string; dataReferencia: string; tamanho: number; situacao: string }[] }

/**
 * One pass of the demo bridge: every demo VDO unit sends its missing 24-hour files of the last DIAS days (oldest
 * first). `apiUrl`: the app (http://host:port); `now`: the clock.
 */
export async function tachographRound(o: { db: Client; apiUrl: string; keys: Map<number, string>; now?: number }): Promise<TachographRound> {
  const out: TachographRound['arquivos'] = [];
  const today = daysFromEpoch(new Date(o.now ?? Date.now()));
  for (const u of await units(o.db)) {
    let key = o.keys.get(u.empresa_id);
    if (!key) { key = await bridgeKey(o.db, u.empresa_id); o.keys.set(u.empresa_id, key); }
    const p = pgParams([u.serial, dateFromDays(today - DIAS)]);
    const { rows } = await o.db.query(
      `SELECT to_char(f.data_referencia, 'YYYY-MM-DD') AS dia FROM arquivo_tacografo f
        WHERE f.serial = $1 AND f.tipo_arquivo = '24h' AND f.data_referencia >= $2::date AND ${companySql('f', u.empresa_id, p)}`, p.values);
    const sent = new Set(rows.map((r) => r.dia));
    for (let day = today - DIAS; day < today; day++) {
      const dataReferencia = dateFromDays(day);
      if (sent.has(dataReferencia)) continue;
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${o.apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', [API_KEY_HEADER]: key! }, body: JSON.stringify(body) });
        const j = (await res.json().catch(() => ({}))) as { msg?: string; payload?: any };
        if (!res.ok) throw new Error(`${path}: ${res.status} ${j.msg ?? ''}`);
        return j.payload;
      };
      // The server asks for the file; the unit reads it from the VDR and sends it in 4 KB blocks.
      await post('/api/tacografo/comando', { serial: u.serial, comando: 'upload', tipoArquivo: '24h', dataReferencia });
      const file = demoTachographFile(u.serial, day);
      const quadros = splitFile(file, { transferId: day, fileType: '24h', referenceDate: day }).map((b) => b.toString('hex'));
      const r = await post('/api/tacografo/quadros', { serial: u.serial, quadros });
      out.push({ serial: u.serial, dataReferencia, tamanho: file.length, situacao: String(r?.transferencias?.[0]?.situacao) });
    }
  }
  return { arquivos: out };
}

/** The demo bridge: a round now, then every hour, until stop(). */
export async function startDemoTachographs(o: { databaseUrl: string; apiUrl: string; log?: { info: (o: object, m: string) => void; error: (o: object, m: string) => void } }): Promise<{ stop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  db.on('error', () => {}); // a lost connection only delays the next file
  const keys = new Map<number, string>();
  const apiUrl = o.apiUrl.replace('//localhost:', '//127.0.0.1:');
  let busy: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const round = () => {
    if (stopped) return;
    busy = busy.then(() => tachographRound({ db, apiUrl, keys })).then((r) => {
      if (r.arquivos.length) o.log?.info({ arquivos: r.arquivos }, 'demonstração: arquivos do tacógrafo enviados');
    }).catch((err) => o.log?.error({ err }, 'demonstração: envio do tacógrafo falhou'));
  };
  round();
  const timer = setInterval(round, HOUR);
  timer.unref?.();
  return { async stop() { stopped = true; clearInterval(timer); await busy; await db.end().catch(() => {}); } };
}
