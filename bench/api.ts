// npm run bench:api — cold start of the API server and latency of GET /api/ativo with 100k assets.
// Database: a fresh embedded PostgreSQL in a temp dir, or a temp database `rastro_bench_api_*` created
// on BENCH_DATABASE_URL / DATABASE_URL (dropped at the end). The server runs as `npm start` does
// (tsx server/main.ts, its own process), on a temp copy of server/migrations.
// Options (env): BENCH_ATIVOS (100000), BENCH_REQUESTS (300), BENCH_WARMUP (30), BENCH_KEEP=1 keeps the temp dirs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startEmbeddedPostgres, type EmbeddedHandle } from '../server/db/embedded.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ATIVOS = Number(process.env.BENCH_ATIVOS ?? 100_000);
const N = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const ADMIN_PASSWORD = 'bench-admin-123';
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');

// PostgreSQL data in the OS temp dir; the migrations copy inside the repo (its imports resolve from node_modules).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-api-'));
fs.chmodSync(tmp, 0o755);
fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
const work = fs.mkdtempSync(path.join(ROOT, '.tmp', 'bench-api-'));
const migrations = path.join(work, 'migrations');
fs.cpSync(path.join(ROOT, 'server/migrations'), migrations, { recursive: true });

let embedded: EmbeddedHandle | undefined;
let dropDb: (() => Promise<void>) | undefined;
let server: ChildProcess | undefined;

async function database(): Promise<string> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base) {
    embedded = await startEmbeddedPostgres({ dir: path.join(tmp, 'pg'), database: 'rastro_bench' });
    return embedded.url;
  }
  const name = `rastro_bench_api_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  dropDb = async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`).finally(() => c.end());
  };
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Spawns the server like `npm start` does (without the front-end build); answers ms until it serves. */
async function start(url: string, port: number): Promise<number> {
  const t0 = performance.now();
  server = spawn(process.execPath, [TSX, 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, MIGRATIONS_PATH: migrations,
      DATA_DIR: path.join(work, 'data'), DIST_DIR: path.join(work, 'no-dist'), LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr!.on('data', (d) => { stderr += d; });
  const exited = new Promise<never>((_, reject) => server!.once('exit', (code) => reject(new Error(`servidor saiu (${code}): ${stderr.slice(-2000)}`))));
  const ready = (async () => {
    for (;;) {
      const r = await fetch(`http://127.0.0.1:${port}/api/openapi.json`).catch(() => null);
      // 401: up and answering (the document needs a session).
      if (r?.status === 200 || r?.status === 401) { await r.arrayBuffer(); return performance.now() - t0; }
      await new Promise((res) => setTimeout(res, 10));
    }
  })();
  return Promise.race([ready, exited]);
}

async function stop(): Promise<void> {
  const s = server;
  server = undefined;
  if (!s || s.exitCode !== null) return;
  s.removeAllListeners('exit');
  await new Promise<void>((res) => { s.once('exit', () => res()); s.kill('SIGTERM'); });
}

interface Stats { name: string; p50: number; p95: number; mean: number; n: number }

async function measure(name: string, base: string, headers: Record<string, string>, paths: (i: number) => string, expect = 200): Promise<Stats> {
  const one = async (i: number) => {
    const t = performance.now();
    const r = await fetch(base + paths(i), { headers });
    await r.arrayBuffer();
    if (r.status !== expect) throw new Error(`${name}: HTTP ${r.status} em ${paths(i)}`);
    return performance.now() - t;
  };
  for (let i = 0; i < WARMUP; i++) await one(i);
  const t: number[] = [];
  for (let i = 0; i < N; i++) t.push(await one(WARMUP + i));
  t.sort((a, b) => a - b);
  const q = (p: number) => t[Math.min(t.length - 1, Math.floor(p * t.length))];
  return { name, p50: q(0.5), p95: q(0.95), mean: t.reduce((a, b) => a + b, 0) / t.length, n: t.length };
}

const ms = (n: number) => n.toFixed(2).padStart(8);

try {
  const url = await database();
  const port = await freePort();
  console.log(`Banco: ${embedded ? 'PostgreSQL embutido (temporário)' : url.replace(/:[^:@/]*@/, ':***@')}`);

  const first = await start(url, port);
  await stop();
  const cold = await start(url, port);
  console.log(`Partida a frio (processo → primeira resposta 200): ${Math.round(first)} ms na 1ª partida (migrações + dados iniciais), ${Math.round(cold)} ms com o banco pronto`);

  const t0 = performance.now();
  const seed = spawnSync(process.execPath, [TSX, 'server/seed/demo.ts', '--ativos', String(ATIVOS)], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`seed:demo falhou: ${seed.stderr}`);
  console.log(`seed:demo: ${seed.stdout.trim().split('\n').join('; ')} (${Math.round(performance.now() - t0)} ms no total)`);

  const base = `http://127.0.0.1:${port}`;
  const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: ADMIN_PASSWORD }) })).json();
  const headers = { authorization: `Bearer ${login.payload.token}` };
  const get = async (p: string) => { const r = await fetch(base + p, { headers }); return { total: r.headers.get('content-range'), rows: await r.json() as any[] }; };
  const total = (await get('/api/ativo?range=[0,0]')).total;
  const sample = (await get('/api/ativo?sort=["id","ASC"]&range=[0,999]')).rows.map((r) => r.id as number);
  const mid = (await get(`/api/ativo?sort=["placa","ASC"]&range=[${Math.floor(ATIVOS / 2)},${Math.floor(ATIVOS / 2)}]`)).rows[0];
  const fragment = String(mid.placa).slice(0, 6);
  const qTotal = (await get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ q: fragment }))}&range=[0,24]`)).total;
  console.log(`Ativos: ${total}; busca q="${fragment}": ${qTotal}; ${N} requisições por caso (após ${WARMUP} de aquecimento), uma por vez`);

  const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  const results: Stats[] = [];
  results.push(await measure('GET /api/auth/token_valido (referência)', base, headers, () => '/api/auth/token_valido'));
  results.push(await measure('GET /api/ativo (25, ordem padrão)', base, headers, () => '/api/ativo?range=[0,24]'));
  results.push(await measure('GET /api/ativo (25, placa DESC)', base, headers, () => `/api/ativo?sort=${enc(['placa', 'DESC'])}&range=[0,24]`));
  results.push(await measure(`GET /api/ativo (q="${fragment}")`, base, headers, () => `/api/ativo?filter=${enc({ q: fragment })}&range=[0,24]`));
  results.push(await measure('GET /api/ativo/{id}', base, headers, (i) => `/api/ativo/${sample[i % sample.length]}`));
  results.push(await measure('GET /api/ativo (25, página 2000)', base, headers, () => '/api/ativo?range=[50000,50024]'));

  const ref = results[0].p50;
  console.log(`\n${'caso'.padEnd(44)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'média'.padStart(8)}   p50/ref`);
  for (const r of results) console.log(`${r.name.padEnd(44)}${ms(r.p50)}${ms(r.p95)}${ms(r.mean)}   ${(r.p50 / ref).toFixed(2)}x`);
  console.log(JSON.stringify({ coldStartMs: { first: Math.round(first), ready: Math.round(cold) }, ativos: total, results: results.map((r) => ({ ...r, p50: +r.p50.toFixed(2), p95: +r.p95.toFixed(2), mean: +r.mean.toFixed(2) })) }));
} finally {
  await stop().catch(() => undefined);
  await dropDb?.().catch((e) => console.error(String(e)));
  await embedded?.stop().catch(() => undefined);
  if (process.env.BENCH_KEEP !== '1') for (const d of [tmp, work]) fs.rmSync(d, { recursive: true, force: true });
}
