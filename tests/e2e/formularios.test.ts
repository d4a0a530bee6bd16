// /rel/for/formularios as an administrator: the list, the questionnaire editor (widget: questionnaire) on adicionar,
// and the :id view showing the form as a respondent sees it, answering it and listing the answer.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine
const SHOTS = process.env.E2E_SHOTS;

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
let errors: string[];
const titulo = `Checklist E2E ${Date.now()}`;

async function api<T>(path: string): Promise<T> {
  const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await r.json()) as T;
}

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  ({ ctx, page, errors } = s);
});
afterAll(async () => { await s?.close(); });

describe('formulários', () => {
  it('builds a questionnaire in the editor and saves it', async () => {
    await page.goto(`${baseUrl}/rel/for/formularios/adicionar`);
    await page.locator('h1', { hasText: 'Adicionar Formulário' }).waitFor(T);
    await page.locator('#root_titulo').fill(titulo);
    const editor = page.getByTestId('questionnaire-editor');
    await editor.waitFor(T);
    // 1: yes or no (default type), required
    await editor.getByRole('button', { name: 'Adicionar questão' }).click();
    await page.getByTestId('pergunta-0').fill('O veículo está limpo?');
    await page.getByRole('checkbox', { name: 'Obrigatória 1' }).check();
    // 2: multiple choice with three options
    await editor.getByRole('button', { name: 'Adicionar questão' }).click();
    await page.getByTestId('pergunta-1').fill('Turno');
    await page.getByTestId('questao-1').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Múltipla escolha' }).click();
    await page.getByTestId('questao-1').getByRole('button', { name: 'Adicionar opção' }).click();
    await page.getByTestId('questao-1').getByLabel('Opção 1').fill('Manhã');
    await page.getByTestId('questao-1').getByLabel('Opção 2').fill('Tarde');
    await page.getByTestId('questao-1').getByLabel('Opção 3').fill('Noite');
    // 3: opinion scale 1..5
    await editor.getByRole('button', { name: 'Adicionar questão' }).click();
    await page.getByTestId('pergunta-2').fill('Nota da viagem');
    await page.getByTestId('questao-2').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Escala de opinião' }).click();
    await page.getByTestId('questao-2').getByLabel('Rótulo do início').fill('Ruim');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/formulario-editor.png`, fullPage: true });
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/rel/for/formularios`, T);
    const rows = await api<{ id: number; titulo: string; questoes: { tipo: string; pergunta: string; opcoes?: string[]; obrigatoria?: boolean }[] }[]>(
      `/api/formulario?filter=${encodeURIComponent(JSON.stringify({ q: titulo }))}`);
    expect(rows.length).toBe(1);
    expect(rows[0].questoes.map((q) => [q.tipo, q.pergunta])).toEqual([['YES_OR_NO', 'O veículo está limpo?'], ['MULTIPLE_CHOICE', 'Turno'], ['OPINION_SCALE', 'Nota da viagem']]);
    expect(rows[0].questoes[0].obrigatoria).toBe(true);
    expect(rows[0].questoes[1].opcoes).toEqual(['Manhã', 'Tarde', 'Noite']);
  });

  it('lists it with its columns', async () => {
    await page.locator('h1', { hasText: 'Formulários' }).waitFor(T);
    for (const c of ['Título', 'Descrição', 'Data início', 'Data fim', 'Questões', 'Criado por']) {
      await page.getByRole('columnheader', { name: c }).first().waitFor(T);
    }
    await expect.poll(() => page.locator('tbody').innerText(), T).toContain(titulo);
    expect(await page.locator('tbody tr', { hasText: titulo }).innerText()).toContain('3');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/formulario-list.png` });
  });

  it('shows the form as a respondent sees it, checks and stores an answer', async () => {
    const [row] = await api<{ id: number }[]>(`/api/formulario?filter=${encodeURIComponent(JSON.stringify({ q: titulo }))}`);
    await page.goto(`${baseUrl}/rel/for/formularios/${row.id}`);
    await page.locator('h1', { hasText: 'Visualizar Formulário' }).waitFor(T);
    const view = page.getByTestId('questionnaire-view');
    await view.waitFor(T);
    await page.getByText('Respostas (0)').waitFor(T);
    // the required yes/no question unanswered: the pt-BR message, nothing stored
    await view.getByRole('button', { name: 'Enviar respostas' }).click();
    await view.getByText('Questão 1 (O veículo está limpo?): resposta obrigatória').waitFor(T);
    await page.getByTestId('responder-0').getByLabel('Sim').check();
    await page.getByTestId('responder-1').getByLabel('Tarde').check();
    await page.getByTestId('responder-2').getByRole('button', { name: '4' }).click();
    await view.getByRole('button', { name: 'Enviar respostas' }).click();
    await page.getByText('Respostas (1)').waitFor(T);
    const answers = await api<{ respostas: { questao: string; valor: unknown }[] }[]>(`/api/formulario/${row.id}/resposta_formulario`);
    expect(answers.map((a) => a.respostas.map((r) => r.valor))).toEqual([[true, 'Tarde', 4]]);
    await expect.poll(() => page.getByTestId('resposta').innerText(), T).toContain('Tarde');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/formulario-view.png`, fullPage: true });
  });

  it('logs no errors in the browser console', () => {
    expect(errors).toEqual([]);
  });
});
