// Reports in the browser (issue 22): a tracker reports a 10 km drive through the gateway (its trip is stored at
// ingest); the user opens Relatórios from the menu, picks Viagem, Detalhado, chooses the asset and the period, sees the
// trip's row and exports it as XLSX (read back). In the demo's second company (other tests count the first's vehicles).
import { mkdirSync, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, menuEntry, randomPlate, secondCompanySession, vehicleWithTrip, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/relatorios';

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const veic = { descricao: `Relatorio${stamp} Van`, placa: randomPlate(), serial: `869${stamp}01`, id: 0 };
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `relatorios.${stamp}`);
  ({ ctx, page } = s);
  veic.id = await vehicleWithTrip(ctx, baseUrl, gatewayPort, veic); // one 10 km trip
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Relatórios', () => {
  it('Viagem detalhado: pick the asset and the period, see the trip, export it as XLSX', async () => {
    // the trip closes after five stopped minutes: wait (a condition) until it is stored
    await expect.poll(async () => (await apiCall(ctx, baseUrl, `/api/viagens/ativo/${veic.id}`)).length, { ...T, interval: 300 }).toBe(1);
    await page.goto(`${baseUrl}/home`);
    await (await menuEntry(page, 'Relatórios')).click(T);
    await page.waitForURL(/\/rel\/rel\/relatorios$/, T);
    await page.getByRole('button', { name: 'Relatório de Viagem' }).click(T);
    await page.waitForURL(/\/rel\/rel\/relatorios\/viagem$/, T);
    expect(await page.getByRole('tab', { name: 'Detalhado' }).getAttribute('aria-selected')).toBe('true');
    // the period: the date picker's shortcut
    await page.getByRole('button', { name: /até/ }).click(T);
    await page.getByRole('button', { name: 'Últimos 7 dias' }).click(T);
    // the asset, through the asset picker
    await page.getByRole('button', { name: 'Selecionar Ativos' }).click(T);
    const dialog = page.getByRole('dialog', { name: 'Ativos' });
    await dialog.getByLabel('Filtrar').fill(veic.placa.toLowerCase());
    await dialog.getByRole('checkbox', { name: veic.descricao, exact: true }).check(T);
    await dialog.getByRole('button', { name: 'Confirmar' }).click(T);
    await page.getByRole('button', { name: 'Gerar relatório' }).click(T);
    const table = page.getByRole('table', { name: 'Resultado: Detalhado' });
    const row = table.getByRole('row').filter({ hasText: veic.descricao });
    await row.first().waitFor(T);
    expect(await table.getByRole('row').count()).toBe(2); // the header and the one trip of this asset
    // the pager speaks Portuguese to a screen reader too
    expect(await page.getByRole('button', { name: 'Ir para a próxima página' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /Go to/ }).count()).toBe(0);
    const text = await row.first().innerText();
    expect(text).toContain(veic.placa);
    expect(text).toContain('10,00'); // km, decimal comma
    expect(text).toContain('00:11:00');
    await page.screenshot({ path: `${SHOTS}/detalhado-ativo.png` });
    // export XLSX: the same row, numbers as numbers
    await page.getByRole('button', { name: 'Exportar Tabela' }).click(T);
    const download = page.waitForEvent('download', T);
    await page.getByRole('menuitem', { name: 'Excel (XLSX)' }).click(T);
    const file = await (await download).path();
    expect((await download).suggestedFilename()).toBe('relatorio_viagem_detalhado.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(file!) as never);
    const ws = wb.worksheets[0];
    expect(ws.getCell('A1').value).toBe('Relatório de Viagem — Detalhado');
    expect(ws.getCell('A4').value).toBe(`Ativos: ${veic.descricao}`);
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const head = rows.findIndex((r) => r[0] === 'Data inicial');
    expect(rows[head]).toEqual(['Data inicial', 'Hora inicial', 'Data final', 'Hora final', 'Ativo', 'Placa', 'Motorista', 'Duração', 'Distância (km)', 'Velocidade média (km/h)', 'Velocidade máxima (km/h)']);
    expect(rows.slice(head + 1)).toHaveLength(1);
    const data = rows[head + 1];
    expect(data[4]).toBe(veic.descricao);
    expect(data[5]).toBe(veic.placa);
    expect(data[7]).toBe('00:11:00');
    expect(data[8]).toBe(10);
    expect(s.errors).toEqual([]);
  });
});
