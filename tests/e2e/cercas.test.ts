// Fences in the browser (issue 21): a polygon drawn on the fence form's map (leaflet-geoman) is saved as a closed
// GeoJSON polygon; a tracker then drives through it (gateway) and the fences' map, open meanwhile, gets the entry and the exit pushed;
// then its schedule (Vigência) is filled on the form and summed up in the list.
// In the demo's second company (other browser tests count the first company's rows).
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiCall, randomPlate, secondCompanySession, sendToGateway, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };
const SHOTS = '/tmp/shots/cercas';

let s: AdminSession;
let ctx: BrowserContext;
let page: Page;
const stamp = String(Date.now()).slice(-9);
const nome = `Pátio ${stamp}`;
const veic = { descricao: `Cerca${stamp} Caminhão`, placa: randomPlate(), serial: `869${stamp}01`, id: 0 };
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000;

function frame(i: number, lat: number, lon: number): string {
  const t = (ms: number) => new Date(ms).toISOString().replace(/\D/g, '').slice(0, 14);
  return `+RESP:GTFRI,740904,${veic.serial},GV350CEU,,10,1,1,40.0,90,760.0,${lon.toFixed(6)},${lat.toFixed(6)},${t(T0 + i * 60_000)},0724,0005,0836,002BEE06,01,12,12000.0,0000439:30:29,,,,100,221102,,,,${t(Date.now())},AA3C$`;
}
const send = (frames: string[]) => sendToGateway(gatewayPort, frames);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await secondCompanySession(baseUrl, adminPassword, `cercas.${stamp}`);
  ({ ctx, page } = s);
  veic.id = (await apiCall(ctx, baseUrl, '/api/ativo', { descricao: veic.descricao, placa: veic.placa })).id;
  await apiCall(ctx, baseUrl, '/api/equipamento', { serial: veic.serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial: veic.serial, ativoId: veic.id, dataInicio: '2024-01-01T00:00:00Z' });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('Cercas', () => {
  it('draws a polygon on the form’s map and saves it as a closed GeoJSON polygon', async () => {
    await page.goto(`${baseUrl}/tlm/cee/cercas/adicionar`);
    await page.getByLabel('Descrição').fill(nome);
    const map = page.getByTestId('mapa-root_geometria');
    const area = map.locator('.leaflet-container');
    await area.waitFor(T);
    for (let i = 0; i < 9; i++) await map.locator('.leaflet-control-zoom-in').click();
    await expect.poll(() => page.getByTestId('resumo-root_geometria').textContent(), T).toBe('Nada desenhado');
    await map.getByTitle('Desenhar Polígonos').click();
    const box = (await area.boundingBox())!;
    const at = (x: number, y: number) => [box.x + box.width * x, box.y + box.height * y] as const;
    for (const [x, y] of [[0.3, 0.3], [0.7, 0.3], [0.7, 0.7], [0.3, 0.7], [0.3, 0.3]] as const) {
      await page.mouse.move(...at(x, y), { steps: 4 });
      await page.mouse.down();
      await page.mouse.up();
    }
    await expect.poll(() => page.getByTestId('resumo-root_geometria').textContent(), T).toBe('Polígono com 4 vértices');
    await page.screenshot({ path: `${SHOTS}/1-desenhada.png`, fullPage: true });
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/tlm/cee/cercas`, T);
    await page.getByText(nome).waitFor(T);
    const [c] = (await apiCall(ctx, baseUrl, `/api/cerca?filter=${encodeURIComponent(JSON.stringify({ q: nome }))}`)) as any[];
    expect([c.descricao, c.tipo, c.geometria.type]).toEqual([nome, 'poligono', 'Polygon']);
    const ring = c.geometria.coordinates[0] as number[][];
    expect(ring).toHaveLength(5);
    expect(ring[4]).toEqual(ring[0]);
    // a square on screen: two distinct longitudes and two distinct latitudes
    expect(new Set(ring.map((p) => p[0])).size).toBe(2);
    expect(new Set(ring.map((p) => p[1])).size).toBe(2);
  });

  it('a truck driving through it at 40 km/h where the fence allows 30: the open fences’ map shows its entry, its speeding and its exit as they happen', async () => {
    const [c] = (await apiCall(ctx, baseUrl, `/api/cerca?filter=${encodeURIComponent(JSON.stringify({ q: nome }))}`)) as any[];
    await apiCall(ctx, baseUrl, `/api/cerca/${c.id}`, { velocidadeMaxima: 30 }, 'PUT');
    // the map is open before the truck arrives: the card gets the events pushed, without reading the list again
    await page.goto(`${baseUrl}/tlm/cee/mapa_de_cercas`);
    await page.getByTestId('lista-cercas').getByText(nome).waitFor(T);
    await expect.poll(() => page.getByTestId('ao-vivo').textContent(), T).toBe('Ao vivo');
    await page.getByText('Nenhuma entrada, saída ou excesso de velocidade registrado').waitFor(T);
    let reads = 0;
    page.on('request', (r) => { if (r.url().includes('/api/cercas/eventos')) reads++; });
    const ring = c.geometria.coordinates[0] as number[][];
    const lons = ring.map((p) => p[0]!), lats = ring.map((p) => p[1]!);
    const lat = (Math.min(...lats) + Math.max(...lats)) / 2;
    const w = Math.min(...lons), e = Math.max(...lons), span = e - w;
    // 11 fixes west to east: 3 before the fence, inside, 3 after
    await send(Array.from({ length: 11 }, (_, i) => frame(i, lat, w - span * 0.5 + (span * 2 * i) / 10)));
    await expect.poll(async () => (await apiCall(ctx, baseUrl, `/api/cercas/eventos?filter=${encodeURIComponent(JSON.stringify({ cercaId: c.id }))}`)).map((x: any) => x.tipo).sort().join(','), { ...T, interval: 300 })
      .toBe('Entrada,Saída,Velocidade excedida');
    const ev = page.getByTestId('eventos-cercas');
    await ev.getByText('Entrada', { exact: true }).waitFor(T);
    await ev.getByText('Saída', { exact: true }).waitFor(T);
    await ev.getByText(`${nome} · ${veic.descricao} (${veic.placa})`).first().waitFor(T);
    await ev.getByText('Velocidade excedida', { exact: true }).waitFor(T);
    await ev.getByText(`${nome} · ${veic.descricao} (${veic.placa}) · 40 km/h (limite 30 km/h)`).waitFor(T);
    expect(reads).toBe(0);
    await expect.poll(() => page.getByTestId('mapa-cercas').locator('path.leaflet-interactive').count(), T).toBe(1);
    await page.screenshot({ path: `${SHOTS}/2-mapa.png`, fullPage: true });
    expect(s.errors).toEqual([]);
  });

  it('the form’s Vigência section: Seg–Sex 08:00–18:00, not on holidays; the list’s Vigência column sums it up', async () => {
    const [c] = (await apiCall(ctx, baseUrl, `/api/cerca?filter=${encodeURIComponent(JSON.stringify({ q: nome }))}`)) as any[];
    expect(c.vigencia).toBe('Sempre');
    await page.goto(`${baseUrl}/tlm/cee/cercas/${c.id}/editar`);
    await page.getByText('Vigência', { exact: true }).first().waitFor(T);
    await page.getByRole('button', { name: 'Selecionar Dias da semana' }).click();
    const dlg = page.getByRole('dialog');
    for (const d of ['Seg', 'Ter', 'Qua', 'Qui', 'Sex']) await dlg.getByLabel(d, { exact: true }).check();
    await dlg.getByRole('button', { name: 'Confirmar' }).click();
    await dlg.waitFor({ state: 'hidden', ...T });
    for (const [label, hhmm] of [['Hora inicial', '0800'], ['Hora final', '1800']] as const) {
      await page.getByRole('group', { name: label }).click();
      await page.keyboard.type(hhmm);
    }
    await page.getByLabel('Não vale em feriados').check();
    await page.screenshot({ path: `${SHOTS}/3-vigencia.png`, fullPage: true });
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.waitForURL(`${baseUrl}/tlm/cee/cercas`, T);
    const row = page.getByRole('row').filter({ hasText: nome });
    await row.getByText('Seg–Sex 08:00–18:00, exceto feriados').waitFor(T);
    await page.getByRole('columnheader', { name: 'Vigência' }).waitFor(T);
    await page.screenshot({ path: `${SHOTS}/4-lista.png`, fullPage: true });
    const after = await apiCall(ctx, baseUrl, `/api/cerca/${c.id}`);
    expect([after.diasSemana, after.horaInicial, after.horaFinal, after.naoValeEmFeriados, after.vigencia])
      .toEqual([['seg', 'ter', 'qua', 'qui', 'sex'], '08:00', '18:00', true, 'Seg–Sex 08:00–18:00, exceto feriados']);
    expect(s.errors).toEqual([]);
  });
});
