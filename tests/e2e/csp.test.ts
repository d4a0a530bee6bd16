// The built app under the server's Content-Security-Policy (server/http/security-headers.ts): pages carry the
// policy, and signing in, lists, forms, the live map (tiles, markers) and the realtime socket run without a
// single CSP violation.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, signIn } from './browser';
import { linhasDe } from '../../shared/tabela';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const violations: string[] = [];

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  // Every violation of every document, reported by the browser itself.
  await ctx.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} @ ${location.pathname}`);
    });
  });
  page = await ctx.newPage();
  page.on('console', (m) => { if (/Content.Security.Policy|^CSP /i.test(m.text())) violations.push(m.text()); });
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

describe('Content-Security-Policy in the browser', () => {
  it('pages carry the policy with frame-ancestors', async () => {
    const r = await page.goto(`${baseUrl}/login`);
    const csp = r!.headers()['content-security-policy'];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(r!.headers()['x-content-type-options']).toBe('nosniff');
  });

  it('sign-in, list, form, live map and the realtime socket run without violations', async () => {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await signIn(page, baseUrl, 'admin', adminPassword);
    await page.goto(`${baseUrl}/tlm/fro/ativo`);
    await page.getByRole('columnheader', { name: 'Placa' }).first().waitFor();
    await page.goto(`${baseUrl}/tlm/fro/ativo/adicionar`);
    await page.locator('#root_descricao').waitFor();
    // the live map drawn from its data (markers are styled elements) and the realtime socket open
    const positions = page.waitForResponse((r) => r.url().includes('/api/rastreamento/ultimo_estado') && r.ok(), { timeout: 60_000 });
    await page.goto(`${baseUrl}/tlm/ras/rastreamento_ao_vivo`);
    await page.locator('.leaflet-container').waitFor();
    const body = await (await positions).json();
    // the map asks for its columns as a table (shared/tabela.ts)
    const located = linhasDe<{ latitude?: number | null }>(body.payload).filter((r) => r.latitude);
    await expect.poll(() => page.getByTestId('atualizado').textContent(), { timeout: 30_000 }).toMatch(/^Atualizado às/);
    if (located.length) await page.locator('.rastro-veiculo, .rastro-cluster').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => sockets.some((u) => u.includes('/socket_server')), { timeout: 30_000 }).toBe(true);
    // violation reports are dispatched as tasks: one more round trip through the page's task queue delivers them
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(violations).toEqual([]);
  });
});
