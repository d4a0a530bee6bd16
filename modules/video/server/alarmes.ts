// Camera alarms (catalogues 3.8, codes 600–711) read from the CMSV6 server become Rastro events. CMSV6 offers no push,
// so a background worker of the API (module `start`) asks queryAlarmDetail every CMSV6_ALARM_POLL_MS (default 30 s,
// `off` stops it) for the cameras of every company (equipment of technology vdo, the serial is the device idno), over
// the window since the last read minus an overlap (late alarms), and writes telemetria.evento rows:
//  - code → alarm: the event library (biblioteca_evento, technology vdo, by code; seeded from
//    metadata/catalogos/camera-alarmes.yaml with the risk, editable at /adm/bib/biblioteca_de_eventos/vdo/…): the key
//    gives the alarm console its text and risk colour;
//  - an unknown code is kept (key camera_alarme_<code>) and logged, never dropped;
//  - idempotent: the event's key (serial, start time, code) — a re-read alarm is not written twice;
//  - each serial written is published on the latest-state bus: the alarm consoles of its company get it pushed.
import type { ModuleStart } from '../../../server/core/module.ts';
import { announceEstado } from '../../../server/realtime/announce.ts';
import { sameCompany } from '../../../shared/scope-sql.ts';
import { Cmsv6Error, clienteDe, configFromEnv, deHoraCmsv6, type Alarme, type Cmsv6Client } from './cmsv6.ts';

/** armType of the camera alarms asked for (600–711: known and unknown alike). */
export const TIPOS = Array.from({ length: 112 }, (_, i) => 600 + i);
const OVERLAP_MS = 5 * 60_000;

export interface Camera { serial: string; empresaId: number; ativoId: number | null }

export async function cameras(m: Pick<ModuleStart, 'exec'>): Promise<Camera[]> {
  const rows = await m.exec(`SELECT e.serial, e.empresa_id, ea.ativo_id
    FROM equipamento e
    LEFT JOIN equipamento_ativo ea ON ea.serial = e.serial AND ${sameCompany('ea', 'e')}
      AND ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())
    WHERE e.tecnologia = 'vdo' AND e.ativado
    ORDER BY e.serial`, []);
  return rows.map((r) => ({ serial: String(r.serial), empresaId: Number(r.empresa_id), ativoId: r.ativo_id == null ? null : Number(r.ativo_id) }));
}

/** The event library's camera entries by code (biblioteca_evento, technology vdo). */
async function biblioteca(m: Pick<ModuleStart, 'exec'>): Promise<Map<number, { key: string; description: string }>> {
  const rows = await m.exec(`SELECT b.code, b.event, b.description FROM biblioteca_evento b WHERE b.tecnologia = 'vdo' AND b.code IS NOT NULL ORDER BY b.id`, []);
  const out = new Map<number, { key: string; description: string }>();
  for (const r of rows) if (!out.has(Number(r.code))) out.set(Number(r.code), { key: String(r.event), description: String(r.description ?? '') });
  return out;
}

export interface Leitura { lidos: number; gravados: number; desconhecidos: number[] }

/** Reads the alarms of [desde, ate] and writes the new ones as events. */
export async function sincronizaAlarmes(m: Pick<ModuleStart, 'exec' | 'log'>, cli: Cmsv6Client, desde: Date, ate: Date, publicar: (rows: { empresaId: number; serial: string }[]) => Promise<void>): Promise<Leitura> {
  const cams = await cameras(m);
  if (!cams.length) return { lidos: 0, gravados: 0, desconhecidos: [] };
  const porSerial = new Map(cams.map((c) => [c.serial, c]));
  const bib = await biblioteca(m);
  const alarmes: Alarme[] = [];
  for (let i = 0; i < cams.length; i += 50) alarmes.push(...await cli.alarmes(cams.slice(i, i + 50).map((c) => c.serial), desde, ate, TIPOS));
  const desconhecidos = new Set<number>();
  const rows: Record<string, unknown>[] = [];
  for (const a of alarmes) {
    const cam = porSerial.get(String(a.did ?? ''));
    const at = a.stm ? deHoraCmsv6(a.stm) : null;
    const code = Number(a.atp);
    if (!cam || !at || !Number.isInteger(code)) { m.log.error({ alarme: a }, 'vídeo: alarme do CMSV6 sem equipamento, hora ou tipo'); continue; }
    const lib = bib.get(code);
    if (!lib) desconhecidos.add(code);
    const lat = Number(a.sps?.lat), lng = Number(a.sps?.lng), sp = Number(a.sps?.sp);
    rows.push({
      serial: cam.serial, fix_time: at.toISOString(), code: String(code), key: lib?.key ?? `camera_alarme_${code}`,
      description: lib?.description || (lib ? '' : `Alarme de câmera desconhecido (código ${code})`),
      empresa_id: cam.empresaId, ativo_id: cam.ativoId,
      lat: Number.isFinite(lat) && lat !== 0 ? lat / 1e6 : null, lon: Number.isFinite(lng) && lng !== 0 ? lng / 1e6 : null,
      speed: Number.isFinite(sp) ? sp / 10 : null,
      attributes: { origem: 'cmsv6', guid: a.guid ?? null, fim: a.etm ? deHoraCmsv6(a.etm)?.toISOString() ?? null : null, tratado: a.hd ?? null },
    });
  }
  for (const code of desconhecidos) m.log.info({ code }, 'vídeo: alarme de câmera com código desconhecido (gravado como camera_alarme_<código>)');
  let gravados = 0;
  const escritos: { empresaId: number; serial: string }[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const lote = rows.slice(i, i + 500);
    const ins = await m.exec(`INSERT INTO telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, lat, lon, speed, attributes)
      SELECT serial, fix_time, code, key, description, empresa_id, ativo_id, lat, lon, speed, attributes
        FROM json_to_recordset(?::json) AS x(serial text, fix_time timestamptz, code text, key text, description text, empresa_id integer,
          ativo_id integer, lat double precision, lon double precision, speed real, attributes jsonb)
      ON CONFLICT DO NOTHING RETURNING serial, empresa_id`, [JSON.stringify(lote)]);
    gravados += ins.length;
    for (const r of ins) escritos.push({ empresaId: Number(r.empresa_id), serial: String(r.serial) });
  }
  if (escritos.length) await publicar(escritos);
  return { lidos: alarmes.length, gravados, desconhecidos: [...desconhecidos].sort((a, b) => a - b) };
}

function publicador(m: ModuleStart): (rows: { empresaId: number; serial: string }[]) => Promise<void> {
  return (rows) => announceEstado(m.em(), [...new Map(rows.map((r) => [`${r.empresaId}:${r.serial}`, r])).values()]);
}

export function pollMs(): number | null {
  const v = process.env.CMSV6_ALARM_POLL_MS;
  if (v === 'off' || v === '0') return null;
  return Number(v) > 0 ? Number(v) : 30_000;
}

/** The worker: one read at a time, the window from the last successful read (minus the overlap). */
export function startAlarmes(m: ModuleStart): { stop: () => Promise<void> } {
  const every = pollMs();
  if (!every || !configFromEnv()) return { stop: async () => undefined };
  const lookback = (Number(process.env.CMSV6_ALARM_LOOKBACK_MIN) > 0 ? Number(process.env.CMSV6_ALARM_LOOKBACK_MIN) : 60) * 60_000;
  let desde = new Date(Date.now() - lookback);
  let ultimoErro = '';
  let busy: Promise<unknown> = Promise.resolve();
  let parado = false;
  const publicar = publicador(m);
  const tick = () => {
    busy = busy.then(async () => {
      const cfg = configFromEnv();
      if (parado || !cfg) return;
      const ate = new Date();
      try {
        const r = await sincronizaAlarmes(m, clienteDe(cfg), new Date(desde.getTime() - OVERLAP_MS), ate, publicar);
        desde = ate;
        if (ultimoErro) m.log.info({}, 'vídeo: leitura de alarmes do CMSV6 restabelecida');
        ultimoErro = '';
        if (r.gravados) m.log.info({ ...r }, 'vídeo: alarmes de câmera gravados como eventos');
      } catch (e) {
        const msg = e instanceof Cmsv6Error ? e.message : (e as Error).message;
        if (msg !== ultimoErro) m.log.error({ err: msg }, 'vídeo: falha ao ler os alarmes do CMSV6');
        ultimoErro = msg;
      }
    });
  };
  const timer = setInterval(tick, every);
  timer.unref();
  tick();
  return { stop: async () => { parado = true; clearInterval(timer); await busy; } };
}
