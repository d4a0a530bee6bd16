// The asset picker (metadata picker on ativo; spec 'asset picker modal'): a field that picks assets searches them on
// the server by description or plate and shows them grouped by garage, or flat under ATIVOS.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, openSession, randomPlate, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine
const stamp = String(Date.now()).slice(-6);

let s: AdminSession;
const created: { path: string; id: number }[] = [];
const placas = [randomPlate(), randomPlate()];

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  const add = async (path: string, body: unknown) => { const r = await apiCall(s.ctx, baseUrl, path, body); created.unshift({ path, id: r.id }); return r; };
  const garagem = await add('/api/garagem', { descricao: `Pátio Picker ${stamp}`, nome: `Pátio Picker ${stamp}` });
  await add('/api/ativo', { descricao: `Picker com garagem ${stamp}`, placa: placas[0], idGaragem: garagem.id });
  await add('/api/ativo', { descricao: `Picker sem garagem ${stamp}`, placa: placas[1] });
});
afterAll(async () => {
  if (s) {
    const token = decodeURIComponent((await s.ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
    for (const c of created) await fetch(`${baseUrl}${c.path}/${c.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
  }
  await s?.close();
});

describe('asset picker', () => {
  it('finds an asset by plate on the server, under its garage or flat under ATIVOS, and picks it', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/tlm/ras/link_publico/adicionar`);
    await page.getByRole('button', { name: 'Selecionar Ativos' }).click(T);
    const dialog = page.getByRole('dialog', { name: 'Ativos' });
    await dialog.waitFor(T);
    expect(await dialog.getByLabel('Agrupar por garagem').isChecked()).toBe(true);
    // the plate, typed in lower case: the server's quick search (descricao, placa, numeroFrota)
    const search = page.waitForResponse((r) => r.url().includes('/api/ativo?') && decodeURIComponent(r.url()).includes(placas[0].toLowerCase()));
    await dialog.getByLabel('Filtrar').fill(placas[0].toLowerCase());
    await search;
    const box = dialog.getByRole('checkbox', { name: `Picker com garagem ${stamp}`, exact: true });
    await expect.poll(() => dialog.getByRole('region', { name: `Pátio Picker ${stamp}` }).getByRole('checkbox', { name: `Picker com garagem ${stamp}`, exact: true }).count(), T).toBe(1);
    await expect.poll(() => dialog.getByRole('checkbox', { name: `Picker sem garagem ${stamp}`, exact: true }).count(), T).toBe(0);
    expect(await dialog.getByRole('region', { name: `Pátio Picker ${stamp}` }).getByText(placas[0]).count()).toBe(1);
    await page.screenshot({ path: '/tmp/picker-garagem.png' });
    // the other one has no garage: 'Sem garagem'
    await dialog.getByLabel('Filtrar').fill(`Picker sem garagem ${stamp}`);
    await expect.poll(() => dialog.getByRole('region', { name: 'Sem garagem' }).getByRole('checkbox', { name: `Picker sem garagem ${stamp}`, exact: true }).count(), T).toBe(1);
    // flat: every row under ATIVOS
    await dialog.getByLabel('Filtrar').fill(`Picker`);
    await dialog.getByLabel('Agrupar por garagem').uncheck();
    await expect.poll(() => dialog.getByRole('region').allInnerTexts().then((t) => t.length), T).toBe(1);
    const flat = dialog.getByRole('region', { name: 'ATIVOS' });
    await expect.poll(() => flat.getByRole('checkbox', { name: `Picker com garagem ${stamp}`, exact: true }).count(), T).toBe(1);
    await page.screenshot({ path: '/tmp/picker-ativos.png' });
    await box.check();
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => page.locator('.MuiChip-root').allInnerTexts(), T).toEqual([`Picker com garagem ${stamp}\n${placas[0]}`]);
    expect(s.errors).toEqual([]);
  });
});

describe("the list panel's select", () => {
  it('filters the assets by garage on the server; Todos shows them all again', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/tlm/fro/ativo`);
    await page.getByRole('columnheader', { name: 'Descrição' }).waitFor(T);
    const all = await apiCall(s.ctx, baseUrl, `/api/ativo?range=${encodeURIComponent('[0,0]')}`);
    expect(all.length).toBe(1);
    await page.getByRole('combobox', { name: /^Garagem/ }).click();
    const listed = page.waitForResponse((r) => r.url().includes('/api/ativo?') && decodeURIComponent(r.url()).includes('"idGaragem"'));
    await page.getByRole('option', { name: `Pátio Picker ${stamp}` }).click(T);
    await listed;
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    expect(await page.locator('tbody tr').innerText()).toContain(`Picker com garagem ${stamp}`);
    expect(JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}').idGaragem).toBe(String(created.find((c) => c.path === '/api/garagem')!.id));
    await page.screenshot({ path: '/tmp/lista-select-garagem.png' });
    await page.getByRole('combobox', { name: /^Garagem/ }).click();
    await page.getByRole('option', { name: 'Todos' }).click(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBeGreaterThan(1);
    expect(s.errors).toEqual([]);
  });
});

