// Bulk actions of the generic list (metadata `bulk: true`) in the browser against the real server: the selection
// column with 'Selecionar todos', the '{n} selecionados' toolbar, Bloquear motor on two linked assets and one
// without equipment (outcome per row, commands in the serials' Fila de processamento), and no selection for a user
// without the action's key.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, launch, randomPlate, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const leitorPassword = inject('leitorPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine
const SHOTS = '/tmp/shots/bulk';

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const tag = `Lote E2E ${randomPlate()}`;
const plates = [randomPlate(), randomPlate(), randomPlate()];
const stamp = String(Date.now()).slice(-10);
const serials = [`86620${stamp}`, `86621${stamp}`];
const ativos: number[] = [];
const links: number[] = [];
const LIST = `${baseUrl}/tlm/fro/ativo?filter=${encodeURIComponent(JSON.stringify({ q: tag }))}`;

async function del(path: string) {
  const t = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}${path}`, { method: 'DELETE', headers: { Authorization: `Bearer ${t}` } });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  await signIn(page, baseUrl, 'admin', adminPassword);
  for (const [i, placa] of plates.entries()) ativos.push((await apiCall(ctx, baseUrl, '/api/ativo', { descricao: `${tag} ${i + 1}`, placa })).id);
  for (const [i, serial] of serials.entries()) {
    await apiCall(ctx, baseUrl, '/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
    links.push((await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial, ativoId: ativos[i], dataInicio: '2024-01-01T00:00:00Z' })).id);
  }
});
afterAll(async () => {
  // other browser tests count the company's assets: leave none behind (the links first, they hold the assets)
  if (ctx) {
    for (const id of links) await del(`/api/equipamento_ativo/${id}`);
    for (const id of ativos) await del(`/api/ativo/${id}`);
  }
  await ctx?.close();
  await browser?.close();
});

describe('bulk actions in the asset list', () => {
  it('selects rows, runs Bloquear motor on them and tells the outcome per row', async () => {
    await page.goto(LIST);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(3);
    // the header keeps one cell per column, the selection column first
    const head = await page.locator('thead th').count();
    expect(await page.locator('tbody tr').first().locator('td').count()).toBe(head);
    const all = page.getByRole('checkbox', { name: 'Selecionar todos' });
    expect(await all.isChecked()).toBe(false);
    expect(await page.getByText(/selecionados?$/).count()).toBe(0);

    // select-all toggles the page, then three rows one by one (a click on the box does not open the record)
    await all.check();
    await page.getByText('3 selecionados').waitFor(T);
    await all.uncheck();
    await expect.poll(() => page.getByRole('toolbar', { name: 'Ações em lote' }).count()).toBe(0);
    await page.getByRole('checkbox', { name: `Selecionar linha ${tag} 1` }).check();
    await page.getByText('1 selecionado', { exact: true }).waitFor(T);
    await page.getByRole('checkbox', { name: `Selecionar linha ${tag} 2` }).check();
    await page.getByRole('checkbox', { name: `Selecionar linha ${tag} 3` }).check();
    await page.getByText('3 selecionados').waitFor(T);
    expect(new URL(page.url()).pathname).toBe('/tlm/fro/ativo');
    const toolbar = page.getByRole('toolbar', { name: 'Ações em lote' });
    expect((await toolbar.getByRole('button').allInnerTexts()).map((t) => t.toLowerCase())).toEqual(['bloquear motor', 'desbloquear motor', 'limpar seleção']);
    await page.screenshot({ path: `${SHOTS}/selecionados.png` });

    await toolbar.getByRole('button', { name: 'Bloquear motor', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('ATENÇÃO').waitFor(T);
    await dialog.getByText('3 registros selecionados').waitFor(T);
    await dialog.getByText('Deseja bloquear o motor deste veículo? O comando será enviado aos equipamentos vinculados.').waitFor(T);
    await page.screenshot({ path: `${SHOTS}/confirmar.png` });
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/ativo/bloqueia_motor') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    const results = await (await answered).json();
    expect(results.map((r: any) => [r.id, r.status])).toEqual([[ativos[0], 201], [ativos[1], 201], [ativos[2], 422]]);
    await page.getByText(`Bloquear motor: 2 executados (${tag} 1: equipamento ${serials[0]}; ${tag} 2: equipamento ${serials[1]}), 1 recusado: ${tag} 3: O ativo não tem equipamento vinculado: não há para onde enviar o comando`).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/resultado.png` });
    // the selection clears after the run
    await expect.poll(() => page.getByRole('toolbar', { name: 'Ações em lote' }).count(), T).toBe(0);
    expect(await page.getByRole('checkbox', { name: `Selecionar linha ${tag} 1` }).isChecked()).toBe(false);
  });

  it("queues the command in each linked serial's Fila de processamento", async () => {
    for (const serial of serials) {
      const fila = await apiCall(ctx, baseUrl, `/api/equipamento/${serial}/fila_processamento`);
      expect(fila.map((r: any) => [r.serial, r.event, r.status])).toEqual([[serial, 'engineBlock', 'pendente']]);
    }
    await page.goto(`${baseUrl}/adm/cfg/equipamentos/${serials[1]}/fila_processamento`);
    await page.locator('h1', { hasText: `Fila de processamento: ${serials[1]}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    const row = await page.locator('tbody tr').first().innerText();
    expect(row).toContain('Bloquear motor');
    expect(row).toContain('Pendente');
  });
});

describe('a user without the bulk action key', () => {
  it('sees the asset list with no selection column', async () => {
    const other = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
    const p = await other.newPage();
    try {
      await signIn(p, baseUrl, 'leitor', leitorPassword);
      await p.goto(LIST);
      await expect.poll(() => p.locator('tbody tr').count(), T).toBe(3);
      await p.getByRole('columnheader', { name: 'Placa' }).waitFor(T);
      expect(await p.getByRole('checkbox').count()).toBe(0);
      expect(await p.locator('thead th').count()).toBe(await p.locator('tbody tr').first().locator('td').count());
      const token = decodeURIComponent((await other.cookies()).find((c) => c.name === 'rastro_token')!.value);
      const r = await fetch(`${baseUrl}/api/ativo/bloqueia_motor`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ ids: ativos }) });
      expect(r.status).toBe(403);
    } finally {
      await other.close();
    }
  });
});
