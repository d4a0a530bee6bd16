// Itineraries in the browser (issue 21): a line drawn on its form's map (leaflet-geoman polyline, corridor 100 m) is
// saved; an itinerary with a stop point uses it; a truck drives along it through the gateway, leaving the corridor for
// three minutes (~334 m off); the itinerary history lists that deviation with its duration and distance and the
// lateness at the stop; the line recognition names the line. In the demo's second company (other tests count the
// first company's rows).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, randomPlate, secondCompanySession, sendToGateway, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/itinerarios';

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const nome = `Linha ${stamp}`;
const veic = { descricao: `Itin${stamp} Ônibus`, placa: randomPlate(), serial: `868${stamp}02`, id: 0 };
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000;
/** 0.003° of latitude on the plane of shared/geo.ts, in whole metres. */
const FORA = Math.round(0.003 * 6_371_008.8 * Math.PI / 180);
const hhmm = (ms: number) => new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(ms));

function frame(i: number, lat: number, lon: number): string {
  const t = (ms: number) => new Date(ms).toISOString().replace(/\D/g, '').slice(0, 14);
  return `+RESP:GTFRI,740904,${veic.serial},GV350CEU,,10,1,1,40.0,90,760.0,${lon.toFixed(6)},${lat.toFixed(6)},${t(T0 + i * 60_000)},0724,0005,0836,002BEE06,01,12,12000.0,0000439:30:29,,,,100,221102,,,,${t(Date.now())},AA3C$`;
}
const send = (frames: string[]) => sendToGateway(gatewayPort, frames);
const q = (o: unknown) => encodeURIComponent(JSON.stringify(o));

let linha: { id: number; trajeto: { coordinates: [number, number][] } };
let itinerario = 0;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `itin.${stamp}`);
  ({ ctx, page } = s);
  veic.id = (await apiCall(ctx, baseUrl, '/api/ativo', { descricao: veic.descricao, placa: veic.placa })).id;
  await apiCall(ctx, baseUrl, '/api/equipamento', { serial: veic.serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial: veic.serial, ativoId: veic.id, dataInicio: '2024-01-01T00:00:00Z' });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Itinerários', () => {
  it('draws the line’s route on its form’s map and saves it with its corridor', async () => {
    await page.goto(`${baseUrl}/tlm/cee/linhas/adicionar`);
    await page.getByLabel('Descrição').fill(nome);
    const map = page.getByTestId('mapa-root_trajeto');
    const area = map.locator('.leaflet-container');
    await area.waitFor(T);
    // zoom in (one step at a time: each click waits for the previous zoom) until the scale reads 1 km or less, so the
    // drawn line is a few km long and a 334 m detour shows on the history's map
    const scale = map.locator('.leaflet-control-scale-line').first();
    for (let i = 0; i < 16 && !/^(\d+ m|1 km)$/.test((await scale.textContent())?.trim() ?? ''); i++) {
      const before = await scale.textContent();
      await map.locator('.leaflet-control-zoom-in').click();
      await expect.poll(() => scale.textContent(), T).not.toBe(before);
    }
    await map.getByTitle('Desenhar Linha Poligonal').click();
    const box = (await area.boundingBox())!;
    const at = (x: number, y: number) => [box.x + box.width * x, box.y + box.height * y] as const;
    for (const [x, y] of [[0.15, 0.5], [0.5, 0.5], [0.85, 0.5], [0.85, 0.5]] as const) {
      await page.mouse.move(...at(x, y), { steps: 4 });
      await page.mouse.down();
      await page.mouse.up();
    }
    await expect.poll(() => page.getByTestId('resumo-root_trajeto').textContent(), T).toBe('Rota com 3 pontos e corredor de 100 m');
    await page.screenshot({ path: `${SHOTS}/1-linha-desenhada.png`, fullPage: true });
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/tlm/cee/linhas`, T);
    await page.getByText(nome).waitFor(T);
    [linha] = (await apiCall(ctx, baseUrl, `/api/linha?filter=${q({ q: nome })}`)) as any[];
    expect([linha.trajeto.coordinates.length, (linha as any).largura]).toEqual([3, 100]);
    const c = linha.trajeto.coordinates;
    expect(c[0]![0]).toBeLessThan(c[2]![0]); // drawn west to east
    expect(c[2]![0] - c[0]![0]).toBeLessThan(0.2); // a few km
  });

  it('a drive leaving the corridor for three minutes: the history lists the deviation and the lateness', async () => {
    const c = linha.trajeto.coordinates;
    const [w, lat] = c[0]!, e = c[2]![0];
    itinerario = (await apiCall(ctx, baseUrl, '/api/itinerario', { descricao: `Itinerário ${stamp}`, linha: linha.id, inicioIda: hhmm(T0), ativos: [veic.id] })).id;
    await apiCall(ctx, baseUrl, '/api/itinerario_ponto', { itinerario, ordem: 1, descricao: 'Terminal leste', horario: hhmm(T0 + 8 * 60_000), raio: 150, posicao: { type: 'Point', coordinates: [e, lat] } });
    // the itinerary's record page lists its stop points in a tab
    await page.goto(`${baseUrl}/tlm/cee/itinerarios/${itinerario}/pontos`);
    await page.getByText('Terminal leste').waitFor(T);
    await page.screenshot({ path: `${SHOTS}/0-pontos.png`, fullPage: true });
    // 11 fixes a minute apart west to east; minutes 4..6 run 0.003° north of the line
    await send(Array.from({ length: 11 }, (_, i) => frame(i, lat + (i >= 4 && i <= 6 ? 0.003 : 0), w + ((e - w) * i) / 10)));
    const dia = await page.evaluate((t) => { const d = new Date(t); return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`; }, T0);
    await page.goto(`${baseUrl}/tlm/ras/historico_itinerario`);
    await page.getByTestId('itinerarios').getByText(`Itinerário ${stamp}`).click();
    await page.waitForURL(new RegExp(`/tlm/ras/historico_itinerario/${itinerario}`), T);
    await page.getByLabel('Ativo').fill(veic.descricao);
    await page.getByRole('option', { name: `${veic.descricao} (${veic.placa})` }).click();
    if (dia !== await page.evaluate(() => new Date().toLocaleDateString('sv'))) {
      await page.goto(`${baseUrl}/tlm/ras/historico_itinerario/${itinerario}?ativo=${veic.id}&de=${dia}&ate=${dia}`);
    }
    const desvios = page.getByTestId('desvios');
    // the positions reach the table as the gateway stores them: reload until the three minutes off are in
    await expect.poll(async () => {
      if (!(await desvios.count())) { await page.reload(); await page.getByTestId('viagens').waitFor(T).catch(() => undefined); }
      return (await desvios.locator('tbody tr').allTextContents()).join(' | ');
    }, { timeout: 60_000, interval: 1000 }).toContain(`00:03:00${FORA} m`);
    const row = desvios.locator('tbody tr').first();
    const cells = await row.locator('td').allTextContents();
    expect(cells[0]).toBe('1');
    expect(cells[3]).toBe('00:03:00');
    expect(cells[4]).toBe(`${FORA} m`);
    const pontos = page.getByTestId('pontos');
    await pontos.getByText('Terminal leste').waitFor(T);
    await pontos.getByText('Atraso de 00:02:00').waitFor(T);
    // on the map: the corridor and line, the track, the deviation, its farthest point and the stop
    await expect.poll(() => page.getByTestId('mapa-itinerario').locator('path').count(), T).toBeGreaterThanOrEqual(6);
    await page.screenshot({ path: `${SHOTS}/2-historico.png`, fullPage: true });
    await row.click();
    await page.screenshot({ path: `${SHOTS}/3-desvio.png`, fullPage: true });
    expect(s.errors).toEqual([]);
  });

  it('the line recognition names the line the bus ran', async () => {
    const dia = await page.evaluate((t) => { const d = new Date(t); return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`; }, T0);
    await page.goto(`${baseUrl}/cfg/map/reconhecimento_linhas?ativo=${veic.id}`);
    if (dia !== await page.evaluate(() => new Date().toLocaleDateString('sv'))) return; // the drive was yesterday: the period picker is not the point here
    const t = page.getByTestId('reconhecimento');
    await t.getByText(nome).first().waitFor(T);
    await page.screenshot({ path: `${SHOTS}/4-reconhecimento.png`, fullPage: true });
    expect(s.errors).toEqual([]);
  });
});
