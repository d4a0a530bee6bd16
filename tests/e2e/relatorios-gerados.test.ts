// Relatórios gerados in the browser (issue 22): a form with three answers (known by construction) reported as
// Formulário › Resumido por resposta, sent to the spool from 'Exportar Tabela'; on Relatórios gerados the row's
// download buttons give the CSV (the same numbers, its headers checked) and ask for a PDF ('Gerando…' while a
// background job makes it, then the link, pushed); 'Compartilhar link' shows the
// address once; the address opens with no session (the same bytes); 'Revogar link' ends it (404); 'Comentar'
// keeps a note. In the demo's second company (other tests count the first's rows).
import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, secondCompanySession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots/relatorios-gerados';
const stamp = String(Date.now()).slice(-8);
const TITULO = `Vistoria ${stamp}`;

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `gerados.${stamp}`);
  ({ ctx, page } = s);
  const form = await apiCall(ctx, baseUrl, '/api/formulario', {
    titulo: TITULO, questoes: [{ id: 'ok', tipo: 'YES_OR_NO', pergunta: 'Veículo liberado?', obrigatoria: true }],
  });
  for (const valor of [true, true, false]) await apiCall(ctx, baseUrl, '/api/resposta_formulario', { formulario: form.id, respostas: [{ questao: 'ok', valor }] });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Relatórios gerados', () => {
  it('generate into the spool, download per format, share a link that opens without a session, revoke it, comment', async () => {
    // the report on screen: 2 Sim (66,7 %), 1 Não (33,3 %)
    await page.goto(`${baseUrl}/rel/rel/relatorios/formulario`);
    await page.getByRole('tab', { name: 'Resumido por resposta' }).click(T);
    await page.getByRole('button', { name: /até/ }).click(T);
    await page.getByRole('button', { name: 'Hoje', exact: true }).click(T);
    await page.getByRole('button', { name: 'Gerar relatório' }).click(T);
    const table = page.getByRole('table', { name: 'Resultado: Resumido por resposta' });
    const sim = table.getByRole('row').filter({ hasText: TITULO }).filter({ hasText: 'Sim' });
    await sim.waitFor(T);
    expect((await sim.innerText()).replace(/\s+/g, ' ')).toContain('Veículo liberado? Sim 2 66,7');
    expect((await table.getByRole('row').filter({ hasText: TITULO }).filter({ hasText: 'Não' }).innerText()).replace(/\s+/g, ' ')).toContain('Não 1 33,3');

    // to the spool, in the background
    await page.getByRole('button', { name: 'Exportar Tabela' }).click(T);
    await page.getByRole('menuitem', { name: 'Relatórios gerados: CSV' }).click(T);
    await page.getByText('Relatório enviado para geração. Ele aparecerá em Relatórios gerados.').waitFor(T);

    await page.goto(`${baseUrl}/rel/rel/relatorios/gerados`);
    const row = page.getByRole('row').filter({ hasText: 'Relatório de Formulário — Resumido por resposta' });
    // the job runs in the background: the row is listed once it is done (the page read again until then)
    for (const until = Date.now() + 60_000; ;) {
      try { await row.waitFor({ timeout: 5000 }); break; } catch (e) { if (Date.now() > until) throw e; await page.reload(); }
    }
    expect(await row.count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/gerados-lista.png` });

    // download buttons: the stored CSV is a link; XLSX and PDF are produced on demand
    const csvLink = row.locator('a[href$="/csv"]');
    expect(await row.getByRole('link', { name: 'Baixar' }).count()).toBe(1);
    expect(await row.getByRole('link', { name: 'Baixar CSV' }).count()).toBe(1);
    expect(await row.getByRole('button', { name: /^Baixar (XLSX|PDF)$/ }).count()).toBe(2);
    const [download] = await Promise.all([page.waitForEvent('download', T), csvLink.click(T)]);
    expect(download.suggestedFilename()).toBe('relatorio_formulario_resumido_por_resposta.csv');
    const csv = readFileSync((await download.path())!);
    const lines = csv.toString('utf8').replace(/^\uFEFF/, '').split('\r\n').filter((l) => l.includes(TITULO));
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.includes('Sim'))).toMatch(/Sim.*2.*66,7/);
    expect(lines.find((l) => l.includes('Não'))).toMatch(/Não.*1.*33,3/);
    // the same address with the page's session: the headers
    const resp = await page.request.get(`${baseUrl}${await csvLink.getAttribute('href')}`);
    expect(resp.status()).toBe(200);
    expect(resp.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(resp.headers()['content-disposition']).toBe('attachment; filename="relatorio_formulario_resumido_por_resposta.csv"');
    expect(Buffer.from(await resp.body()).equals(csv)).toBe(true);
    // the PDF: asked for, 'Gerando…' while a background job makes it, then the link (pushed: the page is not read again)
    await page.locator('table tbody').evaluate((el) => {
      const w = window as unknown as { __vistos: string[] };
      w.__vistos = [];
      new MutationObserver(() => w.__vistos.push((el as HTMLElement).innerText)).observe(el, { subtree: true, childList: true, characterData: true });
    });
    await row.getByRole('button', { name: 'Baixar PDF' }).click(T);
    const pdfLink = row.getByRole('link', { name: 'Baixar PDF' });
    await pdfLink.waitFor(T);
    const vistos = await page.evaluate(() => (window as unknown as { __vistos: string[] }).__vistos);
    expect(vistos.some((t) => t.includes('Gerando…'))).toBe(true);
    expect(await row.getByRole('button', { name: 'Baixar XLSX' }).count()).toBe(1); // the XLSX still on demand
    await page.screenshot({ path: `${SHOTS}/gerados-pdf-gerado.png` });
    const [pdf] = await Promise.all([page.waitForEvent('download', T), pdfLink.click(T)]);
    expect(pdf.suggestedFilename()).toBe('relatorio_formulario_resumido_por_resposta.pdf');
    expect(readFileSync((await pdf.path())!).subarray(0, 5).toString()).toBe('%PDF-');

    // share: the address is shown once, opens with no session and gives the same bytes
    await row.getByRole('button', { name: 'Ações da linha' }).click(T);
    await page.getByRole('menuitem', { name: /Compartilhar link/ }).click(T);
    await page.getByRole('button', { name: 'Confirmar' }).click(T);
    const dialog = page.getByRole('dialog', { name: 'Link gerado' });
    await dialog.waitFor(T);
    const url = await dialog.getByRole('textbox').inputValue();
    expect(url).toMatch(new RegExp(`^${baseUrl.replace(/[.]/g, '\\.')}/api/report/get/rel_[A-Za-z0-9_-]{43}$`));
    await dialog.screenshot({ path: `${SHOTS}/gerados-link.png` });
    await dialog.getByRole('button', { name: 'Fechar' }).click(T);
    const pub = await fetch(url);
    expect(pub.status).toBe(200);
    expect(pub.headers.get('content-disposition')).toBe('attachment; filename="relatorio_formulario_resumido_por_resposta.csv"');
    expect(Buffer.from(await pub.arrayBuffer()).equals(csv)).toBe(true);
    // the expiry shows on the row (7 days, the default)
    const ate = new Date(Date.now() + 7 * 86_400_000).toLocaleDateString('pt-BR').replace(/\//g, '-'); // DD-MM-YYYY as the list shows
    await expect.poll(async () => (await row.innerText()), T).toContain(ate);
    await page.screenshot({ path: `${SHOTS}/gerados-compartilhado.png` });

    // revoke: the address is refused
    await row.getByRole('button', { name: 'Ações da linha' }).click(T);
    await page.getByRole('menuitem', { name: /Revogar link/ }).click(T);
    await page.getByRole('button', { name: 'Confirmar' }).click(T);
    await expect.poll(async () => (await fetch(url)).status, T).toBe(404);

    // comment
    await row.getByRole('button', { name: 'Ações da linha' }).click(T);
    await page.getByRole('menuitem', { name: /Comentar/ }).click(T);
    await page.getByRole('textbox', { name: 'Comentário' }).fill('Conferido pela operação');
    await page.getByRole('button', { name: 'Confirmar' }).click(T);
    await expect.poll(async () => (await row.innerText()), T).toContain('Conferido pela operação');
    await page.screenshot({ path: `${SHOTS}/gerados-comentario.png` });
    expect(s.errors).toEqual([]);
  });
});
