// Headless Chromium (Debian's binary) via playwright-core, plus small page helpers.
import net from 'node:net';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export async function signIn(page: Page, baseUrl: string, login: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Usuário').fill(login);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${baseUrl}/home`);
}

/** Opens `path` inside the running app (history push + popstate, as a link does): no page load, so a walk over
 *  hundreds of screens costs their rendering only. */
export async function goInApp(page: Page, path: string) {
  await page.evaluate((p) => { window.history.pushState({}, '', p); window.dispatchEvent(new PopStateEvent('popstate')); }, path);
}

// A random plate in the Mercosul format (AAA1A23).
export function randomPlate(): string {
  const L = () => String.fromCharCode(65 + Math.floor(Math.random() * 26));
  const D = () => String(Math.floor(Math.random() * 10));
  return `${L()}${L()}${L()}${D()}${L()}${D()}${D()}`;
}

export interface AdminSession { browser: Browser; ctx: BrowserContext; page: Page; errors: string[]; close(): Promise<void> }

/** A pt-BR desktop page signed in as `login`, collecting page errors and console errors (map tiles aside). */
export async function openSession(baseUrl: string, login: string, password: string): Promise<AdminSession> {
  const browser = await launch();
  const ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !/ERR_NAME_NOT_RESOLVED|tile/.test(m.text()) && errors.push(`${page.url()}: ${m.text()}`));
  await signIn(page, baseUrl, login, password);
  return { browser, ctx, page, errors, close: async () => { await ctx.close(); await browser.close(); } };
}

/** JSON call to the API with the signed-in session's token (GET, or POST with a body, or `method`); throws with the pt-BR msg. */
export async function apiCall(ctx: BrowserContext, baseUrl: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<any> {
  const token = decodeURIComponent((await ctx.cookies()).find((c) => c.name === 'rastro_token')!.value);
  const r = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${j.msg}`);
  return j;
}

/** A menu entry found through the menu's search box (sections of the route tree may be folded). */
export async function menuEntry(page: Page, name: string): Promise<Locator> {
  await page.getByRole('textbox', { name: 'Buscar no menu' }).fill(name);
  return page.getByRole('menuitem', { name, exact: true });
}

/** A session of a new user of the demo's second company only, holding the admin's keys there: a test that writes
 *  rows other browser tests would count (the first company's vehicles, positions) runs as this user. The role is
 *  created in that company (a role is its company's); switching is also the admin's next sign-in's company, so the
 *  admin goes back to the first company at once. */
export async function secondCompanySession(baseUrl: string, adminPassword: string, login: string): Promise<AdminSession> {
  const admin = await openSession(baseUrl, 'admin', adminPassword);
  const senha = `Senha-${login}-123`;
  try {
    const user = (await apiCall(admin.ctx, baseUrl, '/api/auth/get_session')).payload.user;
    const other = user.empresas.map((e: { id: number }) => e.id).find((id: number) => id !== user.empresaAtiva) as number;
    await apiCall(admin.ctx, baseUrl, `/api/auth/empresa/${other}`, {});
    try {
      const cargo = await apiCall(admin.ctx, baseUrl, '/api/cargo', { descricao: `Papel de ${login}`, permissoes: user.permissoes });
      await apiCall(admin.ctx, baseUrl, '/api/usuario', { nome: `Usuário ${login}`, login, senha, empresas: [other], empresaAtiva: other, cargos: [cargo.id] });
    } finally {
      await apiCall(admin.ctx, baseUrl, `/api/auth/empresa/${user.empresaAtiva}`, {});
    }
  } finally {
    await admin.close();
  }
  return openSession(baseUrl, login, senha);
}

/** Sends device frames (text, e.g. Queclink +RESP…$) to the test gateway's TCP port in one connection. */
export function sendToGateway(port: number, frames: string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.end(frames.join(''), () => resolve()));
    sock.on('error', reject);
  });
}

/** Queclink GTFRI frames of `serial`, one a minute from 40 minutes ago: minutes 0..10 driving north at 60 km/h
 *  (1 km a minute, odometer 12,000 → 12,010 km), 11..17 stopped — one 10 km trip, closed after five stopped minutes. */
export function tripFrames(serial: string): string[] {
  const t0 = Math.floor(Date.now() / 60_000) * 60_000 - 40 * 60_000;
  const t = (ms: number) => new Date(ms).toISOString().replace(/\D/g, '').slice(0, 14);
  return Array.from({ length: 18 }, (_, i) => {
    const km = Math.min(i, 10);
    const lat = -23.6 + km * (1000 / 111_320);
    return `+RESP:GTFRI,740904,${serial},GV350CEU,,10,1,1,${i <= 10 ? '60.0' : '0.0'},0,760.0,-46.650000,${lat.toFixed(6)},${t(t0 + i * 60_000)},0724,0005,0836,002BEE06,01,12,${(12000 + km).toFixed(1)},0000439:30:29,,,,100,221102,,,,${t(Date.now())},AA3C$`;
  });
}

/** A vehicle of the session's company with a Queclink tracker that has just sent tripFrames; answers its id. */
export async function vehicleWithTrip(ctx: BrowserContext, baseUrl: string, gatewayPort: number, v: { descricao: string; placa: string; serial: string }): Promise<number> {
  const id = (await apiCall(ctx, baseUrl, '/api/ativo', { descricao: v.descricao, placa: v.placa })).id as number;
  await apiCall(ctx, baseUrl, '/api/equipamento', { serial: v.serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await apiCall(ctx, baseUrl, '/api/equipamento_ativo', { serial: v.serial, ativoId: id, dataInicio: '2024-01-01T00:00:00Z' });
  await sendToGateway(gatewayPort, tripFrames(v.serial));
  return id;
}
