// Shared pieces in the browser: the image uploader with its crop dialog on the company form (empresa.logo,
// field type image), the failed-load panel and loading skeleton, and the slow-request report (POST
// /api/request_time) listed at /adm/sis/requisicao_lenta.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine
const SHOTS = '/tmp/shots/uploads';

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let dir: string;
const errors: string[] = [];

async function api(p: string, init: RequestInit = {}): Promise<Response> {
  const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  return fetch(`${baseUrl}${p}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-up-'));
  // 600×400: left half red, right half blue; a rotation shows in the saved square.
  const half = (r: number, b: number) => sharp({ create: { width: 300, height: 400, channels: 3, background: { r, g: 0, b } } }).png().toBuffer();
  const img = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#000' } })
    .composite([{ input: await half(255, 0), left: 0, top: 0 }, { input: await half(0, 255), left: 300, top: 0 }]).png().toBuffer();
  fs.writeFileSync(path.join(dir, 'logo.png'), img);
  fs.writeFileSync(path.join(dir, 'falso.png'), 'isto não é uma imagem');
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/ERR_NAME_NOT_RESOLVED|tile|404 \(Not Found\)/.test(m.text()) && errors.push(m.text()));
  await signIn(page, baseUrl, 'admin', adminPassword);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('image uploader with crop dialog', () => {
  it('refuses a non-image, crops a PNG rotated 90° right, saves it as the company logo', async () => {
    const session = (await (await api('/api/auth/get_session')).json()).payload.user;
    const empresa = session.empresaAtiva as number;
    await page.goto(`${baseUrl}/cfg/cfg/configuracao/empresas/${empresa}/editar`);
    const uploader = page.getByTestId('image-uploader');
    await uploader.getByRole('button', { name: 'Selecionar imagem' }).waitFor(T);

    // Not an image (by type): the message, no dialog.
    await page.getByTestId('image-input').setInputFiles({ name: 'falso.txt', mimeType: 'text/plain', buffer: Buffer.from('texto') });
    await expect.poll(() => uploader.getByText('Formato de arquivo invalido').count(), T).toBe(1);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Cancel returns to empty.
    const dialog = page.getByRole('dialog', { name: 'Recortar imagem' });
    await page.getByTestId('image-input').setInputFiles(path.join(dir, 'logo.png'));
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), T).toBe(0);
    expect(await uploader.getByRole('button', { name: 'Selecionar imagem' }).count()).toBe(1);
    expect(await uploader.locator('img').count()).toBe(0);

    await page.getByTestId('image-input').setInputFiles(path.join(dir, 'logo.png'));
    await dialog.waitFor(T);
    await expect.poll(() => uploader.getByText('Formato de arquivo invalido').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Aumentar zoom' }).click();
    await expect.poll(() => dialog.getByTestId('crop-state').innerText(), T).toBe('zoom 2× · 0°');
    await dialog.getByRole('button', { name: 'Diminuir zoom' }).click();
    await dialog.getByRole('button', { name: 'Girar para a esquerda' }).click();
    await dialog.getByRole('button', { name: 'Girar para a direita' }).click();
    await dialog.getByRole('button', { name: 'Girar para a direita' }).click();
    await expect.poll(() => dialog.getByTestId('crop-state').innerText(), T).toBe('zoom 1× · 90°');
    await dialog.getByRole('button', { name: 'Maximizar' }).click();
    await dialog.getByRole('button', { name: 'Restaurar' }).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/crop-dialog.png` });
    await dialog.getByRole('button', { name: 'Restaurar' }).click();
    const uploaded = page.waitForResponse((r) => r.url().includes(`/api/upload/single/${empresa}`));
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    const up = await (await uploaded).json();
    expect(up.status).toBe(201);
    await expect.poll(() => page.getByRole('dialog').count(), T).toBe(0);
    // The preview: the stored image's thumbnail, loaded.
    const img = uploader.getByRole('img', { name: 'Logotipo' });
    await expect.poll(() => img.evaluate((e) => (e as HTMLImageElement).complete && (e as HTMLImageElement).naturalWidth), T).toBeGreaterThan(0);
    expect(await img.getAttribute('src')).toBe(up.payload.urlResized);
    await page.screenshot({ path: `${SHOTS}/preview.png` });

    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect.poll(async () => (await (await api(`/api/empresa/${empresa}`)).json()).logo, T).toBe(up.payload.file);

    // The saved file: a square PNG, the red (left) half now on top.
    const png = Buffer.from(await (await api(up.payload.file)).arrayBuffer());
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(meta.height);
    expect(meta.width).toBeGreaterThanOrEqual(398); // the rotated 400×600 image, whole width at zoom 1 (also under the window zoom)
    expect(meta.width).toBeLessThanOrEqual(400);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const [top, bottom] = [px(info.width >> 1, 10), px(info.width >> 1, info.height - 10)];
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);

    // Opened again: the saved image shows.
    await page.goto(`${baseUrl}/cfg/cfg/configuracao/empresas/${empresa}/editar`);
    const again = page.getByTestId('image-uploader').getByRole('img', { name: 'Logotipo' });
    await expect.poll(() => again.evaluate((e) => (e as HTMLImageElement).complete && (e as HTMLImageElement).naturalWidth), T).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('200×200 skeleton while the image loads, then the failed-load panel', async () => {
    const empresa = (await (await api('/api/auth/get_session')).json()).payload.user.empresaAtiva;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/upload/file/**', async (route) => {
      await held;
      await route.fulfill({ status: 404, contentType: 'application/json', body: '{"status":404,"msg":"Arquivo não encontrado"}' });
    });
    await page.goto(`${baseUrl}/cfg/cfg/configuracao/empresas/${empresa}/editar`);
    const skeleton = page.getByTestId('image-uploader').getByTestId('image-skeleton');
    await skeleton.waitFor(T);
    // CSS pixels (the window zoom of the root screen scales the bounding box).
    expect(await skeleton.evaluate((e) => [(e as HTMLElement).offsetWidth, (e as HTMLElement).offsetHeight])).toEqual([200, 200]);
    release();
    const panel = page.getByTestId('image-uploader').getByTestId('image-error');
    await panel.waitFor(T);
    expect(await panel.innerText()).toContain('Não foi possível carregar a imagem');
    await page.screenshot({ path: `${SHOTS}/load-failed.png` });
    await page.unroute('**/api/upload/file/**');
    // Remover returns to empty.
    await page.getByRole('button', { name: 'Remover imagem' }).click();
    await page.getByRole('button', { name: 'Selecionar imagem' }).waitFor(T);
  });
});

describe('slow requests', () => {
  it('a response slower than 10 s is reported and listed at /adm/sis/requisicao_lenta', async () => {
    await page.route('**/api/garagem?*', async (route) => {
      // not a wait for a condition: the server made slow on purpose, just past the client's 10 s threshold
      await new Promise((r) => setTimeout(r, 10_300));
      await route.continue();
    });
    const reported = page.waitForResponse((r) => r.url().endsWith('/api/request_time'), { timeout: 30_000 });
    await page.goto(`${baseUrl}/tlm/fro/garagem`);
    const res = await reported;
    expect(res.status()).toBe(201);
    const sent = JSON.parse(res.request().postData() ?? '{}');
    expect(sent.duracao).toBeGreaterThan(10_000);
    expect(sent.method).toBe('GET');
    expect(sent.url).toContain('/api/garagem?');
    await page.unroute('**/api/garagem?*');
    await page.goto(`${baseUrl}/adm/sis/requisicao_lenta`);
    await expect.poll(() => page.getByText(sent.url, { exact: false }).count(), T).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/requisicao-lenta.png` });
  });
});

describe('root screen help panel and date placeholder', () => {
  it('a form section with help opens the 17% side panel on its texts; the close button closes it', async () => {
    const [ativo] = (await (await api('/api/ativo?range=[0,0]')).json()) as { id: number }[];
    await page.goto(`${baseUrl}/tlm/fro/ativo/${ativo.id}/editar`);
    await page.getByRole('button', { name: 'Ajuda: Hodômetro e GPS' }).click();
    const panel = page.getByTestId('help-panel');
    await panel.waitFor(T);
    expect(await panel.getByRole('heading', { name: 'Hodômetro e GPS' }).count()).toBe(1);
    expect(await panel.getByText('Posições com diluição de precisão acima deste nível são descartadas; nível máximo 15.').count()).toBe(1);
    const ratio = await panel.evaluate((e) => e.parentElement!.getBoundingClientRect().width / document.body.getBoundingClientRect().width);
    expect(ratio).toBeGreaterThan(0.165);
    expect(ratio).toBeLessThan(0.175);
    await page.screenshot({ path: `${SHOTS}/help-panel.png` });
    await panel.getByRole('button', { name: 'Fechar ajuda' }).click();
    await expect.poll(() => page.getByTestId('help-panel').count(), T).toBe(0);
  });

  it('an empty date field shows "Selecione a data" until it is focused', async () => {
    await page.goto(`${baseUrl}/tlm/fro/motorista/adicionar`);
    const placeholder = page.getByTestId('date-placeholder');
    await expect.poll(() => placeholder.count(), T).toBeGreaterThan(0);
    expect(await placeholder.first().innerText()).toBe('Selecione a data');
    await page.screenshot({ path: `${SHOTS}/date-placeholder.png` });
    const before = await placeholder.count();
    await page.getByRole('group', { name: 'Validade da CNH' }).click();
    await expect.poll(() => placeholder.count(), T).toBe(before - 1);
  });
});
