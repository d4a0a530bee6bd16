// Issue 20 (points 4 and 5): the record page's tabs are links (spec routes, middle-click, copyable), actions are
// toolbar buttons that say what they do, Voltar is the header's back button, the selected-tab marker sits on its tab,
// a sub-level keeps the tab list; lists open the record on a row click, keep row actions in a "⋮" menu and fit
// 1440 px with three more columns (long values cut, full value in a tooltip).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, openSession, randomPlate, signIn, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/record-tabs';

let s: AdminSession;
let page: Page;
const placa = randomPlate();
const descricao = `Abas E2E ${placa} com uma descrição bem longa para não caber inteira na coluna da tabela`;
const serial = `8662${String(Date.now()).slice(-11)}`;
let ativo: number;
let empresa: number;
const LIST = () => `${baseUrl}/tlm/fro/ativo`;
const base = () => `${LIST()}/${ativo}`;
const tablist = () => page.getByRole('tablist', { name: 'Abas' });
const tabs = () => tablist().getByRole('tab').allInnerTexts();
const toolbar = () => page.getByRole('toolbar', { name: 'Ações do registro' });

async function del(path: string) {
  const token = decodeURIComponent((await s.ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  await fetch(`${baseUrl}${path}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
}

/** The visible marker(s) of the record's tab list against the selected tab, in window pixels. */
async function markerOffsets() {
  return page.locator('.rastro-record').evaluate((root) => {
    const list = root.querySelector('[role="tablist"][aria-label="Abas"]')!;
    const tab = list.querySelector('[role="tab"][aria-selected="true"]')!.getBoundingClientRect();
    const markers = [...root.querySelectorAll('.MuiTabs-indicator, [data-tab-marker]')]
      .map((m) => m.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    return markers.map((m) => ({ top: Math.abs(m.top - tab.top), bottom: Math.abs(m.bottom - tab.bottom), inside: m.left >= tab.left - 2 && m.right <= tab.right + 2 }));
  });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await openSession(baseUrl, 'admin', adminPassword);
  page = s.page;
  const row = await apiCall(s.ctx, baseUrl, '/api/ativo', { descricao, placa, odometro: 10 });
  ativo = row.id;
  empresa = row.empresaId;
  await apiCall(s.ctx, baseUrl, '/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true, simcard: '5511999990001' });
  await apiCall(s.ctx, baseUrl, '/api/equipamento_ativo', { serial, ativoId: ativo, dataInicio: '2024-01-01T00:00:00Z' });
});
afterAll(async () => {
  if (ativo && s) {
    const links = await apiCall(s.ctx, baseUrl, `/api/equipamento_ativo?filter=${encodeURIComponent(JSON.stringify({ serial: [serial] }))}`);
    for (const l of links) await del(`/api/equipamento_ativo/${l.id}`);
    await del(`/api/ativo/${ativo}`);
  }
  await s?.close();
});

describe('record page tabs (issue 20, point 4)', () => {
  it('tabs are links to the spec routes; Voltar is not a tab; actions are toolbar buttons with a sentence', async () => {
    await page.goto(`${base()}/informacoes`);
    await expect.poll(tabs, T).toEqual(['Informações', 'Controle de acesso', 'Motorista temporário', 'Equipamento', 'Especiais', 'Mapa', 'Viagens']);
    const links = await tablist().getByRole('tab').evaluateAll((els) => els.map((e) => `${e.tagName} ${(e as HTMLAnchorElement).href ?? ''}`));
    expect(links).toEqual(['informacoes', 'controle_de_acesso', 'motorista_temporario', 'equipamento', 'especial', 'mapa', 'viagens'].map((n) => `A ${base()}/${n}`));
    // the actions are buttons of the record's toolbar, each described by one sentence from the metadata
    const block = toolbar().getByRole('button', { name: 'Bloquear motor', exact: true });
    await block.waitFor(T);
    const described = async (name: string) => {
      const id = await toolbar().getByRole('button', { name, exact: true }).getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).innerText() : null;
    };
    expect(await described('Bloquear motor')).toBe('Envia ao equipamento vinculado ao veículo o comando que corta o motor; o veículo não liga (e para, se estiver andando) até ser desbloqueado.');
    expect(await described('Desbloquear motor')).toBe('Envia ao equipamento vinculado ao veículo o comando que libera o motor bloqueado.');
    await page.screenshot({ path: `${SHOTS}/registro.png` });
    // the block still goes through the ATENÇÃO dialog and queues the command on the linked device
    await block.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click(T);
    await expect.poll(async () => (await apiCall(s.ctx, baseUrl, `/api/equipamento/${serial}/fila_processamento`)).map((r: any) => r.event), T).toEqual(['engineBlock']);
  });

  it('the selected-tab marker sits on its tab (within 2 px)', async () => {
    await page.goto(`${base()}/informacoes`);
    await tablist().getByRole('tab', { name: 'Informações', selected: true }).waitFor(T);
    for (const name of ['Informações', 'Especiais', 'Equipamento']) {
      if (name !== 'Informações') await tablist().getByRole('tab', { name }).click();
      await tablist().getByRole('tab', { name, selected: true }).waitFor(T);
      await expect.poll(async () => {
        const m = await markerOffsets();
        return m.length === 1 && m[0].top <= 2 && m[0].bottom <= 2 && m[0].inside;
      }, T).toBe(true);
    }
  });

  it('a middle click on a tab opens it in a new browser tab; the page stays', async () => {
    await page.goto(`${base()}/informacoes`);
    const tab = tablist().getByRole('tab', { name: 'Especiais' });
    await tab.waitFor(T);
    const [popup] = await Promise.all([s.ctx.waitForEvent('page', T), tab.click({ button: 'middle' })]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(`${base()}/especial`);
    await popup.close();
    expect(page.url()).toBe(`${base()}/informacoes`);
  });

  it('Voltar is the header back button: it goes to the list', async () => {
    await page.goto(`${base()}/especial`);
    // in the header of the tab column, not a tab
    await page.locator('.rastro-record > .MuiCard-root').first().getByRole('button', { name: 'Voltar' }).click(T);
    await page.waitForURL(LIST(), T);
  });

  it('a sub-level keeps the tab list: the serial and its tabs open below Equipamento; the toolbar holds the serial actions', async () => {
    await page.goto(`${base()}/informacoes`);
    await tablist().getByRole('tab', { name: 'Equipamento' }).click(T);
    await expect.poll(tabs, T).toEqual(['Informações', 'Controle de acesso', 'Motorista temporário', 'Equipamento', serial, 'Especiais', 'Mapa', 'Viagens']);
    await tablist().getByRole('tab', { name: serial }).click();
    await page.waitForURL(`${base()}/equipamento/${serial}/configuracao`, T);
    await expect.poll(tabs, T).toEqual(['Informações', 'Controle de acesso', 'Motorista temporário', 'Equipamento', serial, 'Configuração', 'Fila de processamento', 'Especiais', 'Mapa', 'Viagens']);
    expect(await tablist().getByRole('tab', { name: 'Configuração' }).getAttribute('href')).toBe(`/tlm/fro/ativo/${ativo}/equipamento/${serial}/configuracao`);
    await page.locator('h1', { hasText: `Configuração: ${serial}` }).waitFor(T);
    await expect.poll(() => toolbar().getByRole('button').allInnerTexts(), T)
      .toEqual(['Excluir equipamento', 'Reiniciar SIM card', 'Remover equipamento', 'Sincronizar CAN', 'Redefinir']);
    await page.screenshot({ path: `${SHOTS}/subnivel.png` });
    await tablist().getByRole('tab', { name: 'Fila de processamento' }).click();
    await page.waitForURL(`${base()}/equipamento/${serial}/fila_processamento`, T);
    await page.locator('h1', { hasText: `Fila de processamento: ${serial}` }).waitFor(T);
    await tablist().getByRole('tab', { name: 'Informações' }).click();
    await page.waitForURL(`${base()}/informacoes`, T);
    await expect.poll(tabs, T).toEqual(['Informações', 'Controle de acesso', 'Motorista temporário', 'Equipamento', 'Especiais', 'Mapa', 'Viagens']);
    expect(s.errors).toEqual([]);
  });
});

describe('lists (issue 20, point 5)', () => {
  it('at 1440 × 900 with three more columns the table fits; a long value is cut with its tooltip; the row menu holds the actions; a row click opens the record', async () => {
    // a user of their own: the column choice is kept per user
    const login = `lista${serial.slice(-6)}`;
    const senha = 'Lista-e2e-2024!';
    await apiCall(s.ctx, baseUrl, '/api/usuario', {
      nome: 'Usuário lista', login, senha, empresas: [empresa], empresaAtiva: empresa,
      permissoesExtras: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.editar', 'tlm.fro.ativo.informacoes', 'tlm.fro.ativo.bloqueia_motor'],
    });
    const ctx = await s.browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
    const p = await ctx.newPage();
    try {
      await signIn(p, baseUrl, login, senha);
      await p.goto(LIST());
      await p.locator('tbody tr').first().waitFor(T);
      await p.getByRole('button', { name: 'Selecionar Colunas' }).click();
      // three columns off by default (Modelo is on in the demo's list)
      for (const c of ['Categoria', 'Fabricante', 'Ano']) await p.getByRole('menuitem', { name: c, exact: true }).click();
      await p.keyboard.press('Escape');
      await p.getByRole('columnheader', { name: 'Ano' }).waitFor(T);
      await expect.poll(() => p.locator('tbody tr').count(), T).toBe(25);
      const widths = await p.evaluate(() => {
        const doc = document.scrollingElement!;
        const table = document.querySelector('.rastro-list table')!;
        return { page: doc.scrollWidth - doc.clientWidth, table: table.scrollWidth - table.parentElement!.clientWidth };
      });
      expect(widths.page).toBeLessThanOrEqual(0);
      expect(widths.table).toBeLessThanOrEqual(0);
      await p.screenshot({ path: `${SHOTS}/lista-1440.png` });
      // no action buttons in the rows: one "⋮" menu per row with the actions
      const first = p.locator('tbody tr').first();
      expect(await first.getByRole('button', { name: /Bloquear motor|Desbloquear motor/ }).count()).toBe(0);
      await first.getByRole('button', { name: 'Ações da linha' }).click();
      await expect.poll(() => p.getByRole('menu').getByRole('menuitem').allInnerTexts().then((t) => t.map((x) => x.split('\n')[0])), T)
        .toEqual(['Abrir', 'Bloquear motor', 'Desbloquear motor']);
      await p.keyboard.press('Escape');
      // the long description is cut, its tooltip has it whole
      await p.goto(`${LIST()}?filter=${encodeURIComponent(JSON.stringify({ q: placa }))}`);
      const row = p.locator('tbody tr', { hasText: placa });
      const cell = row.locator('td.column-descricao span').first();
      await cell.waitFor(T);
      expect(await cell.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
      await cell.hover();
      await expect.poll(() => p.getByRole('tooltip').innerText(), T).toBe(descricao);
      // a click on the row opens the record
      await row.locator('td.column-placa').click({ position: { x: 12, y: 10 } });
      await p.waitForURL(`${base()}/informacoes`, T);
    } finally {
      await ctx.close();
    }
  });
});
