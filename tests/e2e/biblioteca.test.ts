// Library screens (metadata kind: tela with subroutes): /adm/bib/biblioteca_de_eventos (the generated technology → model
// navigation, then Eventos / Parâmetros, the URL following each choice) and /tlm/cfg/biblioteca (three tabs), both the
// generic provider list (columns and filters from the providers' metadata) over GET /api/biblioteca/...
// Texts are checked against the YAML files.
// E2E_SHOTS=dir saves screenshots of both screens there.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parse } from 'yaml';
import { launch, menuEntry, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const EVENTOS = `${baseUrl}/adm/bib/biblioteca_de_eventos`;
const TLM = `${baseUrl}/tlm/cfg/biblioteca`;
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

interface Entry { event: string; message?: string; risk?: string; description: string; undescribed?: boolean; unit: { short: string; full: string } }
const yaml = (name: string): Entry[] => parse(readFileSync(join(import.meta.dirname, '../../metadata/catalogos', `${name}.yaml`), 'utf8')).entries;
const GTIGN = yaml('queclink-eventos').find((e) => e.message === 'GTIGN')!;

let browser: Browser;
let ctx: BrowserContext;
let page: Page;

async function shot(name: string) {
  const dir = process.env.E2E_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 1000 } });
  page = await ctx.newPage();
  await signIn(page, baseUrl, 'admin', adminPassword);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

const rows = () => page.locator('tbody tr');
const column = async (label: string) => {
  const i = (await page.locator('thead th').allInnerTexts()).map((s) => s.trim()).indexOf(label);
  return rows().evaluateAll((trs, i) => trs.map((r) => (r.querySelectorAll('td')[i] as HTMLElement | undefined)?.innerText.trim() ?? ''), i);
};

describe('/adm/bib/biblioteca_de_eventos', () => {
  it('shows the gv58cg events with the GTIGN row from the catalogue', async () => {
    await page.goto(`${EVENTOS}/queclink/gv58cg/eventos`);
    const row = rows().filter({ has: page.getByText(GTIGN.event, { exact: true }) });
    await row.waitFor(T);
    expect(await row.innerText()).toContain(GTIGN.description);
    expect((await page.getByRole('tab', { selected: true }).innerText()).toLowerCase()).toBe('eventos');
    await page.locator('h1', { hasText: 'Biblioteca de eventos: Queclink @Track: GV58CG' }).waitFor(T);
    expect(await page.locator('thead th').allInnerTexts()).toEqual(expect.arrayContaining(['Evento', 'Código', 'Descrição', 'Subtítulo', 'Tipo', 'Unidade']));
    expect(await rows().count()).toBe(25);
    await page.getByText(`1-25 de ${yaml('queclink-eventos').length}`).waitFor(T);
    await shot('biblioteca_de_eventos-gv58cg-eventos');
  });

  it('searches, and says so when nothing matches', async () => {
    await page.getByRole('textbox', { name: 'Pesquisar' }).fill('ignição ligada');
    await expect.poll(() => column('Evento'), T).toEqual([GTIGN.event]);
    await page.getByRole('textbox', { name: 'Pesquisar' }).fill('nada disso existe');
    await page.getByText('Nenhum item foi encontrado').waitFor(T);
    await page.getByRole('textbox', { name: 'Pesquisar' }).fill('');
    await expect.poll(() => rows().count(), T).toBe(25);
  });

  it('sorts by a column and offers the page sizes of the spec', async () => {
    await page.locator('thead th', { hasText: 'Evento' }).getByRole('button').click();
    const sorted = [...yaml('queclink-eventos').map((e) => e.event)].sort((a, b) => a.localeCompare(b, 'pt-BR', { sensitivity: 'base', numeric: true })).slice(0, 25);
    await expect.poll(() => column('Evento'), T).toEqual(sorted);
    await page.getByRole('combobox', { name: /por página/i }).click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['25', '50', '100', '250', '500', '1000']);
    await page.keyboard.press('Escape');
  });

  it('the Parâmetros tab follows the URL; units show the short form with the full one as tooltip', async () => {
    await page.getByRole('tab', { name: /Parâmetros/ }).click();
    await page.waitForURL(`${EVENTOS}/queclink/gv58cg/parametros`);
    const p = yaml('queclink-parametros').find((e) => e.event === 'externalPowerSupplyVoltage')!;
    const row = rows().filter({ hasText: p.description });
    await row.waitFor(T);
    const unit = row.locator('[data-tooltip]');
    expect(await unit.innerText()).toBe(p.unit.short);
    await unit.hover();
    await expect.poll(() => page.getByRole('tooltip').innerText(), T).toBe(p.unit.full);
    await shot('biblioteca_de_eventos-gv58cg-parametros');
  });

  it('walks technology → model through the generated navigation; the boolean filter of the provider is a switch', async () => {
    await page.goto(EVENTOS);
    await page.getByText('Selecione a tecnologia').waitFor(T);
    await page.getByRole('button', { name: /Queclink @Track/ }).click();
    await page.waitForURL(`${EVENTOS}/queclink`);
    await page.getByText('Selecione o modelo').waitFor(T);
    await page.getByRole('button', { name: /GV350CEU/ }).click();
    await page.waitForURL(`${EVENTOS}/queclink/gv350ceu/eventos`);
    await rows().filter({ hasText: GTIGN.description }).waitFor(T);

    await page.goto(`${EVENTOS}/legacy`);
    await page.getByRole('button', { name: /Legado/ }).click();
    await page.waitForURL(`${EVENTOS}/legacy/legacy/eventos`);
    await rows().first().waitFor(T);
    const semDescricao = yaml('legacy-eventos').filter((e) => e.undescribed).length;
    expect(semDescricao).toBeGreaterThan(0);
    await page.getByLabel('Somente sem descrição').click();
    await expect.poll(() => page.getByLabel('Somente sem descrição').isChecked(), T).toBe(true);
    await page.getByText(new RegExp(`^1-${Math.min(25, semDescricao)} de ${semDescricao}$`)).waitFor(T);
    await shot('biblioteca_de_eventos-legacy-sem-descricao');
  });

  it('answers an unknown technology in pt-BR', async () => {
    await page.goto(`${EVENTOS}/nokia`);
    await page.getByText('Tecnologia desconhecida: nokia').first().waitFor(T);
    await page.goto(`${EVENTOS}/queclink/gv999/eventos`);
    await page.getByText('Modelo desconhecido para a tecnologia Queclink @Track: gv999').first().waitFor(T);
  });
});

describe('shared list tools on a library (provider)', () => {
  it('the column chooser hides a column; the export downloads the filtered list as CSV with the chosen columns', async () => {
    await page.goto(`${EVENTOS}/queclink/gv58cg/eventos`);
    await rows().first().waitFor(T);
    const headers = async () => (await page.locator('thead th').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
    await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
    await page.getByRole('menuitem', { name: 'Subtítulo' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(headers, T).toEqual(['Evento', 'Descrição', 'Tipo', 'Unidade', 'Código', 'Risco']);
    await page.getByRole('textbox', { name: 'Pesquisar' }).fill('GTIGN');
    await expect.poll(() => rows().count(), T).toBe(1);
    await page.getByRole('button', { name: 'Exportar Tabela' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('biblioteca_lista.csv');
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv).toEqual(['Evento;Descrição;Tipo;Unidade;Código;Risco', `${GTIGN.event};${GTIGN.description};primary;${GTIGN.unit.short};GTIGN;${GTIGN.risk ?? ''}`]);
    // The choice is the user's: put the column back.
    await page.getByRole('button', { name: 'Selecionar Colunas' }).click();
    await page.getByRole('menuitem', { name: 'Subtítulo' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(headers, T).toContain('Subtítulo');
  });
});

describe('/tlm/cfg/biblioteca', () => {
  it('opens the event library tab and switches to the peripherals and parameters', async () => {
    await page.goto(TLM);
    await page.waitForURL(`${TLM}/biblioteca_do_evento`);
    await rows().filter({ hasText: GTIGN.description }).waitFor(T);
    expect(await page.locator('thead th').allInnerTexts()).toEqual(expect.arrayContaining(['Evento', 'Código', 'Risco']));
    await shot('biblioteca-do-evento');

    await page.getByRole('tab', { name: /Biblioteca de periférico/ }).click();
    await page.waitForURL(`${TLM}/biblioteca_de_periferico`);
    // the tab's own list is shown (its first page and count) before typing, as a user would see it
    await page.getByText(`1-25 de ${yaml('can-parametros').length + yaml('camera-parametros').length}`).waitFor(T);
    await page.waitForLoadState('networkidle');
    await page.getByRole('textbox', { name: 'Pesquisar' }).fill('combustível');
    // the search is applied (it is debounced, then kept in the address) before leaving the tab
    await page.waitForURL(/biblioteca_de_periferico\?filter=.*combust/);
    await rows().filter({ hasText: 'Nível de combustível' }).first().waitFor(T);

    await page.getByRole('tab', { name: /Biblioteca de parâmetros/ }).click();
    await page.waitForURL(`${TLM}/biblioteca_de_parametros`);
    await page.getByText(`1-25 de ${yaml('queclink-parametros').length + yaml('legacy-parametros').length + yaml('viagem-parametros').length}`).waitFor(T);
    // the tab's list settles (its first page and counts) before typing, as a user would see it
    await page.waitForLoadState('networkidle');
    const viagem = yaml('viagem-parametros')[0]!;
    await page.getByRole('textbox', { name: 'Pesquisar' }).fill(viagem.event);
    await expect.poll(() => column('Evento'), T).toContain(viagem.event);
    await shot('biblioteca-de-parametros-viagem');
  });

  it('both screens are menu entries', async () => {
    await page.goto(`${baseUrl}/home`);
    await (await menuEntry(page, 'Biblioteca de eventos')).click();
    await page.waitForURL(EVENTOS);
    await (await menuEntry(page, 'Biblioteca')).click();
    await page.waitForURL(`${TLM}/biblioteca_do_evento`);
  });
});
