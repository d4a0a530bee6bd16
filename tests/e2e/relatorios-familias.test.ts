// Report families of session 14 in the browser (issue 22): a vehicle registered now, with a driver assigned, reports
// an 11-minute drive through the gateway (the trip is stored at ingest with the driver). The user opens Relatórios,
// picks Cadastro → Por ativo (the vehicle is 'Novo no período') and Gestão de risco → Detalhado por hora (the driver's
// driving hours), generating each. In the demo's second company (other tests count the first's vehicles).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, menuEntry, randomPlate, secondCompanySession, sendToGateway, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/relatorios-familias';

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const veic = { descricao: `Familias${stamp} Van`, placa: randomPlate(), serial: `868${stamp}02`, id: 0 };
const motorista = `Motorista Risco ${stamp}`;
const doc = `${stamp}01`.padStart(11, '0').slice(-11);
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 40 * 60_000;

function frame(i: number): string {
  const moving = i <= 10;
  const km = Math.min(i, 10);
  const lat = -23.6 + km * (1000 / 111_320);
  const t = (ms: number) => new Date(ms).toISOString().replace(/\D/g, '').slice(0, 14);
  return `+RESP:GTFRI,740904,${veic.serial},GV350CEU,,10,1,1,${moving ? '60.0' : '0.0'},0,760.0,-46.650000,${lat.toFixed(6)},${t(T0 + i * 60_000)},0724,0005,0836,002BEE06,01,12,${(12000 + km).toFixed(1)},0000439:30:29,,,,100,221102,,,,${t(Date.now())},AA3C$`;
}

async function gerar(familia: string, tipo: string) {
  await page.goto(`${baseUrl}/home`);
  await (await menuEntry(page, 'Relatórios')).click(T);
  await page.waitForURL(/\/rel\/rel\/relatorios$/, T);
  await page.getByRole('button', { name: `Relatório de ${familia}` }).click(T);
  await page.getByRole('tab', { name: tipo }).click(T);
  await page.getByRole('button', { name: /até/ }).click(T);
  await page.getByRole('button', { name: 'Últimos 7 dias' }).click(T);
  await page.getByRole('button', { name: 'Gerar relatório' }).click(T);
  return page.getByRole('table', { name: `Resultado: ${tipo}` });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `relfam.${stamp}`);
  ({ ctx, page } = s);
  veic.id = (await apiCall(ctx, baseUrl, '/api/ativo', { descricao: veic.descricao, placa: veic.placa })).id;
  const m = await apiCall(ctx, baseUrl, '/api/motorista', { nome: motorista, documento: `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}` });
  await apiCall(ctx, baseUrl, '/api/motorista_temporario', { ativoId: veic.id, motoristaId: m.id, dataInicio: '2024-01-01T00:00:00Z', dataFim: '2099-01-01T00:00:00Z' });
  await apiCall(ctx, baseUrl, '/api/equipamento', { serial: veic.serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial: veic.serial, ativoId: veic.id, dataInicio: '2024-01-01T00:00:00Z' });
  await sendToGateway(gatewayPort, Array.from({ length: 18 }, (_, i) => frame(i)));
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Relatórios: cadastro and gestão de risco', () => {
  it('Cadastro por ativo lists the new vehicle; Gestão de risco por hora lists its driver’s driving hours', async () => {
    const cadastro = await gerar('Cadastro', 'Por ativo');
    const row = cadastro.getByRole('row').filter({ hasText: veic.descricao });
    await row.first().waitFor(T);
    const text = await row.first().innerText();
    expect(text).toContain(veic.placa);
    expect(text).toContain(veic.serial);
    expect(text).toContain('Novo no período');
    await page.screenshot({ path: `${SHOTS}/cadastro-ativo.png` });

    await expect.poll(async () => (await apiCall(ctx, baseUrl, `/api/viagens/ativo/${veic.id}`)).length, { ...T, interval: 300 }).toBe(1);
    const risco = await gerar('Gestão de risco', 'Detalhado por hora');
    const linhas = risco.getByRole('row').filter({ hasText: motorista });
    await linhas.first().waitFor(T);
    // 11 minutes of driving, split at the local hour: the rows' Horas de condução (5th column) add up to 0,18
    const horas: number[] = [];
    for (const r of await linhas.all()) horas.push(Number((await r.getByRole('cell').nth(4).innerText()).trim().replace(',', '.')));
    expect(horas.every((h) => h > 0)).toBe(true);
    expect(Math.abs(horas.reduce((a, b) => a + b, 0) - 11 / 60)).toBeLessThan(0.021);
    await page.screenshot({ path: `${SHOTS}/gestao-de-risco.png` });
    expect(s.errors).toEqual([]);
  });
});
