// Operational information where operators look (issue 20, item 6 and 7): the vehicle list's connection chip, last
// communication ('há …'), driver and last position; the record's Mapa tab; the device list's vehicle; Registros with
// the event description, 6-decimal coordinates, the address and a link to the point on the map.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 45_000 };
const shots = process.env.E2E_SHOTS;

interface Estado { serial: string; ativoId: number | null; ativoDescricao: string | null; placa: string | null; latitude: number | null }

let s: AdminSession;
let page: Page;
let alvo: Estado;
let motorista: string;

const withFilter = (path: string, filter: Record<string, unknown>) => `${baseUrl}${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;
const row = () => page.locator('table tbody tr').first();

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  page = s.page;
  // the demo's first vehicle (garage in São Paulo) once its tracker reported a position (other browser tests add
  // vehicles of their own to this company, elsewhere)
  for (const until = Date.now() + 90_000; !alvo && Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
    const rows = (await apiCall(s.ctx, baseUrl, '/api/rastreamento/ultimo_estado')).payload as Estado[];
    alvo = rows.find((r) => r.ativoDescricao === 'Veículo 001' && r.latitude != null)!;
  }
  if (!alvo) throw new Error('no demo tracker reported a position');
  // a temporary driver in force: the list's driver when the device identifies none
  const m = (await (await fetch(`${baseUrl}/api/motorista?range=[0,0]`, { headers: { Authorization: `Bearer ${decodeURIComponent((await s.ctx.cookies()).find((c) => c.name === 'rastro_token')!.value)}` } })).json()) as { id: number; nome: string }[];
  motorista = m[0].nome;
  const now = Date.now();
  await apiCall(s.ctx, baseUrl, '/api/motorista_temporario', {
    ativoId: alvo.ativoId, motoristaId: m[0].id, dataInicio: new Date(now - 3_600_000).toISOString(), dataFim: new Date(now + 3_600_000).toISOString(),
  });
}, 120_000);
afterAll(async () => { await s?.close(); });

describe('operational information', () => {
  it('vehicle list: online chip, last communication, driver and last position', async () => {
    await page.goto(withFilter('/tlm/fro/ativo', { q: alvo.placa }));
    await expect.poll(() => row().innerText(), T).toContain(alvo.placa!);
    for (const h of ['Conexão', 'Última comunicação', 'Motorista', 'Última posição']) {
      await expect.poll(() => page.locator('thead th').allInnerTexts(), T).toContain(h);
    }
    await expect.poll(() => row().locator('[data-format="online"]').getAttribute('data-online'), T).toBe('sim');
    await expect.poll(() => row().locator('[data-format="online"]').innerText(), T).toBe('Online');
    await expect.poll(() => row().locator('[data-format="relativo"]').innerText(), T).toMatch(/^(agora|há \d+ min)$/);
    await expect.poll(() => row().innerText(), T).toContain(motorista);
    // the address cache (nearest municipality offline): 'São Paulo/SP'
    await expect.poll(() => row().innerText(), T).toMatch(/São Paulo\/SP/);
    if (shots) await page.screenshot({ path: `${shots}/ativo-lista-operacao.png` });
  });

  it("the vehicle's record has a map tab with its marker and address", async () => {
    await page.goto(`${baseUrl}/tlm/fro/ativo/${alvo.ativoId}/mapa`);
    await page.getByTestId('mapa-do-ativo').waitFor(T);
    await expect.poll(() => page.locator('.leaflet-container .leaflet-marker-icon').count(), T).toBe(1);
    await expect.poll(() => page.getByTestId('mapa-endereco').innerText(), T).toBe('Endereço: São Paulo/SP');
    if (shots) await page.screenshot({ path: `${shots}/ativo-mapa.png` });
  });

  it('device list says which vehicle each device is in', async () => {
    await page.goto(withFilter('/adm/cfg/equipamentos', { q: alvo.serial }));
    await expect.poll(() => row().innerText(), T).toContain(alvo.serial);
    await expect.poll(() => row().innerText(), T).toContain(`${alvo.ativoDescricao} (${alvo.placa})`);
  });

  it('registros: event description, 6 decimals, address and a link to the point on the map', async () => {
    await page.goto(withFilter('/tlm/ras/registros', { serial: [alvo.serial] }));
    await expect.poll(() => page.locator('table tbody tr').count(), T).toBeGreaterThan(0);
    const text = () => page.locator('table tbody').innerText();
    await expect.poll(text, T).toContain('Relatório periódico de posição');
    await expect.poll(text, T).not.toContain('GTFRI');
    await expect.poll(() => row().locator('[data-format="coordenada"]').allInnerTexts(), T).toEqual([expect.stringMatching(/^-\d{1,2}\.\d{6}$/), expect.stringMatching(/^-\d{1,2}\.\d{6}$/)]);
    await expect.poll(() => row().innerText(), T).toContain('São Paulo/SP');
    const link = row().getByRole('link', { name: 'Ver no mapa' });
    expect(await link.getAttribute('href')).toMatch(/^\/tlm\/ras\/mapa_do_ativo\?ativo=\d+&lat=-\d+\.\d+&lon=-\d+\.\d+/);
    if (shots) await page.screenshot({ path: `${shots}/registros.png` });
    await link.click();
    await page.waitForURL(/\/tlm\/ras\/mapa_do_ativo\?/);
    // the asset's latest position and the record's point
    await expect.poll(() => page.locator('.leaflet-container .leaflet-marker-icon').count(), T).toBe(2);
    await expect.poll(() => page.getByTestId('mapa-ponto').innerText(), T).toMatch(/^Ponto do registro de .+: -\d+\.\d{6}, -\d+\.\d{6}/);
  });

  it('logs no errors in the browser console', () => {
    expect(s.errors).toEqual([]);
  });
});
