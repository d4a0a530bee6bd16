// The demo fleet as an operator first sees it: the vehicle list shows, for each demo vehicle, its driver by default,
// and its model and tracker once the column chooser adds them (the default columns leave the plate room to read
// whole at 1440 px, tests/e2e/rotulos.test.ts); the demo seed registers them (server/seed/demo-data.ts; the simulator
// only reports for them).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const MODELOS = ['FH 540', 'R 450', 'Actros 2651', 'Constellation 24.280', 'Delivery 11.180', 'Cargo 816', 'Accelo 1016', 'Sprinter 416',
  'Ducato Cargo', 'Strada', 'Saveiro', 'Hilux', 'Gol', 'Onix', 'CG 160', 'Factor 150', 'OF 1721'];

let s: AdminSession;
beforeAll(async () => { s = await openSession(baseUrl, 'admin', adminPassword); });
afterAll(async () => { await s?.close(); });

describe('demo fleet in the vehicle list', () => {
  it('each demo vehicle shows its model, its driver and its tracker', async () => {
    const { page } = s;
    // the demo vehicles only (other browser tests add their own ativos)
    await page.goto(`${baseUrl}/tlm/fro/ativo?filter=${encodeURIComponent(JSON.stringify({ q: 'Veículo 0' }))}&perPage=50`);
    await page.locator('h1', { hasText: 'Ativos' }).waitFor(T);
    await page.getByRole('columnheader', { name: 'Motorista' }).waitFor(T);
    const headerTexts = async () => (await page.locator('thead th').allInnerTexts()).map((h) => h.trim());
    // Modelo and Equipamentos are not default columns: the column chooser adds them (and takes them out at the end)
    const before = await headerTexts();
    for (const name of ['Descrição', 'Placa', 'Motorista']) expect([name, before.includes(name)]).toEqual([name, true]);
    const extra = ['Modelo', 'Equipamentos'].filter((n) => !before.includes(n));
    const toggle = async () => {
      await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
      for (const name of extra) await page.getByRole('menuitem', { name, exact: true }).click();
      await page.keyboard.press('Escape');
    };
    await toggle();
    await expect.poll(headerTexts, T).toEqual(expect.arrayContaining(['Modelo', 'Equipamentos']));
    const headers = await headerTexts();
    const col = (name: string) => headers.indexOf(name);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count(), T).toBe(40);
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    for (const c of cells) {
      const [descricao, placa, modelo, motorista, serial] = ['Descrição', 'Placa', 'Modelo', 'Motorista', 'Equipamentos'].map((n) => c[col(n)] ?? '');
      expect(descricao).toMatch(/^Veículo 0\d\d$/);
      expect([descricao, placa]).toEqual([descricao, expect.stringMatching(/^[A-Z]{3}(-\d{4}|\d[A-Z]\d{2})$/)]);
      expect([descricao, MODELOS.includes(modelo)]).toEqual([descricao, true]);
      expect([descricao, motorista]).toEqual([descricao, expect.stringMatching(/^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u)]);
      // the tracker; the tachograph trucks (Veículo 004 and 008) also their VDO unit
      const vdo = ['Veículo 004', 'Veículo 008'].includes(descricao) ? `, VDO1000${descricao.slice(-2)}` : '';
      expect([descricao, serial]).toEqual([descricao, expect.stringMatching(new RegExp(`^86400150\\d{7}${vdo}$`))]);
    }
    // the restored choice is saved (1 s after the last change) before the session closes
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/usuario') && r.request().method() === 'PUT', T);
    await toggle();
    await expect.poll(headerTexts, T).toEqual(before);
    expect((await saved).status()).toBe(200);
    expect(s.errors).toEqual([]);
  });
});
