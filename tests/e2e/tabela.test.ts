// Shared table (spec section 2): three-state sorting (asc, desc, none) and column order by dragging a
// header, saved with the column choice (PUT /api/usuario) and restored after a reload; window zoom rule.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const LIST = `${baseUrl}/tlm/fro/motorista`;

let browser: Browser;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 1000 } });
  page = await ctx.newPage();
  await signIn(page, baseUrl, 'admin', adminPassword);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

const headers = () => page.locator('thead th').allInnerTexts().then((t) => t.map((s) => s.trim()).filter(Boolean));
const sortParam = () => new URL(page.url()).searchParams.get('sort');
const names = async () => {
  const i = (await headers()).indexOf('Nome');
  return page.locator('tbody tr').evaluateAll((rows, i) => rows.map((r) => (r.querySelectorAll('td')[i] as HTMLElement | undefined)?.innerText.trim() ?? ''), i);
};
// The names of the first page as the server sorts them (its collation decides).
async function apiNames(order: 'ASC' | 'DESC'): Promise<string[]> {
  const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}/api/motorista?sort=${encodeURIComponent(JSON.stringify(['nome', order]))}&range=[0,24]`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await r.json()) as { nome: string }[]).map((m) => m.nome);
}
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

describe('shared table', () => {
  it('sorts a column ascending, then descending, then not at all', async () => {
    // start unsorted (the default order of motorista is by nome)
    await page.goto(`${LIST}?sort=id&order=ASC`);
    await page.getByRole('columnheader', { name: 'Nome' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(2);
    const nome = page.locator('thead th', { hasText: 'Nome' }).getByRole('button');

    await nome.click();
    await expect.poll(sortParam, T).toBe('nome');
    expect(new URL(page.url()).searchParams.get('order')).toBe('ASC');
    const asc = await apiNames('ASC');
    await expect.poll(names, T).toEqual(asc);
    expect(await page.locator('thead .MuiTableSortLabel-root.Mui-active').count()).toBe(1);

    await nome.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('order'), T).toBe('DESC');
    const desc = await apiNames('DESC');
    expect(desc).not.toEqual(asc);
    await expect.poll(names, T).toEqual(desc);

    await nome.click();
    await expect.poll(sortParam, T).toBe('id');
    await expect.poll(() => page.locator('thead .MuiTableSortLabel-root.Mui-active').count(), T).toBe(0);
  });

  it('reorders columns by dragging a header and keeps the order after a reload', async () => {
    const before = await headers();
    expect(before[1]).toBe('Nome');
    const first = before[0]!;
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/usuario') && r.request().method() === 'PUT' && r.ok(), { timeout: 30_000 });
    await page.locator('thead th[data-column="nome"]').dragTo(page.locator('thead th[data-column="documento"]'));
    await expect.poll(headers).toEqual(['Nome', first, ...before.slice(2)]);
    await saved;
    await page.reload();
    await page.getByRole('columnheader', { name: 'Nome' }).waitFor();
    await expect.poll(headers).toEqual(['Nome', first, ...before.slice(2)]);
    // the column chooser lists the same order
    await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
    const items = (await page.getByRole('menuitem').allInnerTexts()).map((s) => s.trim());
    expect(items.slice(0, 2)).toEqual(['Nome', first]);
    await page.keyboard.press('Escape');
  });

  it('zooms the window to 75% / 80% / 100% by screen height', async () => {
    const zoomAt = async (height: number) => {
      const c = await browser.newContext({ viewport: { width: 1280, height }, screen: { width: 1280, height } });
      const p = await c.newPage();
      await p.goto(`${baseUrl}/login`);
      await p.getByLabel('Usuário').waitFor();
      const z = await p.evaluate(() => getComputedStyle(document.getElementById('root')!).zoom);
      await c.close();
      return z;
    };
    expect(await zoomAt(768)).toBe('0.75');
    expect(await zoomAt(900)).toBe('0.8');
    expect(await zoomAt(1000)).toBe('1');
  });

  it('under the window zoom, a list and a menu open right below their fields (popups are not zoomed twice)', async () => {
    const c = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 }, screen: { width: 1440, height: 900 } });
    const p = await c.newPage();
    try {
      await signIn(p, baseUrl, 'admin', adminPassword);
      await p.goto(`${baseUrl}/adm/cfg/equipamentos/adicionar`);
      const field = p.getByLabel('Tecnologia');
      await expect.poll(() => field.inputValue(), T).toBe('Queclink @Track');
      expect(await p.evaluate(() => getComputedStyle(document.getElementById('root')!).zoom)).toBe('0.8');
      // the list's box starts at the field's left edge, just below it, and is as wide as the field's box
      const near = async (list: string, anchor: import('playwright-core').Locator) => {
        const a = (await anchor.boundingBox())!;
        const l = (await p.locator(list).first().boundingBox())!;
        return { dx: Math.round(Math.abs(l.x - a.x)), below: l.y >= a.y + a.height - 2 && l.y <= a.y + a.height + 12 };
      };
      await field.click();
      await p.getByRole('option', { name: 'Legado (binário)' }).waitFor(T);
      const box = field.locator('xpath=ancestor::div[contains(@class,"MuiInputBase-root")]');
      expect(await near('.MuiAutocomplete-popper', box)).toEqual({ dx: 0, below: true });
      const [fw, lw] = [(await box.boundingBox())!.width, (await p.locator('.MuiAutocomplete-paper').boundingBox())!.width];
      expect(Math.abs(fw - lw)).toBeLessThan(3);
      // the list's text is drawn at the window zoom, like the field's
      const fontOf = (sel: string) => p.locator(sel).first().evaluate((el) => el.getBoundingClientRect().height);
      expect(Math.abs(await fontOf('[role="option"]') - 0.8 * 36)).toBeLessThan(4); // a 36 px option row, at 80 %
      if (process.env.E2E_SHOTS) await p.screenshot({ path: `${process.env.E2E_SHOTS}/zoom-autocomplete.png` });
      await p.keyboard.press('Escape');
      // the company switcher's menu (a Select's popover) opens under the switcher
      const sw = p.locator('header [role="combobox"]');
      await sw.click();
      await p.getByRole('option', { name: 'Logística Beta' }).waitFor(T);
      const m = await near('.MuiPopover-paper', sw);
      expect(m.dx).toBeLessThan(40);
      if (process.env.E2E_SHOTS) await p.screenshot({ path: `${process.env.E2E_SHOTS}/zoom-menu.png` });
      await p.keyboard.press('Escape');
    } finally { await c.close(); }
  });
});
