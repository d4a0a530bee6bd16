// Video in the browser (issue 23) against a local CMSV6 double (modules/video/server/cmsv6-double.ts) on the port the
// e2e server's CMSV6_URL names: the live screen lists the camera as online (the state pushed by the server as it changes), "Reproduzir selecionados" of 6 channels
// grows the grid to 9 windows and each window PLAYS the HTTP-FLV stream through the server's proxy over a WebSocket
// (mpegts.js: frames decoded, the <video> advances); a 7th window in HLS (hls.js) plays too while they run; no request
// of the page goes to the CMSV6 host. A camera
// alarm on the CMSV6 server arrives in the alarm console with its risk. The download screen finds recordings and
// keeps a request in the history; a clip asked of the camera turns Disponível on the download screen and in the history
// list as the server pushes it (no reload), one that never lands turns Falhou with its reason. Runs as a user of the
// demo's second company.
// E2E_SHOTS=dir saves screenshots.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, menuEntry, randomPlate, secondCompanySession, type AdminSession } from './browser';
import { startCmsv6Double, type Cmsv6Double } from '../../modules/video/server/cmsv6-double';
import { horaCmsv6 } from '../../modules/video/server/cmsv6';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const cmsv6Port = inject('cmsv6Port');
const T = { timeout: 30_000 };
const SERIAL = `VDO${String(Date.now()).slice(-8)}`;
const PLACA = randomPlate();
let s: AdminSession;
let d: Cmsv6Double;
const pedidos: string[] = [];

async function shot(name: string) {
  const dir = process.env.E2E_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await s.page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

beforeAll(async () => {
  d = await startCmsv6Double({ port: cmsv6Port, account: 'rastro', password: 'senha-cmsv6', dispositivos: [{ idno: SERIAL, placa: PLACA, canais: 6, online: true }] });
  s = await secondCompanySession(baseUrl, adminPassword, `video.e2e${Date.now() % 100000}`);
  const ativoId = (await apiCall(s.ctx, baseUrl, '/api/ativo', { descricao: 'Ônibus com câmera', placa: PLACA })).id;
  await apiCall(s.ctx, baseUrl, '/api/equipamento', { serial: SERIAL, tecnologia: 'vdo', modelo: 'vdo_telemetria', ativado: true });
  await apiCall(s.ctx, baseUrl, '/api/equipamento_ativo', { serial: SERIAL, ativoId, dataInicio: '2024-01-01T00:00:00Z' });
  s.page.on('request', (r) => pedidos.push(r.url()));
  s.page.on('websocket', (w) => pedidos.push(w.url()));
});
afterAll(async () => { await s?.close(); await d?.stop(); });

/** The player state of window i: readyState, currentTime, whether a frame was decoded. */
const player = (i: number) => s.page.locator('[data-testid="janela-video"] video').nth(i)
  .evaluate((v: HTMLVideoElement) => ({ ready: v.readyState, t: v.currentTime, w: v.videoWidth, quadros: v.getVideoPlaybackQuality().totalVideoFrames }));

describe('live video', () => {
  it('plays 6 channels over HTTP-FLV in a grid grown to 9 windows', async () => {
    const { page } = s;
    await (await menuEntry(page, 'Vídeo ao vivo')).click();
    await page.waitForURL(`${baseUrl}/tlm/vid/video_ao_vivo`);
    await expect.poll(() => page.getByTestId('situacao-equipamento').textContent(), T).toBe('Online');
    expect(await page.getByTestId('grade').getAttribute('data-janelas')).toBe('4');
    // the online state is pushed by the server (no polling by the screen): the camera goes offline and back
    const consultas = () => d.chamadas.filter((c) => c.nome === 'getDeviceOlStatus').length;
    d.dispositivos[0]!.online = false;
    await expect.poll(() => page.getByTestId('situacao-equipamento').textContent(), T).toBe('Offline');
    d.dispositivos[0]!.online = true;
    await expect.poll(() => page.getByTestId('situacao-equipamento').textContent(), T).toBe('Online');
    const n = consultas();
    const lidas = () => pedidos.filter((u) => u.endsWith('/api/video/ativos')).length;
    const l0 = lidas();
    await page.waitForTimeout(2500);
    expect(consultas() - n).toBeLessThanOrEqual(4); // the server's 1 s reads only, not one per screen and reload
    // the screen read its list once, and once more only if its socket joined after that first read (pushes missed
    // meanwhile): never again while it waits
    expect(lidas()).toBe(l0);
    expect(l0).toBeLessThanOrEqual(2);
    await page.getByTestId('ativo').click();
    await page.getByRole('option', { name: new RegExp(PLACA) }).click();
    await page.getByTestId('reproduzir-selecionados').click();
    await expect.poll(() => page.getByTestId('janela-video').count(), T).toBe(6);
    expect(await page.getByTestId('grade').getAttribute('data-janelas')).toBe('9');
    expect(await page.getByTestId('titulo-janela').allTextContents()).toEqual([1, 2, 3, 4, 5, 6].map((c) => `${PLACA} — CH${c}`));
    // the first and the last window play: frames decoded and time advancing
    await expect.poll(async () => (await player(0)).t, T).toBeGreaterThan(0.5);
    await expect.poll(async () => (await player(5)).t, T).toBeGreaterThan(0.5);
    expect((await player(0)).w).toBe(64);
    expect((await player(0)).quadros).toBeGreaterThan(10);
    expect((await player(0)).ready).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.getByTestId('estado-janela').first().textContent(), T).toBe('Ao vivo · HTTP-FLV');
    await shot('video-ao-vivo-flv');

    // the browser never talked to the CMSV6 host: only the proxy, over WebSockets (six live HTTP streams would hold
    // every HTTP/1.1 connection Chromium opens to a host: the page's next request would wait for ever)
    expect(pedidos.filter((u) => u.includes(`:${cmsv6Port}`))).toEqual([]);
    expect(pedidos.filter((u) => /^ws:\/\/[^/]+\/api\/video\/ws\/[^/]+$/.test(u))).toHaveLength(6);
    expect(pedidos.some((u) => /video\.flv$/.test(u))).toBe(false);

    await page.getByRole('button', { name: 'Parar todos' }).click();
    await expect.poll(() => page.getByTestId('janela-video').count(), T).toBe(0);
    await expect.poll(() => d.streamsAbertos(), T).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('plays a channel over HLS (hls.js) through the proxy', async () => {
    const { page } = s;
    await page.getByTestId('reproduzir-selecionados').click();
    await expect.poll(() => page.getByTestId('janela-video').count(), T).toBe(6);
    await page.getByRole('button', { name: 'HLS' }).click();
    await page.getByTestId('reproduzir-1').click();
    await expect.poll(() => page.getByTestId('janela-video').count(), T).toBe(7);
    await expect.poll(async () => (await player(6)).ready, T).toBeGreaterThanOrEqual(2);
    await expect.poll(async () => (await player(6)).t, T).toBeGreaterThan(0.2);
    // frames really decoded (not only buffered), and the FLV windows kept playing meanwhile
    expect((await player(6)).w).toBe(64);
    await expect.poll(async () => (await player(6)).quadros, T).toBeGreaterThan(10);
    const t0 = (await player(0)).t;
    await expect.poll(async () => (await player(0)).t, T).toBeGreaterThan(t0 + 0.5);
    await shot('video-ao-vivo-hls');

    expect(pedidos.some((u) => /\/api\/video\/stream\/[^/]+\/index\.m3u8$/.test(u))).toBe(true);
    expect(pedidos.filter((u) => u.includes(`:${cmsv6Port}`))).toEqual([]);
    await page.getByRole('button', { name: 'Parar todos' }).click();
    await expect.poll(() => page.getByTestId('janela-video').count(), T).toBe(0);
    await expect.poll(() => d.streamsAbertos(), T).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('a camera alarm on the CMSV6 server arrives in the alarm console with its risk', async () => {
    const { page } = s;
    await (await menuEntry(page, 'Console de alarmes')).click();
    await page.waitForURL(`${baseUrl}/tlm/evt/console_de_alarmes`);
    await expect.poll(() => page.getByTestId('ao-vivo').textContent(), T).toBe('Ao vivo');
    d.alarmes.push({ did: SERIAL, atp: 619, stm: horaCmsv6(new Date(Date.now() - 20_000)) });
    const row = page.locator('[data-testid="alarme"]', { hasText: PLACA });
    await expect.poll(() => row.count(), T).toBe(1);
    expect(await row.textContent()).toContain('Fadiga — nível 2');
    expect(await row.textContent()).toContain('Alto');
    await shot('video-alarme');
  });
});

describe('recordings', () => {
  it('finds an asset\'s recordings, requests one and the history lists it', async () => {
    const { page } = s;
    await (await menuEntry(page, 'Download de vídeo')).click();
    await page.waitForURL(`${baseUrl}/tlm/vid/download`);
    await page.getByTestId('ativo').click();
    await page.getByRole('option', { name: new RegExp(PLACA) }).click();
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => page.getByTestId('gravacao').count(), T).toBe(2);
    await page.getByTestId('gravacao').first().getByRole('button', { name: 'Solicitar download' }).click();
    await expect.poll(() => page.getByText('Gravação disponível para download').count(), T).toBe(1);
    await shot('video-download');
    await (await menuEntry(page, 'Histórico de vídeo')).click();
    await page.waitForURL(`${baseUrl}/tlm/vid/historico_video`);
    await expect.poll(() => page.getByText(`Ônibus com câmera (${PLACA}) — canal 1`).count(), T).toBe(1);
    await shot('video-historico');
  });

  it('a clip asked of the camera: Solicitado, then Disponível pushed to the download screen and the history list; one that never lands: Falhou', async () => {
    const { page } = s;
    /** The double's clip of a channel (0-based) lands on its server now (the worker finds it at its next read). */
    const chega = (chn: number) => { for (const c of d.clipes.filter((x) => x.chn === chn)) c.prontoEm = Date.now(); };
    await (await menuEntry(page, 'Download de vídeo')).click();
    await page.waitForURL(`${baseUrl}/tlm/vid/download`);
    await page.getByTestId('ativo').click();
    await page.getByRole('option', { name: new RegExp(PLACA) }).click();
    d.clipeAtrasoMs = Infinity;
    const leituras = () => pedidos.filter((u) => u.includes('/api/solicitacao_video')).length;
    await page.getByRole('button', { name: 'Solicitar clipe' }).click();
    await expect.poll(() => page.getByText('Clipe solicitado ao equipamento').count(), T).toBe(1);
    const linha = page.getByTestId('solicitacao').first();
    await expect.poll(() => linha.getByTestId('situacao').textContent(), T).toBe('Solicitado');
    await shot('video-download-clipe-solicitado');
    const antes = leituras();
    chega(0);
    // the server pushes the change: the row turns Disponível with its file; the page read the list once more, no polling
    await expect.poll(() => linha.getByTestId('situacao').textContent(), T).toBe('Disponível');
    expect(await linha.textContent()).toContain('Clipe disponível no servidor de vídeo');
    expect(await linha.getByRole('link', { name: 'Baixar' }).count()).toBe(1);
    expect(leituras() - antes).toBe(1);
    await page.waitForTimeout(800);
    await shot('video-download-clipe-disponivel');

    // the history list: one clip that lands while it is open, one that never does (time-out 12 s in the e2e server)
    const ativoId = (await apiCall(s.ctx, baseUrl, '/api/video/ativos')).payload.ativos.find((a: { placa: string }) => a.placa === PLACA).id;
    const agora = Date.now();
    await apiCall(s.ctx, baseUrl, '/api/video/solicitacoes', { ativoId, canal: 2, tipo: 'clipe', inicio: new Date(agora - 20_000).toISOString(), fim: new Date(agora).toISOString() });
    await apiCall(s.ctx, baseUrl, '/api/video/solicitacoes', { ativoId, canal: 3, tipo: 'clipe', inicio: new Date(agora - 10_000).toISOString(), fim: new Date(agora).toISOString() });
    await (await menuEntry(page, 'Histórico de vídeo')).click();
    await page.waitForURL(`${baseUrl}/tlm/vid/historico_video`);
    const canal = (n: number) => page.locator('tr', { hasText: `Ônibus com câmera (${PLACA}) — canal ${n}` }).filter({ hasText: 'Clipe' });
    await expect.poll(() => canal(2).count(), T).toBe(1);
    expect(await canal(2).textContent()).toContain('Solicitado');
    chega(1);
    await expect.poll(async () => (await canal(2).textContent()) ?? '', T).toContain('Disponível');
    await shot('video-historico-clipe-disponivel');
    await expect.poll(async () => (await canal(3).textContent()) ?? '', T).toContain('Falhou');
    expect(await canal(3).textContent()).toContain('Tempo esgotado: o clipe não ficou disponível no servidor de vídeo em 12 s');
    await shot('video-historico-clipe-falhou');
    d.clipeAtrasoMs = 1000;
  });
});
