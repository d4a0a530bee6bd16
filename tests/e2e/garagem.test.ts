// A garage's ativos (nested list, metadata parent) and the engine block action (handler action with the
// 'ATENÇÃO' dialog), in the browser against the real server.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, launch, randomPlate, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const errors: string[] = [];

const api = (path: string, body?: unknown) => apiCall(ctx, baseUrl, path, body);

const plates = [randomPlate(), randomPlate(), randomPlate()];
const serial = `8659${String(Date.now()).slice(-11)}`;
let garagem: number;
let ativos: number[];

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, baseUrl, 'admin', adminPassword);
  garagem = (await api('/api/garagem', { nome: `Garagem E2E ${serial}` })).id;
  const other = (await api('/api/garagem', { nome: `Outra E2E ${serial}` })).id;
  ativos = [];
  for (const [i, placa] of plates.entries()) {
    ativos.push((await api('/api/ativo', { descricao: `Nested E2E ${placa}`, placa, idGaragem: i < 2 ? garagem : other })).id);
  }
  const doc = serial.slice(-11);
  await api('/api/motorista', { nome: `Motorista E2E ${serial}`, documento: `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`, idGaragem: garagem });
  await api('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await api('/api/equipamento_ativo', { serial, ativoId: ativos[0], dataInicio: '2024-01-01T00:00:00Z' });
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

describe("a garage's ativos", () => {
  it('opens the garage record page on its first tab, Ativos, listing only its assets, titled with the garage', async () => {
    await page.goto(`${baseUrl}/tlm/fro/garagem/${garagem}`);
    await page.waitForURL(`${baseUrl}/tlm/fro/garagem/${garagem}/ativos`);
    expect(await page.getByRole('tablist', { name: 'Abas' }).getByRole('tab').allInnerTexts()).toEqual(['Ativos', 'Motoristas', 'Editar']);
    await page.locator('h1', { hasText: `Ativos: Garagem E2E ${serial}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(2);
    const text = await page.locator('tbody').innerText();
    expect(text).toContain(plates[0]);
    expect(text).toContain(plates[1]);
    expect(text).not.toContain(plates[2]);
    await page.getByText('1-2 de 2').waitFor(T);
  });

  it('and its motoristas and its form, in the other tabs', async () => {
    await page.getByRole('tab', { name: 'Editar' }).click(T);
    await page.waitForURL(`${baseUrl}/tlm/fro/garagem/${garagem}/editar`);
    await page.locator('h1', { hasText: `Editar: Garagem E2E ${serial}` }).waitFor(T);
    expect(await page.locator('#root_nome').inputValue()).toBe(`Garagem E2E ${serial}`);
    await page.getByRole('tab', { name: 'Motoristas' }).click(T);
    await page.waitForURL(`${baseUrl}/tlm/fro/garagem/${garagem}/motoristas`);
    await page.locator('h1', { hasText: `Motoristas: Garagem E2E ${serial}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    expect(await page.locator('tbody').innerText()).toContain(`Motorista E2E ${serial}`);
    await page.goto(`${baseUrl}/tlm/fro/garagem/${garagem}/ativos`);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(2);
  });

  it('adds an asset from the nested list: the garage comes filled, and saving goes back to the garage list', async () => {
    const placa = randomPlate();
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.waitForURL(`${baseUrl}/tlm/fro/ativo/adicionar`);
    await page.locator('#root_descricao').fill(`Nested E2E ${placa}`);
    await page.locator('#root_placa').fill(placa);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/tlm/fro/garagem/${garagem}/ativos`);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(3);
    expect(await page.locator('tbody').innerText()).toContain(placa);
    const saved = await api(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ placa }))}`);
    expect(saved.map((r: any) => r.idGaragem)).toEqual([garagem]);
  });

  it('blocks the engine from the row after the ATENÇÃO dialog: the command is queued for the linked device', async () => {
    const row = page.locator('tbody tr', { hasText: plates[0] });
    await row.getByRole('button', { name: 'Ações da linha' }).click();
    await page.getByRole('menuitem', { name: /^Bloquear motor/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('ATENÇÃO').waitFor(T);
    await dialog.getByText('Deseja bloquear o motor deste veículo? O comando será enviado aos equipamentos vinculados.').waitFor(T);
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    // the toast names the vehicle and the device that got the command
    await page.getByText(new RegExp(`^Bloquear motor — .+ \\(${plates[0]}\\): comando enfileirado para o equipamento ${serial}$`)).waitFor(T);
    const fila = await api(`/api/fila_processamento?filter=${encodeURIComponent(JSON.stringify({ serial: [serial] }))}`);
    expect(fila.map((r: any) => [r.serial, r.event, r.status])).toEqual([[serial, 'engineBlock', 'pendente']]);
  });

  it('refuses the asset without a device with the pt-BR message', async () => {
    const row = page.locator('tbody tr', { hasText: plates[1] });
    await row.getByRole('button', { name: 'Ações da linha' }).click();
    await page.getByRole('menuitem', { name: /^Bloquear motor/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('O ativo não tem equipamento vinculado: não há para onde enviar o comando').waitFor(T);
    expect(errors).toEqual([]);
  });
});

describe("an equipment's processing queue (route parameter :serial)", () => {
  it('opens from the equipment record page (by serial) and shows the queued engine block of that serial only', async () => {
    // a command of another device of the company must not show in this serial's queue
    const outro = `8658${serial.slice(-11)}`;
    await api('/api/equipamento', { serial: outro, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
    await api('/api/fila_processamento', { serial: outro, event: 'reboot' });
    await page.goto(`${baseUrl}/adm/cfg/equipamentos/${serial}`);
    await page.waitForURL(`${baseUrl}/adm/cfg/equipamentos/${serial}/configuracao`);
    expect(await page.locator('#root_serial').inputValue()).toBe(serial);
    await page.getByRole('tab', { name: 'Fila de processamento' }).click(T);
    await page.waitForURL(`${baseUrl}/adm/cfg/equipamentos/${serial}/fila_processamento`);
    await page.locator('h1', { hasText: `Fila de processamento: ${serial}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    const row = await page.locator('tbody tr').first().innerText();
    expect(row).toContain(serial);
    expect(row).toContain('Bloquear motor');
    expect(row).toContain('Pendente');
    expect(errors).toEqual([]);
  });
});
