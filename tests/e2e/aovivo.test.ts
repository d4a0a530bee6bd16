// Live data pushed, not polled (issue 21): the live map and the asset's map load the latest states once through the
// provider, then a Queclink frame sent to the gateway moves the vehicle's marker and updates its row, with no request
// to the ultimo_estado provider after that first load. And the realtime client stops its socket on sign-out: the login
// page makes no socket.io request.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Request } from 'playwright-core';
import { apiCall, menuEntry, openSession, randomPlate, type AdminSession } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const gatewayPort = inject('gatewayPort');
const T = { timeout: 30_000 };

// In the demo trackers' serial range (86400150…, far above any ativo id): the other map tests count the ativos linked
// to one of those and expect as many vehicles on the map, so this reporting vehicle counts on both sides.
const IMEI = `864001509${String(Date.now()).slice(-6)}`;
const PLACA = randomPlate();
let ativoId = 0;
let s: AdminSession;

/** A GTFRI (position report) of IMEI at lat/lon with this speed, sent now over TCP to the gateway. */
async function frame(lat: number, lon: number, speed: number) {
  const t = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const f = `+RESP:GTFRI,740904,${IMEI},GV350CEU,,10,1,1,${speed.toFixed(1)},90,672.9,${lon.toFixed(6)},${lat.toFixed(6)},${t},0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,${t},AA3C$`;
  await new Promise<void>((resolve, reject) => {
    const sock = net.connect(gatewayPort, '127.0.0.1', () => sock.end(f, () => resolve()));
    sock.on('error', reject);
  });
}

/** Requests to the ultimo_estado provider (its named call and its list) made by the page. */
function providerRequests(page: AdminSession['page']) {
  const seen: string[] = [];
  const on = (r: Request) => { if (/\/api\/rastreamento\/(ultimo_estado|estados)/.test(r.url())) seen.push(r.url()); };
  page.on('request', on);
  return { seen, stop: () => page.off('request', on) };
}

beforeAll(async () => {
  s = await openSession(baseUrl, 'admin', adminPassword);
  ativoId = (await apiCall(s.ctx, baseUrl, '/api/ativo', { descricao: 'Caminhão ao vivo', placa: PLACA })).id;
  await apiCall(s.ctx, baseUrl, '/api/equipamento', { serial: IMEI, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await apiCall(s.ctx, baseUrl, '/api/equipamento_ativo', { serial: IMEI, ativoId, dataInicio: '2024-01-01T00:00:00Z' });
});
afterAll(async () => { await s?.close(); });

describe('live map, pushed', () => {
  it('a frame sent to the gateway adds, moves and updates the vehicle without asking the provider again', async () => {
    const { page } = s;
    const all = providerRequests(page);
    await (await menuEntry(page, 'Rastreamento ao vivo')).click();
    await page.waitForURL(`${baseUrl}/tlm/ras/rastreamento_ao_vivo`);
    // loaded once, after the socket joined the company room
    await expect.poll(() => page.getByTestId('atualizado').getAttribute('data-ao-vivo'), T).toBe('sim');
    expect(all.seen).toHaveLength(1);
    const after = providerRequests(page);
    await page.getByRole('textbox', { name: 'Pesquisar veículo' }).fill(PLACA);
    const row = page.locator(`[role="listitem"][data-serial="${IMEI}"]`);
    expect(await row.count()).toBe(0);

    // first position (Manaus, away from the demo fleet): the vehicle appears
    await frame(-3.1190, -60.0217, 37);
    await expect.poll(() => row.textContent(), T).toContain('37 km/h');
    await row.click();
    const marker = page.locator(`.rastro-veiculo svg[data-serial="${IMEI}"]`);
    await marker.waitFor(T);
    await expect.poll(() => page.locator('.rastro-popup').getAttribute('data-serial'), T).toBe(IMEI);
    const before = (await marker.boundingBox())!;
    const label = await page.getByTestId('atualizado').textContent();

    // second position ~300 m east, faster: the same marker moves, the row and the popup follow
    await frame(-3.1190, -60.0190, 81);
    await expect.poll(() => row.textContent(), T).toContain('81 km/h');
    await expect.poll(async () => ((await marker.boundingBox())?.x ?? before.x) - before.x, T).toBeGreaterThan(20);
    const moved = (await marker.boundingBox())!;
    expect(Math.abs(moved.y - before.y)).toBeLessThan(3);
    await expect.poll(() => page.locator('.rastro-popup').innerText(), T).toContain('81 km/h');
    expect(await page.getByTestId('atualizado').textContent()).toMatch(/^Atualizado às \d{2}:\d{2}:\d{2}$/);
    expect(label).toMatch(/^Atualizado às /);

    // nothing was polled meanwhile
    expect(after.seen).toEqual([]);
    after.stop();
    all.stop();
    expect(s.errors).toEqual([]);
  });

  it("the asset's map follows the pushed position too", async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/tlm/ras/mapa_do_ativo?ativo=${ativoId}`);
    await expect.poll(() => page.getByTestId('atualizado').getAttribute('data-ao-vivo'), T).toBe('sim');
    await expect.poll(() => page.getByTestId('mapa-posicao').textContent(), T).toContain('-3.119000, -60.019000');
    const after = providerRequests(page);
    await frame(-3.1250, -60.0100, 12);
    await expect.poll(() => page.getByTestId('mapa-posicao').textContent(), T).toContain('-3.125000, -60.010000');
    expect(await page.getByTestId('mapa-posicao').textContent()).toContain('12 km/h');
    expect(after.seen).toEqual([]);
    after.stop();
  });
});

describe("live map, the company's tracking option", () => {
  it('follows the selected vehicle with its trail, highlights speeding, groups by garage and keeps the dark style', async () => {
    const { page, ctx } = s;
    // The company's default option: speeding above 60 km/h, a 5-position trail, follow on; the same 10 minutes as
    // everywhere for 'sem comunicação' (the other tests of this server rely on it).
    const opcao = await apiCall(ctx, baseUrl, '/api/opcao_rastreamento', { descricao: `Mapa e2e ${Date.now()}`, padrao: true, intervaloAtualizacao: 30,
      tempoSemComunicacao: 10, velocidadeMaxima: 60, exibirRastro: true, tamanhoRastro: 5, agruparMarcadores: true, seguirVeiculo: true });
    try {
      await page.goto(`${baseUrl}/tlm/ras/rastreamento_ao_vivo`);
      await expect.poll(() => page.getByTestId('atualizado').getAttribute('data-ao-vivo'), T).toBe('sim');
      await page.getByRole('textbox', { name: 'Pesquisar veículo' }).fill(PLACA);
      // grouped by garage: this vehicle has none
      await expect.poll(() => page.locator('[data-garagem]').evaluateAll((els) => els.map((e) => e.textContent)), T).toEqual(['Sem garagem1']);
      const row = page.locator(`[role="listitem"][data-serial="${IMEI}"]`);
      await frame(-3.1250, -60.0100, 85);
      await expect.poll(() => row.textContent(), T).toContain('85 km/h · Em movimento');
      await row.click();
      const panel = page.getByTestId('selecionado');
      await expect.poll(() => panel.textContent(), T).toContain(PLACA);
      // follow is on by the company's option
      expect(await page.getByLabel(/^Seguir /).isChecked()).toBe(true);
      const marker = page.locator(`.rastro-veiculo svg[data-serial="${IMEI}"]`);
      await expect.poll(() => marker.getAttribute('data-excesso'), T).toBe('sim');
      expect(await marker.getAttribute('data-estado')).toBe('em_movimento');
      // the plate is written under the marker
      expect(await page.locator('.rastro-veiculo', { has: page.locator(`svg[data-serial="${IMEI}"]`) }).locator('.rastro-placa').textContent()).toBe(PLACA);
      await page.locator('.leaflet-popup-close-button').click();

      // ~1 km east, slower: the map keeps the vehicle in the middle, the trail has both points, no highlight
      const map = (await page.locator('.leaflet-container').boundingBox())!;
      await frame(-3.1250, -60.0010, 40);
      await expect.poll(() => row.textContent(), T).toContain('40 km/h');
      await expect.poll(() => marker.getAttribute('data-excesso'), T).toBeNull();
      await expect.poll(async () => {
        const b = (await marker.boundingBox())!;
        return Math.hypot(b.x + b.width / 2 - (map.x + map.width / 2), b.y + b.height / 2 - (map.y + map.height / 2));
      }, T).toBeLessThan(30);
      const trail = page.locator('.leaflet-overlay-pane path');
      await expect.poll(() => trail.count(), T).toBe(1);
      const d = (await trail.getAttribute('d'))!;
      expect(d.match(/[ML]/g)).toEqual(['M', 'L']); // where it was when selected, and where it is now

      // parado: ignition on, speed 0
      await frame(-3.1250, -60.0010, 0);
      await expect.poll(() => row.textContent(), T).toContain('0 km/h · Parado');

      // dark style, kept after a reload
      await page.getByRole('button', { name: 'Mapa escuro' }).click();
      const estilo = () => page.locator('[data-estilo]').getAttribute('data-estilo');
      expect(await estilo()).toBe('escuro');
      await page.reload();
      await expect.poll(estilo, T).toBe('escuro');
      await page.getByRole('button', { name: 'Mapa claro' }).click();
      expect(await estilo()).toBe('claro');
      expect(s.errors).toEqual([]);
    } finally {
      const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
      await fetch(`${baseUrl}/api/opcao_rastreamento/${opcao.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    }
  });
});

describe('realtime client after sign-out', () => {
  it('the login page makes no socket.io request for 5 s', async () => {
    const { page } = s;
    await page.goto(`${baseUrl}/home`);
    const sockets: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/socket_server')) sockets.push(r.url()); });
    page.on('websocket', (w) => { if (w.url().includes('/socket_server')) sockets.push(w.url()); });
    // the socket is up before signing out
    await expect.poll(() => sockets.length, T).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Perfil' }).click();
    await page.getByRole('menuitem', { name: 'Sair' }).click();
    await page.waitForURL(`${baseUrl}/login`, T);
    await page.getByLabel('Usuário').waitFor(T);
    const from = sockets.length;
    await page.waitForTimeout(5000);
    expect(sockets.slice(from)).toEqual([]);
  });
});
