// Importação (/cfg/cfg/importacao and /adm/sis/integracao/importar) in the browser as an administrator: pick a
// register, send a CSV, see the rows with their pt-BR errors (nothing written), send a corrected sheet, import.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
let errors: string[];
const stamp = String(Date.now()).slice(-6);
const cpf = (n: number) => { const d = `${stamp}${String(n).padStart(5, '0')}`; return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`; };

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  ({ ctx, page, errors } = s);
});
afterAll(async () => { await s?.close(); });

const csv = (rows: string[]) => ({ name: 'motoristas.csv', mimeType: 'text/csv', buffer: Buffer.from(['Nome;CPF;Situação', ...rows].join('\n')) });

describe('Importação', () => {
  it('previews a sheet with per-row errors, then imports the corrected one', async () => {
    await page.goto(`${baseUrl}/cfg/cfg/importacao`);
    await page.locator('h1', { hasText: 'Importação' }).waitFor(T);
    await page.getByLabel('Cadastro').click();
    await page.getByRole('option', { name: 'Motoristas' }).click();
    await page.getByText('CPF *').waitFor(T);
    await page.getByLabel('Planilha').setInputFiles(csv([`Import E2E A ${stamp};${cpf(1)};Ativo`, `;${cpf(2)};Ativo`]));
    await page.getByRole('button', { name: 'Pré-visualizar' }).click();
    await page.getByTestId('previa-resumo').getByText('2 linha(s): 1 válida(s), 1 com erro.', { exact: false }).waitFor(T);
    await page.getByRole('cell', { name: 'O campo Nome é obrigatório' }).waitFor(T);
    expect(await page.getByRole('button', { name: 'Importar' }).isDisabled()).toBe(true);
    await page.screenshot({ path: '/tmp/scoring-import-erros.png' });
    const none = await apiCall(ctx, baseUrl, `/api/motorista?filter=${encodeURIComponent(JSON.stringify({ q: `Import E2E A ${stamp}` }))}`);
    expect(none).toEqual([]);

    await page.getByLabel('Planilha').setInputFiles(csv([`Import E2E A ${stamp};${cpf(1)};Ativo`, `Import E2E B ${stamp};${cpf(2)};Afastado`]));
    await page.getByRole('button', { name: 'Pré-visualizar' }).click();
    await page.getByTestId('previa-resumo').getByText('2 linha(s): 2 válida(s), 0 com erro.', { exact: false }).waitFor(T);
    await page.getByRole('button', { name: 'Importar' }).click();
    await page.getByText('2 registro(s) importado(s) em Motoristas').waitFor(T);
    await page.screenshot({ path: '/tmp/scoring-import-ok.png' });
    const rows = await apiCall(ctx, baseUrl, `/api/motorista?filter=${encodeURIComponent(JSON.stringify({ q: `Import E2E` }))}&sort=${encodeURIComponent('["nome","ASC"]')}`);
    expect(rows.filter((r: any) => r.nome.endsWith(stamp)).map((r: any) => [r.nome, r.situacao])).toEqual([
      [`Import E2E A ${stamp}`, 'ativo'], [`Import E2E B ${stamp}`, 'afastado'],
    ]);
  });

  it('opens under the integrations area too', async () => {
    await page.goto(`${baseUrl}/adm/sis/integracao/importar`);
    await page.locator('h1', { hasText: 'Importar' }).waitFor(T);
    await page.getByLabel('Cadastro').waitFor(T);
    expect(errors).toEqual([]);
  });
});
