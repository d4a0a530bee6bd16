// Browser test of the live tracking map (/tlm/ras/rastreamento_ao_vivo, a metadata screen of kind tela):
// the demo trackers of the server report through the gateway; the map lists a marker per reporting device
// of the active company, and a marker's popup shows its plate and the Portuguese timestamp.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, menuEntry, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const MAP = `${baseUrl}/tlm/ras/rastreamento_ao_vivo`;
const TIMESTAMP = /^(domingo|segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira|sábado), \d{1,2} de [a-zç]+ de \d{4} às \d{2}:\d{2}:\d{2}$/;

interface Estado { serial: string; placa: string | null; latitude: number | null; longitude: number | null; ultimaComunicacao: string | null }

let browser: Browser;
let ctx: BrowserContext;
let page: Page;

async function api<T>(path: string): Promise<T> {
  const token = (await ctx.cookies()).find((c) => c.name === 'rastro_token')?.value;
  const r = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${decodeURIComponent(token ?? '')}` } });
  expect(r.status).toBe(200);
  return (await r.json()).payload as T;
}
const located = (rows: Estado[]) => rows.filter((r) => r.latitude != null && r.longitude != null && !(r.latitude === 0 && r.longitude === 0));

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  await signIn(page, baseUrl, 'admin', adminPassword);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

describe('rastreamento ao vivo (admin)', () => {
  it('is a menu entry and a permission key of the catalogue', async () => {
    expect(await api<string[]>('/api/usuario/permissoes')).toContain('tlm.ras.rastreamento_ao_vivo');
    await (await menuEntry(page, 'Rastreamento ao vivo')).click();
    await page.waitForURL(MAP);
    await page.locator('.leaflet-container').waitFor();
  });

  it('shows one vehicle per device reporting for the active company', async () => {
    // the seeded ativos of the active company each have a demo tracker (IMEI 86400150…, server/seed/demo-data.ts,
    // driven by server/ingest/simulator.ts); wait until all of them reported. Other browser tests of this server add ativos, some with a
    // device that never reports: count only the ativos linked to a demo tracker.
    const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
    const list = await fetch(`${baseUrl}/api/ativo?range=${encodeURIComponent('[0,9999]')}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    const ativos = ((await list.json()) as { equipamentosList: string | null }[]).filter((a) => /\b86400150\d{7}\b/.test(a.equipamentosList ?? '')).length;
    expect(ativos).toBeGreaterThan(0);
    await expect.poll(async () => located(await api<Estado[]>('/api/rastreamento/ultimo_estado')).length, { timeout: 60_000, interval: 1000 }).toBe(ativos);
    // the page applies the pushed states (no polling): its count reaches the devices reporting
    await expect.poll(() => page.getByTestId('total-veiculos').textContent(), { timeout: 30_000 }).toBe(String(ativos));
    await expect.poll(() => page.getByRole('list', { name: 'Veículos' }).getByRole('listitem').count()).toBeGreaterThan(0);
    // every vehicle is on the map: as its own marker or inside a cluster's count
    const onMap = async () => {
      const markers = await page.locator('.rastro-veiculo').count();
      const inClusters = await page.locator('.rastro-cluster [aria-label$=" veículos"]').evaluateAll((els) =>
        els.reduce((n, el) => n + Number(el.getAttribute('aria-label')!.split(' ')[0]), 0));
      return markers + inClusters;
    };
    await page.getByRole('button', { name: 'Mostrar toda a frota' }).click();
    await expect.poll(onMap, { timeout: 30_000 }).toBe(ativos);
  });

  it('searches a vehicle, centres the map on it and shows its plate in the popup', async () => {
    const rows = located(await api<Estado[]>('/api/rastreamento/ultimo_estado')).filter((r) => r.placa);
    const target = rows[Math.floor(rows.length / 2)]!;
    await page.getByRole('textbox', { name: 'Pesquisar veículo' }).fill(target.placa!);
    const items = page.getByRole('list', { name: 'Veículos' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(1);
    await items.first().click();
    const popup = page.locator('.rastro-popup');
    await expect.poll(() => popup.getAttribute('data-serial')).toBe(target.serial);
    await page.locator('.leaflet-popup-close-button').click();
    await expect.poll(() => popup.count()).toBe(0);
    // the vehicle is its own marker now: clicking it opens the popup with the plate
    await page.locator(`.rastro-veiculo svg[data-serial="${target.serial}"]`).click();
    await popup.waitFor();
    const text = await popup.innerText();
    expect(text).toContain(target.placa!);
    const cells = Object.fromEntries(await popup.locator('tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent])));
    expect(cells.Placa).toBe(target.placa);
    expect(cells.Velocidade).toMatch(/^\d+ km\/h$|^Sem informação$/);
    expect(cells['Ignição']).toMatch(/^(Ligada|Desligada|Sem informação)$/);
    expect(cells['Última comunicação']).toMatch(TIMESTAMP);
  });
});

describe('rastreamento ao vivo (cargo holder)', () => {
  it('opens for a user whose cargo holds tlm.ras.rastreamento_ao_vivo, with nothing else', async () => {
    const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
    const empresa = (await api<{ user: { empresaAtiva: number } }>('/api/auth/get_session')).user.empresaAtiva;
    const post = async (path: string, body: unknown) => {
      const r = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', companyId: String(empresa) }, body: JSON.stringify(body) });
      expect(r.status).toBeLessThan(300);
      return r.json();
    };
    const suffix = Date.now().toString(36);
    const cargo = await post('/api/cargo', { descricao: `Monitoramento ${suffix}`, permissoes: ['tlm.ras.rastreamento_ao_vivo'] });
    await post('/api/usuario', { nome: 'Monitor', login: `monitor.${suffix}`, senha: 'Monitor-2024!', empresas: [empresa], empresaAtiva: empresa, cargos: [cargo.id] });
    const c2 = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 1000 } });
    try {
      const p2 = await c2.newPage();
      await signIn(p2, baseUrl, `monitor.${suffix}`, 'Monitor-2024!');
      await (await menuEntry(p2, 'Rastreamento ao vivo')).click();
      await p2.waitForURL(MAP);
      await expect.poll(() => p2.getByTestId('total-veiculos').textContent(), { timeout: 30_000 }).toMatch(/^[1-9]\d*$/);
      expect(await (await menuEntry(p2, 'Ativos')).count()).toBe(0);
    } finally {
      await c2.close();
    }
  });
});
