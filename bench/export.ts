// npm run bench:export — memory and responsiveness of the API server during concurrent 100k-row exports.
// Measures, in one run against one server process (as `npm start` runs it, gateway off):
//   baseline: server RSS at rest and the latency of ordinary requests (GET /api/ativo, 25 rows) one at a time;
//   load: BENCH_EXPORTS concurrent CSV exports of every ativo (each read to the end), while the same ordinary
//   requests go on one at a time and RSS is sampled every 50 ms.
// Figures are printed as ratios against the baseline of the same run (machine-independent), plus raw values.
// Database: a fresh embedded PostgreSQL in a temp dir, or a temp database on BENCH_DATABASE_URL / DATABASE_URL.
// Options (env): BENCH_ATIVOS (100000), BENCH_EXPORTS (4), BENCH_FORMAT (csv|xlsx), BENCH_KEEP=1 keeps temp dirs.
// The server runs with EXPORT_MAX_PER_USER=BENCH_EXPORTS so one user can start them all (default limit: 2).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../server/db/embedded.ts';
import { benchDatabase, type BenchDatabase } from './db.ts';
import { serverNodeArgs } from '../server/app/node-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ATIVOS = Number(process.env.BENCH_ATIVOS ?? 100_000);
const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 4);
const FORMAT = process.env.BENCH_FORMAT === 'xlsx' ? 'xlsx' : 'csv';
const ADMIN_PASSWORD = 'bench-admin-123';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-export-'));
fs.chmodSync(tmp, 0o755);
let database: BenchDatabase | undefined;
let server: ChildProcess | undefined;


async function start(url: string, port: number): Promise<void> {
  server = spawn(process.execPath, serverNodeArgs(), {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, GATEWAY: 'off', DEMO_SIMULATION: 'off',
      DATA_DIR: path.join(tmp, 'data'), DIST_DIR: path.join(tmp, 'no-dist'), LOG_LEVEL: 'warn', EXPORT_MAX_PER_USER: String(EXPORTS),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr!.on('data', (d) => { stderr += d; });
  const exited = new Promise<never>((_, reject) => server!.once('exit', (code) => reject(new Error(`servidor saiu (${code}): ${stderr.slice(-2000)}`))));
  const ready = (async () => {
    for (;;) {
      const r = await fetch(`http://127.0.0.1:${port}/api/openapi.json`).catch(() => null);
      if (r) { await r.arrayBuffer(); return; }
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  await Promise.race([ready, exited]);
}

/** Resident set size of the server process, MB (Linux /proc). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const pct = (t: number[], p: number) => { const s = [...t].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

try {
  database = await benchDatabase('export', tmp);
  const url = database.url;
  const t0 = performance.now();
  // Schema first (the server migrates at start), then the demo data, then a fresh server process.
  const port = await freePort();
  await start(url, port);
  const seed = spawnSync(process.execPath, ['--import', 'tsx', 'server/seed/demo.ts', '--ativos', String(ATIVOS)], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`seed:demo falhou: ${seed.stderr}`);
  server!.removeAllListeners('exit');
  await new Promise<void>((r) => { server!.once('exit', () => r()); server!.kill('SIGTERM'); });
  await start(url, port);
  const pid = server!.pid!;
  console.log(`Banco: ${database.embedded ? 'PostgreSQL embutido (temporário)' : 'temporário em BENCH_DATABASE_URL'}; preparação ${Math.round(performance.now() - t0)} ms`);

  const base = `http://127.0.0.1:${port}`;
  const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: ADMIN_PASSWORD }) })).json();
  const headers = { authorization: `Bearer ${login.payload.token}` };
  const total = (await fetch(`${base}/api/ativo?range=[0,0]`, { headers })).headers.get('content-range');
  console.log(`Ativos: ${total}; ${EXPORTS} exportações ${FORMAT} simultâneas de todos os ativos`);

  const other = async () => {
    const t = performance.now();
    const r = await fetch(`${base}/api/ativo?range=[0,24]`, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET /api/ativo: HTTP ${r.status}`);
    return performance.now() - t;
  };
  // Warm-up (JIT, pool, caches), including one export, then the baseline.
  for (let i = 0; i < 30; i++) await other();
  await (await fetch(`${base}/api/ativo/export?format=${FORMAT}`, { headers })).arrayBuffer();
  await new Promise((r) => setTimeout(r, 1000));
  const rssBase = rssMb(pid);
  const baseLat: number[] = [];
  for (let i = 0; i < 100; i++) baseLat.push(await other());

  // Load: exports read to the end; ordinary requests one at a time until they finish; RSS sampled.
  let peak = rssBase;
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(pid)); }, 50);
  const tl = performance.now();
  let running = EXPORTS;
  const exports = Array.from({ length: EXPORTS }, async () => {
    const t = performance.now();
    const r = await fetch(`${base}/api/ativo/export?format=${FORMAT}`, { headers });
    if (r.status !== 200) throw new Error(`export: HTTP ${r.status} ${await r.text()}`);
    let bytes = 0;
    for await (const chunk of r.body!) bytes += (chunk as Uint8Array).byteLength;
    running--;
    return { ms: performance.now() - t, bytes };
  });
  const loadLat: number[] = [];
  const loop = (async () => { while (running > 0) loadLat.push(await other()); })();
  const done = await Promise.all(exports);
  await loop;
  clearInterval(sampler);
  const loadMs = performance.now() - tl;

  const b50 = pct(baseLat, 0.5), b95 = pct(baseLat, 0.95), l50 = pct(loadLat, 0.5), l95 = pct(loadLat, 0.95), lmax = Math.max(...loadLat);
  const f = (n: number) => n.toFixed(1);
  console.log(`\nRSS do servidor: base ${f(rssBase)} MB, pico ${f(peak)} MB durante as exportações → ${(peak / rssBase).toFixed(2)}x (+${f(peak - rssBase)} MB)`);
  console.log(`Outras requisições (GET /api/ativo, 25 linhas, uma por vez):`);
  console.log(`  base:       p50 ${f(b50)} ms, p95 ${f(b95)} ms (${baseLat.length} req.)`);
  console.log(`  exportando: p50 ${f(l50)} ms, p95 ${f(l95)} ms, máx ${f(lmax)} ms (${loadLat.length} req.) → p50 ${(l50 / b50).toFixed(2)}x, p95 ${(l95 / b95).toFixed(2)}x da base`);
  console.log(`Exportações: ${done.map((d) => `${(d.ms / 1000).toFixed(1)} s`).join(', ')}; ${(done[0].bytes / 1e6).toFixed(1)} MB cada; carga total ${(loadMs / 1000).toFixed(1)} s`);
  console.log(JSON.stringify({
    ativos: total, exports: EXPORTS, format: FORMAT,
    rss: { baseMb: +f(rssBase), peakMb: +f(peak), ratio: +(peak / rssBase).toFixed(2) },
    latency: { baseP50: +f(b50), baseP95: +f(b95), loadP50: +f(l50), loadP95: +f(l95), loadMax: +f(lmax), ratioP50: +(l50 / b50).toFixed(2), ratioP95: +(l95 / b95).toFixed(2) },
    exportsMs: done.map((d) => Math.round(d.ms)), bytes: done[0].bytes,
  }));
} finally {
  if (server && server.exitCode === null) {
    server.removeAllListeners('exit');
    await new Promise<void>((r) => { server!.once('exit', () => r()); server!.kill('SIGTERM'); });
  }
  await database?.close();
  if (process.env.BENCH_KEEP !== '1') fs.rmSync(tmp, { recursive: true, force: true });
}
