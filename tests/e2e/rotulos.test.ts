// Reference labels come with the row (issue 20): a user whose role holds only the asset keys sees Garagem, Situação,
// Categoria, Fabricante and Modelo by their labels in the vehicle list and record — no red error mark, no request
// refused (the front end no longer reads the referenced registers) — and, at 1440×900, the default columns leave
// every plate whole without a sideways scroll.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Response } from 'playwright-core';
import { apiCall, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SENHA = 'Rotulos-2024!';

let admin: AdminSession;
let s: AdminSession;
const refused: string[] = [];
let expected: { id: number; descricao: string; placa: string; _labels: Record<string, string | null> }[];

beforeAll(async () => {
  admin = await openSession(baseUrl, 'admin', adminPassword);
  const token = decodeURIComponent((await admin.ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const me = (await apiCall(admin.ctx, baseUrl, '/api/auth/get_session')).payload;
  const empresa = me.user.empresaAtiva as number;
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', companyId: String(empresa) }, body: JSON.stringify(body) });
    const j = await r.json();
    expect(r.status, JSON.stringify(j)).toBe(201);
    return j;
  };
  // The role: every key of the asset register, nothing of the registers it names.
  const keys = (me.user.permissoes as string[]).filter((k) => k.startsWith('tlm.fro.ativo.'));
  expect(keys).toContain('tlm.fro.ativo.lista');
  const suffix = Date.now().toString(36);
  const cargo = await post('/api/cargo', { descricao: `Somente ativos ${suffix}`, permissoes: keys });
  await post('/api/usuario', { nome: 'Operador de ativos', login: `ativos.${suffix}`, senha: SENHA, empresas: [empresa], empresaAtiva: empresa, cargos: [cargo.id] });
  // What the labels must read (the admin's view of the same rows).
  expected = await apiCall(admin.ctx, baseUrl, `/api/ativo?filter=${encodeURIComponent(JSON.stringify({ q: 'Veículo 0' }))}&sort=${encodeURIComponent('["descricao","ASC"]')}&range=[0,24]`);
  expect(expected.length).toBe(25);
  s = await openSession(baseUrl, `ativos.${suffix}`, SENHA);
  s.page.on('response', (r: Response) => { if (r.status() >= 400) refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
}, 60_000);
afterAll(async () => { await s?.close(); await admin?.close(); });

const cellTexts = (column: string) => s.page.locator(`tbody td.column-${column}`).allInnerTexts().then((t) => t.map((x) => x.trim()));

describe('a user holding only the asset keys', () => {
  it('sees the labels of Garagem and Situação in the vehicle list, no error mark, nothing refused', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/tlm/fro/ativo?filter=${encodeURIComponent(JSON.stringify({ q: 'Veículo 0' }))}&perPage=25`);
    await page.getByRole('columnheader', { name: 'Garagem' }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(25);
    await expect.poll(() => cellTexts('descricao'), T).toEqual(expected.map((r) => r.descricao));
    expect(expected.every((r) => r._labels.idGaragem && r._labels.situacao)).toBe(true);
    await expect.poll(() => cellTexts('idGaragem'), T).toEqual(expected.map((r) => r._labels.idGaragem));
    expect(await cellTexts('situacao')).toEqual(expected.map((r) => r._labels.situacao));
    // plain text: the user cannot open a garage, so no link to one
    expect(await page.locator('tbody td.column-idGaragem a').count()).toBe(0);
    expect(await page.locator('[data-testid="ErrorIcon"]').count()).toBe(0);
    expect(refused).toEqual([]);
    expect(s.errors).toEqual([]);
  });

  it('reads every plate whole at 1440×900, and the table does not scroll sideways', async () => {
    const { page } = s;
    expect(page.viewportSize()).toEqual({ width: 1440, height: 900 });
    const headers = (await page.locator('thead th').allInnerTexts()).map((h) => h.trim()).filter(Boolean);
    // the default columns (Modelo, Número da frota and Equipamentos wait in the column chooser)
    expect(headers).toEqual(['Descrição', 'Placa', 'Garagem', 'Motorista', 'Conexão', 'Última comunicação', 'Última posição', 'Situação']);
    const m = await page.evaluate(() => {
      const wrapper = document.querySelector('.RaDatagrid-tableWrapper') as HTMLElement;
      const card = wrapper.closest('.rastro-list') as HTMLElement;
      // the cut span of each plate cell (CopyCell: overflow hidden, ellipsis)
      const plates = [...document.querySelectorAll('tbody td.column-placa > div > span')].map((e) => [(e as HTMLElement).innerText, e.scrollWidth, e.clientWidth] as const);
      return {
        plates, cut: plates.filter(([, sw, cw]) => sw > cw),
        page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        table: [wrapper.scrollWidth, wrapper.clientWidth, card.scrollWidth, card.clientWidth],
      };
    });
    expect(m.plates.map(([p]) => p)).toEqual(expected.map((r) => r.placa));
    expect(m.plates.every(([, sw]) => sw > 0)).toBe(true);
    expect(m.cut).toEqual([]);
    expect(m.page[0]).toBeLessThanOrEqual(m.page[1]);
    expect(m.table[0]).toBeLessThanOrEqual(m.table[1]);
    expect(m.table[2]).toBeLessThanOrEqual(m.table[3]);
  });

  it('sees Categoria, Fabricante, Modelo, Garagem and Situação by their labels in the record, no error mark', async () => {
    const { page } = s;
    const first = expected.find((r) => r._labels.categoria && r._labels.fabricante && r._labels.modelo)!;
    expect(first).toBeTruthy();
    await page.locator('tbody tr', { hasText: first.placa }).click();
    await page.waitForURL(`${baseUrl}/tlm/fro/ativo/${first.id}/informacoes`, T);
    const fields: [string, string][] = [['idGaragem', 'Garagem'], ['situacao', 'Situação'], ['categoria', 'Categoria'], ['fabricante', 'Fabricante'], ['modelo', 'Modelo']];
    for (const [name, label] of fields) {
      await expect.poll(() => page.getByRole('combobox', { name: label }).inputValue(), T).toBe(first._labels[name]);
    }
    expect(await page.locator('#root_placa').inputValue()).toBe(first.placa);
    expect(await page.locator('[data-testid="ErrorIcon"]').count()).toBe(0);
    expect(refused).toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
