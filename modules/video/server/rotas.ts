// The video routes (issue 23): the company's assets with a camera and their online state, live stream addresses,
// the stream proxy, recordings, download and clip requests. The asset ↔ CMSV6 device mapping: the asset's open link
// (equipamento_ativo) to an equipment of technology `vdo` — the CMSV6 device idno is that equipment's serial.
//
// Why a proxy and not the CMSV6 address: the media server's URLs carry the ONE jsession Rastro holds on the CMSV6
// server, which sees every company's devices. Given to a browser, it would open any device of any company for as long
// as the session lives. So the browser gets `/api/video/stream/<token>/…`: the token is short-lived (STREAM_TTL_S),
// signed, and bound to the Rastro session, the company and one device channel; every request of the proxy runs the
// pipeline (session → key tlm.vid.video_ao_vivo → company) and checks again that the device is the company's.
import crypto from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppEnv, Session } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { entityByKey } from '../../../server/core/registry.ts';
import { sessionFromCookie } from '../../../server/auth/middleware.ts';
import { acceptWebSocket } from '../../../server/http/upgrade.ts';
import type { WebSocket } from 'ws';
import { HttpError, badRequest, ok } from '../../../server/http/envelope.ts';
import { qParams, scopeSql } from '../../../server/tenancy/scope.ts';
import { sameCompany } from '../../../shared/scope-sql.ts';
import { Cmsv6Error, clienteConfigurado, deHoraCmsv6, horaCmsv6, type Cmsv6Client } from './cmsv6.ts';
import { requestEm } from '../../../server/db/context.ts';

export const STREAM_TTL_S = 120;

export const MSG = {
  ativoNaoEncontrado: 'Ativo não encontrado',
  semCamera: 'O ativo não tem equipamento de vídeo vinculado',
  canalInvalido: 'Canal inválido',
  linkInvalido: 'Link de vídeo inválido ou expirado',
  periodoInvalido: 'Informe um período válido (início antes do fim)',
  periodoLongo: 'O período deve ser de no máximo 24 horas',
  corpoInvalido: 'Corpo da requisição inválido',
};

const VID_KEYS = ['tlm.vid.video_ao_vivo', 'tlm.vid.download', 'tlm.vid.historico_video.lista'] as const;

const exec = (c: Context<AppEnv>, sql: string, values: unknown[]) =>
  requestEm(c).getConnection().execute(sql, values) as Promise<Record<string, any>[]>;

async function body(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const b = await c.req.json().catch(() => null);
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw badRequest(MSG.corpoInvalido);
  return b as Record<string, unknown>;
}

/** CMSV6 errors as the envelope's 4xx/5xx with their pt-BR message. */
async function cmsv6<T>(fn: () => Promise<T>): Promise<T> {
  try { return await fn(); } catch (e) {
    if (e instanceof Cmsv6Error) throw new HttpError(e.status as never, e.message, e.code === null ? null : { codigo: e.code });
    throw e;
  }
}

export interface AtivoVideo { id: number; descricao: string; placa: string | null; serial: string }

/** The caller's company's assets with a camera (open link to a vdo equipment), optionally one asset. */
async function ativosComCamera(c: Context<AppEnv>, ativoId?: number): Promise<AtivoVideo[]> {
  const s = c.get('session');
  const p = qParams();
  // `?` placeholders: the values are added in the order of the text
  const ea = scopeSql(entityByKey('equipamento_ativo')!, s, 'ea', p);
  const sa = scopeSql(entityByKey('ativo')!, s, 'a', p);
  const um = ativoId === undefined ? '' : ` AND a.id = ${p.add(ativoId)}`;
  const rows = await exec(c, `SELECT a.id, a.descricao, a.placa, ea.serial
    FROM ativo a
    JOIN equipamento_ativo ea ON ea.ativo_id = a.id AND ${ea}
      AND ea.data_inicio <= now() AND (ea.data_fim IS NULL OR ea.data_fim > now())
    JOIN equipamento e ON e.serial = ea.serial AND ${sameCompany('e', 'ea')} AND e.tecnologia = 'vdo' AND e.ativado
    WHERE ${sa}${um}
    ORDER BY a.descricao, a.id, ea.serial`, p.values);
  return rows.map((r) => ({ id: Number(r.id), descricao: String(r.descricao), placa: r.placa ?? null, serial: String(r.serial) }));
}

async function umAtivo(c: Context<AppEnv>, v: unknown): Promise<AtivoVideo> {
  const id = Number(v);
  if (!Number.isInteger(id) || id <= 0) throw badRequest('O campo Ativo é obrigatório');
  const rows = await ativosComCamera(c, id);
  if (rows.length) return rows[0]!;
  const p = qParams();
  const existe = await exec(c, `SELECT 1 FROM ativo a WHERE a.id = ${p.add(id)} AND ${scopeSql(entityByKey('ativo')!, c.get('session'), 'a', p)}`, p.values);
  throw new HttpError(existe.length ? 422 : 404, existe.length ? MSG.semCamera : MSG.ativoNaoEncontrado);
}

/** Is this serial a camera of the caller's company (linked to one of its assets now)? */
async function cameraDaEmpresa(c: Context<AppEnv>, serial: string): Promise<boolean> {
  return (await ativosComCamera(c)).some((a) => a.serial === serial);
}

// ---- short-lived stream tokens ----
const CHAVE = process.env.CMSV6_TOKEN_SECRET || crypto.randomBytes(32).toString('base64url');
interface StreamToken { s: number; e: number; d: string; c: number; st: 0 | 1; m: 'flv' | 'hls'; x: number }
const assina = (p: string) => crypto.createHmac('sha256', CHAVE).update(p).digest('base64url');

export function criaToken(s: Session, d: string, canal: number, st: 0 | 1, m: 'flv' | 'hls'): string {
  const payload = Buffer.from(JSON.stringify({ s: s.id, e: s.empresaAtiva, d, c: canal, st, m, x: Math.floor(Date.now() / 1000) + STREAM_TTL_S } satisfies StreamToken)).toString('base64url');
  return `${payload}.${assina(payload)}`;
}

function leToken(c: Context<AppEnv>, t: string): StreamToken {
  const [payload, sig] = t.split('.');
  if (!payload || !sig || sig.length !== 43) throw new HttpError(403, MSG.linkInvalido);
  const esperado = assina(payload);
  if (!crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(esperado))) throw new HttpError(403, MSG.linkInvalido);
  let tk: StreamToken;
  try { tk = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')); } catch { throw new HttpError(403, MSG.linkInvalido); }
  const s = c.get('session');
  // bound to the Rastro session and its active company; expired links are refused (the screen asks for new ones)
  if (tk.s !== s.id || tk.e !== s.empresaAtiva || !(tk.x * 1000 > Date.now())) throw new HttpError(403, MSG.linkInvalido);
  return tk;
}

const streamPath = (token: string, m: 'flv' | 'hls') => `/api/video/stream/${token}/${m === 'flv' ? 'video.flv' : 'index.m3u8'}`;
/** The same FLV stream over a WebSocket (what the screen uses: no HTTP connection held per window). */
const wsPath = (token: string) => `/api/video/ws/${token}`;

/** Live bytes from the media server to a WebSocket; either side closing ends both. A client that cannot keep up
 *  (over 4 MB queued) is closed rather than buffered without end. */
function bombeia(reader: ReadableStreamDefaultReader<Uint8Array>, ws: WebSocket) {
  let fim = false;
  const para = () => { if (!fim) { fim = true; void reader.cancel().catch(() => undefined); } };
  ws.on('close', para);
  ws.on('error', para);
  void (async () => {
    try {
      while (!fim) {
        const { done, value } = await reader.read();
        if (done || ws.readyState !== 1) break;
        if (ws.bufferedAmount > 4 << 20) { ws.close(1011, 'cliente lento'); break; }
        ws.send(value);
      }
    } catch { /* upstream gone */ } finally {
      para();
      if (ws.readyState === 1) ws.close(1000);
    }
  })();
}

/** A WebSocket opened from another site's page is refused (the cookie would ride along). */
function mesmaOrigem(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin');
  if (!origin) return true;
  const permitidas = (process.env.CORS_ORIGIN ?? '').split(',').filter(Boolean);
  try { return new URL(origin).host === c.req.header('host') || permitidas.includes(origin); } catch { return false; }
}

/** Fetch from the media server with the current session; a refused session (401/403) is forgotten and retried once.
 *  The timeout covers the answer's start only (a live stream runs on); the client leaving before then aborts it,
 *  after then the server cancels the body we answered, which closes the upstream connection. */
async function doServidor(cli: Cmsv6Client, c: Context<AppEnv>, url: (js: string) => string): Promise<Response> {
  for (let i = 0; ; i++) {
    const js = await cmsv6(() => cli.session());
    const ac = new AbortController();
    const client = c.req.raw.signal;
    const stop = () => ac.abort();
    if (client.aborted) stop(); else client.addEventListener('abort', stop, { once: true });
    let atrasou = false;
    const timer = setTimeout(() => { atrasou = true; ac.abort(); }, cli.cfg.timeoutMs);
    let r: Response;
    try {
      r = await fetch(url(js), { signal: ac.signal });
    } catch {
      if (atrasou) throw new HttpError(504, 'O servidor de vídeo não respondeu a tempo');
      throw new HttpError(502, 'Não foi possível conectar ao servidor de vídeo');
    } finally { clearTimeout(timer); client.removeEventListener('abort', stop); }
    if ((r.status === 401 || r.status === 403) && i === 0) { await r.body?.cancel(); cli.esquece(js); continue; }
    if (r.status === 404) { await r.body?.cancel(); throw new HttpError(404, 'Vídeo indisponível: o equipamento está offline ou o canal não existe'); }
    if (!r.ok) { await r.body?.cancel(); throw new HttpError(502, `O servidor de vídeo recusou o vídeo (HTTP ${r.status})`); }
    return r;
  }
}

function parseData(v: unknown, campo: string): Date {
  const d = typeof v === 'string' ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime())) throw badRequest(`O campo ${campo} é obrigatório`);
  return d;
}
function periodo(b: Record<string, unknown>): { inicio: Date; fim: Date } {
  const inicio = parseData(b.inicio, 'Início'), fim = parseData(b.fim, 'Fim');
  if (!(inicio < fim)) throw badRequest(MSG.periodoInvalido);
  if (fim.getTime() - inicio.getTime() > 24 * 3600_000) throw badRequest(MSG.periodoLongo);
  return { inicio, fim };
}
function canalDe(v: unknown): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw badRequest(MSG.canalInvalido);
  return n;
}

export function videoRoutes(api: Hono<AppEnv>) {
  // The company's assets with a camera, their channels and whether the device is online (getDeviceOlStatus).
  route(api, 'get', '/video/ativos', { permission: [...VID_KEYS], scope: 'empresa' }, async (c) => {
    const ativos = await ativosComCamera(c);
    let online = new Map<string, boolean>(), canais = new Map<string, { nomes: string[] }>();
    let erro: string | null = null;
    if (ativos.length) {
      try {
        const cli = clienteConfigurado();
        [online, canais] = await Promise.all([cli.online(ativos.map((a) => a.serial)), cli.canais()]);
      } catch (e) {
        if (!(e instanceof Cmsv6Error)) throw e;
        erro = e.message;
      }
    }
    return ok(c, {
      erro,
      ativos: ativos.map((a) => ({
        ...a,
        online: erro ? null : online.get(a.serial) ?? false,
        canais: canais.get(a.serial)?.nomes ?? ['CH1', 'CH2', 'CH3', 'CH4'],
      })),
    });
  });

  // Short-lived proxy addresses of an asset's channels (1-based in Rastro; CMSV6 counts from 0).
  route(api, 'post', '/video/ao_vivo', { permission: ['tlm.vid.video_ao_vivo'], scope: 'empresa' }, async (c) => {
    const b = await body(c);
    const a = await umAtivo(c, b.ativoId);
    const modo = b.modo === 'hls' ? 'hls' : b.modo === undefined || b.modo === 'flv' ? 'flv' : null;
    if (!modo) throw badRequest('Modo de reprodução inválido (flv ou hls)');
    const stream = b.stream === 1 ? 1 : 0;
    const lista = Array.isArray(b.canais) ? b.canais : [b.canal ?? 1];
    if (!lista.length || lista.length > 16) throw badRequest(MSG.canalInvalido);
    const canais = [...new Set(lista.map(canalDe))];
    const s = c.get('session');
    return ok(c, {
      ativo: a, modo, stream, expiraEm: new Date(Date.now() + STREAM_TTL_S * 1000).toISOString(),
      canais: canais.map((canal) => {
        const token = criaToken(s, a.serial, canal - 1, stream, modo);
        return { canal, url: streamPath(token, modo), ...(modo === 'flv' ? { ws: wsPath(token) } : {}) };
      }),
    });
  });

  // The stream proxy: HTTP-FLV passed through as it arrives; HLS playlists rewritten to segment addresses of this
  // proxy (only the token's device channel), segments passed through. The browser's player sends the cookie.
  api.get('/video/stream/:token/:arquivo', sessionFromCookie());
  route(api, 'get', '/video/stream/:token/:arquivo', { permission: ['tlm.vid.video_ao_vivo'], scope: 'empresa' }, async (c) => {
    const tk = leToken(c, c.req.param('token') ?? '');
    const arquivo = c.req.param('arquivo') ?? '';
    if (!(await cameraDaEmpresa(c, tk.d))) throw new HttpError(404, 'Equipamento não encontrado');
    const cli = await cmsv6(async () => clienteConfigurado());
    const base = `1_${encodeURIComponent(tk.d)}_${tk.c}_${tk.st}`;
    const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    if (tk.m === 'flv' && arquivo === 'video.flv') {
      const up = await doServidor(cli, c, (js) => `${cli.cfg.streamUrl}/3/3?AVType=1&jsession=${encodeURIComponent(js)}&DevIDNO=${encodeURIComponent(tk.d)}&Channel=${tk.c}&Stream=${tk.st}`);
      return new Response(up.body, { headers: { ...headers, 'content-type': 'video/x-flv' } });
    }
    if (tk.m === 'hls' && arquivo === 'index.m3u8') {
      const up = await doServidor(cli, c, (js) => `${cli.cfg.streamUrl}/hls/${base}.m3u8?jsession=${encodeURIComponent(js)}`);
      const origem = new URL(`${cli.cfg.streamUrl}/hls/${base}.m3u8`);
      const texto = await up.text();
      const token = c.req.param('token') ?? '';
      const linhas = texto.split(/\r?\n/).map((l) => {
        if (!l || l.startsWith('#')) return l.replace(/jsession=[^&",]*/g, 'jsession=');
        const u = new URL(l, origem);
        const nome = u.pathname.slice('/hls/'.length);
        if (u.origin !== origem.origin || !u.pathname.startsWith('/hls/') || !segmentoDoCanal(nome, base)) return '#';
        return `/api/video/stream/${token}/${encodeURIComponent(nome)}`;
      });
      return new Response(linhas.join('\n'), { headers: { ...headers, 'content-type': 'application/vnd.apple.mpegurl' } });
    }
    if (tk.m === 'hls' && segmentoDoCanal(arquivo, base)) {
      const up = await doServidor(cli, c, (js) => `${cli.cfg.streamUrl}/hls/${arquivo}?jsession=${encodeURIComponent(js)}`);
      return new Response(up.body, { headers: { ...headers, 'content-type': 'video/mp2t' } });
    }
    throw new HttpError(404, 'Arquivo de vídeo não encontrado');
  });

  // HTTP-FLV over a WebSocket: the same checks as the proxy above (the upgrade runs the pipeline: server/http/upgrade.ts).
  api.get('/video/ws/:token', sessionFromCookie());
  route(api, 'get', '/video/ws/:token', { permission: ['tlm.vid.video_ao_vivo'], scope: 'empresa' }, async (c) => {
    const aceita = acceptWebSocket(c);
    if (!aceita) throw badRequest('Este endereço só atende WebSocket');
    if (!mesmaOrigem(c)) throw new HttpError(403, 'Origem não permitida');
    const tk = leToken(c, c.req.param('token') ?? '');
    if (tk.m !== 'flv') throw new HttpError(404, 'Arquivo de vídeo não encontrado');
    if (!(await cameraDaEmpresa(c, tk.d))) throw new HttpError(404, 'Equipamento não encontrado');
    const cli = await cmsv6(async () => clienteConfigurado());
    const up = await doServidor(cli, c, (js) => `${cli.cfg.streamUrl}/3/3?AVType=1&jsession=${encodeURIComponent(js)}&DevIDNO=${encodeURIComponent(tk.d)}&Channel=${tk.c}&Stream=${tk.st}`);
    const reader = up.body!.getReader();
    aceita((ws) => bombeia(reader, ws), () => void reader.cancel().catch(() => undefined));
    return c.body(null, 200);
  });

  // Recordings of an asset's channel in a period (getVideoFileInfo on the device).
  route(api, 'post', '/video/gravacoes', { permission: ['tlm.vid.download'], scope: 'empresa' }, async (c) => {
    const b = await body(c);
    const a = await umAtivo(c, b.ativoId);
    const canal = canalDe(b.canal);
    const { inicio, fim } = periodo(b);
    const cli = await cmsv6(async () => clienteConfigurado());
    const files = await cmsv6(() => cli.gravacoes(a.serial, canal - 1, inicio, fim));
    const meiaNoite = deHoraCmsv6(`${horaCmsv6(inicio).slice(0, 10)} 00:00:00`)!.getTime();
    const gravacoes = files.map((f) => {
      const ini = new Date(meiaNoite + Number(f.beg ?? 0) * 1000);
      const end = new Date(meiaNoite + Number(f.end ?? 0) * 1000);
      return { arquivo: String(f.file ?? ''), inicio: ini.toISOString(), fim: end.toISOString(), tamanho: Number(f.len ?? 0), canal };
    }).filter((g) => g.arquivo);
    return ok(c, { ativo: a, gravacoes });
  });

  // A request: download a recording (the row becomes available at once: the proxy fetches it on demand) or a clip
  // asked of the device (realTimeVedio; server/clipes.ts follows it until it is on the CMSV6 server or times out). Both
  // kept in solicitacao_video with their state; CMSV6 refusals too.
  route(api, 'post', '/video/solicitacoes', { permission: ['tlm.vid.download'], scope: 'empresa' }, async (c) => {
    const b = await body(c);
    const a = await umAtivo(c, b.ativoId);
    const canal = canalDe(b.canal);
    const { inicio, fim } = periodo(b);
    const tipo = b.tipo === 'clipe' ? 'clipe' : b.tipo === 'gravacao' ? 'gravacao' : null;
    if (!tipo) throw badRequest('Tipo de solicitação inválido (gravacao ou clipe)');
    const arquivo = tipo === 'gravacao' ? String(b.arquivo ?? '') : null;
    if (tipo === 'gravacao' && (!arquivo || arquivo.length > 300)) throw badRequest('O campo Arquivo é obrigatório');
    let situacao = tipo === 'gravacao' ? 'disponivel' : 'solicitado';
    let mensagem: string | null = null;
    let status = 502;
    if (tipo === 'clipe') {
      const segundos = Math.min(600, Math.max(1, Math.round((fim.getTime() - inicio.getTime()) / 1000)));
      try {
        await clienteConfigurado().pedeClipe(a.serial, canal - 1, segundos);
        mensagem = `Clipe de ${segundos} s solicitado ao equipamento`;
      } catch (e) {
        if (!(e instanceof Cmsv6Error)) throw e;
        situacao = 'falhou';
        mensagem = e.message;
        status = e.status;
      }
    }
    const s = c.get('session');
    const p = qParams();
    const descricao = `${a.descricao}${a.placa ? ` (${a.placa})` : ''} — canal ${canal}`;
    const vals = [s.empresaAtiva, descricao, a.id, a.serial, canal, tipo, inicio, fim, arquivo, Number(b.tamanho) || null, situacao, mensagem, s.apiKey ? null : s.usuarioId];
    const [row] = await exec(c, `INSERT INTO solicitacao_video (empresa_id, descricao, ativo, serial, canal, tipo, inicio, fim, arquivo, tamanho, situacao, mensagem, usuario, created_at, updated_at)
      VALUES (${vals.map((v) => p.add(v)).join(', ')}, now(), now()) RETURNING id`, p.values);
    const out = { id: Number(row!.id), situacao, mensagem, tipo, ativo: a.id, canal };
    if (situacao === 'falhou') throw new HttpError(status as never, mensagem!, out);
    return ok(c, out, tipo === 'clipe' ? 'Clipe solicitado' : 'Gravação disponível para download', 201);
  });

  // Download of an available request's recording, through the server (the CMSV6 address carries the session); a
  // download link sends the front end's cookie.
  api.get('/video/solicitacoes/:id/arquivo', sessionFromCookie());
  route(api, 'get', '/video/solicitacoes/:id/arquivo', { permission: ['tlm.vid.historico_video.lista', 'tlm.vid.download'], scope: 'empresa' }, async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isInteger(id) || id <= 0) throw new HttpError(404, 'Solicitação não encontrada');
    const p = qParams();
    const [r] = await exec(c, `SELECT v.serial, v.arquivo, v.situacao, v.tamanho, v.canal, v.inicio, v.tipo FROM solicitacao_video v
      WHERE v.id = ${p.add(id)} AND ${scopeSql(entityByKey('solicitacao_video')!, c.get('session'), 'v', p)}`, p.values);
    if (!r) throw new HttpError(404, 'Solicitação não encontrada');
    if (r.situacao !== 'disponivel' || !r.arquivo) throw new HttpError(409, 'O vídeo desta solicitação não está disponível');
    if (!(await cameraDaEmpresa(c, String(r.serial)))) throw new HttpError(404, 'Equipamento não encontrado');
    const cli = await cmsv6(async () => clienteConfigurado());
    const nome = `${r.serial}_canal${r.canal}_${new Date(r.inicio).toISOString().slice(0, 19).replace(/[-:T]/g, '')}.flv`;
    const up = await doServidor(cli, c, (js) => `${cli.cfg.streamUrl}/3/5?DownType=3&jsession=${encodeURIComponent(js)}&DevIDNO=${encodeURIComponent(String(r.serial))}&FILELOC=${r.tipo === 'clipe' ? 2 : 1}&FLENGTH=${Number(r.tamanho) || 0}&FOFFSET=0&MTYPE=1&FPATH=${encodeURIComponent(String(r.arquivo))}&SAVENAME=${encodeURIComponent(nome)}`);
    return new Response(up.body, { headers: { 'content-type': 'video/x-flv', 'content-disposition': `attachment; filename="${nome}"`, 'cache-control': 'no-store' } });
  });
}

/** A playlist entry of this device channel only: `1_<dev>_<chn>_<stream>…` with no path and no parent step. */
function segmentoDoCanal(nome: string, base: string): boolean {
  return nome.startsWith(base) && !/[/\\]|\.\./.test(decodeURIComponent(nome.slice(base.length))) && /^[\w.-]*\.ts$/.test(nome.slice(base.length)) && !decodeURIComponent(nome).includes('/');
}
