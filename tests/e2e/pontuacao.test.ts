// Event scoring (/adm/bib/pontuacao_de_eventos and its tabs pontuacao_avancada, rag, analise_de_risco), the company
// configuration hub (/cfg/cfg/configuracao) and a driver's Ranking tab (/tlm/fro/motorista/:id/ranking), in the browser
// as an administrator: titles, lists and forms render with no console error; a weight is created through the form.
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
const stamp = String(Date.now()).slice(-8);
let motorista: number;

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  ({ ctx, page, errors } = s);
  const doc = `9${stamp}01`;
  motorista = (await apiCall(ctx, baseUrl, '/api/motorista', { nome: `Ranking E2E ${stamp}`, documento: `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}` })).id;
  await apiCall(ctx, baseUrl, '/api/pontuacao_rag', { descricao: `RAG E2E ${stamp}`, verdeAte: 10, ambarAte: 50, padrao: true });
  await apiCall(ctx, baseUrl, '/api/pontuacao_de_eventos', { evento: `overE2E${stamp}`, pontos: 5 });
  await apiCall(ctx, baseUrl, '/api/pontuacao_avancada', { descricao: `Avançada E2E ${stamp}`, evento: `overE2E${stamp}`, velocidadeMinima: 80, multiplicador: 2 });
  await apiCall(ctx, baseUrl, '/api/analise_de_risco', { descricao: `Risco E2E ${stamp}`, horaInicio: 22, horaFim: 6, fatorRisco: 1.5 });
});
afterAll(async () => { await s?.close(); });

describe('Pontuação de eventos', () => {
  it('creates an event weight through the form and lists it', async () => {
    await page.goto(`${baseUrl}/adm/bib/pontuacao_de_eventos`);
    await page.locator('h1', { hasText: 'Pontuação de eventos' }).waitFor(T);
    await page.getByRole('columnheader', { name: 'Pontos' }).waitFor(T);
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.waitForURL(`${baseUrl}/adm/bib/pontuacao_de_eventos/adicionar`);
    await page.locator('#root_evento').fill('evento inválido');
    await page.locator('#root_pontos').fill('10');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Evento inválido: use a chave do evento da biblioteca (ex.: harshBraking)').first().waitFor(T);
    await page.locator('#root_evento').fill(`harshE2E${stamp}`);
    await page.locator('#root_descricao').fill('Frenagem brusca (e2e)');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/adm/bib/pontuacao_de_eventos`);
    await page.getByRole('cell', { name: `harshE2E${stamp}` }).waitFor(T);
    const rows = await apiCall(ctx, baseUrl, `/api/pontuacao_de_eventos?filter=${encodeURIComponent(JSON.stringify({ q: `harshE2E${stamp}` }))}`);
    expect(rows.map((r: any) => [r.evento, r.pontos, r.ativo])).toEqual([[`harshE2E${stamp}`, 10, true]]);
  });

  for (const [path, title, column] of [
    ['pontuacao_avancada', 'Pontuação avançada', 'Multiplicador'],
    ['rag', 'Padrões RAG', 'Âmbar até (pontos)'],
    ['analise_de_risco', 'Análise de risco', 'Fator de risco'],
  ] as const) {
    it(`opens ${path} with its list and its form`, async () => {
      await page.goto(`${baseUrl}/adm/bib/pontuacao_de_eventos/${path}`);
      await page.locator('h1', { hasText: title }).waitFor(T);
      await page.getByRole('columnheader', { name: column }).waitFor(T);
      await page.goto(`${baseUrl}/adm/bib/pontuacao_de_eventos/${path}/adicionar`);
      await page.locator('#root_descricao').waitFor(T);
    });
  }

  it('the four registers are tabs of one screen; the RAG list shows the pattern created', async () => {
    await page.goto(`${baseUrl}/adm/bib/pontuacao_de_eventos`);
    const bar = page.getByRole('tablist', { name: 'Abas do cadastro' });
    await bar.waitFor(T);
    expect(await bar.getByRole('tab').allInnerTexts()).toEqual(['PONTUAÇÃO DE EVENTOS', 'PONTUAÇÃO AVANÇADA', 'RAG', 'ANÁLISE DE RISCO'].map((x) => expect.stringMatching(new RegExp(`^${x}$`, 'i'))) as never);
    await bar.getByRole('tab', { name: 'RAG' }).click();
    await page.waitForURL(`${baseUrl}/adm/bib/pontuacao_de_eventos/rag`);
    await expect.poll(() => page.getByRole('tablist', { name: 'Abas do cadastro' }).getByRole('tab', { selected: true }).innerText(), T).toMatch(/^RAG$/i);
    await page.getByRole('cell', { name: `RAG E2E ${stamp}` }).waitFor(T);
    await page.screenshot({ path: '/tmp/scoring-rag.png' });
  });
});

describe('Configuração de empresas (hub)', () => {
  it('lists Empresas below it', async () => {
    await page.goto(`${baseUrl}/cfg/cfg/configuracao`);
    await page.locator('h1', { hasText: 'Configuração de empresas' }).waitFor(T);
    await page.getByRole('link', { name: /Empresas/ }).first().click();
    await page.waitForURL(`${baseUrl}/cfg/cfg/configuracao/empresas`);
  });

  it('Vincular lists the users and links the selected ones to a company (bulk action with the company picker)', async () => {
    await page.goto(`${baseUrl}/cfg/cfg/configuracao/vincular`);
    await page.locator('h1', { hasText: 'Vincular usuários às empresas' }).waitFor(T);
    await page.getByRole('columnheader', { name: 'Login' }).waitFor(T);
    const empresas = await apiCall(ctx, baseUrl, `/api/empresa?sort=${encodeURIComponent('["id","ASC"]')}`);
    const [a, b] = empresas.map((e: any) => e);
    const login = `vinc_e2e_${stamp}`;
    const u = await apiCall(ctx, baseUrl, '/api/usuario', { nome: `Vínculo E2E ${stamp}`, login, senha: 'senha-e2e-12345', empresas: [a.id], empresaAtiva: a.id });
    await page.getByLabel('Pesquisar').fill(login);
    const row = page.locator('tbody tr', { hasText: login });
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    await row.getByRole('button', { name: 'Ações da linha' }).click();
    await page.getByRole('menuitem', { name: /^Vincular à empresa/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Deseja vincular o usuário à empresa escolhida? Ele passará a poder entrar nela com os seus cargos.').waitFor(T);
    await dialog.getByLabel('Empresa').fill(b.fantasia);
    await page.getByRole('option', { name: b.fantasia }).click(T);
    await page.screenshot({ path: '/tmp/scoring-vincular.png' });
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Ação executada').first().waitFor(T);
    const after = await apiCall(ctx, baseUrl, `/api/usuario/${u.id}`);
    expect(after.empresas).toEqual([a.id, b.id]);
  });
});

describe("a driver's Ranking tab", () => {
  it('shows the company ranking with the driver marked, RAG classified', async () => {
    await page.goto(`${baseUrl}/tlm/fro/motorista/${motorista}/ranking`);
    await page.locator('h1', { hasText: `Ranking: Ranking E2E ${stamp}` }).waitFor(T);
    await page.screenshot({ path: '/tmp/scoring-ranking.png' });
    expect(await page.getByRole('tablist', { name: 'Abas' }).getByRole('tab').allInnerTexts()).toEqual(['Editar', 'Ranking']);
    await page.getByRole('columnheader', { name: 'Pontuação' }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBeGreaterThan(1);
    await page.getByLabel('Somente este motorista').check();
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    await page.screenshot({ path: '/tmp/scoring-ranking-este.png' });
    const row = await page.locator('tbody tr').first().innerText();
    expect(row).toContain(`Ranking E2E ${stamp}`);
    expect(row).toContain('Verde');
    await page.getByLabel('Somente este motorista').uncheck();
    await page.getByLabel('Pesquisar').fill(`Ranking E2E ${stamp}`);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    // the tab's filters stay out of the address
    expect(page.url()).toBe(`${baseUrl}/tlm/fro/motorista/${motorista}/ranking`);
    expect(errors).toEqual([]);
  });
});
