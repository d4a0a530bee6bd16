// Passengers by RFID in the browser (issue 23): a simulated bus (server/ingest/simulator.ts QueclinkVehicle with its
// passengers' cards) reads cards through the gateway (GTIDA): two passengers board and show on Passageiros ao vivo
// without a reload (live rows), one gets off, an unknown card boards; the passenger report (Viagem por passageiro)
// lists the boardings, the history lists the inconsistency, the dashboard counts them. In the demo's second company
// (other tests count the first company's rows).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, randomPlate, secondCompanySession, sendToGateway, type AdminSession } from './browser';
import { QueclinkVehicle } from '../../server/ingest/simulator';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/passageiros';

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const veic = { descricao: `Pas${stamp} Ônibus`, placa: randomPlate(), serial: `867${stamp}03`, id: 0 };
const tag = (n: number) => `${stamp.slice(-6)}A${n}`.toUpperCase();
const nomes = [`Alice ${stamp}`, `Bento ${stamp}`];
const T0 = Math.floor(Date.now() / 1000) * 1000 - 20 * 60_000;
const at = (min: number) => new Date(T0 + min * 60_000);
let bus: QueclinkVehicle;
const send = (frames: string[]) => sendToGateway(gatewayPort, frames);
const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `passageiros.${stamp}`);
  ({ ctx, page } = s);
  veic.id = (await apiCall(ctx, baseUrl, '/api/ativo', { descricao: veic.descricao, placa: veic.placa })).id;
  await apiCall(ctx, baseUrl, '/api/equipamento', { serial: veic.serial, tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
  await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial: veic.serial, ativoId: veic.id, dataInicio: '2024-01-01T00:00:00Z' });
  const pas = [];
  for (const [i, nome] of nomes.entries()) pas.push((await apiCall(ctx, baseUrl, '/api/passageiro', { nome, matricula: `E2E-${stamp}-${i}`, tags: [tag(i)] })).id);
  const linha = (await apiCall(ctx, baseUrl, '/api/linha', { descricao: `Linha ${stamp}` })).id;
  const itinerario = (await apiCall(ctx, baseUrl, '/api/itinerario', { descricao: `Itinerário ${stamp}`, linha, inicioIda: '00:00', fimIda: '23:59', ativos: [veic.id] })).id;
  for (const p of pas) await apiCall(ctx, baseUrl, '/api/itinerario_passageiro', { itinerario, passageiro: p, horario: '07:00', direcao: 'ida' });
  bus = new QueclinkVehicle(veic.serial, 'gv58cg', 7, T0, { passageiros: [tag(0), tag(1)] });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Passageiros por RFID', () => {
  it('a simulated bus boards and drops passengers that show live, without a reload', async () => {
    await page.goto(`${baseUrl}/esp/pas/passageiros_ao_vivo`);
    await page.getByRole('heading', { name: 'Passageiros ao vivo', level: 1 }).waitFor(T);
    const card = page.locator(`[data-serial="${veic.serial}"]`);
    // two passengers board (first reads of their cards)
    await send([bus.rfid(tag(0), at(1)), bus.rfid(tag(1), at(2))]);
    await card.waitFor(T);
    await expect.poll(() => card.getByTestId('a-bordo').textContent(), T).toBe('A bordo: 2');
    for (const n of nomes) await card.getByText(n).waitFor(T);
    expect(await card.innerText()).toContain(`Itinerário ${stamp} — Ida`);
    await page.screenshot({ path: `${SHOTS}/1-dois-a-bordo.png`, fullPage: true });
    // Alice gets off (the next read of her card); an unknown card boards
    await send([bus.rfid(tag(0), at(6)), bus.rfid('FFEE0099', at(7))]);
    await expect.poll(() => card.getByTestId('a-bordo').textContent(), T).toBe('A bordo: 2');
    await card.getByText('Cartão FFEE0099 (não cadastrado)').waitFor(T);
    await expect.poll(() => card.getByText(nomes[0]!).count(), T).toBe(0);
    expect(await card.innerText()).toContain('Embarques: 3');
    await page.screenshot({ path: `${SHOTS}/2-desembarque.png`, fullPage: true });
  });

  it('the passenger report lists the boardings; the history the inconsistency; the dashboard counts them', async () => {
    await page.goto(`${baseUrl}/rel/rel/relatorios/passageiro`);
    await page.getByRole('tab', { name: 'Viagem por passageiro' }).click(T);
    await page.getByRole('button', { name: /até/ }).click(T);
    await page.getByRole('button', { name: 'Últimos 7 dias' }).click(T);
    await page.getByRole('button', { name: 'Gerar relatório' }).click(T);
    const table = page.getByRole('table', { name: 'Resultado: Viagem por passageiro' });
    const rows = table.getByRole('row').filter({ hasText: veic.descricao });
    await expect.poll(() => rows.count(), T).toBe(2);
    expect(await rows.nth(0).innerText()).toContain(nomes[0]);
    expect(await rows.nth(1).innerText()).toContain(nomes[1]);
    await page.screenshot({ path: `${SHOTS}/3-relatorio.png`, fullPage: true });

    const hist = await apiCall(ctx, baseUrl, `/api/passageiros/historico?filter=${q({ q: 'FFEE0099' })}`);
    expect(hist.map((h: any) => [h.tag, h.ativo, h.inconsistencia])).toEqual([['FFEE0099', veic.descricao, 'Cartão não cadastrado']]);
    await page.goto(`${baseUrl}/esp/pas/historico_de_passageiros`);
    await page.getByText('Cartão não cadastrado').first().waitFor(T);
    await page.screenshot({ path: `${SHOTS}/4-historico.png`, fullPage: true });

    await page.goto(`${baseUrl}/rel/ges/passageiros`);
    await expect.poll(async () => Number(await page.getByTestId('total-embarques').textContent()), T).toBeGreaterThanOrEqual(3);
    await page.getByText(`Itinerário ${stamp}`).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/5-painel.png`, fullPage: true });
  });
});
