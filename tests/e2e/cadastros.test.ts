// Registers as an administrator uses them: the multi-select picker (spec 'Multi-select pickers') with the
// permission catalogue grouped by area and register, the menu marking only the current entry, and the
// user form's password help (edit only).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  ({ ctx, page, errors } = s);
});
afterAll(async () => { await s?.close(); });

async function api<T>(path: string): Promise<T> {
  const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await r.json()) as T;
}

describe('cargo: permission picker', () => {
  it('filters the catalogue, selects all filtered and saves exactly those keys', async () => {
    const nome = `Operador QA ${Date.now()}`;
    await page.goto(`${baseUrl}/adm/sis/cargo/adicionar`);
    await page.getByLabel('Descrição').fill(nome);
    await page.getByRole('button', { name: 'Selecionar Permissões' }).click();
    const dialog = page.getByRole('dialog', { name: 'Permissões' });
    await dialog.waitFor();
    // grouped: area headers and registers with their actions in pt-BR
    await expect.poll(() => dialog.getByRole('region', { name: 'Frota' }).count(), T).toBe(1);
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Ativos: Bloquear motor' }).count(), T).toBe(1);
    await expect.poll(() => dialog.getByText('tlm.fro.ativo', { exact: false }).count()).toBe(0);

    await dialog.getByLabel('Filtrar').fill('situacao ativo'); // no accent, every word: matches 'Situações do ativo' only
    await expect.poll(() => dialog.getByRole('checkbox').count(), T).toBe(7); // area + register + 5 actions
    await dialog.getByRole('button', { name: 'Selecionar todos (5)' }).click();
    await expect.poll(() => dialog.getByTestId('picker-count').innerText(), T).toBe('5 selecionados');
    // one more by hand, outside the filter
    await dialog.getByLabel('Filtrar').fill('bloquear motor');
    await dialog.getByRole('checkbox', { name: 'Ativos: Bloquear motor' }).check();
    await expect.poll(() => dialog.getByTestId('picker-count').innerText(), T).toBe('6 selecionados');
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), T).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Situações do ativo: Excluir' }).count(), T).toBe(1);

    // Fechar discards what changed in the dialog
    await page.getByRole('button', { name: 'Selecionar Permissões' }).click();
    await page.getByRole('button', { name: 'Limpar todos' }).click();
    await page.getByRole('button', { name: 'Fechar' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Ativos: Bloquear motor' }).count(), T).toBe(1);

    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/adm/sis/cargo`);
    const rows = await api<{ descricao: string; permissoes: string[] }[]>(`/api/cargo?filter=${encodeURIComponent(JSON.stringify({ q: nome }))}`);
    expect(rows).toHaveLength(1);
    expect([...rows[0].permissoes].sort()).toEqual([
      'adm.sis.cadastro.situacao_do_ativo.adicionar', 'adm.sis.cadastro.situacao_do_ativo.editar', 'adm.sis.cadastro.situacao_do_ativo.excluir',
      'adm.sis.cadastro.situacao_do_ativo.lista', 'adm.sis.cadastro.situacao_do_ativo.visualizar', 'tlm.fro.ativo.bloqueia_motor',
    ]);
  });
});

describe('menu and user form', () => {
  it('marks only the current menu entry (Usuários, not Empresas above it)', async () => {
    await page.goto(`${baseUrl}/adm/sis/empresa/usuario`);
    await page.getByRole('columnheader', { name: 'Login' }).waitFor();
    await expect.poll(() => page.locator('.RaMenuItemLink-root[aria-current="page"]').allInnerTexts(), T).toEqual(['Usuários']);
    await page.goto(`${baseUrl}/cfg/cfg/configuracao/empresas`);
    await expect.poll(() => page.locator('.RaMenuItemLink-root[aria-current="page"]').allInnerTexts(), T).toEqual(['Empresas']);
    // the company area hub sits above its registers' routes: only it is marked there
    await page.goto(`${baseUrl}/adm/sis/empresa`);
    await expect.poll(() => page.locator('.RaMenuItemLink-root[aria-current="page"]').allInnerTexts(), T).toEqual(['Empresa']);
  });

  it("shows 'Deixe em branco para manter a senha atual.' when editing a user, not when adding one", async () => {
    await page.goto(`${baseUrl}/adm/sis/empresa/usuario/adicionar`);
    await page.getByLabel('Login').waitFor();
    expect(await page.getByText('Deixe em branco para manter a senha atual.').count()).toBe(0);
    await page.goto(`${baseUrl}/adm/sis/empresa/usuario`);
    await page.getByText('leitor@rastro.local').click();
    await page.getByLabel('Login').waitFor();
    await expect.poll(() => page.getByText('Deixe em branco para manter a senha atual.').count(), T).toBe(1);
    // the user's companies and roles in the pickers, by name
    await expect.poll(() => page.locator('.MuiChip-root', { hasText: 'Transportes Alfa' }).count(), T).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Somente leitura' }).count(), T).toBe(1);
  });

  it('the active company is a mandatory item of Empresas: pre-selected, not removable, its situation in colour', async () => {
    await page.goto(`${baseUrl}/adm/sis/empresa/usuario/adicionar`);
    await page.getByLabel('Empresa ativa').fill('Transportes Alfa');
    await page.getByRole('option', { name: 'Transportes Alfa', exact: true }).click(T);
    const chip = page.locator('.MuiChip-root', { hasText: 'Transportes Alfa' });
    await expect.poll(() => chip.count(), T).toBe(1);
    expect(await chip.getAttribute('aria-label')).toBe('Transportes Alfa (obrigatório)');
    expect(await chip.locator('.MuiChip-deleteIcon').count()).toBe(0);
    expect(await chip.locator('.rastro-second').innerText()).toBe('Ativa');
    expect(await chip.locator('.rastro-second').evaluate((e) => getComputedStyle(e).color)).toBe('rgb(46, 125, 50)');
    await page.getByRole('button', { name: 'Selecionar Empresas' }).click();
    const dialog = page.getByRole('dialog', { name: 'Empresas' });
    const alfa = dialog.getByRole('checkbox', { name: 'Transportes Alfa', exact: true });
    await alfa.waitFor(T);
    expect([await alfa.isChecked(), await alfa.isDisabled()]).toEqual([true, true]);
    const other = dialog.getByRole('checkbox', { disabled: false }).first();
    await other.check();
    await page.screenshot({ path: '/tmp/usuario-empresas-obrig.png' });
    await dialog.getByRole('button', { name: 'Limpar todos' }).click();
    expect([await alfa.isChecked(), await other.isChecked()]).toEqual([true, false]);
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => page.locator('.MuiChip-root').allInnerTexts(), T).toEqual(['Transportes Alfa\nAtiva']);
  });

  it('logs no errors in the browser console', () => {
    expect(errors).toEqual([]);
  });
});
