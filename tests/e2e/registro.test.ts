// The asset record page (metadata record, spec section 2 asset tab menu) in the browser against the real server:
// every tab with its title and content, the Equipamento group opening below its tab (serial → its tabs, the list
// kept whole), engine block from the record's toolbar queued and seen in the serial's Fila de processamento,
// technology + model carried, and a user without a tab's key.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, randomPlate, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine
const SHOTS = '/tmp/shots/tabs';

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const errors: string[] = [];

async function api(path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const t = token ?? decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}
async function del(path: string) {
  const t = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}${path}`, { method: 'DELETE', headers: { Authorization: `Bearer ${t}` } });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
}
async function ok(path: string, body?: unknown): Promise<any> {
  const r = await api(path, body);
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.body.msg}`);
  return r.body;
}

const placa = randomPlate();
const descricao = `Registro E2E ${placa}`;
const serial = `8661${String(Date.now()).slice(-11)}`;
let ativo: number;
let empresa: number;
const base = () => `${baseUrl}/tlm/fro/ativo/${ativo}`;
const tabs = (name = 'Abas') => page.getByRole('tablist', { name }).getByRole('tab').allInnerTexts();
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, baseUrl, 'admin', adminPassword);
  const row = await ok('/api/ativo', { descricao, placa, odometro: 100 });
  ativo = row.id;
  empresa = row.empresaId;
  await ok('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true, simcard: '5511999990000' });
  await ok('/api/equipamento_ativo', { serial, ativoId: ativo, dataInicio: '2024-01-01T00:00:00Z' });
});
afterAll(async () => {
  // other browser tests count the company's assets: leave none behind (the link first, it holds the asset)
  if (ativo && ctx) {
    for (const link of (await api(`/api/equipamento_ativo?filter=${encodeURIComponent(JSON.stringify({ serial: [serial] }))}`)).body) await del(`/api/equipamento_ativo/${link.id}`);
    await del(`/api/ativo/${ativo}`);
  }
  await ctx?.close();
  await browser?.close();
});

describe('asset record page (admin)', () => {
  it('opens from the list row on Informações, with every tab', async () => {
    await page.goto(`${baseUrl}/tlm/fro/ativo?filter=${encodeURIComponent(JSON.stringify({ q: placa }))}`);
    await page.locator('tbody tr', { hasText: placa }).locator('td.column-descricao').click({ ...T, position: { x: 20, y: 10 } });
    await page.waitForURL(`${base()}/informacoes`);
    await expect.poll(() => tabs(), T).toEqual(['Informações', 'Controle de acesso', 'Motorista temporário', 'Equipamento', 'Especiais', 'Mapa', 'Viagens']);
    await page.locator('h1', { hasText: `Informações: ${descricao}` }).waitFor(T);
    expect(await page.locator('#root_placa').inputValue()).toBe(placa);
    expect(await page.getByText('Identificação', { exact: true }).count()).toBe(1);
    expect(await page.locator('#root_odometro').count()).toBe(0);
    await shot('informacoes');
  });

  it('Especiais: only its section; saving keeps the rest of the record', async () => {
    await page.getByRole('tab', { name: 'Especiais' }).click();
    await page.waitForURL(`${base()}/especial`);
    await page.locator('h1', { hasText: `Especiais: ${descricao}` }).waitFor(T);
    expect(await page.locator('#root_placa').count()).toBe(0);
    await page.locator('#root_odometro').fill('1234');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Registro salvo').waitFor(T);
    expect(page.url()).toBe(`${base()}/especial`);
    const saved = await ok(`/api/ativo/${ativo}`);
    expect([saved.odometro, saved.placa, saved.descricao]).toEqual([1234, placa, descricao]);
  });

  it('Controle de acesso: the users who may see the asset', async () => {
    await page.getByRole('tab', { name: 'Controle de acesso' }).click();
    await page.waitForURL(`${base()}/controle_de_acesso`);
    await page.locator('h1', { hasText: `Controle de acesso: ${descricao}` }).waitFor(T);
    await page.getByRole('columnheader', { name: 'Acesso por' }).waitFor(T);
    const admin = page.locator('tbody tr', { hasText: 'admin' }).first();
    await admin.waitFor(T);
    expect(await admin.innerText()).toMatch(/Perfil|Cargo|Permissão extra/);
    await shot('controle_de_acesso');
  });

  it('Motorista temporário: the drivers assigned to the asset for a period', async () => {
    const doc = serial.slice(-11);
    const m = await ok('/api/motorista', { nome: `Temporário E2E ${serial}`, documento: `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}` });
    await ok(`/api/ativo/${ativo}/motorista_temporario`, { motoristaId: m.id, dataInicio: '2026-03-01T08:00:00Z', dataFim: '2026-03-05T18:00:00Z', observacao: 'Férias do titular' });
    await page.getByRole('tab', { name: 'Motorista temporário' }).click();
    await page.waitForURL(`${base()}/motorista_temporario`);
    await page.locator('h1', { hasText: `Motoristas temporários: ${descricao}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    await expect.poll(() => page.locator('tbody tr').first().innerText(), T).toContain(`Temporário E2E ${serial}`);
    expect(await page.locator('tbody tr').first().innerText()).toContain('Férias do titular');
    await shot('motorista_temporario');
  });

  it("Bloquear motor (the record's toolbar): the ATENÇÃO dialog queues the command", async () => {
    const toolbar = page.getByRole('toolbar', { name: 'Ações do registro' });
    await toolbar.getByRole('button', { name: 'Desbloquear motor' }).waitFor(T);
    await toolbar.getByRole('button', { name: 'Bloquear motor', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('ATENÇÃO').waitFor(T);
    await dialog.getByText('Deseja bloquear o motor deste veículo? O comando será enviado aos equipamentos vinculados.').waitFor(T);
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText(`Bloquear motor — ${descricao} (${placa}): comando enfileirado para o equipamento ${serial}`).waitFor(T);
  });

  it('Equipamento: the serials open below the tab; a serial opens its tabs below it; Fila de processamento shows the block', async () => {
    const all = ['Informações', 'Controle de acesso', 'Motorista temporário', 'Equipamento'];
    await page.getByRole('tab', { name: 'Equipamento' }).click();
    await page.waitForURL(`${base()}/equipamento`);
    await expect.poll(() => tabs(), T).toEqual([...all, serial, 'Especiais', 'Mapa', 'Viagens']);
    await shot('equipamento-serials');
    await page.getByRole('tab', { name: serial }).click();
    await page.waitForURL(`${base()}/equipamento/${serial}/configuracao`);
    await expect.poll(() => tabs(), T).toEqual([...all, serial, 'Configuração', 'Fila de processamento', 'Especiais', 'Mapa', 'Viagens']);
    await expect.poll(() => page.getByRole('toolbar', { name: 'Ações do registro' }).getByRole('button').allInnerTexts(), T)
      .toEqual(['Excluir equipamento', 'Reiniciar SIM card', 'Remover equipamento', 'Sincronizar CAN', 'Redefinir']);
    await page.locator('h1', { hasText: `Configuração: ${serial}` }).waitFor(T);
    expect(await page.locator('#root_simcard').inputValue()).toBe('5511999990000');
    await page.getByRole('tab', { name: 'Fila de processamento' }).click();
    await page.waitForURL(`${base()}/equipamento/${serial}/fila_processamento`);
    await page.locator('h1', { hasText: `Fila de processamento: ${serial}` }).waitFor(T);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    const row = await page.locator('tbody tr').first().innerText();
    expect(row).toContain('Bloquear motor');
    expect(row).toContain('Pendente');
    await shot('fila_processamento');
  });

  it('Reiniciar SIM card (the serial\'s toolbar) queues a restart seen in the queue', async () => {
    await page.getByRole('toolbar', { name: 'Ações do registro' }).getByRole('button', { name: 'Reiniciar SIM card' }).click();
    await page.getByRole('dialog').getByText('Deseja reiniciar o SIM card? O equipamento será reiniciado.').waitFor(T);
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText(`Reiniciar SIM card — ${serial}: comando enfileirado para o equipamento ${serial}`).waitFor(T);
    const fila = await ok(`/api/equipamento/${serial}/fila_processamento`);
    expect(fila.map((r: any) => r.event).sort()).toEqual(['engineBlock', 'reboot']);
  });

  it("the record's tabs stay at the serial's level: Informações goes back to the asset", async () => {
    await page.getByRole('tab', { name: 'Informações' }).click();
    await page.waitForURL(`${base()}/informacoes`);
    await expect.poll(() => tabs(), T).toEqual(['Informações', 'Controle de acesso', 'Motorista temporário', 'Equipamento', 'Especiais', 'Mapa', 'Viagens']);
  });

  it('carries technology and model in the query into navigation', async () => {
    await page.goto(`${base()}/informacoes?tecnology=queclink&model=gv50cg`);
    await page.getByRole('tab', { name: 'Especiais' }).click();
    await page.waitForURL(`${base()}/especial?tecnology=queclink&model=gv50cg`);
    await page.getByRole('tab', { name: 'Equipamento' }).click();
    await page.waitForURL(`${base()}/equipamento?tecnology=queclink&model=gv50cg`);
  });

  it('the tab column is resized by its splitter (60–300 px, default 300) and keeps its width after a reload', async () => {
    await page.goto(`${base()}/informacoes`);
    const sep = page.getByRole('separator', { name: 'Largura das abas' });
    const card = page.locator('.rastro-record > .MuiCard-root');
    const cssWidth = () => card.evaluate((el) => Math.round(parseFloat(getComputedStyle(el).width)));
    await sep.waitFor(T);
    expect(await sep.getAttribute('aria-valuenow')).toBe('300');
    expect(await cssWidth()).toBe(300);
    // 200 px of the page: the window zoom (80 % at this height) makes it 160 px of the window
    const zoom = await page.evaluate(() => Number(getComputedStyle(document.documentElement).getPropertyValue('--rastro-zoom')) || 1);
    expect(zoom).toBe(0.8);
    const b = (await sep.boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + 40);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2 - 200 * zoom, b.y + 40, { steps: 5 });
    await page.mouse.up();
    expect(await sep.getAttribute('aria-valuenow')).toBe('100');
    expect(await cssWidth()).toBe(100);
    await page.reload();
    await sep.waitFor(T);
    expect(await sep.getAttribute('aria-valuenow')).toBe('100');
    // narrow: initials on the tabs, full names kept for assistive technology
    await expect.poll(() => tabs(), T).toEqual(['I', 'CA', 'MT', 'E', 'E', 'M', 'V']);
    expect(await page.getByRole('tab', { name: 'Controle de acesso' }).count()).toBe(1);
    await shot('splitter-100');
    await sep.focus();
    for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowLeft');
    expect(await sep.getAttribute('aria-valuenow')).toBe('60');
    await page.keyboard.press('ArrowRight');
    expect(await sep.getAttribute('aria-valuenow')).toBe('70');
    await page.keyboard.press('End');
    expect(await sep.getAttribute('aria-valuenow')).toBe('300');
    expect(await cssWidth()).toBe(300);
  });

  it('Remover equipamento ends the link: the Equipamento tab has no serial left', async () => {
    await page.goto(`${base()}/equipamento/${serial}/remover_equipamento`);
    await page.getByRole('button', { name: 'Remover equipamento' }).click(T);
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Ação executada').waitFor(T);
    await page.goto(`${base()}/equipamento`);
    // the tab's screen (modules/vinculo) lists the links in force
    await page.getByText('Nenhum equipamento vinculado a este ativo.').waitFor(T);
    expect(errors).toEqual([]);
  });
});

describe('a user without the tab keys', () => {
  it('sees only the tabs of their keys; the route and the server refuse the others', async () => {
    const login = `abas${serial.slice(-6)}`;
    const senha = 'Abas-e2e-2024!';
    await ok('/api/usuario', {
      nome: 'Usuário abas', login, senha, empresas: [empresa], empresaAtiva: empresa,
      permissoesExtras: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.editar', 'tlm.fro.ativo.informacoes'],
    });
    const other = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
    const p = await other.newPage();
    try {
      await signIn(p, baseUrl, login, senha);
      await p.goto(base());
      await p.waitForURL(`${base()}/informacoes`);
      await expect.poll(() => p.getByRole('tablist', { name: 'Abas' }).getByRole('tab').allInnerTexts(), T).toEqual(['Informações']);
      await p.goto(`${base()}/bloqueia_motor`);
      await p.getByText('Você não tem permissão').waitFor(T);
      expect(await p.getByRole('button', { name: 'Bloquear motor', exact: true }).count()).toBe(0);
      const token = decodeURIComponent((await other.cookies()).find((c) => c.name === 'rastro_token')!.value);
      expect((await api(`/api/ativo/${ativo}/bloqueia_motor`, {}, token)).status).toBe(403);
      expect((await api(`/api/ativo/${ativo}/motorista_temporario`, undefined, token)).status).toBe(403);
      expect((await api(`/api/acesso_ativo/${ativo}`, undefined, token)).status).toBe(403);
    } finally {
      await other.close();
    }
  });
});
