// Configuration models by technology and model (metadata params): the generated navigation index → technology →
// model → list → add → edit, the device rules' messages in the form, and an unknown technology; in the browser.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, launch, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine
const BASE = '/adm/bib/modelos_de_configuracao';
const SHOTS = '/tmp/shots/params';

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const errors: string[] = [];
const tag = String(Date.now()).slice(-6);

beforeAll(async () => {
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, baseUrl, 'admin', adminPassword);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

describe('configuration models', () => {
  it('navigates index → technology → model from the generated screens', async () => {
    await page.goto(`${baseUrl}${BASE}`);
    await page.locator('h1', { hasText: 'Modelos de configuração' }).waitFor(T);
    await page.getByText('Selecione a tecnologia').waitFor(T);
    const techs = page.getByRole('list', { name: 'Selecione a tecnologia' }).getByRole('button');
    await expect.poll(() => techs.count(), T).toBe(3);
    await page.screenshot({ path: `${SHOTS}/1-tecnologias.png` });
    await page.getByRole('button', { name: /Queclink @Track/ }).click();
    await page.waitForURL(`${baseUrl}${BASE}/queclink`);
    await page.locator('h1', { hasText: 'Modelos de configuração: Queclink @Track' }).waitFor(T);
    await page.getByRole('button', { name: /GV58CG/ }).click();
    await page.waitForURL(`${baseUrl}${BASE}/queclink/gv58cg`);
    await page.locator('h1', { hasText: 'Modelos de configuração: Queclink @Track · GV58CG' }).waitFor(T);
    await page.getByText('Nenhum item foi encontrado').waitFor(T);
  });

  it('adds a model: the device rules answer in pt-BR in the form, and the row is listed under its model only', async () => {
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.waitForURL(`${baseUrl}${BASE}/queclink/gv58cg/adicionar`);
    await page.locator('#root_descricao').fill(`Frota E2E ${tag}`);
    await page.locator('#root_tempoAntifurto').fill('10');
    await page.locator('#root_periodoSono').fill('20');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('O tempo do antifurto não pode ser menor que 20 segundos (0 desativa; máximo 3600)').waitFor(T);
    await page.getByText('O período de sono deve ser de 30 minutos a 8 dias (11520 minutos)').waitFor(T);
    await page.locator('#root_alarmeMudancaDirecao').check();
    await page.locator('#root_velocidadeMudancaDirecao').fill('10');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.screenshot({ path: `${SHOTS}/2-regras.png`, fullPage: true });
    await page.getByText('Com o alarme de mudança de direção ligado, a velocidade mínima deve ser de ao menos 20 km/h (abaixo dela a direção não é confiável)').waitFor(T);
    await page.screenshot({ path: `${SHOTS}/2-regras.png`, fullPage: true });
    await page.locator('#root_tempoAntifurto').fill('30');
    await page.locator('#root_periodoSono').fill('60');
    await page.locator('#root_velocidadeMudancaDirecao').fill('25');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}${BASE}/queclink/gv58cg`);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    expect(await page.locator('tbody').innerText()).toContain(`Frota E2E ${tag}`);
    await page.screenshot({ path: `${SHOTS}/3-lista.png` });
    // another model of the same technology does not list it
    await page.goto(`${baseUrl}${BASE}/queclink/gv50cg`);
    await page.locator('h1', { hasText: 'Queclink @Track · GV50CG' }).waitFor(T);
    await expect.poll(async () => (await page.locator('.rastro-list').innerText()).includes(`Frota E2E ${tag}`), T).toBe(false);
  });

  it('edits it from the list and keeps it under its technology and model', async () => {
    await page.goto(`${baseUrl}${BASE}/queclink/gv58cg`);
    await page.locator('tbody tr', { hasText: `Frota E2E ${tag}` }).click(T);
    await page.waitForURL(new RegExp(`${BASE}/queclink/gv58cg/\\d+/editar$`));
    await expect.poll(() => page.locator('#root_tempoAntifurto').inputValue(), T).toBe('30');
    await page.screenshot({ path: `${SHOTS}/4-editar.png`, fullPage: true });
    await page.locator('#root_descricao').fill(`Frota E2E ${tag} editada`);
    await page.locator('#root_intervaloSnapshot').fill('300');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('O intervalo de amostragem do snapshot deve ser de 1 a 250 segundos (0 não envia)').waitFor(T);
    await page.locator('#root_intervaloSnapshot').fill('0');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}${BASE}/queclink/gv58cg`);
    await page.locator('tbody tr', { hasText: `Frota E2E ${tag} editada` }).waitFor(T);
  });

  it('an unknown technology shows a pt-BR message', async () => {
    await page.goto(`${baseUrl}${BASE}/nokia`);
    await page.getByText('Tecnologia desconhecida: nokia').first().waitFor(T);
    await page.goto(`${baseUrl}${BASE}/queclink/gv999`);
    await page.getByText('Modelo desconhecido para a tecnologia Queclink @Track: gv999').first().waitFor(T);
    expect(errors).toEqual([]);
  });
});

describe('a model registered in the hardware register', () => {
  it('is offered under its technology and opens its configuration models, without a release', async () => {
    const codigo = `gvx${tag}`;
    const [queclink] = await apiCall(ctx, baseUrl, `/api/protocolo?filter=${encodeURIComponent(JSON.stringify({ codigo: 'queclink' }))}`);
    await apiCall(ctx, baseUrl, '/api/modelo', { codigo, descricao: `GVX ${tag}`, protocolo: queclink.id });
    await page.goto(`${baseUrl}${BASE}/queclink`);
    await page.getByRole('button', { name: new RegExp(`GVX ${tag}`) }).click(T);
    await page.waitForURL(`${baseUrl}${BASE}/queclink/${codigo}`);
    await page.locator('h1', { hasText: `Modelos de configuração: Queclink @Track · GVX ${tag}` }).waitFor(T);
    await page.getByText('Nenhum item foi encontrado').waitFor(T);
    // not under another technology
    await page.goto(`${baseUrl}${BASE}/legacy/${codigo}`);
    await page.getByText(`Modelo desconhecido para a tecnologia Legado (binário): ${codigo}`).first().waitFor(T);
    expect(errors).toEqual([]);
  });
});
