// The fleet, maintenance, fence/itinerary and position registers of issue 9 as an administrator: each list and add
// form opens with its title and renders (table or 'Nenhum item foi encontrado'; form fields) without a console error;
// the badge/tag chips input saves a list; a maintenance's services open as its nested list; /tlm/ras/registros
// (provider list) shows its period picker and columns; an action with a payload (armazem.define_status, lote.altera)
// asks for it in the ATENÇÃO dialog.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, goInApp, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 }; // a condition's limit: room to spare on a loaded 2-core machine

let s: AdminSession;
let page: AdminSession['page'];
let errors: string[];

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  ({ page, errors } = s);
});
afterAll(async () => { await s?.close(); });

const api = (path: string, body?: unknown) => apiCall(s.ctx, baseUrl, path, body);
const heading = (name: string) => page.locator('h1').filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });

// [list route, list title, add form title]
const REGISTERS: [string, string, string][] = [
  ['/tlm/fro/passageiro', 'Passageiros', 'Adicionar Passageiro'],
  ['/tlm/fro/grupo_generico/ativos', 'Grupos genéricos de ativos', 'Adicionar Grupo genérico de ativos'],
  ['/tlm/fro/grupo_generico/motoristas', 'Grupos genéricos de motoristas', 'Adicionar Grupo genérico de motoristas'],
  ['/tlm/fro/manutencoes/manutencao', 'Manutenções', 'Adicionar Manutenção'],
  ['/tlm/fro/manutencoes/servicos', 'Serviços', 'Adicionar Serviço'],
  ['/tlm/fro/manutencoes/manutencao_servicos', 'Serviços das manutenções', 'Adicionar Serviço da manutenção'],
  ['/tlm/fro/manutencoes/historico', 'Histórico de manutenções', 'Adicionar Histórico de manutenção'],
  ['/tlm/fro/manutencoes/entrada_combustivel', 'Entradas de combustível', 'Adicionar Entrada de combustível'],
  ['/tlm/cee/cercas', 'Cercas', 'Adicionar Cerca'],
  ['/tlm/cee/linhas', 'Linhas', 'Adicionar Linha'],
  ['/tlm/cee/itinerarios', 'Itinerários', 'Adicionar Itinerário'],
  ['/tlm/cee/prestadoras', 'Prestadoras', 'Adicionar Prestadora'],
  ['/wkd/slm/propriedade', 'Propriedades', 'Adicionar Propriedade'],
  ['/wkd/slm/cultura', 'Culturas', 'Adicionar Cultura'],
  ['/wkd/slm/produto', 'Produtos', 'Adicionar Produto'],
  ['/wkd/slm/armazem', 'Armazéns', 'Adicionar Armazém'],
  ['/wkd/slm/sensor', 'Sensores', 'Adicionar Sensor'],
  ['/wkd/slm/lote', 'Lotes', 'Adicionar Lote'],
  ['/wkd/slm/carga', 'Cargas', 'Adicionar Carga'],
];

describe('registers open as lists and add forms', () => {
  it.each(REGISTERS)('%s', async (route, list, add) => {
    const before = errors.length;
    // Inside the running app (as a click on the menu): a full page load each would double the file's time.
    await goInApp(page, route);
    await heading(list).waitFor(T);
    await expect.poll(async () => (await page.locator('table').count()) + (await page.getByText('Nenhum item foi encontrado').count()), T).toBeGreaterThan(0);
    await goInApp(page, `${route}/adicionar`);
    await heading(add).waitFor(T);
    await expect.poll(() => page.getByRole('button', { name: 'Salvar' }).count(), T).toBe(1);
    expect(errors.slice(before)).toEqual([]);
  });
});

describe('forms', () => {
  it('a passenger\'s tags are typed as chips and saved as a list', async () => {
    const nome = `Passageiro E2E ${Date.now()}`;
    await page.goto(`${baseUrl}/tlm/fro/passageiro/adicionar`);
    await page.getByLabel('Nome').fill(nome);
    const tags = page.getByLabel('Tags');
    await tags.fill('A1B2');
    await tags.press('Enter');
    await tags.fill('C3D4');
    await tags.press('Enter');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/tlm/fro/passageiro`, T);
    const rows = await api(`/api/passageiro?filter=${encodeURIComponent(JSON.stringify({ q: nome }))}`);
    expect(rows.map((r: any) => r.tags)).toEqual([['A1B2', 'C3D4']]);
    await expect.poll(() => page.getByText('A1B2, C3D4').count(), T).toBe(1);
  });

  it('a maintenance\'s services open as its nested list', async () => {
    const servico = await api('/api/servico', { descricao: `Serviço E2E ${Date.now()}` });
    const m = await api('/api/manutencao', { descricao: `Manutenção E2E ${Date.now()}` });
    await api(`/api/manutencao/${m.id}/manutencao_servicos`, { servico: servico.id, valorPrevisto: 123 });
    await page.goto(`${baseUrl}/tlm/fro/manutencoes/manutencao/${m.id}/servicos`);
    await heading(`Serviços das manutenções: ${m.descricao}`).waitFor(T);
    await expect.poll(() => page.getByText(servico.descricao).count(), T).toBe(1);
  });

  it('/tlm/ras/registros: period picker, search and the position columns', async () => {
    const before = errors.length;
    await page.goto(`${baseUrl}/tlm/ras/registros`);
    await heading('Registros').waitFor(T);
    await expect.poll(() => page.getByRole('button', { name: /Ultimos Registros/ }).count(), T).toBe(1);
    await expect.poll(async () => (await page.getByText('Data da posição').count()) + (await page.getByText('Nenhum item foi encontrado').count()), T).toBeGreaterThan(0);
    expect(errors.slice(before)).toEqual([]);
  });
});

describe('actions with a payload', () => {
  it('sets a warehouse\'s status and changes a batch from their rows', async () => {
    const before = errors.length;
    const tag = Date.now();
    const prop = await api('/api/propriedade', { nome: `Fazenda E2E ${tag}` });
    const silo = await api('/api/armazem', { descricao: `Silo E2E ${tag}`, propriedade: prop.id });
    const produto = await api('/api/produto', { descricao: `Milho E2E ${tag}` });
    const lote = await api('/api/lote', { codigo: `E2E-${tag}`, armazem: silo.id, produto: produto.id, dataInicio: '2026-03-01', quantidade: 10 });

    await page.goto(`${baseUrl}/wkd/slm/armazem`);
    await page.getByLabel('Pesquisar').fill(`Silo E2E ${tag}`);
    const row = page.locator('tbody tr', { hasText: `Silo E2E ${tag}` });
    await row.getByRole('button', { name: 'Ações da linha' }).click(T);
    await page.getByRole('menuitem', { name: /^Definir status/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Deseja alterar o status deste armazém?').waitFor(T);
    await dialog.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Em manutenção' }).click();
    await expect.poll(() => dialog.getByLabel('Status').inputValue(), T).toBe('Em manutenção');
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Ação executada').first().waitFor(T);
    expect((await api(`/api/armazem/${silo.id}`)).status).toBe('manutencao');

    await page.goto(`${baseUrl}/wkd/slm/lote/${lote.id}/editar`);
    await page.getByRole('button', { name: 'Alterar', exact: true }).click(T);
    const d2 = page.getByRole('dialog');
    await d2.getByText('Deseja alterar este lote?').waitFor(T);
    await d2.getByLabel('Quantidade').fill('25.5');
    await expect.poll(() => d2.getByLabel('Quantidade').inputValue(), T).toBe('25.5');
    await d2.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(async () => (await api(`/api/lote/${lote.id}`)).quantidade, T).toBe(25.5);
    expect(errors.slice(before)).toEqual([]);
  });
});

describe('record pages', () => {
  it('a maintenance opens at {id}/informacao with its tabs; a fuel entry is deleted from {id}/excluir', async () => {
    const before = errors.length;
    const m = await api('/api/manutencao', { descricao: `Manutenção abas ${Date.now()}` });
    await page.goto(`${baseUrl}/tlm/fro/manutencoes/manutencao/${m.id}/informacao`);
    const tabs = page.getByRole('tab');
    await expect.poll(async () => (await tabs.allInnerTexts()).filter((t) => ['Informação', 'Serviços', 'Editar'].includes(t)), T).toEqual(['Informação', 'Serviços', 'Editar']);
    await expect.poll(() => page.getByLabel('Descrição').inputValue(), T).toBe(m.descricao);

    const ativo = (await api('/api/ativo?range=[0,0]'))[0];
    const e = await api('/api/entrada_combustivel', { ativo: ativo.id, data: new Date().toISOString(), litros: 42 });
    await page.goto(`${baseUrl}/tlm/fro/manutencoes/entrada_combustivel/${e.id}/excluir`);
    await page.getByRole('button', { name: 'Excluir', exact: true }).last().click(T);
    await page.getByText('Deseja Excluir?').waitFor(T);
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
    await page.getByText('Registro excluído').waitFor(T);
    await expect(api(`/api/entrada_combustivel/${e.id}`)).rejects.toThrow(/404/);
    expect(errors.slice(before)).toEqual([]);
  });
});
