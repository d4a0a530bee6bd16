// Navigation a new user trips over (issue 20): opening the app signed out goes to the login form at once (one
// replaced entry, no react-admin redirect loop) and back to the asked page after sign-in; a form opened by its URL
// returns to its list after Salvar, Cancelar and Voltar (never to the page before the app).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, launch, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = process.env.E2E_SHOTS;

let browser: Browser;
beforeAll(async () => { browser = await launch(); });
afterAll(async () => { await browser?.close(); });

/** A fresh context (no cookie) whose page counts history.pushState calls. */
async function freshPage(): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __pushes: number };
    w.__pushes = 0;
    const push = history.pushState.bind(history);
    history.pushState = (...a: Parameters<History['pushState']>) => { w.__pushes++; push(...a); };
  });
  return { ctx, page };
}

/** Opens `path` signed out; answers the API calls the page made before the login form showed. The form must come
 *  at once: with no token, without waiting for any server answer (no call at all); with one, after the one session
 *  check. Counted, not timed (a time bound failed on a loaded machine with nothing wrong). */
async function openSignedOut(page: Page, path: string, chunks: string[] = []): Promise<string[]> {
  const api: string[] = [];
  let shown = false;
  page.on('request', (r) => {
    if (/vendor-react-admin/.test(r.url())) chunks.push(r.url());
    if (!shown && new URL(r.url()).pathname.startsWith('/api/')) api.push(new URL(r.url()).pathname);
  });
  await page.goto(`${baseUrl}${path}`, { waitUntil: 'commit' });
  await page.getByLabel('Usuário').waitFor({ timeout: 10_000 });
  shown = true;
  return api;
}

async function fillLogin(page: Page) {
  await page.getByLabel('Usuário').fill('admin');
  await page.getByLabel('Senha').fill(adminPassword);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

describe('signed out', () => {
  it('/ shows the login form at once, in one replaced entry; Back leaves it', async () => {
    const { ctx, page } = await freshPage();
    try {
      const chunks: string[] = [];
      const api = await openSignedOut(page, '/', chunks);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/login-redirect.png` });
      expect(api).toEqual([]);
      expect(chunks).toEqual([]); // react-admin is not even loaded for a visitor without a token
      expect(page.url()).toBe(`${baseUrl}/login`);
      // the redirect settled: a while later still one entry for the app and no pushState at all
      await page.waitForLoadState('networkidle');
      const h = await page.evaluate(() => ({ length: history.length, pushes: (window as unknown as { __pushes: number }).__pushes }));
      expect(h.length).toBeLessThanOrEqual(3);
      expect(h.pushes).toBe(0);
      // Back goes to the page before the app (about:blank here), not to another /login
      await page.goBack();
      expect(page.url()).toBe('about:blank');
    } finally {
      await ctx.close();
    }
  });

  it('a deep link opened signed out returns there after sign-in', async () => {
    const { ctx, page } = await freshPage();
    try {
      expect(await openSignedOut(page, '/tlm/fro/ativo?x=1')).toEqual([]);
      expect(page.url()).toBe(`${baseUrl}/login`);
      await fillLogin(page);
      await page.waitForURL(`${baseUrl}/tlm/fro/ativo?x=1`, T);
      await page.getByRole('columnheader', { name: 'Placa' }).first().waitFor(T);
      expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(3);
      // Back works: a second page, then Back to the list
      await page.goto(`${baseUrl}/home`);
      await page.goBack();
      await page.waitForURL(`${baseUrl}/tlm/fro/ativo?x=1`, T);
    } finally {
      await ctx.close();
    }
  });

  it('a token the server does not know goes to the login form once and returns after sign-in', async () => {
    const { ctx, page } = await freshPage();
    try {
      await ctx.addCookies([{ name: 'rastro_token', value: 'sessao-que-nao-existe', url: baseUrl }]);
      // one session check first, nothing else
      expect((await openSignedOut(page, '/tlm/fro/ativo')).length).toBeLessThanOrEqual(1);
      // settled: the form is up (networkidle never comes while a client retries its socket with the dead token)
      await page.getByLabel('Usuário').waitFor(T);
      const h = await page.evaluate(() => ({ length: history.length, pushes: (window as unknown as { __pushes: number }).__pushes }));
      expect(h.length).toBeLessThanOrEqual(3);
      expect(h.pushes).toBe(0);
      await fillLogin(page);
      await page.waitForURL(`${baseUrl}/tlm/fro/ativo`, T);
    } finally {
      await ctx.close();
    }
  });
});

describe('a form opened by its URL', () => {
  let ctx: BrowserContext;
  let id: number;
  const list = `${baseUrl}/adm/bib/acessorios`;
  beforeAll(async () => {
    ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
    const p = await ctx.newPage();
    await signIn(p, baseUrl, 'admin', adminPassword);
    const r = await apiCall(ctx, baseUrl, '/api/acessorio', { descricao: `Sensor de porta ${Date.now()}` });
    id = Number(r.payload?.id ?? r.id);
    expect(id).toBeGreaterThan(0);
    await p.close();
  });
  afterAll(async () => { await ctx?.close(); });

  // each case opens the edit form in a new tab (no history of the app before it)
  async function openForm(): Promise<Page> {
    const page = await ctx.newPage();
    await page.goto(`${list}/${id}`);
    await page.locator('#root_descricao').waitFor(T);
    expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(2);
    return page;
  }

  it('Salvar goes to the list', async () => {
    const page = await openForm();
    const descricao = `Sensor de porta salvo ${Date.now()}`;
    await page.locator('#root_descricao').fill(descricao);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/form-direct.png` });
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(list, T);
    await page.getByText(descricao).first().waitFor(T);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/form-saved-list.png` });
    await page.close();
  });

  it('Cancelar and Voltar go to the list', async () => {
    const page = await openForm();
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.waitForURL(list, T);
    await page.close();
    const again = await openForm();
    await again.getByRole('button', { name: 'Voltar' }).first().click();
    await again.waitForURL(list, T);
    await again.close();
  });
});
