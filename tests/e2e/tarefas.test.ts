// Background jobs in the browser (server/jobs + modules/viagens): Recalcular período on the trip parameters' record
// starts a job; its progress arrives pushed on the socket and the corner panel reaches 100 %; Tarefas em segundo
// plano lists it, concluded, with the user's name. In the demo's second company (other tests count the first's rows).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, menuEntry, secondCompanySession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/tarefas';

let s: AdminSession;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const login = `tarefas.${stamp}`;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, login);
  page = s.page;
  // the demo trackers of this company have reported (a fresh server's simulator starts a few seconds in): the
  // recompute has positions to read
  const reported = async () => ((await apiCall(s.ctx, baseUrl, '/api/rastreamento/ultimo_estado')).payload as { fixTime: string | null }[]).some((r) => r.fixTime);
  for (let i = 0; i < 90 && !(await reported()); i++) await new Promise((r) => setTimeout(r, 1000));
  await apiCall(s.ctx, baseUrl, '/api/parametro_viagem', { descricao: `Paradas curtas ${stamp}`, distanciaMinima: 500, duracaoMinima: 300, paradaMinima: 120, intervaloSemDados: 3600, usarIgnicao: true, velocidadeMovimento: 3 });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

const pad = (n: number) => String(n).padStart(2, '0');
const local = (t: Date) => `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;

describe('Tarefas em segundo plano', () => {
  it('Recalcular período starts a job whose pushed progress reaches 100 % in the corner panel', async () => {
    await (await menuEntry(page, 'Parâmetros de viagem')).click(T);
    await page.getByRole('row').filter({ hasText: `Paradas curtas ${stamp}` }).first().click(T);
    await page.getByRole('button', { name: 'Recalcular período' }).click(T);
    const d = page.getByRole('dialog');
    await d.locator('#acao_inicio').fill(local(new Date(Date.now() - 2 * 86400_000)));
    // an hour ahead: the field keeps minutes only, and a server started a minute ago has all its positions in this one
    await d.locator('#acao_fim').fill(local(new Date(Date.now() + 3_600_000)));
    await d.getByRole('button', { name: 'Confirmar' }).click(T);
    const panel = page.getByTestId('tarefas');
    await panel.waitFor(T);
    expect(await panel.innerText()).toContain('Recalcular viagens — todos os ativos');
    await panel.getByText('100 %').waitFor(T);
    expect(await panel.innerText()).toMatch(/Concluída: \d+ equipamento\(s\): \d+ viagem\(ns\) e \d+ parada\(s\) no período/);
    await page.screenshot({ path: `${SHOTS}/recalculo-100.png` });
  });

  it('the list shows the job concluded, with the user’s name', async () => {
    await page.goto(`${baseUrl}/adm/sis/tarefa`);
    const row = page.getByRole('row').filter({ hasText: 'Recalcular viagens' }).first();
    await row.waitFor(T);
    const text = await row.innerText();
    expect(text).toContain('Concluída');
    expect(text).toContain('100');
    expect(text).toContain(`Usuário ${login}`);
    await page.screenshot({ path: `${SHOTS}/lista.png` });
    expect(s.errors).toEqual([]);
  });
});
