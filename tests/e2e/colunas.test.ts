// The column chooser keeps one column selected (the server refuses an empty choice too: server/calls/usuario-ui.test.ts),
// and the choices of every kind of list reach the server and are accepted (200): an entity list, a provider screen.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };

let s: AdminSession;
let page: Page;
const puts: Response[] = [];
beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  page = s.page;
  page.on('response', (r) => { if (r.url().endsWith('/api/usuario') && r.request().method() === 'PUT') puts.push(r); });
});
afterAll(async () => { await s?.close(); });

const headers = () => page.locator('thead th').allInnerTexts().then((t) => t.map((x) => x.trim()).filter(Boolean));
const checked = () => page.getByRole('menuitem').filter({ has: page.locator('input[type=checkbox]:checked') });
/** The next PUT /api/usuario's status (the choice is saved 1 s after the last change). */
const nextSave = () => page.waitForResponse((r) => r.url().endsWith('/api/usuario') && r.request().method() === 'PUT', T).then((r) => r.status());

describe('column chooser', () => {
  it('unticking every column leaves the last one; each save is accepted', async () => {
    await page.goto(`${baseUrl}/tlm/fro/motorista`);
    await page.getByRole('columnheader', { name: 'Nome' }).waitFor(T);
    const before = await headers();
    await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
    const n = await checked().count();
    expect(n).toBeGreaterThan(1);
    const saved = nextSave();
    for (let i = 0; i < n + 1; i++) await checked().first().click();
    await expect.poll(() => checked().count(), T).toBe(1);
    await page.keyboard.press('Escape');
    expect(await saved).toBe(200);
    await expect.poll(async () => (await headers()).length, T).toBe(1);
    // put them back
    const back = nextSave();
    await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
    for (const h of before) if (!(await headers()).includes(h)) await page.getByRole('menuitem', { name: h, exact: true }).click();
    await page.keyboard.press('Escape');
    expect(await back).toBe(200);
    await expect.poll(headers, T).toEqual(before);
  });

  it('a provider screen\'s choice is accepted by the server', async () => {
    // the library test hides and shows Subtítulo on this screen too (same user): start from whatever is shown
    await page.goto(`${baseUrl}/adm/bib/biblioteca_de_eventos/queclink/gv58cg/eventos`);
    await page.getByRole('columnheader', { name: 'Evento' }).waitFor(T);
    const before = await headers();
    for (const _ of [1, 2]) {
      const saved = nextSave();
      await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
      await page.getByRole('menuitem', { name: 'Subtítulo' }).click();
      await page.keyboard.press('Escape');
      expect(await saved).toBe(200);
    }
    await expect.poll(headers, T).toEqual(before);
    expect(puts.map((r) => r.status()).filter((x) => x !== 200)).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
