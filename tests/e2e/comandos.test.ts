// Engine block and command tracing in the browser (issue 20, defect 2) and the live map's search and popup (defect 6):
// two vehicles report through the gateway (one at 62 km/h, one stopped); the Bloquear motor dialog names the vehicle
// and its state, asks for the plate when it moves, the toast says which device got the command, Controle de
// comandos (a menu entry) shows vehicle, user, times and state; the map's search narrows markers, counter and list,
// and the popup names the driver and links the record, the replay and the block.
// Everything happens in the demo's second company, as a user of that company only with the admin's keys: the other
// browser tests count the first company's reporting vehicles, and these devices keep their latest state after the test.
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, menuEntry, randomPlate, secondCompanySession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/comandos';
const TIMESTAMP = /(domingo|segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira|sábado), \d{1,2} de [a-zç]+ de \d{4} às \d{2}:\d{2}:\d{2}/;

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const tag = `Cmd${stamp}`;
const veic = {
  movendo: { descricao: `${tag} Carreta em rota`, placa: randomPlate(), serial: `867${stamp}01`, speed: 62, id: 0 },
  parado: { descricao: `${tag} Carreta no pátio`, placa: randomPlate(), serial: `867${stamp}02`, speed: 0, id: 0 },
};

/** A Queclink GTFRI report of `serial` at `speed` km/h near São Paulo, now. */
function report(serial: string, speed: number, lon: number) {
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const frame = `+RESP:GTFRI,740904,${serial},GV350CEU,,10,1,1,${speed.toFixed(1)},169,760.0,${lon.toFixed(6)},-23.550520,${now},0724,0005,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,${now},AA3C$`;
  return new Promise<void>((resolve, reject) => {
    const sock = net.connect(gatewayPort, '127.0.0.1', () => sock.end(frame, () => resolve()));
    sock.on('error', reject);
  });
}
const state = async (ativoId: number) => (await apiCall(ctx, baseUrl, `/api/rastreamento/ultimo_estado?ativoId=${ativoId}`)).payload as { velocidade: number | null }[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `comandos.${String(Date.now()).slice(-9)}`);
  ({ ctx, page } = s);
  for (const [i, v] of [veic.movendo, veic.parado].entries()) {
    v.id = (await apiCall(ctx, baseUrl, '/api/ativo', { descricao: v.descricao, placa: v.placa })).id;
    await apiCall(ctx, baseUrl, '/api/equipamento', { serial: v.serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
    await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial: v.serial, ativoId: v.id, dataInicio: '2024-01-01T00:00:00Z' });
    await report(v.serial, v.speed, -46.6333 - i * 0.01);
  }
  // the gateway writes in batches: wait (a condition, not a time) until both states are there
  for (const v of [veic.movendo, veic.parado]) {
    const until = Date.now() + T.timeout;
    while ((await state(v.id))[0]?.velocidade !== v.speed) {
      if (Date.now() > until) throw new Error(`o gateway não gravou o estado de ${v.serial}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
});
afterAll(async () => {
  await s?.close();
});

/** Opens the Bloquear motor dialog of a vehicle from its record page. */
async function openBlock(id: number) {
  await page.goto(`${baseUrl}/tlm/fro/ativo/${id}/bloqueia_motor`);
  await page.getByRole('button', { name: 'Bloquear motor', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor(T);
  return dialog;
}

describe('Bloquear motor names the vehicle and its state', () => {
  it('moving: plate, speed, time, warning, and Confirmar only after the plate is typed; the toast names the device', async () => {
    const v = veic.movendo;
    const dialog = await openBlock(v.id);
    const text = () => dialog.innerText();
    await expect.poll(text, T).toContain('62 km/h');
    const t = await text();
    expect(t).toContain(v.descricao);
    expect(t).toContain(v.placa);
    expect(t).toContain('Em movimento');
    expect(t).toMatch(TIMESTAMP);
    expect(t).toContain('O veículo está em movimento (62 km/h)');
    const confirm = dialog.getByRole('button', { name: 'Confirmar' });
    expect(await confirm.isDisabled()).toBe(true);
    const typed = dialog.getByRole('textbox', { name: `Digite a placa ${v.placa} para confirmar` });
    await typed.fill('ABC1234');
    expect(await confirm.isDisabled()).toBe(true);
    await typed.fill(v.placa.toLowerCase());
    await expect.poll(() => confirm.isDisabled()).toBe(false);
    await page.screenshot({ path: `${SHOTS}/dialogo-em-movimento.png` });
    await confirm.click();
    const toast = page.getByText(`Bloquear motor — ${v.descricao} (${v.placa}): comando enfileirado para o equipamento ${v.serial}`);
    await toast.waitFor(T);
    await page.screenshot({ path: `${SHOTS}/aviso-comando.png` });
    const fila = await apiCall(ctx, baseUrl, `/api/fila_processamento?filter=${encodeURIComponent(JSON.stringify({ serial: v.serial }))}`);
    expect(fila.map((r: { event: string; status: string }) => [r.event, r.status])).toEqual([['engineBlock', 'pendente']]);
  });

  it('stopped: the state says so, no plate is asked and Confirmar is enabled', async () => {
    const v = veic.parado;
    const dialog = await openBlock(v.id);
    await expect.poll(() => dialog.innerText(), T).toContain('Parado');
    const t = await dialog.innerText();
    expect(t).toContain(`${v.descricao}`);
    expect(t).toContain(v.placa);
    expect(t).toContain('0 km/h');
    expect(t).not.toContain('em movimento (');
    expect(await dialog.getByRole('textbox').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Confirmar' }).isDisabled()).toBe(false);
    await page.screenshot({ path: `${SHOTS}/dialogo-parado.png` });
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
  });
});

describe('Controle de comandos', () => {
  it('is in the menu and lists vehicle, user, sent and answered times and the state in pt-BR', async () => {
    await page.goto(`${baseUrl}/`);
    await (await menuEntry(page, 'Controle de comandos')).click();
    await page.waitForURL(`${baseUrl}/adm/con/controle**`);
    await page.goto(`${baseUrl}/adm/con/controle?filter=${encodeURIComponent(JSON.stringify({ q: veic.movendo.serial }))}`);
    await expect.poll(() => page.locator('tbody tr').count(), T).toBe(1);
    const heads = await page.locator('thead th').allInnerTexts();
    for (const h of ['Veículo', 'Serial (IMEI)', 'Comando', 'Usuário', 'Situação', 'Solicitado em', 'Enviado em', 'Respondido em']) expect(heads.map((x) => x.trim())).toContain(h);
    const row = await page.locator('tbody tr').first().innerText();
    expect(row).toContain(`${veic.movendo.descricao} (${veic.movendo.placa})`);
    expect(row).toContain('Bloquear motor');
    expect(row).toMatch(/Pendente|Enviado|Concluído|Erro/);
    expect(row).toMatch(/comandos\.\d+/); // the user who asked (this test's user)
    await page.screenshot({ path: `${SHOTS}/controle-de-comandos.png` });
  });
});

describe('live map: search and popup', () => {
  it('the search narrows markers, counter and list alike; the popup shows the driver and links', async () => {
    await page.goto(`${baseUrl}/tlm/ras/rastreamento_ao_vivo`);
    await expect.poll(async () => Number(await page.getByTestId('total-veiculos').textContent()), T).toBeGreaterThanOrEqual(2);
    await page.getByRole('textbox', { name: 'Pesquisar veículo' }).fill(veic.movendo.placa);
    await expect.poll(() => page.getByRole('list', { name: 'Veículos' }).getByRole('listitem').count()).toBe(1);
    await expect.poll(() => page.getByTestId('total-veiculos').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Mostrar toda a frota' }).click();
    const onMap = async () => {
      const markers = await page.locator('.rastro-veiculo svg').evaluateAll((els) => els.map((e) => e.getAttribute('data-serial')));
      const inClusters = await page.locator('.rastro-cluster [aria-label$=" veículos"]').count();
      return { markers, inClusters };
    };
    await expect.poll(onMap, T).toEqual({ markers: [veic.movendo.serial], inClusters: 0 });
    await page.locator(`.rastro-veiculo svg[data-serial="${veic.movendo.serial}"]`).click();
    const popup = page.locator('.rastro-popup');
    await popup.waitFor(T);
    const cells = Object.fromEntries(await popup.locator('tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent])));
    expect(cells.Motorista).toBe('Sem motorista identificado');
    const href = (name: string) => popup.getByRole('link', { name }).getAttribute('href');
    expect(await href('Abrir cadastro')).toBe(`/tlm/fro/ativo/${veic.movendo.id}`);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(await href('Histórico de rastreamento')).toBe(`/tlm/ras/historico_rastreamento?ativoId=${veic.movendo.id}&inicio=${day}&fim=${day}`);
    expect(await href('Bloquear motor')).toBe(`/tlm/fro/ativo/${veic.movendo.id}/bloqueia_motor`);
    await page.screenshot({ path: `${SHOTS}/mapa-popup.png` });
    // the links navigate inside the app
    await popup.getByRole('link', { name: 'Abrir cadastro' }).click();
    await page.waitForURL(`${baseUrl}/tlm/fro/ativo/${veic.movendo.id}**`);
  });
});
