// Company area as an administrator uses it: an API key is shown once in a dialog after it is added (never in the
// list), and the own profile (/perfil) opens with the user's data.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

let s: AdminSession;
let page: Page;
beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  page = s.page;
});
afterAll(async () => { await s?.close(); });

it('shows a new API key once, then lists it by its start only', async () => {
  await page.goto(`${baseUrl}/adm/sis/empresa/chaves_de_api/adicionar`);
  await page.getByLabel('Descrição').waitFor(T);
  await page.getByLabel('Descrição').fill('Integração ERP e2e');
  await page.getByRole('button', { name: 'Salvar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chave gerada' });
  await dialog.waitFor(T);
  const chave = await dialog.getByLabel('Chave').inputValue();
  expect(chave).toMatch(/^rst_[A-Za-z0-9_-]{43}$/);
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/chave-gerada.png` });
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  await page.waitForURL(`${baseUrl}/adm/sis/empresa/chaves_de_api`);
  const row = page.locator('table tbody tr', { hasText: 'Integração ERP e2e' });
  await row.waitFor(T);
  expect(await row.innerText()).toContain(chave.slice(0, 10));
  expect(await page.content()).not.toContain(chave);
});

it('opens the own profile with the signed-in user\'s data', async () => {
  await page.goto(`${baseUrl}/perfil`);
  await page.getByRole('heading', { level: 1, name: 'Meu perfil', exact: true }).waitFor(T);
  await expect.poll(() => page.getByLabel('Login').inputValue(), T).toBe('admin');
  expect(await page.getByRole('button', { name: 'Alterar senha' }).count()).toBe(1);
});

it('logs no errors in the browser console', () => {
  expect(s.errors).toEqual([]);
});
