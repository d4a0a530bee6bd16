// Browser test of the asset screens against the real server: sign in, list, create with a
// required-field error, save, edit, export CSV, delete, and a forbidden route for 'leitor'.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, randomPlate, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const leitorPassword = inject('leitorPassword');
const LIST = `${baseUrl}/tlm/fro/ativo`;
const atList = (u: URL) => u.pathname === '/tlm/fro/ativo';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function search(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Pesquisar' });
  await box.fill(text);
  await page.waitForURL((u) => decodeURIComponent(u.search).includes(text));
}

describe('ativo screens (admin)', () => {
  let ctx: BrowserContext;
  let page: Page;
  const plate = randomPlate();
  const descricao = `Caminhão E2E ${plate}`;

  beforeAll(async () => {
    ctx = await browser.newContext({ acceptDownloads: true, locale: 'pt-BR', viewport: { width: 1440, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await ctx.newPage();
    await signIn(page, baseUrl, 'admin', adminPassword);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('shows the home counts and the asset list', async () => {
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(`${baseUrl}/home`);
    await page.getByText('Bem-vindo ao Rastro, Administrador').waitFor();
    await expect.poll(() => page.getByTestId('count-ativo').textContent()).toMatch(/^\d+$/);
    await page.goto(LIST);
    await page.locator('h1', { hasText: 'Ativos' }).waitFor();
    await page.getByRole('columnheader', { name: 'Placa' }).waitFor();
    // seed has 50 assets: first page of 25 plus the page range
    await expect.poll(() => page.locator('tbody tr').count()).toBe(25);
    await page.getByText(/^1-25 de \d+$/).waitFor();
    // copy a cell to the clipboard
    const firstPlate = (await page.locator('tbody tr').first().locator('td.column-placa').innerText()).trim();
    expect(firstPlate).toMatch(/^[A-Z]{3}-?[0-9][A-Z0-9][0-9]{2}$/);
    await page.locator('tbody tr').first().locator('td.column-placa').hover();
    await page.locator('tbody tr').first().locator('td.column-placa').getByRole('button', { name: 'Copiar' }).click();
    await page.getByText('Copiado para a área de transferência!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstPlate);
  });

  it('refuses to save without Placa, then creates the asset', async () => {
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.waitForURL(`${LIST}/adicionar`);
    await page.locator('#root_descricao').fill(descricao);
    // leaving Placa empty shows the required message on blur
    await page.locator('#root_placa').focus();
    await page.locator('#root_numeroFrota').focus();
    await page.getByText('O campo Placa é obrigatório').waitFor();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('O campo Placa é obrigatório').waitFor();
    expect(page.url()).toBe(`${LIST}/adicionar`);

    await page.locator('#root_placa').fill(plate.toLowerCase());
    expect(await page.locator('#root_placa').inputValue()).toBe(plate);
    await expect.poll(() => page.getByText('O campo Placa é obrigatório').count()).toBe(0);
    await page.locator('#root_ano').fill('2021');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(atList);
    await page.getByText('Registro salvo').waitFor();

    await search(page, plate);
    const row = page.locator('tbody tr', { hasText: plate });
    await row.waitFor();
    expect(await row.textContent()).toContain(descricao);
  });

  it('shows server errors on the field; Esc leaves the form through "Deseja sair?"', async () => {
    await page.goto(`${LIST}/adicionar`);
    await page.locator('#root_descricao').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(atList);
    await page.goto(`${LIST}/adicionar`);
    await page.locator('#root_cor').fill('Vermelho');
    // the server's unique-plate conflict lands on the Placa field
    await page.locator('#root_descricao').fill('Duplicado');
    await page.locator('#root_placa').fill(plate);
    await page.locator('#root_placa').press('Enter');
    const placaField = page.locator('.rastro-form .MuiGrid-root', { has: page.locator('#root_placa') });
    await placaField.getByText('Já existe um registro com o valor informado em Placa').waitFor();
    expect(page.url()).toBe(`${LIST}/adicionar`);
    await page.keyboard.press('Escape');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Deseja sair?').waitFor();
    await dialog.getByText('Você tem alterações não salvas. Se sair suas alterações serão perdidas!').waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(page.url()).toBe(`${LIST}/adicionar`);
    expect(await page.locator('#root_cor').inputValue()).toBe('Vermelho');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(atList);
  });

  it('edits the asset in its record page (Informações), then the Voltar button goes back to the list', async () => {
    await search(page, plate);
    await page.locator('tbody tr', { hasText: plate }).locator('td.column-descricao').click({ position: { x: 20, y: 10 } });
    await page.waitForURL(/\/tlm\/fro\/ativo\/\d+\/informacoes$/);
    await page.locator('h1', { hasText: `Informações: ${descricao}` }).waitFor();
    expect(await page.locator('#root_placa').inputValue()).toBe(plate);
    expect(await page.locator('#root_ano').inputValue()).toBe('2021');
    await page.locator('#root_cor').fill('Azul');
    await page.locator('#root_descricao').fill(`${descricao} editado`);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Registro salvo').waitFor();
    // saving keeps the tab open, with the saved values
    await page.locator('h1', { hasText: `Informações: ${descricao} editado` }).waitFor();
    await page.locator('.rastro-record > .MuiCard-root').first().getByRole('button', { name: 'Voltar' }).click();
    await page.waitForURL(atList);
    const row = page.locator('tbody tr', { hasText: plate });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(`${descricao} editado`);

    await row.locator('td.column-descricao').click({ position: { x: 20, y: 10 } });
    await page.waitForURL(/\/informacoes$/);
    await expect.poll(() => page.locator('#root_cor').inputValue()).toBe('Azul');
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.waitForURL(atList);
  });

  it('exports the filtered list as CSV', async () => {
    await search(page, plate);
    await page.locator('tbody tr', { hasText: plate }).waitFor();
    await page.getByRole('button', { name: 'Exportar Tabela' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('ativo.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain(plate);
    expect(csv).toContain(`${descricao} editado`);
    expect(csv).toContain('Placa');
  });

  it('deletes the asset through "Deseja Excluir?"', async () => {
    await search(page, plate);
    await page.locator('tbody tr', { hasText: plate }).locator('td.column-descricao').click({ position: { x: 20, y: 10 } });
    await page.waitForURL(/\/informacoes$/);
    await page.getByRole('button', { name: 'Excluir' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Deseja Excluir?').waitFor();
    await dialog.getByText('Esta ação não poderá ser revertida, deseja realmente excluir?').waitFor();
    await dialog.getByRole('button', { name: 'Excluir' }).click();
    await page.waitForURL(atList);
    await page.getByText('Registro excluído').waitFor();
    await search(page, plate);
    await page.getByText('Nenhum item foi encontrado').waitFor();
    expect(await page.locator('tbody tr', { hasText: plate }).count()).toBe(0);
  });
});

describe('list preferences and company switch (admin)', () => {
  let ctx: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
    page = await ctx.newPage();
    await signIn(page, baseUrl, 'admin', adminPassword);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("keeps the 'Selecionar Colunas' choice after a reload", async () => {
    await page.goto(LIST);
    await page.getByRole('columnheader', { name: 'Placa' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Ano' }).count()).toBe(0);
    // saved through PUT /api/usuario 1 s after the change: listen before changing (a slow machine may save first)
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/usuario') && r.request().method() === 'PUT' && r.ok());
    await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
    await page.getByRole('menuitem', { name: 'Ano' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Ano' }).waitFor();
    await saved;
    await page.reload();
    await page.getByRole('columnheader', { name: 'Placa' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Ano' }).count()).toBe(1);
    // switch it off again
    await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
    await page.getByRole('menuitem', { name: 'Ano' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Ano' }).count()).toBe(0);
  });

  it('switches the active company in the app bar', async () => {
    // each company's asset count as the API answers it (other test files add assets to both companies)
    const token = async () => decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
    const total = async () => {
      const r = await fetch(`${baseUrl}/api/ativo?range=${encodeURIComponent('[0,0]')}`, { headers: { Authorization: `Bearer ${await token()}` } });
      expect(r.status).toBe(200);
      return Number(r.headers.get('content-range')!.split('/')[1]);
    };
    const switchTo = async (empresa: number) => {
      const r = await fetch(`${baseUrl}/api/auth/empresa/${empresa}`, { method: 'POST', headers: { Authorization: `Bearer ${await token()}`, 'Content-Type': 'application/json' }, body: '{}' });
      expect(r.status).toBe(200);
    };
    const me = await (await fetch(`${baseUrl}/api/auth/get_session`, { headers: { Authorization: `Bearer ${await token()}` } })).json();
    const empresas = me.payload.user.empresas as { id: number; nome?: string; razaoSocial?: string }[];
    const alfaId = me.payload.user.empresaAtiva as number;
    const betaId = empresas.map((e) => e.id).find((id) => id !== alfaId)!;
    const alfa = await total();
    expect(alfa).toBeGreaterThanOrEqual(40); // the seed's 40, plus what other files added
    let beta = 0;
    try {
      await switchTo(betaId);
      beta = await total();
      expect(beta).toBeGreaterThanOrEqual(10); // the seed's 10, plus what other files' second-company users added
      await switchTo(alfaId);
      await page.goto(`${baseUrl}/home`);
      await expect.poll(() => page.getByTestId('count-ativo').textContent()).toBe(String(alfa));
      await page.locator('header [role="combobox"]').click();
      await page.getByRole('option', { name: 'Logística Beta' }).click();
      await expect.poll(() => page.getByTestId('count-ativo').textContent()).toBe(String(beta));
      expect(await total()).toBe(beta);
      await expect.poll(() => page.locator('header [role="combobox"]').textContent()).toContain('Logística Beta');
      await page.goto(LIST);
      await page.getByText(new RegExp(`^1-${Math.min(25, beta)} de ${beta}$`)).waitFor();
      await page.locator('header [role="combobox"]').click();
      await page.getByRole('option', { name: 'Transportes Alfa' }).click();
      await page.getByText(new RegExp(`^1-25 de ${alfa}$`)).waitFor();
    } finally {
      // the admin's active company is every other browser test's: never leave it on the second one
      await switchTo(alfaId);
    }
    expect(await total()).toBe(alfa);
  });
});

describe('read-only user', () => {
  it("gets 'Você não tem permissão' on /tlm/fro/ativo/adicionar", async () => {
    const ctx = await browser.newContext({ locale: 'pt-BR' });
    const page = await ctx.newPage();
    try {
      await signIn(page, baseUrl, 'leitor', leitorPassword);
      await page.goto(`${LIST}/adicionar`);
      await page.getByText('Você não tem permissão').waitFor({ timeout: 30_000 });
      await page.waitForURL(`${baseUrl}/home`);
      expect(await page.locator('#root_placa').count()).toBe(0);
      // the list itself is allowed, without the add button
      await page.goto(LIST);
      await page.locator('h1', { hasText: 'Ativos' }).waitFor();
      await page.locator('tbody tr').first().waitFor();
      expect(await page.getByRole('button', { name: 'Adicionar' }).count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
