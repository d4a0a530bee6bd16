// Trips at ingest in the browser (issue 21): a tracker reports a 10 km drive and a halt through the gateway; the asset's
// Viagens tab lists the trip with its distance (pt-BR decimals) and duration, and Análise de viagens shows it with the
// day totals. In the demo's second company (other browser tests count the first company's vehicles).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, randomPlate, secondCompanySession, vehicleWithTrip, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/viagens';

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const veic = { descricao: `Viagem${stamp} Furgão`, placa: randomPlate(), serial: `868${stamp}01`, id: 0 };
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // a user of the demo's second company drives this test (other browser tests count the first company's vehicles)
  s = await secondCompanySession(baseUrl, adminPassword, `viagens.${stamp}`);
  ({ ctx, page } = s);
  veic.id = await vehicleWithTrip(ctx, baseUrl, gatewayPort, veic); // one 10 km trip
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Viagens', () => {
  it('the asset record’s Viagens tab lists the trip: start, end, duration, distance in km with a decimal comma', async () => {
    // the trip closes after five stopped minutes: wait (a condition) until it is stored
    await expect.poll(async () => (await apiCall(ctx, baseUrl, `/api/viagens/ativo/${veic.id}`)).length, { ...T, interval: 300 }).toBe(1);
    await page.goto(`${baseUrl}/tlm/fro/ativo/${veic.id}/informacoes`);
    await page.getByRole('tab', { name: 'Viagens' }).click(T);
    await page.waitForURL(/\/viagens$/, T);
    const row = page.getByRole('row').filter({ hasText: '10,0' });
    await row.first().waitFor(T);
    const text = await row.first().innerText();
    expect(text).toContain('00:11:00'); // from the fix before leaving (0) to the first stopped one (11)
    expect(text).toContain('60');
    await page.screenshot({ path: `${SHOTS}/aba-viagens.png` });
  });

  it('Análise de viagens shows the trip, the day totals and the map', async () => {
    await page.goto(`${baseUrl}/cfg/map/analise_viagens?ativo=${veic.id}`);
    const totals = page.getByTestId('totais-dia');
    await totals.getByRole('row').nth(1).waitFor(T);
    expect(await totals.getByRole('row').nth(1).innerText()).toMatch(/\t1\t10,0\t00:11:00\t/);
    await expect.poll(() => page.getByTestId('viagens-paradas').getByText('Viagem', { exact: true }).count(), T).toBe(1);
    await page.getByTestId('mapa-viagem').waitFor(T);
    // the trip’s stored track is drawn (a solid line of weight 4; the dashed start–end line is only the fallback)
    await expect.poll(() => page.locator('[data-testid="mapa-viagem"] path[stroke-width="4"]:not([stroke-dasharray])').count(), T).toBe(1);
    await page.screenshot({ path: `${SHOTS}/analise.png` });
  });
});
