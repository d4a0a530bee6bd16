// The CMSV6 (808gps) web API adapter (issue 23, "Video"). Every endpoint is StandardApiAction_<name>.action with
// URL-encoded parameters and a JSON answer whose `result` is 0 on success. One session (jsession) per configured
// server, kept in this process: logged in on first use, logged in again once when an answer says 5 (session does not
// exist), never handed to a browser (the proxy in rotas.ts streams the video). Every error code has a pt-BR message
// and an HTTP status; a server that does not answer in time is 504, one that cannot be reached or answers garbage 502.

/** Configuration of one CMSV6 server (env: CMSV6_URL, CMSV6_ACCOUNT, CMSV6_PASSWORD, CMSV6_STREAM_URL, CMSV6_TIMEOUT_MS). */
export interface Cmsv6Config {
  /** Base of the web API, e.g. http://cmsv6.example.com:8080 (StandardApiAction_… is appended). */
  url: string;
  account: string;
  password: string;
  /** Base of the media server (HTTP-FLV /3/3 and HLS /hls/…), e.g. http://cmsv6.example.com:6604. */
  streamUrl: string;
  timeoutMs: number;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Cmsv6Config | null {
  const url = env.CMSV6_URL?.trim();
  if (!url) return null;
  const base = url.replace(/\/+$/, '');
  let stream = env.CMSV6_STREAM_URL?.trim();
  if (!stream) { const u = new URL(base); u.port = '6604'; stream = u.origin; }
  return {
    url: base,
    account: env.CMSV6_ACCOUNT ?? 'admin',
    password: env.CMSV6_PASSWORD ?? '',
    streamUrl: stream.replace(/\/+$/, ''),
    timeoutMs: Number(env.CMSV6_TIMEOUT_MS) > 0 ? Number(env.CMSV6_TIMEOUT_MS) : 10_000,
  };
}

/** pt-BR message and HTTP status of every CMSV6 error code. */
export const ERROS: Record<number, { msg: string; status: number }> = {
  1: { msg: 'Servidor de vídeo: o usuário de integração não existe', status: 502 },
  2: { msg: 'Servidor de vídeo: senha do usuário de integração incorreta', status: 502 },
  3: { msg: 'Servidor de vídeo: o usuário de integração está desativado', status: 502 },
  4: { msg: 'Servidor de vídeo: o usuário de integração expirou', status: 502 },
  5: { msg: 'Servidor de vídeo: a sessão não existe (entre novamente)', status: 502 },
  6: { msg: 'Servidor de vídeo: erro interno do servidor', status: 502 },
  7: { msg: 'Servidor de vídeo: parâmetros inválidos', status: 400 },
  8: { msg: 'Sem autorização para este veículo ou equipamento no servidor de vídeo', status: 403 },
  9: { msg: 'O início deve ser anterior ao fim', status: 400 },
  10: { msg: 'O período pedido é longo demais', status: 400 },
  11: { msg: 'Já existe uma tarefa de download para este trecho', status: 409 },
  18: { msg: 'Veículo não encontrado no servidor de vídeo', status: 404 },
  19: { msg: 'Equipamento não encontrado no servidor de vídeo', status: 404 },
  20: { msg: 'O equipamento não pertence à empresa no servidor de vídeo', status: 403 },
  24: { msg: 'Servidor de vídeo: falha de rede', status: 502 },
  32: { msg: 'O equipamento está offline', status: 409 },
};

export class Cmsv6Error extends Error {
  constructor(readonly code: number | null, message: string, readonly status: number) { super(message); }
}

export function erroDoCodigo(code: number): Cmsv6Error {
  const e = ERROS[code];
  return e ? new Cmsv6Error(code, e.msg, e.status) : new Cmsv6Error(code, `Servidor de vídeo: erro desconhecido (código ${code})`, 502);
}

export type Params = Record<string, string | number | undefined>;

/** CMSV6 times: 'YYYY-MM-DD HH:mm:ss' in the server's zone (CMSV6_TZ_OFFSET_MIN minutes east of UTC; default -180, Brasília). */
export function horaCmsv6(d: Date, offsetMin = tzOffset()): string {
  const t = new Date(d.getTime() + offsetMin * 60_000).toISOString();
  return `${t.slice(0, 10)} ${t.slice(11, 19)}`;
}
export function deHoraCmsv6(s: string, offsetMin = tzOffset()): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(s);
  if (!m) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) - offsetMin * 60_000);
}
function tzOffset(): number {
  const v = Number(process.env.CMSV6_TZ_OFFSET_MIN);
  return Number.isFinite(v) && process.env.CMSV6_TZ_OFFSET_MIN !== '' && process.env.CMSV6_TZ_OFFSET_MIN !== undefined ? v : -180;
}

export class Cmsv6Client {
  private jsession: string | null = null;
  private logging: Promise<string> | null = null;
  /** Logins made (tests: re-login on code 5). */
  logins = 0;

  constructor(readonly cfg: Cmsv6Config) {}

  private async get(name: string, params: Params): Promise<Record<string, any>> {
    const u = new URL(`${this.cfg.url}/StandardApiAction_${name}.action`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(u, { signal: AbortSignal.timeout(this.cfg.timeoutMs), headers: { accept: 'application/json' } });
    } catch (e) {
      const err = e as Error;
      if (err.name === 'TimeoutError' || err.name === 'AbortError') throw new Cmsv6Error(null, 'O servidor de vídeo não respondeu a tempo', 504);
      throw new Cmsv6Error(null, 'Não foi possível conectar ao servidor de vídeo', 502);
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = null; }
    if (!res.ok || !body || typeof body !== 'object' || typeof (body as { result?: unknown }).result !== 'number') {
      throw new Cmsv6Error(null, `Servidor de vídeo: resposta inválida (HTTP ${res.status})`, 502);
    }
    return body as Record<string, any>;
  }

  /** The server's session, logging in when there is none (one login at a time). */
  async session(): Promise<string> {
    if (this.jsession) return this.jsession;
    this.logging ??= (async () => {
      try {
        const r = await this.get('login', { account: this.cfg.account, password: this.cfg.password });
        if (r.result !== 0) throw erroDoCodigo(r.result);
        if (typeof r.jsession !== 'string' || !r.jsession) throw new Cmsv6Error(null, 'Servidor de vídeo: login sem sessão', 502);
        this.logins++;
        this.jsession = r.jsession;
        return r.jsession;
      } finally { this.logging = null; }
    })();
    return this.logging;
  }

  /** Calls StandardApiAction_<name>.action with the session; on code 5 logs in again once and repeats. */
  async call(name: string, params: Params = {}): Promise<Record<string, any>> {
    for (let tentativa = 0; ; tentativa++) {
      const js = await this.session();
      const r = await this.get(name, { ...params, jsession: js });
      if (r.result === 0) return r;
      if (r.result === 5 && tentativa === 0) { if (this.jsession === js) this.jsession = null; continue; }
      throw erroDoCodigo(r.result);
    }
  }

  async logout(): Promise<void> {
    const js = this.jsession;
    this.jsession = null;
    if (js) await this.get('logout', { jsession: js }).catch(() => undefined);
  }

  /** Online (1) or not (0) per device idno. */
  async online(devIdnos: string[]): Promise<Map<string, boolean>> {
    const out = new Map<string, boolean>();
    if (!devIdnos.length) return out;
    const r = await this.call('getDeviceOlStatus', { devIdno: devIdnos.join(',') });
    for (const o of (r.onlines ?? []) as { did?: string; vid?: string; online?: number }[]) {
      if (o.did) out.set(String(o.did), Number(o.online) === 1);
    }
    return out;
  }

  /** Channels (count and names) per device idno, from the user's vehicles. */
  async canais(): Promise<Map<string, { nomes: string[] }>> {
    const r = await this.call('queryUserVehicle', {});
    const out = new Map<string, { nomes: string[] }>();
    for (const v of (r.vehicles ?? []) as { dl?: { id?: string; cc?: number; cn?: string }[] }[]) {
      for (const d of v.dl ?? []) {
        if (!d.id) continue;
        const n = Math.max(0, Math.min(16, Number(d.cc) || 0));
        const dados = String(d.cn ?? '').split(',').map((s) => s.trim());
        out.set(String(d.id), { nomes: Array.from({ length: n }, (_, i) => dados[i] || `CH${i + 1}`) });
      }
    }
    return out;
  }

  /** Alarms of the devices in [inicio, fim] of the types given, every page. */
  async alarmes(devIdnos: string[], inicio: Date, fim: Date, tipos: number[]): Promise<Alarme[]> {
    const out: Alarme[] = [];
    for (let page = 1; page <= 100; page++) {
      const r = await this.call('queryAlarmDetail', {
        devIdno: devIdnos.join(','), begintime: horaCmsv6(inicio), endtime: horaCmsv6(fim),
        armType: tipos.join(','), currentPage: page, pageRecords: 200, toMap: 1,
      });
      out.push(...((r.alarms ?? []) as Alarme[]));
      const pages = Number(r.pagination?.totalPages ?? 1);
      if (page >= pages) break;
    }
    return out;
  }

  /** Recording files of a device channel in a period (getVideoFileInfo: LOC 1 = device, 2 = server — where a clip
   *  asked with realTimeVedio lands once the device uploaded it). */
  async gravacoes(devIdno: string, canal: number, inicio: Date, fim: Date, loc: 1 | 2 = 1): Promise<Gravacao[]> {
    const ini = horaCmsv6(inicio), end = horaCmsv6(fim);
    const secs = (s: string) => { const [h, m, x] = s.slice(11).split(':').map(Number); return h! * 3600 + m! * 60 + x!; };
    const r = await this.call('getVideoFileInfo', {
      DevIDNO: devIdno, LOC: loc, CHN: canal, YEAR: ini.slice(0, 4), MON: ini.slice(5, 7), DAY: ini.slice(8, 10),
      RECTYPE: -1, FILEATTR: 2, BEG: secs(ini), END: ini.slice(0, 10) === end.slice(0, 10) ? secs(end) : 86399,
      ARM1: 0, ARM2: 0, RES: 0, STREAM: -1, STORE: 0,
    });
    return (r.files ?? []) as Gravacao[];
  }

  /** Asks the device for a clip of `segundos` seconds of a channel (realTimeVedio). */
  async pedeClipe(devIdno: string, canal: number, segundos: number): Promise<Record<string, any>> {
    return this.call('realTimeVedio', { DevIDNO: devIdno, Chn: canal, Sec: segundos });
  }

  /** Where the media server streams a channel (with the session: for the server-side proxy only). */
  async urlDoStream(devIdno: string, canal: number, stream: 0 | 1, modo: 'flv' | 'hls'): Promise<string> {
    const js = encodeURIComponent(await this.session());
    const dev = encodeURIComponent(devIdno);
    return modo === 'flv'
      ? `${this.cfg.streamUrl}/3/3?AVType=1&jsession=${js}&DevIDNO=${dev}&Channel=${canal}&Stream=${stream}`
      : `${this.cfg.streamUrl}/hls/1_${dev}_${canal}_${stream}.m3u8?jsession=${js}`;
  }

  /** Forgets a session the media server refused (the next call logs in again). */
  esquece(js?: string) { if (!js || this.jsession === js) this.jsession = null; }
}

export interface Alarme {
  /** device idno */ did?: string; vid?: string; guid?: string;
  /** alarm type */ atp?: number;
  /** start / end time ('YYYY-MM-DD HH:mm:ss') */ stm?: string; etm?: string;
  /** start position ×10⁻⁶ and speed ×10 */ sps?: { lng?: number; lat?: number; sp?: number; mlng?: string; mlat?: string };
  /** handling fields */ hd?: number; hdu?: string; hdc?: string; [k: string]: unknown;
}

export interface Gravacao {
  devIdno?: string; chn?: number; beg?: number; end?: number; year?: number; mon?: number; day?: number;
  file?: string; len?: number; type?: number; loc?: number; DownUrl?: string; PlaybackUrl?: string; [k: string]: unknown;
}

/** One client per configured server (by URL and account), for the life of the process. */
const clientes = new Map<string, Cmsv6Client>();
export function clienteDe(cfg: Cmsv6Config): Cmsv6Client {
  const k = `${cfg.url}|${cfg.account}`;
  let c = clientes.get(k);
  if (!c || c.cfg.password !== cfg.password || c.cfg.streamUrl !== cfg.streamUrl) { c = new Cmsv6Client(cfg); clientes.set(k, c); }
  return c;
}

/** The configured server's client (env), or a 503 when video is not configured. */
export function clienteConfigurado(): Cmsv6Client {
  const cfg = configFromEnv();
  if (!cfg) throw new Cmsv6Error(null, 'Servidor de vídeo não configurado (CMSV6_URL)', 503);
  return clienteDe(cfg);
}
