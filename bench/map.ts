// npm run bench:map — the live map at fleet scale in headless Chromium (/usr/bin/chromium via playwright-core), against
// the real server (its own process, the built dist/):
//   BENCH_MAPA_ATIVOS (10,000) vehicles with a latest state in one company, spread over the state of São Paulo; every
//   vehicle reports every 10 s (the latest states updated in 10 slices a second apart: the database trigger notifies
//   the bus, the API pushes the changed rows to the page). Meanwhile the page is panned and zoomed with the mouse for
//   BENCH_SEGUNDOS (20).
// Printed: per frame, the main thread's work (from the frame's start to the first task after it was painted: input,
// timers and socket messages handled before the frame are attributed to the frame's interval, not its work) — target:
// median under 16 ms —, the intervals between frames (p50/p95, share over 50 ms), the pushes received and how many
// vehicles each carried, and the markers drawn at the end.
// Then the replay (bench/map-replay.ts): a 30-day track of 250,000 positions drawn in /tlm/ras/historico_rastreamento
// — target under 1.5 s. BENCH_MAPA_PARTES=aovivo or replay runs one part.
// Database: a temp one on BENCH_DATABASE_URL / DATABASE_URL, else embedded PostgreSQL. Builds first unless
// BENCH_NO_BUILD=1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { benchDatabase, type BenchDatabase } from './db.ts';
import { buildFrontEnd, CHROMIUM, CHROMIUM_ARGS, ROOT, signIn, startServer, type BenchServer } from './server.ts';
import { median } from './stats.ts';
import { replayBench } from './map-replay.ts';

const ATIVOS = Number(process.env.BENCH_MAPA_ATIVOS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SEGUNDOS ?? 20);
const PARTES = new Set((process.env.BENCH_MAPA_PARTES ?? 'aovivo,replay').split(','));
const REPLAY_PONTOS = Number(process.env.BENCH_REPLAY_PONTOS ?? 250_000);
const REPLAY_RODADAS = Number(process.env.BENCH_REPLAY_RODADAS ?? 3);
const ADMIN_PASSWORD = 'bench-map-admin-123';
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-map-'));
fs.chmodSync(tmp, 0o755);
let database: BenchDatabase | undefined;
let server: BenchServer | undefined;
let updater: NodeJS.Timeout | undefined;

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN; };
const ms = (n: number) => `${n.toFixed(1)} ms`;

try {
  buildFrontEnd();
  database = await benchDatabase('map', tmp);
  server = await startServer({ url: database.url, dataDir: path.join(tmp, 'data'), adminPassword: ADMIN_PASSWORD });
  const base = server.base;
  const db = new pg.Client({ connectionString: database.url });
  db.on('error', () => undefined); // the database stops at the end (finally) while this client may still be open
  await db.connect();
  const empresa = Number((await db.query(`select empresa_ativa from usuario where login = 'admin'`)).rows[0].empresa_ativa);
  const seed = spawnSync(process.execPath, [TSX, 'server/seed/demo.ts', '--ativos', String(ATIVOS), '--empresa', String(empresa)], { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.url }, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`seed:demo falhou: ${seed.stderr}`);
  // One device per vehicle, somewhere in the state of São Paulo (-25..-20 lat, -53..-44.5 lon); 1 in 5 off, 1 in 20 silent.
  await db.query(`insert into telemetria.ultimo_estado (serial, empresa_id, ativo_id, protocolo, modelo, fix_time, lat, lon, speed, course, valid, ignition, ultima_comunicacao)
    select 'MAPA' || lpad(a.n::text, 6, '0'), $1, a.id, 'queclink', 'GV350CEU', now() - case when a.n % 20 = 0 then interval '2 hours' else interval '0' end,
           -25 + random() * 5, -53 + random() * 8.5, case when a.n % 5 = 0 then 0 else random() * 90 end, random() * 360, true, a.n % 5 <> 0,
           now() - case when a.n % 20 = 0 then interval '2 hours' else interval '0' end
    from (select id, row_number() over (order by id) as n from ativo where empresa_id = $1 order by id limit $2) a`, [empresa, ATIVOS]);
  const serials = (await db.query(`select serial from telemetria.ultimo_estado where empresa_id = $1 and serial like 'MAPA%' order by serial`, [empresa])).rows.map((r) => r.serial as string);
  // The silent ones stay silent.
  const reporting = serials.filter((_, i) => (i + 1) % 20 !== 0);
  console.log(`Banco: ${database.embedded ? 'PostgreSQL embutido (temporário)' : 'servidor'}; CPUs: ${os.cpus().length}; ${serials.length} veículos com posição na empresa ${empresa}`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(page, base, ADMIN_PASSWORD);
  if (PARTES.has('replay')) {
    const r = await replayBench({ db, page, base, empresa, pontos: REPLAY_PONTOS, rodadas: REPLAY_RODADAS });
    console.log(`Reprodução de ${r.pontos} posições (mediana de ${REPLAY_RODADAS}): trajeto desenhado ${r.chamadaMs} ms depois do pedido da tela ${r.chamadaMs < 1500 ? '✓ meta: < 1,5 s' : '✗ acima da meta (< 1,5 s)'} (${r.desenhoMs} ms desde a navegação, com o carregamento do app); sem chamada pendente em ${r.estavelMs} ms`);
    for (const x of r.respostas) console.log(`  /api/historico/trajetos zoom ${x.zoom}: ${x.pontos} pontos, ${x.kb} KB, ${x.ms} ms`);
    console.log(JSON.stringify({ replay: r }));
  }
  if (PARTES.has('aovivo')) {
    // The pushes the page receives (socket.io frames `42["ultimo_estado",{…,"rows":[…]}]`), counted in Node.
    let pushes = 0, pushed = 0;
    page.on('websocket', (ws) => ws.on('framereceived', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : '';
      if (process.env.BENCH_DEBUG) console.error('ws', text.slice(0, 120));
      if (!text.startsWith('42["ultimo_estado"')) return;
      pushes++;
      pushed += (text.match(/"serial":/g) ?? []).length;
    }));

    const t0 = performance.now();
    await page.goto(`${base}/tlm/ras/rastreamento_ao_vivo`);
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="total-veiculos"]')?.textContent) >= n, serials.length, { timeout: 60_000 });
    await page.locator('.leaflet-marker-icon').first().waitFor();
    const loaded = performance.now() - t0;

    // Every vehicle every 10 s: a tenth of the fleet each second (one statement, one notification per slice).
    let slice = 0, writes = 0;
    const tick = async () => {
      const part = reporting.filter((_, i) => i % 10 === slice % 10);
      slice++;
      await db.query(`update telemetria.ultimo_estado set lat = lat + (random() - 0.5) * 0.004, lon = lon + (random() - 0.5) * 0.004,
        course = random() * 360, speed = random() * 90, fix_time = now(), ultima_comunicacao = now() where serial = any($1)`, [part]);
      writes += part.length;
    };
    updater = setInterval(() => void tick().catch((e) => console.error(String(e))), 1000);

    // Frames: the interval between animation frames, and the work of each frame (rAF → first task after the paint).
    // (a string: tsx would wrap named functions in a helper the page does not have)
    await page.evaluate(`(() => {
      const b = window.__bench = { intervals: [], work: [], on: true };
      const ch = new MessageChannel();
      let last = 0, start = 0;
      ch.port1.onmessage = () => { b.work.push(performance.now() - start); };
      const frame = (t) => {
        if (!b.on) return;
        if (last) b.intervals.push(t - last);
        last = t;
        start = performance.now();
        ch.port2.postMessage(0);
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    })()`);
    // Pan and zoom over the map for SECONDS, around the fleet: zoomed in twice first (clusters and single vehicles), then
    // drags of 300 px right, down, left and up, one zoom in and one out — the view comes back to where it was.
    const map = page.locator('.leaflet-container').first();
    const box = (await map.boundingBox())!;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const wheel = async (dy: number) => { await page.mouse.move(cx, cy); await page.mouse.wheel(0, dy); await page.waitForTimeout(400); };
    await page.getByRole('button', { name: 'Mostrar toda a frota' }).click();
    await page.waitForTimeout(500);
    await wheel(-240);
    await wheel(-240);
    // BENCH_PROFILE=file.cpuprofile: the page's CPU profile over the measure (Chrome DevTools format).
    const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : undefined;
    if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.start'); }
    const end = performance.now() + SECONDS * 1000;
    const steps: ([number, number] | number)[] = [[300, 0], [0, 300], [-300, 0], [0, -300], -240, 240];
    for (let i = 0; performance.now() < end; i++) {
      const step = steps[i % steps.length];
      if (typeof step === 'number') await wheel(step);
      else {
        await page.mouse.move(cx, cy);
        await page.mouse.down();
        await page.mouse.move(cx + step[0], cy + step[1], { steps: 20 });
        await page.mouse.up();
        await page.waitForTimeout(150);
      }
    }
    clearInterval(updater);
    updater = undefined;
    if (cdp) fs.writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    if (process.env.BENCH_SHOT) await page.screenshot({ path: process.env.BENCH_SHOT });
    const r = await page.evaluate(`(() => {
      const b = window.__bench;
      b.on = false;
      return { intervals: b.intervals, work: b.work, markers: document.querySelectorAll('.leaflet-marker-icon').length };
    })()`) as { intervals: number[]; work: number[]; markers: number };
    const workP50 = median(r.work);
    console.log(`Mapa aberto com ${serials.length} veículos em ${Math.round(loaded)} ms; ${writes} posições gravadas em ${SECONDS} s enquanto o mapa era arrastado e ampliado`);
    console.log(`Quadros: ${r.intervals.length} (${(r.intervals.length / SECONDS).toFixed(1)} por segundo); intervalo p50 ${ms(pct(r.intervals, 0.5))}, p95 ${ms(pct(r.intervals, 0.95))}, acima de 50 ms ${(100 * r.intervals.filter((x) => x > 50).length / Math.max(1, r.intervals.length)).toFixed(1)} %`);
    console.log(`Trabalho por quadro: p50 ${ms(workP50)}, p95 ${ms(pct(r.work, 0.95))}, máximo ${ms(Math.max(...r.work))} ${workP50 < 16 ? '✓ meta: mediana < 16 ms' : '✗ acima da meta (mediana < 16 ms)'}`);
    console.log(`Atualizações recebidas pela página: ${pushes} mensagens com ${pushed} veículos; marcadores desenhados ao fim: ${r.markers}`);
    console.log(JSON.stringify({ ativos: serials.length, segundos: SECONDS, abertoMs: Math.round(loaded), quadros: r.intervals.length, intervaloP50: +pct(r.intervals, 0.5).toFixed(1), intervaloP95: +pct(r.intervals, 0.95).toFixed(1), trabalhoP50: +workP50.toFixed(1), trabalhoP95: +pct(r.work, 0.95).toFixed(1), envios: pushes, veiculosEnviados: pushed, gravacoes: writes, cpus: os.cpus().length, carga: os.loadavg() }));
  }
  await browser.close();
  await db.end();
} finally {
  if (updater) clearInterval(updater);
  await server?.stop();
  await database?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
