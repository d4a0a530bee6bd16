// The alarm console in the browser (issue 21): a panic frame (Queclink GTSOS) sent to the gateway appears on the open
// console without a reload, in the library's risk colour; the operator takes it, writes what was done and closes it;
// the treatment history lists it with the plate, the alarm, the user and the times. Runs as a user of the demo's
// second company (its events do not change the first company's counters other tests read).
// E2E_SHOTS=dir saves screenshots of the console, the history and the heat map.
import net from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, menuEntry, randomPlate, secondCompanySession, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const IMEI = `864001519${String(Date.now()).slice(-6)}`;
const PLACA = randomPlate();
let s: AdminSession;

async function shot(name: string) {
  const dir = process.env.E2E_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await s.page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

/** A panic report (GTSOS) of IMEI, now, sent over TCP to the gateway. */
async function panico(lat: number, lon: number) {
  const t = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const f = `+RESP:GTSOS,740904,${IMEI},GV350CEU,0,0,1,1,22.0,92,70.0,${lon.toFixed(6)},${lat.toFixed(6)},${t},0724,0005,18d8,6141,00,,${t},11F0$`;
  await new Promise<void>((resolve, reject) => {
    const sock = net.connect(gatewayPort, '127.0.0.1', () => sock.end(f, () => resolve()));
    sock.on('error', reject);
  });
}

beforeAll(async () => {
  s = await secondCompanySession(baseUrl, adminPassword, `alarmes.e2e${Date.now() % 100000}`);
  const ativoId = (await apiCall(s.ctx, baseUrl, '/api/ativo', { descricao: 'Caminhão do pânico', placa: PLACA })).id;
  await apiCall(s.ctx, baseUrl, '/api/equipamento', { serial: IMEI, tecnologia: 'queclink', modelo: 'gv350ceu', ativado: true });
  await apiCall(s.ctx, baseUrl, '/api/equipamento_ativo', { serial: IMEI, ativoId, dataInicio: '2024-01-01T00:00:00Z' });
});
afterAll(async () => { await s?.close(); });

describe('alarm console', () => {
  it('a panic sent to the gateway appears without reload; take, close, and the history lists it', async () => {
    const { page } = s;
    await (await menuEntry(page, 'Console de alarmes')).click();
    await page.waitForURL(`${baseUrl}/tlm/evt/console_de_alarmes`);
    await expect.poll(() => page.getByTestId('ao-vivo').textContent(), T).toBe('Ao vivo');
    const row = page.locator('[data-testid="alarme"]', { hasText: PLACA });
    expect(await row.count()).toBe(0);

    await panico(-3.1190, -60.0217);
    await expect.poll(() => row.count(), T).toBe(1);
    expect(await row.textContent()).toContain('Botão de pânico (SOS) acionado');
    expect(await row.textContent()).toContain('Alto');
    expect(await row.getByTestId('situacao').textContent()).toBe('Aberto');
    // the risk colour (library: panic = alto)
    expect(await row.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(211, 47, 47)');
    await shot('alarmes-console-novo');

    await row.getByRole('button', { name: 'Assumir' }).click();
    await expect.poll(() => row.getByTestId('situacao').textContent(), T).toMatch(/^Em tratamento por Usuário alarmes\.e2e/);
    await row.getByRole('button', { name: 'Encerrar' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Tratamento').fill('Motorista contatado: acionamento acidental.');
    await shot('alarmes-console-encerrar');
    await dialog.getByRole('button', { name: 'Encerrar' }).click();
    await expect.poll(() => row.count(), T).toBe(0);

    await (await menuEntry(page, 'Histórico de tratamento')).click();
    await page.waitForURL(new RegExp(`${baseUrl}/tlm/evt/historico_de_tratamento`));
    const hist = page.locator('tr', { hasText: PLACA });
    await expect.poll(() => hist.count(), T).toBe(1);
    const text = await hist.textContent();
    expect(text).toContain('Botão de pânico (SOS) acionado');
    expect(text).toContain('Motorista contatado: acionamento acidental.');
    expect(text).toContain('Encerrado');
    expect(text).toMatch(/Usuário alarmes\.e2e\d+.*Usuário alarmes\.e2e\d+/);
    await shot('alarmes-historico');
  });

  it('the heat map counts the company\'s positions of the period', async () => {
    const { page } = s;
    await (await menuEntry(page, 'Mapa de calor')).click();
    await page.waitForURL(`${baseUrl}/tlm/evt/mapa_de_calor`);
    await expect.poll(() => page.getByTestId('calor-total').textContent(), T).toMatch(/^[\d.]+ posições em [\d.]+ células$/);
    await expect.poll(async () => Number((await page.getByTestId('calor-total').textContent())!.split(' ')[0]!.replace(/\./g, '')), T).toBeGreaterThan(0);
    await shot('alarmes-mapa-de-calor');
  });
});
