// Public link in the browser (issue 21): the list shows the catalogue's columns; Copiar link shows the full address
// once; that address opens with no sign-in and shows the link's vehicle on the map and in the list; Revogar (row menu)
// ends the open page at once with the pt-BR message.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { apiCall, launch, menuEntry, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = process.env.SCREENSHOT_DIR;
const DESCRICAO = `Cliente e2e ${Date.now() % 100000}`;

let s: AdminSession;
let anon: { browser: Browser; ctx: BrowserContext };
let ativo: { ativoId: number; descricao: string; placa: string };

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  // A vehicle of the company with a position (the demo trackers report).
  for (const until = Date.now() + 30_000; !ativo && Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
    ativo = (await apiCall(s.ctx, baseUrl, '/api/link_publico/estados?range=[0,99]')).find((r: any) => r.latitude != null && r.placa);
  }
  expect(ativo).toBeTruthy();
  await apiCall(s.ctx, baseUrl, '/api/link_publico', { descricao: DESCRICAO, ativos: [ativo.ativoId], validoAte: new Date(Date.now() + 7 * 86_400_000).toISOString() });
  const browser = await launch();
  anon = { browser, ctx: await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } }) };
});
afterAll(async () => { await s?.close(); await anon?.ctx.close(); await anon?.browser.close(); });

describe('public link', () => {
  it('copied address opens with no sign-in, shows the vehicle, and says the link is no longer valid once revoked', async () => {
    const { page } = s;
    await (await menuEntry(page, 'Links públicos')).click();
    await page.waitForURL(`${baseUrl}/tlm/ras/link_publico`);
    await page.getByRole('row').filter({ hasText: DESCRICAO }).waitFor(T);
    const headers = (await page.getByRole('columnheader').allTextContents()).map((h) => h.trim()).filter(Boolean);
    expect(headers).toEqual(['Descrição', 'Ativo', 'Placa', 'Modelo do equipamento', 'Equipamento', 'Última comunicação', 'Última posição', 'Válido até', 'Situação']);
    const row = page.getByRole('row').filter({ hasText: DESCRICAO });
    await expect.poll(() => row.count(), T).toBe(1);
    expect(await row.textContent()).toContain(ativo.placa);
    expect(await row.textContent()).toContain('Válido');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/link-lista.png` });

    // Copiar link: a new address, shown once, whole
    await row.getByRole('button', { name: 'Ações da linha' }).click();
    await page.getByRole('menuitem', { name: /Copiar link/ }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link gerado' });
    await dialog.waitFor(T);
    const url = await dialog.getByRole('textbox').inputValue();
    expect(url).toMatch(new RegExp(`^${baseUrl.replace(/[.]/g, '\\.')}/public/rastreamento_ao_vivo/query\\?token=rst_[A-Za-z0-9_-]{43}$`));
    if (SHOTS) await dialog.screenshot({ path: `${SHOTS}/link-copiar.png` });
    await dialog.getByRole('button', { name: 'Fechar' }).click();

    // The public page, in a browser with no session
    const pub = await anon.ctx.newPage();
    const errors: string[] = [];
    pub.on('pageerror', (e) => errors.push(e.message));
    await pub.goto(url);
    await pub.getByRole('heading', { name: 'Rastreamento ao vivo' }).waitFor(T);
    await expect.poll(() => pub.getByText(DESCRICAO).count(), T).toBeGreaterThan(0);
    const item = pub.locator(`[data-ativo="${ativo.descricao}"]`);
    await expect.poll(() => item.count(), T).toBe(1);
    expect(await item.textContent()).toContain(ativo.placa);
    await expect.poll(() => pub.locator('.leaflet-tooltip').filter({ hasText: ativo.placa }).count(), T).toBe(1);
    expect(await pub.locator('[data-ativo]').count()).toBe(1);
    expect(pub.url()).not.toContain('/login');
    if (SHOTS) await pub.screenshot({ path: `${SHOTS}/link-publico.png` });

    // Revogar from the list: the open page says so at once
    await row.getByRole('button', { name: 'Ações da linha' }).click();
    await page.getByRole('menuitem', { name: /Revogar/ }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await pub.getByRole('alert').filter({ hasText: 'Este link não é mais válido.' }).waitFor(T);
    expect(await pub.locator('.leaflet-container').count()).toBe(0);
    if (SHOTS) await pub.screenshot({ path: `${SHOTS}/link-revogado.png` });
    await expect.poll(async () => (await row.textContent()) ?? '', T).toContain('Revogado');
    // opened again: the same message
    await pub.reload();
    await pub.getByRole('alert').filter({ hasText: 'Este link não é mais válido.' }).waitFor(T);
    expect(errors).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
