// Browser test of the home page and the menu (issue 20, defect 10): the operator's overview cards show the numbers of
// GET /api/home/frota (checked against SQL in modules/inicio/server/inicio.test.ts), their sum is the company's
// vehicles, a card opens the monitoring list on its tab, a push `estado_frota` over the socket (the demo devices
// report through the gateway) makes the page read the numbers again without reload; the read-only user sees no
// register counters and no "Adicionar"; the menu follows the route tree, folds, searches without accents and shows
// tooltips when collapsed.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const leitorPassword = inject('leitorPassword');
const CARDS = ['emMovimento', 'parado', 'desligado', 'semComunicacao'] as const;

let admin: AdminSession;
let leitor: AdminSession;

beforeAll(async () => {
  admin = await openSession(baseUrl, 'admin', adminPassword);
  leitor = await openSession(baseUrl, 'leitor', leitorPassword);
});
afterAll(async () => {
  await admin?.close();
  await leitor?.close();
});

const num = (s: string | null) => Number((s ?? '').replace(/\./g, '').replace(',', '.'));

describe('home (admin)', () => {
  it('shows the fleet cards with the server numbers; they add up to the vehicles of the company', async () => {
    const { page, ctx } = admin;
    await page.goto(`${baseUrl}/home`);
    await page.getByRole('region', { name: /Frota agora/ }).waitFor();
    const total = Number((await fetch(`${baseUrl}/api/ativo?range=${encodeURIComponent('[0,0]')}`, {
      headers: { Authorization: `Bearer ${decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value)}` },
    })).headers.get('content-range')?.split('/')[1]);
    expect(total).toBeGreaterThan(0);
    // The demo fleet moves: compare a reading of the page with the answer of the same moment.
    await expect.poll(async () => {
      const api = (await apiCall(ctx, baseUrl, '/api/home/frota')).payload;
      const shown = await Promise.all(CARDS.map(async (k) => num(await page.getByTestId(`card-${k}`).textContent())));
      return JSON.stringify(shown) === JSON.stringify(CARDS.map((k) => api[k])) && shown.reduce((a, b) => a + b, 0) === total;
    }, { timeout: 30_000, interval: 500 }).toBe(true);
    for (const t of ['Comandos pendentes', 'Equipamentos pendentes de cadastro', 'Distância percorrida hoje', 'Alarmes hoje']) {
      await expect.poll(() => page.getByText(t, { exact: true }).count()).toBe(1);
    }
    // Register counters: grouped by menu section, no label twice in a section.
    const cad = page.getByRole('region', { name: 'Cadastros' });
    await cad.waitFor();
    const labels = await cad.locator('[data-secao]').evaluateAll((cards) => cards.flatMap((c) =>
      [...c.querySelectorAll('[data-count] > span:first-child')].map((s) => `${c.getAttribute('data-secao')}/${s.textContent}`)));
    expect(labels.length).toBeGreaterThan(5);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('Telemetria › Frota/Ativos');
  });

  it('a push over the socket makes the page read the numbers again, without reload', async () => {
    const { page } = admin;
    const pushes: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => { if (String(f.payload).includes('estado_frota')) pushes.push(String(f.payload)); }));
    await page.goto(`${baseUrl}/home`);
    await page.getByTestId('card-emMovimento').waitFor();
    await expect.poll(() => page.getByTestId('card-emMovimento').textContent()).toMatch(/^\d+$/);
    const reads: number[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/api/home/frota')) reads.push(Date.now()); });
    await page.evaluate(() => { (window as unknown as { semReload: boolean }).semReload = true; });
    // The demo devices report through the gateway every few seconds: each write pushes estado_frota.
    await expect.poll(() => pushes.length, { timeout: 45_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(() => reads.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { semReload?: boolean }).semReload)).toBe(true);
  });

  it('a card opens the monitoring list on its tab, filtered', async () => {
    const { page } = admin;
    await page.goto(`${baseUrl}/home`);
    await page.locator('[data-card="desligado"]').click();
    await page.waitForURL(`${baseUrl}/rel/ges/gestao_a_vista/monitoramento/desligados`);
    await expect.poll(() => page.getByRole('tab', { selected: true }).textContent()).toBe('Desligados');
    await page.locator('.RaDatagrid-table, .rastro-list').first().waitFor();
    await expect.poll(async () => {
      const cells = await page.locator('td.column-estado').allTextContents();
      return cells.every((c) => c === 'Desligado');
    }).toBe(true);
  });
});

describe('home and lists (leitor)', () => {
  it('no register counters; the fleet cards stay', async () => {
    const { page } = leitor;
    await page.goto(`${baseUrl}/home`);
    await page.getByRole('region', { name: /Frota agora/ }).waitFor();
    await expect.poll(() => page.getByTestId('card-emMovimento').textContent()).toMatch(/^\d+$/);
    expect(await page.getByRole('region', { name: 'Cadastros' }).count()).toBe(0);
    expect(await page.locator('[data-count]').count()).toBe(0);
  });

  it('"Adicionar" is absent, not disabled, on a list the user cannot add to', async () => {
    const { page } = leitor;
    for (const path of ['/adm/sis/empresa/historico_de_login', '/tlm/fro/ativo']) {
      await page.goto(`${baseUrl}${path}`);
      await page.locator('.rastro-list').waitFor();
      await page.locator('.RaDatagrid-table, .rastro-list :text("Nenhum item foi encontrado")').first().waitFor();
      expect(await page.getByRole('button', { name: 'Adicionar' }).count(), path).toBe(0);
    }
  });
});

describe('menu', () => {
  it('follows the route tree: sections fold and the choice is remembered', async () => {
    const { page } = admin;
    await page.goto(`${baseUrl}/home`);
    const tlm = page.getByRole('button', { name: 'Telemetria' });
    await tlm.waitFor();
    expect(await tlm.getAttribute('aria-expanded')).toBe('false');
    await tlm.click();
    const frota = page.getByRole('button', { name: 'Frota', exact: true });
    await frota.click();
    await page.getByRole('menuitem', { name: 'Motoristas' }).waitFor();
    await page.reload();
    await page.getByRole('menuitem', { name: 'Motoristas' }).waitFor();
    expect(await page.getByRole('button', { name: 'Telemetria' }).getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('button', { name: 'Telemetria' }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Motoristas' }).count()).toBe(0);
  });

  it('the search box finds entries without accents ("motor" → Motoristas; "situacoes" → Situações do ativo)', async () => {
    const { page } = admin;
    const box = page.getByRole('textbox', { name: 'Buscar no menu' });
    await box.fill('motor');
    await page.getByRole('menuitem', { name: 'Motoristas' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Ativos' }).count()).toBe(0);
    await box.fill('situacoes');
    await page.getByRole('menuitem', { name: 'Situações do ativo' }).waitFor();
    await box.fill('');
  });

  it('the collapsed menu shows the label of an entry as a tooltip', async () => {
    const { page } = admin;
    await page.goto(`${baseUrl}/tlm/fro/ativo`);
    // The previous test closed Telemetria (remembered); forget the choices: the current page's section opens.
    await page.evaluate(() => localStorage.removeItem('rastro.menu.abertas'));
    await page.reload();
    await page.getByRole('menuitem', { name: 'Ativos' }).waitFor();
    await page.getByRole('button', { name: 'Fechar menu' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Buscar no menu' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Ativos' }).hover();
    await expect.poll(() => page.getByRole('tooltip').textContent(), { timeout: 10_000 }).toBe('Ativos');
    await page.getByRole('button', { name: 'Abrir menu' }).click();
  });
});
