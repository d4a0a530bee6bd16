// The demo fleet as an operator first sees it: the vehicle list shows, for each demo vehicle, its model, its driver
// and its tracker (the demo seed registers them, server/seed/demo-data.ts; the simulator only reports for them).
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
    const headers = (await page.locator('thead th').allInnerTexts()).map((h) => h.trim());
    const col = (name: string) => headers.indexOf(name);
    for (const name of ['Descrição', 'Placa', 'Modelo', 'Motorista', 'Equipamentos']) expect([name, col(name) >= 0]).toEqual([name, true]);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count(), T).toBe(40);
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
    for (const c of cells) {
      const [descricao, placa, modelo, motorista, serial] = ['Descrição', 'Placa', 'Modelo', 'Motorista', 'Equipamentos'].map((n) => c[col(n)] ?? '');
      expect(descricao).toMatch(/^Veículo 0\d\d$/);
      expect([descricao, placa]).toEqual([descricao, expect.stringMatching(/^[A-Z]{3}(-\d{4}|\d[A-Z]\d{2})$/)]);
      expect([descricao, MODELOS.includes(modelo)]).toEqual([descricao, true]);
      expect([descricao, motorista]).toEqual([descricao, expect.stringMatching(/^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u)]);
      expect([descricao, serial]).toEqual([descricao, expect.stringMatching(/^86400150\d{7}$/)]);
    }
    expect(s.errors).toEqual([]);
  });
});
