// Firmware and diagnostics screens in the browser: the firmware list of vdo/vdo_telemetria with its add form sending
// a .bin through the uploader (a .zip refused), the update screens (technology → model navigation, adding an update
// queues its command and the list shows it Pendente), /cfg/dia/healthcheck and /cfg/dia/comandos_vdo_onboard tabs.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/firmware';

let s: AdminSession;
const tag = String(Date.now()).slice(-7);
const serial = `VDO${tag}`;
let fabricante = '';

const api = (path: string, body?: unknown) => apiCall(s.ctx, baseUrl, path, body);

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  s = await openSession(baseUrl, 'admin', adminPassword);
  fabricante = `Continental E2E ${tag}`;
  await api('/api/fabricante', { nome: fabricante });
  await api('/api/equipamento', { serial, tecnologia: 'vdo', modelo: 'vdo_telemetria', firmware: '1.0.0', ativado: true });
});
afterAll(async () => { await s?.close(); });

describe('firmware list of vdo/vdo_telemetria', () => {
  it('opens the list with its title and adds a firmware with its .bin (a .zip is refused)', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/cfg/fir/lista/vdo/vdo_telemetria`);
    await page.locator('h1', { hasText: 'Câmera (vídeo telemetria) · VDO Telemetria' }).waitFor(T);
    await page.getByRole('button', { name: 'Adicionar' }).click(T);
    await page.waitForURL(`${baseUrl}/cfg/fir/lista/vdo/vdo_telemetria/adicionar`);
    await page.locator('#root_versao').fill(`2.${tag}`);
    await page.getByLabel('Fabricante').fill(fabricante);
    await page.getByRole('option', { name: fabricante }).click(T);
    const input = page.getByTestId('file-input');
    await input.setInputFiles({ name: 'firmware.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004zip') });
    await page.getByText('Formato de arquivo invalido').waitFor(T);
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/firmware/vdo/vdo_telemetria') && r.request().method() === 'POST');
    await input.setInputFiles({ name: 'VDO_TELEMETRIA_2.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2048, 7) });
    const up = await (await uploaded).json();
    expect(up.status).toBe(201);
    await page.getByRole('link', { name: 'VDO_TELEMETRIA_2.bin' }).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/firmware-adicionar.png` });
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/cfg/fir/lista/vdo/vdo_telemetria`);
    await page.locator('tbody tr', { hasText: `2.${tag}` }).waitFor(T);
    const rows = await api(`/api/firmware/vdo/vdo_telemetria?filter=${encodeURIComponent(JSON.stringify({ q: `2.${tag}` }))}`);
    expect(rows.map((r: any) => [r.versao, r.arquivo, r.tamanho])).toEqual([[`2.${tag}`, up.payload.file, 2048]]);
    await page.screenshot({ path: `${SHOTS}/firmware-lista.png` });
    // The spec's .../vdo/vdo_telemetria/editar: the edit form of the row named by ?id=.
    await page.goto(`${baseUrl}/cfg/fir/lista/vdo/vdo_telemetria/editar?id=${rows[0].id}`);
    await page.locator('h1', { hasText: 'Editar Firmware' }).waitFor(T);
    expect(await page.locator('#root_versao').inputValue()).toBe(`2.${tag}`);
    await page.getByRole('link', { name: 'Baixar arquivo' }).waitFor(T);
  });
});

describe('firmware update', () => {
  it('navigates technology → model and queues an update for the device', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/cfg/fir/atualizar`);
    await page.locator('h1', { hasText: 'Atualizações de firmware' }).waitFor(T);
    await page.getByText('Câmera (vídeo telemetria)').first().click(T);
    await page.waitForURL(`${baseUrl}/cfg/fir/atualizar/vdo`);
    await page.getByText('VDO Telemetria').first().click(T);
    await page.waitForURL(`${baseUrl}/cfg/fir/atualizar/vdo/vdo_telemetria`);
    await page.locator('h1', { hasText: 'Câmera (vídeo telemetria) · VDO Telemetria' }).waitFor(T);
    await page.getByRole('button', { name: 'Adicionar' }).click(T);
    await page.waitForURL(`${baseUrl}/cfg/fir/atualizar/vdo/vdo_telemetria/adicionar`);
    // the picker lists the equipment of this technology and model only: a Queclink of the demo is not offered
    await page.getByLabel('Equipamento').fill('864001500000016');
    await page.getByText('Nenhum resultado').waitFor(T);
    await page.getByLabel('Equipamento').fill(serial);
    await page.getByRole('option', { name: serial }).click(T);
    await page.getByLabel('Firmware').fill(`2.${tag}`);
    await page.getByRole('option', { name: `2.${tag}` }).click(T);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/cfg/fir/atualizar/vdo/vdo_telemetria`);
  });

  it('the update list shows the equipment with versions, size and the status of its command', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/cfg/fir/atualizar/vdo/vdo_telemetria`);
    const row = page.locator('tbody tr', { hasText: serial });
    await row.waitFor(T);
    const text = await row.innerText();
    for (const v of ['1.0.0', `2.${tag}`, '2048', 'Pendente']) expect(text).toContain(v);
    await page.screenshot({ path: `${SHOTS}/atualizar-lista.png` });
  });
});

describe('diagnostics', () => {
  it('comandos_vdo_onboard: the queued update in Comandos and in Processando', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/cfg/dia/comandos_vdo_onboard/comandos`);
    await page.locator('h1', { hasText: 'Comandos VDO onboard' }).waitFor(T);
    await page.locator('tbody tr', { hasText: serial }).waitFor(T);
    expect(await page.locator('tbody tr', { hasText: serial }).innerText()).toContain('Atualizar firmware');
    await page.getByRole('tab', { name: 'Processando' }).click(T);
    await page.waitForURL(`${baseUrl}/cfg/dia/comandos_vdo_onboard/processando`);
    await page.locator('tbody tr', { hasText: serial }).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/comandos-vdo.png` });
  });

  it('healthcheck: the database row is shown working', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/cfg/dia/healthcheck`);
    await page.locator('h1', { hasText: 'Healthcheck' }).waitFor(T);
    const row = page.locator('tbody tr', { hasText: 'Banco de dados' });
    await row.waitFor(T);
    expect(await row.innerText()).toContain('Conectado');
    await page.screenshot({ path: `${SHOTS}/healthcheck.png` });
  });

  it('no page or console error on the way', () => {
    expect(s.errors).toEqual([]);
  });
});
