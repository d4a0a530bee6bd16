// npm exec -- tsx bench/web.ts — JavaScript on the wire for the front end, measured by headless Chromium
// (/usr/bin/chromium via playwright-core) against the real server (its own process) serving the built dist/:
//   - /login, cold cache;                     target < 250 KB
//   - a register list (/tlm/fro/ativo) opened cold with a live session;  target < 450 KB
//   - the same list after /login in the same tab (only what the list adds);
//   - /login again with a warm cache (immutable assets: nothing should travel).
// Bytes are the encoded response bodies (after Content-Encoding) of script responses. Builds first unless
// BENCH_NO_BUILD=1. Database: a temp one on BENCH_DATABASE_URL / DATABASE_URL, else embedded PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { benchDatabase, type BenchDatabase } from './db.ts';
import { buildFrontEnd, CHROMIUM, CHROMIUM_ARGS, startServer, type BenchServer } from './server.ts';

const ADMIN_PASSWORD = 'bench-web-admin-123';
const LIST = process.env.BENCH_LIST ?? '/tlm/fro/ativo';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-web-'));
fs.chmodSync(tmp, 0o755);
let database: BenchDatabase | undefined;
let server: BenchServer | undefined;


interface Tally { js: number; jsRaw: number; files: number; other: number }

const raw = new Map<string, Promise<number>>();
/** Size of a file without Content-Encoding (asked again with identity). */
const rawSize = (u: string) => {
  if (!raw.has(u)) raw.set(u, fetch(u, { headers: { 'accept-encoding': 'identity' } }).then(async (r) => (await r.arrayBuffer()).byteLength));
  return raw.get(u)!;
};

/** Sums the script bytes received by a page until `work` resolves and the network settles. */
async function tally(page: Page, work: () => Promise<unknown>): Promise<Tally> {
  const t: Tally = { js: 0, jsRaw: 0, files: 0, other: 0 };
  const pending: Promise<void>[] = [];
  const onFinished = (req: import('playwright-core').Request) => {
    pending.push((async () => {
      const res = await req.response();
      if (!res) return;
      const sizes = await req.sizes().catch(() => null);
      // Negative or zero: answered from the browser cache (preloaded, or immutable), nothing travelled.
      const wire = Math.max(0, sizes?.responseBodySize ?? 0);
      if (wire === 0) return;
      if (process.env.BENCH_DEBUG) console.error(req.resourceType(), req.url(), res.status(), res.headers()['content-encoding'], wire);
      if (req.resourceType() === 'script') {
        t.js += wire;
        t.files++;
        t.jsRaw += await rawSize(req.url());
      } else t.other += wire;
    })());
  };
  page.on('requestfinished', onFinished);
  await work();
  await page.waitForLoadState('networkidle');
  page.off('requestfinished', onFinished);
  await Promise.all(pending);
  return t;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

try {
  buildFrontEnd();
  database = await benchDatabase('web', tmp);
  server = await startServer({ url: database.url, dataDir: path.join(tmp, 'data'), adminPassword: ADMIN_PASSWORD });
  const base = server.base;

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const rows: Record<string, Tally[]> = { login: [], listCold: [], listAfterLogin: [], loginWarm: [] };
  const signIn = async (page: Page) => {
    await page.getByLabel('Usuário').fill('admin');
    await page.getByLabel('Senha').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${base}/home`);
  };
  const listShown = (page: Page) => page.locator('table tbody tr').first().waitFor({ timeout: 30_000 });
  for (let run = 0; run < RUNS; run++) {
    const ctx: BrowserContext = await browser.newContext();
    const page = await ctx.newPage();
    rows.login.push(await tally(page, async () => { await page.goto(`${base}/login`); await page.getByLabel('Usuário').waitFor(); }));
    rows.loginWarm.push(await tally(page, async () => { await page.reload(); await page.getByLabel('Usuário').waitFor(); }));
    await signIn(page);
    await page.waitForLoadState('networkidle');
    rows.listAfterLogin.push(await tally(page, async () => { await page.goto(`${base}${LIST}`); await listShown(page); }));
    // The list opened cold (no HTTP cache) with the live session.
    const state = await ctx.storageState();
    await ctx.close();
    const cold = await browser.newContext({ storageState: state });
    const p2 = await cold.newPage();
    rows.listCold.push(await tally(p2, async () => { await p2.goto(`${base}${LIST}`); await listShown(p2); }));
    await cold.close();
  }
  await browser.close();

  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const line = (name: string, t: Tally[], target?: number) => {
    const js = med(t.map((x) => x.js));
    const ok = target == null ? '' : js < target * 1024 ? `  ✓ meta < ${target} KB` : `  ✗ acima da meta ${target} KB`;
    console.log(`${name.padEnd(44)}${kb(js).padStart(11)} na rede${kb(med(t.map((x) => x.jsRaw))).padStart(12)} descomprimido${String(med(t.map((x) => x.files))).padStart(4)} arquivos${ok}`);
    return { js, jsRaw: med(t.map((x) => x.jsRaw)), files: med(t.map((x) => x.files)) };
  };
  console.log(`JavaScript por página (mediana de ${RUNS} execuções, Chromium headless, cache vazio salvo indicação):`);
  const summary = {
    login: line('/login', rows.login, 250),
    lista: line(`${LIST} (aberta direto, sessão ativa)`, rows.listCold, 450),
    listaAposLogin: line(`${LIST} depois do /login (o que a lista acrescenta)`, rows.listAfterLogin),
    loginCacheQuente: line('/login de novo (cache quente)', rows.loginWarm),
  };
  console.log(JSON.stringify(summary));
} finally {
  await server?.stop();
  await database?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
