// Server push over socket.io (/socket_server): an administrator changes a signed-in user's permissions
// (dialog 'Permissões Alteradas', reload after 5 s), then ends their session (dialog 'Sessão terminada',
// token removed, /login after 2 s).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, WebSocket } from 'playwright-core';
import { launch, menuEntry, signIn } from './browser';

const baseUrl = inject('baseUrl');
const adminPassword = inject('adminPassword');
const LOGIN = `rt.${Date.now().toString(36)}`;
const SENHA = 'Tempo-real-2024!';

let adminToken = '';
let empresa = 0;
async function admin(method: string, path: string, body?: unknown) {
  const r = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json', companyId: String(empresa) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json();
  expect(r.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let userId = 0;

beforeAll(async () => {
  const r = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: adminPassword }) });
  const p = (await r.json()).payload;
  adminToken = p.token;
  empresa = p.user?.empresaAtiva ?? (await admin('GET', '/api/auth/get_session')).payload.user.empresaAtiva;
  const cargos = (await admin('GET', '/api/cargo')) as { id: number; descricao: string }[];
  const leitura = cargos.find((c) => /leitura/i.test(c.descricao)) ?? cargos[cargos.length - 1]!;
  const u = await admin('POST', '/api/usuario', { nome: 'Usuário Tempo Real', login: LOGIN, senha: SENHA, empresas: [empresa], empresaAtiva: empresa, cargos: [leitura.id] });
  userId = u.id;
  browser = await launch();
  ctx = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  page = await ctx.newPage();
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
});

// Resolves once the page's socket.io connection has upgraded to a websocket: the client sends the upgrade packet
// ('5') only after the polling transport flushed what it had queued, so by then the server has connected the socket
// (its user's and session's rooms joined) and received set_user / join_room.
function socketOpened(p: Page) {
  return new Promise<void>((resolve, reject) => {
    const onSocket = (ws: WebSocket) => {
      if (!ws.url().includes('/socket_server')) return;
      ws.on('framesent', (f) => { if (f.payload === '5') { cleanup(); resolve(); } });
    };
    const timer = setTimeout(() => { cleanup(); reject(new Error('o socket /socket_server não abriu em 60 s')); }, 60_000);
    const cleanup = () => { clearTimeout(timer); p.off('websocket', onSocket); };
    p.on('websocket', onSocket);
  });
}

describe('server push dialogs', () => {
  it("shows 'Permissões Alteradas' and reloads after 5 s when an administrator changes the user's permissions", async () => {
    const opened = socketOpened(page);
    await signIn(page, baseUrl, LOGIN, SENHA);
    await opened;
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await admin('PUT', `/api/usuario/${userId}`, { permissoesExtras: ['tlm.ras.rastreamento_ao_vivo'] });
    const dialog = page.getByRole('dialog', { name: 'Permissões Alteradas' });
    await dialog.waitFor({ timeout: 30_000 });
    const shownAt = Date.now();
    expect(await dialog.innerText()).toContain('Atenção, suas permissões de usuário foram alteradas pelo administrador do sistema, o sistema será recarregado em 5 segundos.');
    await reloaded;
    expect(Date.now() - shownAt).toBeGreaterThan(4000);
    await page.waitForURL(`${baseUrl}/home`);
    await expect.poll(() => page.getByRole('dialog', { name: 'Permissões Alteradas' }).count()).toBe(0);
    // the new key is in force after the reload
    await expect.poll(async () => (await menuEntry(page, 'Rastreamento ao vivo')).count()).toBe(1);
  });

  it("shows 'Sessão terminada', removes the token and goes to /login after 2 s when an administrator ends the session", async () => {
    const opened = socketOpened(page);
    await page.reload();
    await opened;
    // best effort: let the page's requests settle (a request answered 401 first shows the same dialog, the 401 says
    // why; a long-lived app may never be fully idle)
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    const sessoes = (await admin('GET', `/api/sessao?filter=${encodeURIComponent(JSON.stringify({ usuario: userId, ativa: true }))}`)) as { id: number }[];
    expect(sessoes).toHaveLength(1);
    await admin('POST', `/api/adm/sessao/elimina/${sessoes[0]!.id}`, {});
    const dialog = page.getByRole('dialog', { name: 'Sessão terminada' });
    await dialog.waitFor({ timeout: 30_000 });
    const shownAt = Date.now();
    expect(await dialog.innerText()).toContain('Sua sessão foi finalizada por um administrador do sistema.');
    await page.waitForURL(`${baseUrl}/login`, { timeout: 30_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(1500);
    expect((await ctx.cookies()).find((c) => c.name === 'rastro_token')?.value ?? '').toBe('');
  });

  it("shows 'Sessão terminada' also when a request's 401 arrives before the push (the 401 says why)", async () => {
    // no realtime socket on this page: only the 401 of the next request can tell
    const p2 = await ctx.newPage();
    await p2.route('**/socket_server/**', (r) => r.abort());
    await signIn(p2, baseUrl, LOGIN, SENHA);
    await p2.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    const sessoes = (await admin('GET', `/api/sessao?filter=${encodeURIComponent(JSON.stringify({ usuario: userId, ativa: true }))}`)) as { id: number }[];
    expect(sessoes).toHaveLength(1);
    // the first request refused after the session ended, whichever it is (listening before ending it: a request the
    // page sends meanwhile may be the one)
    const refused = p2.waitForResponse((r) => r.url().includes('/api/') && r.status() === 401, { timeout: 60_000 });
    await admin('POST', `/api/adm/sessao/elimina/${sessoes[0]!.id}`, {});
    // a request to be refused; when another one was refused first, its dialog covers the menu and this click gives up
    void menuEntry(p2, 'Rastreamento ao vivo').then((l) => l.click({ timeout: 60_000 })).catch(() => undefined); // sections fold: through the menu search
    expect((await (await refused).json()).payload).toEqual({ motivo: 'administrador' });
    const dialog = p2.getByRole('dialog', { name: 'Sessão terminada' });
    await dialog.waitFor({ timeout: 30_000 });
    const shownAt = Date.now();
    expect(await dialog.innerText()).toContain('Sua sessão foi finalizada por um administrador do sistema.');
    await p2.screenshot({ path: '/tmp/sessao-terminada-401.png' });
    await p2.waitForURL(`${baseUrl}/login`, { timeout: 30_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(1500);
    await p2.close();
  });
});

