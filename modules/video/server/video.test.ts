// Video over real HTTP against the local CMSV6 double: the company's cameras with their online state; live addresses
// of the server's proxy only (never the jsession); the proxy streams FLV and HLS (playlist rewritten, segments) and
// refuses without a session, with another session's link, a forged link, another device's segment; another company's
// asset 404, no key 403; re-login on code 5; CMSV6 errors as pt-BR 4xx/502; recordings, requests (kept with their
// state, a refused clip too) and the download through the proxy; camera alarms read by the worker become events
// (library key and risk; unknown codes kept; idempotent) and reach the alarm console.
import pg from 'pg';
import WebSocket from 'ws';
import { socketsOf } from '../../../server/test/sockets.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startCmsv6Double, type Cmsv6Double } from './cmsv6-double.ts';
import { horaCmsv6 } from './cmsv6.ts';

let ts: TestServer;
let d: Cmsv6Double;
let pool: pg.Pool;
let A: number, B: number, ambienteId: number;
let ativoA: number, ativoA2: number, ativoB: number, placaA: string;
let op: Api, op2: Api, opB: Api, semChave: Api;
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const env: Record<string, string | undefined> = {};
const setEnv = (k: string, v: string) => { env[k] = process.env[k]; process.env[k] = v; };
// the demo's tachograph trucks carry a VDO unit of A too (server/seed/demo-data.ts DEMO_TACOGRAFOS)
const DEMO_VDO = ['VDO100004', 'VDO100008'];
const CAM_A = 'CAMA0001', CAM_B = 'CAMB0001', CAM_OFF = 'CAMA0002';

async function camera(serial: string, empresa: number, ativo: number) {
  await q(`INSERT INTO equipamento (empresa_id, serial, tecnologia, modelo, ativado, created_at, updated_at) VALUES ($1, $2, 'vdo', 'vdo_telemetria', true, now(), now())`, [empresa, serial]);
  await q(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at) VALUES ($1, $2, $3, now() - interval '1 day', now(), now())`, [empresa, serial, ativo]);
}
let n = 0;
async function operador(empresa: number, permissoes: string[]) {
  const login = `video.op${++n}`;
  await ts.createUser({ login, senha: 'senha-video-123', ambienteId, empresas: [empresa], permissoes });
  return ts.login(login, 'senha-video-123');
}
const body = async (r: Response) => ({ status: r.status, ...(await r.json()) });

beforeAll(async () => {
  d = await startCmsv6Double({ dispositivos: [
    { idno: CAM_A, placa: 'A', canais: 4, online: true }, { idno: CAM_B, placa: 'B', canais: 2, online: true }, { idno: CAM_OFF, placa: 'C', canais: 1, online: false },
  ] });
  setEnv('CMSV6_URL', d.url); setEnv('CMSV6_ACCOUNT', d.account); setEnv('CMSV6_PASSWORD', d.password);
  setEnv('CMSV6_STREAM_URL', d.url); setEnv('CMSV6_ALARM_POLL_MS', '300'); setEnv('CMSV6_TIMEOUT_MS', '3000');
  setEnv('CMSV6_STATUS_POLL_MS', '300'); setEnv('CMSV6_CLIP_POLL_MS', '300'); setEnv('CMSV6_CLIP_TIMEOUT_S', '4');
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ambienteId = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const as = await q('SELECT id, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 3', [A]);
  [ativoA, ativoA2] = [as[0].id, as[1].id];
  placaA = as[0].placa;
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  await camera(CAM_A, A, ativoA);
  await camera(CAM_OFF, A, as[2].id);
  await camera(CAM_B, B, ativoB);
  const keys = ['tlm.vid.video_ao_vivo', 'tlm.vid.download', 'tlm.vid.historico_video.lista', 'tlm.evt.console_de_alarmes'];
  op = await operador(A, keys);
  op2 = await operador(A, keys);
  opB = await operador(B, keys);
  semChave = await operador(A, ['tlm.fro.ativo.lista']);
});
afterAll(async () => {
  await pool?.end(); await ts?.stop(); await d?.stop();
  for (const [k, v] of Object.entries(env)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
});


describe('video: cameras and live addresses', () => {
  it('lists the company\'s cameras only, with online state and channels; 403 without a key', async () => {
    const r = await body(await op.get('/api/video/ativos'));
    expect(r.status).toBe(200);
    expect(r.payload.erro).toBeNull();
    expect(r.payload.ativos.map((a: any) => [a.id, a.serial, a.online, a.canais.length])).toEqual(
      expect.arrayContaining([[ativoA, CAM_A, true, 4], [expect.any(Number), CAM_OFF, false, 1]]));
    expect(r.payload.ativos.map((a: any) => a.serial)).not.toContain(CAM_B);
    expect(r.payload.ativos.find((a: any) => a.id === ativoA).placa).toBe(placaA);
    expect((await op.get('/api/video/ativos')).status).toBe(200);
    expect((await body(await semChave.get('/api/video/ativos'))).status).toBe(403);
    expect((await body(await semChave.post('/api/video/ao_vivo', { ativoId: ativoA }))).status).toBe(403);
  });

  it('another company\'s asset is 404, an asset without a camera 422, bad input 400 — in pt-BR', async () => {
    expect(await body(await op.post('/api/video/ao_vivo', { ativoId: ativoB, canais: [1] }))).toMatchObject({ status: 404, msg: 'Ativo não encontrado' });
    expect(await body(await op.post('/api/video/ao_vivo', { ativoId: ativoA2, canais: [1] }))).toMatchObject({ status: 422, msg: 'O ativo não tem equipamento de vídeo vinculado' });
    expect(await body(await op.post('/api/video/ao_vivo', { ativoId: ativoA, canais: [17] }))).toMatchObject({ status: 400, msg: 'Canal inválido' });
    expect(await body(await op.post('/api/video/ao_vivo', { ativoId: ativoA, modo: 'rtsp' }))).toMatchObject({ status: 400, msg: 'Modo de reprodução inválido (flv ou hls)' });
  });

  it('answers proxy addresses, never the CMSV6 session or host', async () => {
    const res = await op.post('/api/video/ao_vivo', { ativoId: ativoA, canais: [1, 2], modo: 'flv' });
    const text = await res.text();
    expect(res.status).toBe(200);
    for (const js of d.sessoes) expect(text).not.toContain(js);
    expect(text).not.toContain(String(d.port));
    const p = JSON.parse(text).payload;
    expect(p.canais.map((c: any) => c.canal)).toEqual([1, 2]);
    expect(p.canais[0].url).toMatch(/^\/api\/video\/stream\/[\w-]+\.[\w-]{43}\/video\.flv$/);
  });
});

describe('video: the stream proxy', () => {
  const liveUrl = async (api: Api, modo: 'flv' | 'hls', canal = 1) =>
    (await (await api.post('/api/video/ao_vivo', { ativoId: ativoA, canais: [canal], modo })).json()).payload.canais[0].url as string;

  it('streams HTTP-FLV from the media server and closes it when the client goes', async () => {
    const url = await liveUrl(op, 'flv', 2);
    const ac = new AbortController();
    const r = await ts.fetch(url, { headers: op.headers(), signal: ac.signal });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('video/x-flv');
    const reader = r.body!.getReader();
    let got = new Uint8Array(0);
    while (got.length < 20_000) { const { value } = await reader.read(); got = new Uint8Array([...got, ...value!]); }
    expect(String.fromCharCode(...got.subarray(0, 3))).toBe('FLV');
    expect(d.streamsAbertos()).toBe(1);
    ac.abort();
    await expect.poll(() => d.streamsAbertos(), { timeout: 10_000 }).toBe(0);
  });

  it('the front end\'s cookie opens it too (players send no bearer header)', async () => {
    const url = await liveUrl(op, 'hls');
    const r = await ts.fetch(url, { headers: { cookie: `rastro_token=${op.token}` } });
    expect(r.status).toBe(200);
    await r.body?.cancel();
  });

  it('refuses without a session (401), with another session\'s or a forged link (403), without the key (403), for another company (403)', async () => {
    const url = await liveUrl(op, 'flv');
    expect((await ts.fetch(url)).status).toBe(401);
    expect(await body(await op2.get(url))).toMatchObject({ status: 403, msg: 'Link de vídeo inválido ou expirado' });
    expect((await opB.get(url)).status).toBe(403);
    expect((await semChave.get(url)).status).toBe(403);
    const [tk, sig] = url.split('/')[4]!.split('.');
    const payload = JSON.parse(Buffer.from(tk!, 'base64url').toString());
    const forjado = Buffer.from(JSON.stringify({ ...payload, d: CAM_B })).toString('base64url');
    expect(await body(await op.get(url.replace(tk!, forjado)))).toMatchObject({ status: 403, msg: 'Link de vídeo inválido ou expirado' });
    expect((await op.get(url.replace(sig!, 'x'.repeat(43)))).status).toBe(403);
  });

  it('HLS: the playlist points at the proxy (no jsession), segments stream, another device\'s segment is refused', async () => {
    const url = await liveUrl(op, 'hls', 1);
    const r = await op.get(url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const texto = await r.text();
    expect(texto).not.toContain('jsession=js');
    const token = url.split('/')[4]!;
    const segs = texto.split('\n').filter((l) => l && !l.startsWith('#'));
    const seq = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(texto)![1]);
    expect(segs).toEqual([seq, seq + 1, seq + 2].map((k) => `/api/video/stream/${token}/1_${CAM_A}_0_0_${k}.ts`));
    const s = await op.get(segs[0]!);
    expect(s.status).toBe(200);
    const bytes = new Uint8Array(await s.arrayBuffer());
    expect(bytes.length % 188).toBe(0);
    expect(bytes[0]).toBe(0x47);
    expect((await op.get(`/api/video/stream/${token}/1_${CAM_B}_0_0_0.ts`)).status).toBe(404);
    expect((await op.get(`/api/video/stream/${token}/1_${CAM_A}_0_0_..%2F..%2Fx.ts`)).status).toBe(404);
    expect((await op.get(`/api/video/stream/${token}/video.flv`)).status).toBe(404);
  });

  // The screen's players take the FLV over a WebSocket (a browser holds 6 HTTP/1.1 connections per host: live HTTP
  // streams would starve a 9-window grid). The upgrade runs the same pipeline and checks.
  const wsUrl = (p: string) => `${ts.url.replace('localhost', '127.0.0.1').replace(/^http/, 'ws')}${p}`;
  /** Opens a WebSocket: the bytes it gets until `bytes`, or the HTTP refusal (status and pt-BR body). */
  const abreWs = (p: string, headers: Record<string, string>, bytes = 20_000) => new Promise<{ status: number; msg?: string; dados?: Buffer; ws?: WebSocket }>((resolve, reject) => {
    const ws = new WebSocket(wsUrl(p), { headers });
    let got = Buffer.alloc(0);
    ws.on('unexpected-response', (_req, res) => {
      let b = '';
      res.on('data', (x: Buffer) => (b += x));
      res.on('end', () => resolve({ status: res.statusCode!, msg: b ? JSON.parse(b).msg : undefined }));
    });
    ws.on('message', (m: Buffer) => { got = Buffer.concat([got, m]); if (got.length >= bytes) resolve({ status: 101, dados: got, ws }); });
    ws.on('error', (e) => { if (!/Unexpected server response/.test(e.message)) reject(e); });
  });

  it('FLV over a WebSocket: the cookie\'s session, live bytes, the upstream closed with the socket', async () => {
    const r = (await (await op.post('/api/video/ao_vivo', { ativoId: ativoA, canais: [3], modo: 'flv' })).json()).payload.canais[0];
    expect(r.ws).toMatch(/^\/api\/video\/ws\/[\w-]+\.[\w-]{43}$/);
    expect(r.ws.split('/')[4]).toBe(r.url.split('/')[4]);
    const antes = d.streamsAbertos();
    const a = await abreWs(r.ws, { cookie: `rastro_token=${op.token}` });
    expect(a.status).toBe(101);
    expect(a.dados!.subarray(0, 3).toString()).toBe('FLV');
    expect(d.streamsAbertos()).toBe(antes + 1);
    a.ws!.close();
    await expect.poll(() => d.streamsAbertos(), { timeout: 10_000 }).toBe(antes);
    // a plain GET is not a WebSocket
    expect(await body(await op.get(r.ws))).toMatchObject({ status: 400, msg: 'Este endereço só atende WebSocket' });
  });

  it('FLV over a WebSocket refuses: no session 401, another session\'s link 403, another company 403, no key 403, another site 403, an HLS link 404', async () => {
    const r = (await (await op.post('/api/video/ao_vivo', { ativoId: ativoA, canais: [1], modo: 'flv' })).json()).payload.canais[0];
    expect((await abreWs(r.ws, {})).status).toBe(401);
    expect(await abreWs(r.ws, { cookie: `rastro_token=${op2.token}` })).toMatchObject({ status: 403, msg: 'Link de vídeo inválido ou expirado' });
    expect((await abreWs(r.ws, { cookie: `rastro_token=${opB.token}` })).status).toBe(403);
    expect((await abreWs(r.ws, { cookie: `rastro_token=${semChave.token}` })).status).toBe(403);
    expect(await abreWs(r.ws, { cookie: `rastro_token=${op.token}`, origin: 'http://outro.site.example' })).toMatchObject({ status: 403, msg: 'Origem não permitida' });
    const hls = (await (await op.post('/api/video/ao_vivo', { ativoId: ativoA, canais: [1], modo: 'hls' })).json()).payload.canais[0];
    expect(hls.ws).toBeUndefined();
    expect((await abreWs(hls.url.replace('/stream/', '/ws/').replace(/\/index\.m3u8$/, ''), { cookie: `rastro_token=${op.token}` })).status).toBe(404);
    expect((await abreWs('/api/nao_existe', { cookie: `rastro_token=${op.token}` })).status).toBe(404);
    expect(d.streamsAbertos()).toBe(0);
  });

  it('an offline device\'s stream: 404 with a pt-BR message', async () => {
    const r = await op.post('/api/video/ao_vivo', { ativoId: (await q('SELECT ativo_id FROM equipamento_ativo WHERE serial = $1', [CAM_OFF]))[0].ativo_id, canais: [1] });
    const url = (await r.json()).payload.canais[0].url;
    expect(await body(await op.get(url))).toMatchObject({ status: 404, msg: 'Vídeo indisponível: o equipamento está offline ou o canal não existe' });
  });
});

describe('video: the cameras\' online state pushed', () => {
  const sockets = socketsOf(() => ts.url);
  afterAll(() => sockets.closeAll());
  const escuta = async (api: Api) => (await sockets.join(api.token, api.empresaAtiva, 'video_situacao')).got;
  const onlineDe = (m: any, serial: string) => m.ativos.find((a: any) => a.serial === serial)?.online;

  it('a status change on the CMSV6 server reaches the company\'s screens (not another company\'s, not a user without a video key)', async () => {
    const [a, b, sem] = [await escuta(op), await escuta(opB), await escuta(semChave)];
    // the first read after joining: the company's state, once
    await expect.poll(() => a.length, { timeout: 10_000 }).toBe(1);
    expect(a[0]).toMatchObject({ empresaId: A, erro: null });
    expect(a[0].ativos).toEqual(expect.arrayContaining([{ id: ativoA, serial: CAM_A, online: true }, { id: expect.any(Number), serial: CAM_OFF, online: false }]));
    await expect.poll(() => b.length, { timeout: 10_000 }).toBe(1);
    expect(b[0]).toEqual({ empresaId: B, erro: null, ativos: [{ id: ativoB, serial: CAM_B, online: true }] });
    const chamadas = d.chamadas.filter((c) => c.nome === 'getDeviceOlStatus').length;
    // nothing changed: nothing pushed, though the server keeps asking (one call for both companies)
    await new Promise((r) => setTimeout(r, 1200));
    expect(a).toHaveLength(1);
    expect(d.chamadas.filter((c) => c.nome === 'getDeviceOlStatus').length).toBeGreaterThanOrEqual(chamadas + 2);
    expect(d.chamadas.filter((c) => c.nome === 'getDeviceOlStatus').at(-1)!.params.devIdno!.split(',').sort()).toEqual([CAM_A, CAM_OFF, CAM_B, ...DEMO_VDO].sort());

    d.dispositivos.find((x) => x.idno === CAM_A)!.online = false;
    await expect.poll(() => a.length, { timeout: 10_000 }).toBe(2);
    expect(onlineDe(a[1], CAM_A)).toBe(false);
    d.dispositivos.find((x) => x.idno === CAM_A)!.online = true;
    await expect.poll(() => a.length, { timeout: 10_000 }).toBe(3);
    expect(onlineDe(a[2], CAM_A)).toBe(true);
    // the other company heard nothing of it, the user without a video key nothing at all
    expect(b).toHaveLength(1);
    expect(JSON.stringify(b)).not.toContain(CAM_A);
    expect(sem).toEqual([]);
  });

  it('the CMSV6 server failing is pushed as unknown state with its pt-BR message, then recovers', async () => {
    const a = await escuta(op2);
    await expect.poll(() => a.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const n = a.length;
    d.falha('getDeviceOlStatus', 6);
    await expect.poll(() => a.length, { timeout: 10_000 }).toBe(n + 1);
    expect(a[n].erro).toMatch(/servidor de vídeo/i);
    expect(a[n].ativos.every((x: any) => x.online === null)).toBe(true);
    d.falha('getDeviceOlStatus', 6, 0);
    await expect.poll(() => a.length, { timeout: 10_000 }).toBe(n + 2);
    expect(a[n + 1].erro).toBeNull();
    expect(onlineDe(a[n + 1], CAM_A)).toBe(true);
  });

  it('nobody watching: the CMSV6 server is not asked', async () => {
    sockets.closeAll();
    await new Promise((r) => setTimeout(r, 700));
    const n = d.chamadas.filter((c) => c.nome === 'getDeviceOlStatus').length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(d.chamadas.filter((c) => c.nome === 'getDeviceOlStatus').length).toBe(n);
  });
});

describe('video: CMSV6 sessions and errors', () => {
  it('logs in again when CMSV6 forgot the session (code 5), for the API and the media server', async () => {
    const antes = d.chamadas.filter((c) => c.nome === 'login').length;
    d.expira();
    expect((await body(await op.get('/api/video/ativos'))).payload.ativos.find((a: any) => a.id === ativoA).online).toBe(true);
    expect(d.chamadas.filter((c) => c.nome === 'login').length).toBe(antes + 1);
    d.expira();
    const url = (await (await op.post('/api/video/ao_vivo', { ativoId: ativoA, canais: [1], modo: 'hls' })).json()).payload.canais[0].url;
    expect((await op.get(url)).status).toBe(200);
    expect(d.chamadas.filter((c) => c.nome === 'login').length).toBe(antes + 2);
  });

  it('CMSV6 error codes reach the user as pt-BR messages with 4xx/502', async () => {
    d.falha('getDeviceOlStatus', 8, 1);
    expect((await body(await op.get('/api/video/ativos'))).payload.erro).toBe('Sem autorização para este veículo ou equipamento no servidor de vídeo');
    const per = { ativoId: ativoA, canal: 1, inicio: '2026-03-01T12:00:00Z', fim: '2026-03-01T13:00:00Z' };
    for (const [code, status, msg] of [[9, 400, 'O início deve ser anterior ao fim'], [10, 400, 'O período pedido é longo demais'], [20, 403, 'O equipamento não pertence à empresa no servidor de vídeo'], [24, 502, 'Servidor de vídeo: falha de rede'], [6, 502, 'Servidor de vídeo: erro interno do servidor']] as const) {
      d.falha('getVideoFileInfo', code, 1);
      expect(await body(await op.post('/api/video/gravacoes', per))).toMatchObject({ status, msg, payload: { codigo: code } });
    }
  });
});

describe('video: recordings, requests and download', () => {
  it('searches recordings, keeps requests with their state, downloads through the proxy; another company sees none', async () => {
    const per = { ativoId: ativoA, canal: 2, inicio: '2026-03-01T12:00:00Z', fim: '2026-03-01T13:00:00Z' };
    expect(await body(await op.post('/api/video/gravacoes', { ...per, fim: '2026-03-01T11:00:00Z' }))).toMatchObject({ status: 400, msg: 'Informe um período válido (início antes do fim)' });
    expect((await body(await opB.post('/api/video/gravacoes', per))).status).toBe(404);
    const g = await body(await op.post('/api/video/gravacoes', per));
    expect(g.status).toBe(200);
    expect(g.payload.gravacoes).toHaveLength(2);
    expect(g.payload.gravacoes[0]).toMatchObject({ canal: 2, inicio: '2026-03-01T12:00:00.000Z', fim: '2026-03-01T12:02:00.000Z', tamanho: 64000 });
    expect(JSON.stringify(g)).not.toContain('jsession');
    const gr = g.payload.gravacoes[0];
    const s = await body(await op.post('/api/video/solicitacoes', { ...per, tipo: 'gravacao', inicio: gr.inicio, fim: gr.fim, arquivo: gr.arquivo, tamanho: gr.tamanho }));
    expect(s).toMatchObject({ status: 201, payload: { situacao: 'disponivel', tipo: 'gravacao' } });
    const f = await op.get(`/api/video/solicitacoes/${s.payload.id}/arquivo`);
    expect(f.status).toBe(200);
    expect(f.headers.get('content-disposition')).toBe(`attachment; filename="${CAM_A}_canal2_20260301120000.flv"`);
    expect(String.fromCharCode(...new Uint8Array(await f.arrayBuffer()).subarray(0, 3))).toBe('FLV');
    expect(await body(await opB.get(`/api/video/solicitacoes/${s.payload.id}/arquivo`))).toMatchObject({ status: 404, msg: 'Solicitação não encontrada' });
    expect((await semChave.get(`/api/video/solicitacoes/${s.payload.id}/arquivo`)).status).toBe(403);
    // a clip asked of the device: requested; an offline device: refused (409) and kept as failed
    const c = await body(await op.post('/api/video/solicitacoes', { ...per, tipo: 'clipe', inicio: '2026-03-01T12:00:00Z', fim: '2026-03-01T12:00:30Z' }));
    expect(c).toMatchObject({ status: 201, payload: { situacao: 'solicitado', mensagem: 'Clipe de 30 s solicitado ao equipamento' } });
    expect(d.chamadas.filter((x) => x.nome === 'realTimeVedio').at(-1)!.params).toMatchObject({ DevIDNO: CAM_A, Chn: '1', Sec: '30' });
    const offAtivo = (await q('SELECT ativo_id FROM equipamento_ativo WHERE serial = $1', [CAM_OFF]))[0].ativo_id;
    expect(await body(await op.post('/api/video/solicitacoes', { ...per, ativoId: offAtivo, canal: 1, tipo: 'clipe' }))).toMatchObject({ status: 409, msg: 'O equipamento está offline', payload: { situacao: 'falhou' } });
    const lista = await (await op.get('/api/solicitacao_video?sort=["id","ASC"]')).json();
    expect(lista.map((r: any) => [r.tipo, r.situacao, r.canal])).toEqual([['gravacao', 'disponivel', 2], ['clipe', 'solicitado', 2], ['clipe', 'falhou', 1]]);
    expect(lista[2].mensagem).toBe('O equipamento está offline');
    expect(await (await opB.get('/api/solicitacao_video')).json()).toEqual([]);
    expect(await body(await op.get(`/api/solicitacoes/${s.payload.id}/arquivo`))).toMatchObject({ status: 404 });
  });
});

describe('video: clips followed until they are on the CMSV6 server, pushed', () => {
  const sockets = socketsOf(() => ts.url);
  afterAll(() => sockets.closeAll());
  const escuta = async (api: Api) => (await sockets.join(api.token, api.empresaAtiva, 'video_solicitacao')).got;
  const clipe = { canal: 3, tipo: 'clipe', inicio: '2026-03-01T12:00:00Z', fim: '2026-03-01T12:00:20Z' };
  /** A request's row as the history list shows it (the operators hold the list key). */
  const linha = async (api: Api, id: number) => ((await (await api.get('/api/solicitacao_video?sort=["id","DESC"]')).json()) as any[]).find((r) => r.id === id);
  const doServidor = () => d.chamadas.filter((c) => c.nome === 'getVideoFileInfo' && c.params.LOC === '2');

  it('solicitado → disponível when the device\'s upload shows; pushed to the company\'s screens only; the file downloads', async () => {
    const [a, b, sem] = [await escuta(op), await escuta(opB), await escuta(semChave)];
    d.clipeAtrasoMs = 1500;
    const c = await body(await op.post('/api/video/solicitacoes', { ...clipe, ativoId: ativoA }));
    expect(c).toMatchObject({ status: 201, payload: { situacao: 'solicitado', mensagem: 'Clipe de 20 s solicitado ao equipamento' } });
    const id = c.payload.id;
    // not yet on the server: still requested, though the worker asked
    await expect.poll(() => doServidor().filter((x) => x.params.DevIDNO === CAM_A && x.params.CHN === '2').length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(await linha(op, id)).toMatchObject({ situacao: 'solicitado' });
    expect(await body(await op.get(`/api/video/solicitacoes/${id}/arquivo`))).toMatchObject({ status: 409, msg: 'O vídeo desta solicitação não está disponível' });
    await expect.poll(() => a.filter((m) => m.id === id).length, { timeout: 10_000 }).toBe(1);
    expect(a.find((m) => m.id === id)).toEqual({ empresaId: A, id, situacao: 'disponivel', mensagem: 'Clipe disponível no servidor de vídeo' });
    const row = await linha(op, id);
    expect(row).toMatchObject({ situacao: 'disponivel', mensagem: 'Clipe disponível no servidor de vídeo', tamanho: 48000 });
    const [db] = await q('SELECT arquivo FROM solicitacao_video WHERE id = $1', [id]);
    expect(db.arquivo).toMatch(new RegExp(`^/server/clips/${CAM_A}_2_\\d+\\.mp4$`));
    const f = await op.get(`/api/video/solicitacoes/${id}/arquivo`);
    expect(f.status).toBe(200);
    expect(String.fromCharCode(...new Uint8Array(await f.arrayBuffer()).subarray(0, 3))).toBe('FLV');
    // another company: not pushed, not seen (404); no key: nothing pushed, 403
    await new Promise((r) => setTimeout(r, 700));
    expect(b).toEqual([]);
    expect(sem).toEqual([]);
    expect(a.filter((m) => m.id === id)).toHaveLength(1);
    expect(await linha(opB, id)).toBeUndefined();
    expect(await body(await opB.get(`/api/video/solicitacoes/${id}/arquivo`))).toMatchObject({ status: 404, msg: 'Solicitação não encontrada' });
    expect((await semChave.get('/api/solicitacao_video')).status).toBe(403);
    expect((await semChave.get(`/api/video/solicitacoes/${id}/arquivo`)).status).toBe(403);
    // company B's own clip is pushed to B, not to A
    const cb = await body(await opB.post('/api/video/solicitacoes', { ...clipe, canal: 1, ativoId: ativoB }));
    await expect.poll(() => b.length, { timeout: 10_000 }).toBe(1);
    expect(b[0]).toEqual({ empresaId: B, id: cb.payload.id, situacao: 'disponivel', mensagem: 'Clipe disponível no servidor de vídeo' });
    expect(a.some((m) => m.id === cb.payload.id)).toBe(false);
  });

  it('time-out: a clip that never shows fails with the pt-BR reason (the last CMSV6 refusal named); then CMSV6 is not asked', async () => {
    const a = await escuta(op2);
    d.clipeAtrasoMs = Infinity;
    d.falha('getVideoFileInfo', 24);
    const c = await body(await op.post('/api/video/solicitacoes', { ...clipe, canal: 4, ativoId: ativoA }));
    const id = c.payload.id;
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 1500));
    // CMSV6 refusing meanwhile does not fail it before the time-out
    expect((await linha(op, id)).situacao).toBe('solicitado');
    await expect.poll(() => a.filter((m) => m.id === id).length, { timeout: 15_000 }).toBe(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2400);
    const motivo = 'Tempo esgotado: o clipe não ficou disponível no servidor de vídeo em 4 s (última resposta: Servidor de vídeo: falha de rede)';
    expect(a.find((m) => m.id === id)).toEqual({ empresaId: A, id, situacao: 'falhou', mensagem: motivo });
    expect(await linha(op, id)).toMatchObject({ situacao: 'falhou', mensagem: motivo });
    d.falha('getVideoFileInfo', 24, 0);
    d.clipeAtrasoMs = 1000;
    // nothing pending: the server is not asked
    await new Promise((r) => setTimeout(r, 400));
    const n = doServidor().length;
    await new Promise((r) => setTimeout(r, 1000));
    expect(doServidor().length).toBe(n);
  });
});

describe('video: camera alarms become events', () => {
  it('the worker writes known codes with the library key, keeps unknown ones, never twice; the console lists them with their risk', async () => {
    // arriving late (CMSV6 lists an alarm after its device uploads it): inside the re-read overlap of 5 min
    const t0 = new Date(Math.floor(Date.now() / 1000) * 1000 - 2 * 60_000);
    const at = (s: number) => horaCmsv6(new Date(t0.getTime() + s * 1000));
    d.alarmes.push(
      { did: CAM_A, atp: 619, stm: at(0), lat: -23.5, lng: -46.6, sp: 62.5 },
      { did: CAM_A, atp: 650, stm: at(5) },
      { did: CAM_A, atp: 711, stm: at(10) },
      { did: CAM_B, atp: 600, stm: at(0) },
    );
    const eventos = () => q(`SELECT serial, code, key, description, empresa_id, ativo_id, lat, lon, speed FROM telemetria.evento WHERE serial IN ($1, $2) ORDER BY serial, fix_time`, [CAM_A, CAM_B]);
    await expect.poll(async () => (await eventos()).length, { timeout: 15_000 }).toBe(4);
    const rows = await eventos();
    expect(rows.map((r) => [r.serial, r.code, r.key, r.empresa_id])).toEqual([
      [CAM_A, '619', 'fatigue_l2', A], [CAM_A, '650', 'camera_alarme_650', A], [CAM_A, '711', 'no_seatbelt_l2', A], [CAM_B, '600', 'frontal_collision_l1', B],
    ]);
    expect(rows[0]).toMatchObject({ ativo_id: ativoA, lat: -23.5, lon: -46.6, speed: 62.5 });
    expect(rows[1].description).toBe('Alarme de câmera desconhecido (código 650)');
    // read again by later polls: still once each
    const lidas = d.chamadas.filter((c) => c.nome === 'queryAlarmDetail').length;
    await expect.poll(() => d.chamadas.filter((c) => c.nome === 'queryAlarmDetail').length, { timeout: 10_000 }).toBeGreaterThan(lidas + 1);
    expect(await eventos()).toHaveLength(4);
    const consola = await (await op.get('/api/alarmes?sort=["dataEvento","ASC"]')).json();
    expect(consola.filter((r: any) => r.serial === CAM_A).map((r: any) => [r.evento, r.risco, r.placa])).toEqual([['fatigue_l2', 'alto', placaA], ['no_seatbelt_l2', 'médio', placaA]]);
    expect((await (await opB.get('/api/alarmes')).json()).map((r: any) => [r.serial, r.risco])).toEqual([[CAM_B, 'baixo']]);
  });
});
