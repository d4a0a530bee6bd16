// Track replay in the browser (issue 21): two trackers report through the gateway (one drives 10 km and parks, the
// other starts 5 minutes later elsewhere); the replay screen picks the second with the asset picker, draws both on one
// timeline, the day's story lists the trip, play moves the markers and the playhead, the chart hover marks the map.
// In the demo's second company (other browser tests count the first company's vehicles).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, randomPlate, secondCompanySession, sendToGateway, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/historico';

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const v1 = { descricao: `Replay${stamp} Caminhão`, placa: randomPlate(), serial: `869${stamp}01`, id: 0 };
const v2 = { descricao: `Replay${stamp} Van`, placa: randomPlate(), serial: `869${stamp}02`, id: 0 };
// fix i at T0 + i minutes: v1 drives 0..10 north at 60 km/h (1 km a minute) then stands 11..17; v2 drives east from
// minute 5 to 15 at 30 km/h
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 40 * 60_000;
const day = (ms: number) => { const d = new Date(ms); return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`; };

function frame(serial: string, i: number, lat: number, lon: number, kmh: number, odo: number): string {
  const t = (ms: number) => new Date(ms).toISOString().replace(/\D/g, '').slice(0, 14);
  return `+RESP:GTFRI,740904,${serial},GV350CEU,,10,1,1,${kmh.toFixed(1)},0,760.0,${lon.toFixed(6)},${lat.toFixed(6)},${t(T0 + i * 60_000)},0724,0005,0836,002BEE06,01,12,${odo.toFixed(1)},0000439:30:29,,,,100,221102,,,,${t(Date.now())},AA3C$`;
}

const send = (frames: string[]) => sendToGateway(gatewayPort, frames);

async function veiculo(v: typeof v1) {
  v.id = (await apiCall(ctx, baseUrl, '/api/ativo', { descricao: v.descricao, placa: v.placa })).id;
  await apiCall(ctx, baseUrl, '/api/equipamento', { serial: v.serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial: v.serial, ativoId: v.id, dataInicio: '2024-01-01T00:00:00Z' });
}

const markerLeft = (p: Page) => p.locator('.rastro-replay-veiculo').evaluateAll((els) => els.map((e) => (e as HTMLElement).style.transform).join('|'));
const playhead = async (p: Page) => Number(await p.getByTestId('instante').getAttribute('data-t'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `historico.${stamp}`);
  ({ ctx, page } = s);
  await veiculo(v1);
  await veiculo(v2);
  await send(Array.from({ length: 18 }, (_, i) => frame(v1.serial, i, -23.6 + Math.min(i, 10) * (1000 / 111_320), -46.65, i <= 10 ? 60 : 0, 12000 + Math.min(i, 10))));
  await send(Array.from({ length: 11 }, (_, k) => frame(v2.serial, k + 5, -23.58, -46.62 + k * (500 / 102_000), 30, 5000 + k / 2)));
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Histórico de rastreamento', () => {
  it('picks the second vehicle with the asset picker and replays both on one timeline, the story listing the trip', async () => {
    // the trip closes after five stopped minutes: wait (a condition) until it is stored
    const q = `ativos=${v1.id}&inicio=${new Date(T0 - 60_000).toISOString()}&fim=${new Date().toISOString()}`;
    await expect.poll(async () => (await apiCall(ctx, baseUrl, `/api/historico/trajetos?${q}`)).payload.ativos[0].viagens.length, { ...T, interval: 300 }).toBe(1);
    // the screen's calls for the tracks: the first of a selection carries the map's size (the server thins the track
    // for the zoom the map fits it at), and the fit then asks for nothing more
    const calls: string[] = [];
    const onRequest = (r: { url(): string }) => { if (r.url().includes('/api/historico/trajetos')) calls.push(new URL(r.url()).search); };
    page.on('request', onRequest);
    await page.goto(`${baseUrl}/tlm/ras/historico_rastreamento?ativoId=${v1.id}&inicio=${day(T0)}&fim=${day(Date.now())}`);
    await expect.poll(() => page.locator('.rastro-replay-veiculo').count(), T).toBe(1);
    await page.waitForTimeout(800); // the screen asks again 300 ms after a zoom it was not answered for
    page.off('request', onRequest);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/&ajuste=\d+x\d+$/);
    // the core's asset picker: search by plate, tick, confirm
    await page.getByRole('button', { name: 'Selecionar Ativos (até 10)' }).click(T);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Filtrar' }).fill(v2.placa);
    await dialog.getByRole('checkbox', { name: v2.descricao }).check(T);
    await page.screenshot({ path: `${SHOTS}/seletor.png` });
    await dialog.getByRole('button', { name: 'Confirmar' }).click(T);
    await page.waitForURL(new RegExp(`ativoId=${v1.id}%2C${v2.id}`), T);
    await expect.poll(() => page.locator('.rastro-replay-veiculo').count(), T).toBe(2);
    // one timeline: it starts at the first vehicle's first fix (the second starts 5 minutes later)
    expect(await page.getByRole('slider', { name: 'Linha do tempo' }).getAttribute('aria-valuemin')).toBe(String(T0));
    expect(await page.getByRole('slider', { name: 'Linha do tempo' }).getAttribute('aria-valuemax')).toBe(String(T0 + 17 * 60_000));
    expect(await playhead(page)).toBe(T0);
    // the day's story of the first vehicle: its trip (10 km in 11 minutes) and the totals
    const trip = page.getByTestId('historia').locator('[data-tipo="viagem"]');
    await trip.first().waitFor(T);
    expect(await trip.count()).toBe(1);
    expect(await trip.first().innerText()).toMatch(/10,0 km em 00:11:00/);
    expect(await page.getByTestId('totais').innerText()).toMatch(/Distância\s+10,0 km/);
    expect(await page.getByTestId('totais').innerText()).toMatch(/Velocidade máxima\s+60 km\/h/);
    // the tracks are drawn, coloured by speed: the truck at 60 km/h yellow, the van at 30 km/h green
    await expect.poll(() => page.locator('path.rastro-trajeto[stroke="#f9a825"]').count(), T).toBe(1);
    expect(await page.locator('path.rastro-trajeto[stroke="#2e7d32"]').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/inicio.png` });
  });

  it('play advances the playhead and both markers; the second vehicle appears moving once its day starts', async () => {
    const before = await markerLeft(page);
    await page.getByRole('combobox', { name: 'Velocidade' }).click();
    await page.getByRole('option', { name: '100× (pula paradas)' }).click();
    await page.getByRole('button', { name: 'Reproduzir' }).click();
    await expect.poll(() => playhead(page), T).toBeGreaterThan(T0 + 6 * 60_000);
    await page.getByRole('button', { name: 'Pausar' }).click();
    const after = await markerLeft(page);
    expect(after.split('|')[0]).not.toBe(before.split('|')[0]);
    expect(after.split('|')[1]).not.toBe(before.split('|')[1]);
    // the story row of the trip is the current one while the playhead is inside it
    const t = await playhead(page);
    if (t < T0 + 11 * 60_000) expect(await page.getByTestId('historia').locator('[aria-current="true"]').getAttribute('data-tipo')).toBe('viagem');
    // the chart's playhead line follows
    expect(Number(await page.getByTestId('grafico-cursor').getAttribute('data-t'))).toBe(t);
    expect(await page.getByTestId(`velocidade-${v2.id}`).innerText()).toBe('30 km/h');
    await page.screenshot({ path: `${SHOTS}/reproduzindo.png` });
  });

  it('steps to the next fix, clicks a story row to seek, and the chart hover marks the map', async () => {
    const q = `ativos=${v1.id}&inicio=${new Date(T0 - 60_000).toISOString()}&fim=${new Date().toISOString()}`;
    const trip = (await apiCall(ctx, baseUrl, `/api/historico/trajetos?${q}`)).payload.ativos[0].viagens[0];
    await page.getByTestId('historia').locator('[data-tipo="viagem"]').first().click();
    await expect.poll(() => playhead(page), T).toBe(Date.parse(trip.inicio));
    const inicio = Date.parse(trip.inicio);
    await page.getByRole('button', { name: 'Próxima posição ou evento' }).click();
    await expect.poll(() => playhead(page), T).toBeGreaterThan(inicio);
    const next = await playhead(page);
    expect(next).toBe(inicio + Math.round((next - inicio) / 60_000) * 60_000); // a fix: a whole minute
    await page.getByRole('button', { name: 'Posição ou evento anterior' }).click();
    await expect.poll(() => playhead(page), T).toBe(inicio);
    const box = (await page.getByTestId('grafico').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    await expect.poll(() => page.locator('path.rastro-cursor-grafico').count(), T).toBe(1);
    await expect.poll(() => page.getByTestId('grafico-tooltip').innerText(), T).toMatch(/^\d\d\/\d\d\/\d\d \d\d:\d\d\nVelocidade: \d+ km\/h/);
    await page.screenshot({ path: `${SHOTS}/grafico.png` });
    expect(s.errors).toEqual([]);
  });
});
