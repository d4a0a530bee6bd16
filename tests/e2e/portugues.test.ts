// Issue 20 (8, 9) in the browser: the change history as the list shows it (labels, pt-BR numbers, the spec's
// timestamps), and the cargo's permission matrix where every checkbox says what it controls.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, openSession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const tag = String(Date.now()).slice(-7);
let s: AdminSession;
const api = (path: string, body?: unknown) => apiCall(s.ctx, baseUrl, path, body);

beforeAll(async () => { s = await openSession(baseUrl, 'admin', adminPassword); });
afterAll(async () => { await s?.close(); });

describe('Histórico de alterações', () => {
  it('shows the labels of references, pt-BR numbers and the weekday timestamp', async () => {
    const { page } = s;
    const prop = await api('/api/propriedade', { nome: `Fazenda PT ${tag}` });
    const cultura = await api('/api/cultura', { descricao: `Trigo PT ${tag}` });
    const produto = await api('/api/produto', { descricao: `Trigo em grão ${tag}`, cultura: cultura.id });
    const a1 = await api('/api/armazem', { descricao: `Silo Leste ${tag}`, propriedade: prop.id });
    const a2 = await api('/api/armazem', { descricao: `Silo Oeste ${tag}`, propriedade: prop.id });
    const lote = await api('/api/lote', { codigo: `H-${tag}`, armazem: a1.id, produto: produto.id, dataInicio: '2026-03-01', quantidade: 1234.5 });
    await api(`/api/lote/${lote.id}/altera`, { armazem: a2.id, quantidade: 2000.25 });
    await page.goto(`${baseUrl}/wkd/slm/lote/${lote.id}/visualizar`);
    await page.getByRole('button', { name: 'Histórico de alterações' }).click(T);
    const dialog = page.getByRole('dialog', { name: 'Histórico de alterações' });
    const row = (campo: string) => dialog.locator('tbody tr', { has: page.getByRole('cell', { name: campo, exact: true }) }).first();
    await row('Armazém').waitFor(T);
    const cells = async (campo: string) => (await row(campo).locator('td').allInnerTexts()).slice(2);
    expect(await cells('Armazém')).toEqual(['Alterar', 'Armazém', `Silo Leste ${tag}`, `Silo Oeste ${tag}`]);
    expect(await cells('Quantidade')).toEqual(['Alterar', 'Quantidade', '1.234,5', '2.000,25']);
    const quando = await row('Armazém').locator('td').nth(1).innerText();
    expect(quando).toMatch(/^(domingo|segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira|sábado), \d{1,2} de [a-zç]+ de \d{4} às \d{2}:\d{2}:\d{2}$/);
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    expect(s.errors).toEqual([]);
  });
});

describe('permission matrix (cargo)', () => {
  it('every checkbox has a name; no label repeats within a row nor a row name in the matrix', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/adm/sis/cargo/adicionar`);
    await page.getByRole('button', { name: 'Selecionar Permissões' }).click(T);
    const dialog = page.getByRole('dialog', { name: 'Permissões' });
    await expect.poll(() => dialog.getByRole('group').count(), T).toBeGreaterThan(50);
    const matrix = await dialog.evaluate((d) => [...d.querySelectorAll('[role=group]')].map((g) => ({
      row: g.getAttribute('aria-label') ?? '',
      boxes: [...g.querySelectorAll('input[type=checkbox]')].map((i) => i.getAttribute('aria-label') ?? ''),
    })));
    const problems: string[] = [];
    const rows = new Set<string>();
    for (const { row, boxes } of matrix) {
      if (!row) problems.push('linha sem nome');
      if (rows.has(row)) problems.push(`linha repetida: ${row}`);
      rows.add(row);
      const seen = new Set<string>();
      for (const b of boxes) {
        if (!b.trim()) problems.push(`${row}: caixa sem nome`);
        if (seen.has(b)) problems.push(`${row}: rótulo repetido ${b}`);
        seen.add(b);
        if (b !== `Todos de ${row}` && !b.startsWith(`${row}: `)) problems.push(`${row}: '${b}' não diz a linha`);
      }
    }
    expect(problems).toEqual([]);
    // the rows that used to merge: each register on its own row, its operations once
    const boxesOf = (row: string) => matrix.find((m) => m.row === row)?.boxes;
    expect(boxesOf('Equipamentos (Hardware)')).toEqual(['Todos de Equipamentos (Hardware)', ...['Listar', 'Visualizar', 'Adicionar', 'Editar', 'Excluir'].map((o) => `Equipamentos (Hardware): ${o}`)]);
    expect(boxesOf('Firmwares (Aparelhos)')).toHaveLength(6);
    expect(boxesOf('Firmwares (Hardware)')).toHaveLength(6);
    expect(boxesOf('Firmwares')).toEqual(['Todos de Firmwares', ...['Listar', 'Visualizar', 'Adicionar', 'Editar', 'Excluir'].map((o) => `Firmwares: ${o}`)]);
    expect(s.errors).toEqual([]);
  });
});
