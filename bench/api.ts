// npm run bench:api — the generated API against the floor, a bare node:http + pg server (bench/api-bare.ts: one
// hand-written statement per answer, computed columns inlined), on the same tables (100k ativos, half in the
// measured company; 0-8 motoristas temporários per ativo; 3 in 4 with a device linked, each with its latest state), in the same run. Queries: list of 25 sorted by placa
// with the total; filtered (one garage) + q search + sorted by placa DESC; by id with the company check; the nested
// list /api/ativo/{id}/motorista_temporario. Both servers must give the same JSON and Content-Range (checked first).
// Closed-loop load of our own (10 keep-alive connections, bounded duration), rounds alternating the two servers;
// prints req/s, p50/p99, server CPU per request (and PostgreSQL's, when local) and the ratio generated/bare per query (target >= 0.9x). Also the
// API's cold start.
// Database: a fresh embedded PostgreSQL in a temp dir, or a temp database `rastro_bench_api_*` created
// on BENCH_DATABASE_URL / DATABASE_URL (dropped at the end). The server runs as `npm start` does
// (tsx server/main.ts, its own process), on a temp copy of server/migrations.
// Options (env): BENCH_ATIVOS (100000), BENCH_CONNECTIONS (10), BENCH_SECONDS (5 per measure), BENCH_ROUNDS (3), BENCH_WARMUP
// (2 s of unmeasured load before each measure), BENCH_SERVER_ARGS (extra node flags of the API, e.g. --trace-gc) and
// BENCH_SERVER_STDOUT=file (the API's stdout),
// BENCH_ONLY=lista|filtro|id|aninhada (comma-separated) runs some cases; BENCH_BARE_RLS=1 runs the floor as the API's company role (RLS on); BENCH_KEEP=1 keeps the temp dirs; BENCH_HOLD=s holds s seconds after the setup with
// the database up (its URL printed: EXPLAIN the queries as the API runs them, e.g. SET ROLE rastro_app; SET rastro.empresa = 1); BENCH_PROFILE=dir writes the API's CPU profile (.cpuprofile) there.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../server/db/embedded.ts';
import { benchDatabase, type BenchDatabase } from './db.ts';
import { median } from './stats.ts';
import { serverNodeArgs } from '../server/app/node-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ATIVOS = Number(process.env.BENCH_ATIVOS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Seconds of unmeasured load right before each measurement (JIT, the pools' connections and their plans warm). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ADMIN_PASSWORD = 'bench-admin-123';
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');

// PostgreSQL data in the OS temp dir; the migrations copy inside the repo (its imports resolve from node_modules).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-api-'));
fs.chmodSync(tmp, 0o755);
fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
const work = fs.mkdtempSync(path.join(ROOT, '.tmp', 'bench-api-'));
const migrations = path.join(work, 'migrations');
fs.cpSync(path.join(ROOT, 'server/migrations'), migrations, { recursive: true });

let database: BenchDatabase | undefined;
let server: ChildProcess | undefined;
let bare: ChildProcess | undefined;


/** Spawns the server like `npm start` does (without the front-end build); answers ms until it serves. */
async function start(url: string, port: number): Promise<number> {
  const t0 = performance.now();
  const extra = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
  server = spawn(process.execPath, [...extra, ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), ...serverNodeArgs()], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, MIGRATIONS_PATH: migrations,
      DATA_DIR: path.join(work, 'data'), DIST_DIR: path.join(work, 'no-dist'), LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      // The API alone: no device gateway nor demo trackers in the measured process.
      GATEWAY: 'off', DEMO_SIMULATION: 'off', DEMO: 'on', // two companies with the demo data
    },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? fs.openSync(process.env.BENCH_SERVER_STDOUT, 'w') : 'ignore', 'pipe'],
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

type Proc = ChildProcess;

/** A process's /proc stat: its command name and CPU times in ms (utime, stime, cutime, cstime; USER_HZ 100). */
function procStat(pid: number | string): { comm: string; cpu: number[] } {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return { comm: f.slice(f.indexOf('(') + 1, f.lastIndexOf(')')), cpu: rest.slice(11, 15).map((x) => Number(x) * 10) };
}

/** CPU time (ms) of a process (utime + stime). */
function cpuMs(pid: number): number {
  try { const { cpu } = procStat(pid); return cpu[0]! + cpu[1]!; } catch { return NaN; }
}

/** CPU time (ms) of every PostgreSQL process of this machine (the database's share of a request: the statements'
 *  cost differs between the two servers, and the two CPUs are shared). NaN when none is visible (a remote server). */
function postgresCpuMs(): number {
  let sum = 0, seen = false;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const { comm, cpu } = procStat(d);
      if (comm !== 'postgres') continue;
      // utime + stime, and cutime + cstime: the postmaster's ended children (backends, parallel workers).
      sum += cpu.reduce((a, b) => a + b, 0);
      seen = true;
    } catch { /* ended meanwhile */ }
  }
  return seen ? sum : NaN;
}

interface Load { name: string; target: string; rps: number; p50: number; p99: number; n: number; errors: number; cpuPerReq: number; pgPerReq: number }

/** Closed-loop load: CONNECTIONS keep-alive connections, each sending the next request when the last answered. */
async function load(name: string, target: string, base: string, pid: number, headers: Record<string, string>, path: (i: number) => string, seconds: number): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const u = new URL(base);
  const lat: number[] = [];
  let errors = 0, i = 0;
  const one = (p: string) => new Promise<number>((resolve) => {
    const t = performance.now();
    const req = http.request({ host: u.hostname, port: u.port, path: p, agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - t : -1));
    });
    req.on('error', () => resolve(-1));
    req.end();
  });
  const c0 = cpuMs(pid), pg0 = postgresCpuMs();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < end) {
      const ms = await one(path(i++));
      if (ms < 0) errors++; else lat.push(ms);
    }
  }));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuMs(pid) - c0, pgCpu = postgresCpuMs() - pg0;
  agent.destroy();
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
  return { name, target, rps: lat.length / elapsed, p50: q(0.5), p99: q(0.99), n: lat.length, errors, cpuPerReq: cpu / Math.max(1, lat.length + errors), pgPerReq: pgCpu / Math.max(1, lat.length + errors) };
}


async function waitHttp(url: string, p: Proc): Promise<void> {
  for (let i = 0; ; i++) {
    const r = await fetch(url).catch(() => null);
    if (r) { await r.arrayBuffer(); return; }
    if (p.exitCode !== null || i > 1200) throw new Error(`servidor não respondeu em ${url}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

const f1 = (n: number) => n.toFixed(1).padStart(9);
const f2 = (n: number) => n.toFixed(2).padStart(8);

try {
  database = await benchDatabase('api', tmp);
  const url = database.url;
  const port = await freePort();
  console.log(`Banco: ${database.embedded ? 'PostgreSQL embutido (temporário)' : url.replace(/:[^:@/]*@/, ':***@')}; CPUs: ${os.cpus().length}; carga (1/5/15 min): ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);

  const first = await start(url, port);
  await stop();
  const cold = await start(url, port);
  console.log(`Partida a frio (processo → primeira resposta): ${Math.round(first)} ms na 1ª partida (migrações + dados iniciais), ${Math.round(cold)} ms com o banco pronto`);

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const empresas = (await db.query('select id from empresa order by id limit 2')).rows.map((r) => Number(r.id));
  const t0 = performance.now();
  // Half of the assets in the company measured, half in another one.
  for (const [i, empresa] of empresas.entries()) {
    const n = i === 0 ? Math.ceil(ATIVOS / 2) : Math.floor(ATIVOS / 2);
    const seed = spawnSync(process.execPath, [TSX, 'server/seed/demo.ts', '--ativos', String(n), '--empresa', String(empresa)], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' });
    if (seed.status !== 0) throw new Error(`seed:demo falhou: ${seed.stderr}`);
  }
  // Motoristas temporários: 0-8 per ativo (by its id), each with one of its company's drivers, weekly periods.
  await db.query(`insert into motorista_temporario (empresa_id, ativo_id, motorista_id, data_inicio, data_fim, observacao, created_at, updated_at)
    select a.empresa_id, a.id, m.ids[1 + (a.id + k) % array_length(m.ids, 1)], now() - (k * 7 + 7) * interval '1 day', now() - (k * 7 + 1) * interval '1 day',
           case when k % 3 = 0 then 'Cobertura de férias' end, now(), now()
    from ativo a join (select empresa_id, array_agg(id order by id) as ids from motorista group by empresa_id) m on m.empresa_id = a.empresa_id
    cross join lateral generate_series(0, a.id % 9 - 1) k`);
  // Devices linked (equipamentosList): 3 ativos in 4 have one now; 1 in 10 of those had another one before.
  await db.query(`insert into equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, data_fim, created_at, updated_at)
    select a.empresa_id, (864000000000000 + a.id * 2 + k)::text, a.id, now() - (400 - k * 200) * interval '1 day',
           case when k = 0 and a.id % 10 = 0 then now() - interval '200 days' end, now(), now()
    from ativo a cross join lateral generate_series(0, case when a.id % 10 = 0 then 1 else 0 end) k
    where a.id % 4 <> 0`);
  // Their latest states (the computed columns driver, communication and address read them): every device linked now
  // reported within the last two days around São Paulo, half with a driver identified; the address cache holds the
  // resolved point of 1 state in 2 (the other shows coordinates).
  await db.query(`insert into telemetria.ultimo_estado (serial, empresa_id, ativo_id, motorista_id, protocolo, fix_time, lat, lon, speed, valid, ignition, ultima_comunicacao)
    select ea.serial, ea.empresa_id, ea.ativo_id, case when ea.ativo_id % 2 = 0 then m.ids[1 + ea.ativo_id % array_length(m.ids, 1)] end, 'queclink',
           now() - (ea.ativo_id % 2880) * interval '1 minute', -23.55 + (ea.ativo_id % 997) * 0.0004, -46.63 + (ea.ativo_id % 991) * 0.0004,
           (ea.ativo_id % 90)::real, true, ea.ativo_id % 3 <> 0, now() - (ea.ativo_id % 2880) * interval '1 minute'
    from equipamento_ativo ea join (select empresa_id, array_agg(id order by id) as ids from motorista group by empresa_id) m on m.empresa_id = ea.empresa_id
    where ea.data_fim is null`);
  await db.query(`insert into telemetria.endereco (empresa_id, lat_key, lon_key, endereco, fonte)
    select distinct u.empresa_id, round(u.lat * 1000)::int, round(u.lon * 1000)::int, 'Rua ' || u.ativo_id % 997 || ', São Paulo - SP', 'municipio'
    from telemetria.ultimo_estado u where u.ativo_id % 4 < 2 on conflict do nothing`);
  for (const t of ['ativo', 'motorista_temporario', 'equipamento_ativo', 'telemetria.ultimo_estado', 'telemetria.endereco']) await db.query(`analyze ${t}`);
  const base = `http://127.0.0.1:${port}`;
  const login = await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', senha: ADMIN_PASSWORD }) })).json();
  const empresa = Number(login.payload.user.empresaAtiva);
  const counts = (await db.query('select empresa_id, count(*)::int as n from ativo group by 1 order by 1')).rows.map((r) => `empresa ${r.empresa_id}: ${r.n}`).join(', ');
  const ids = (await db.query('select id from ativo where empresa_id = $1 order by random() limit 2000', [empresa])).rows.map((r) => Number(r.id));
  // The filter: the company's garage with the most ativos.
  const garagem = Number((await db.query('select id_garagem from ativo where empresa_id = $1 and id_garagem is not null group by 1 order by count(*) desc, 1 limit 1', [empresa])).rows[0]?.id_garagem);
  const temporarios = (await db.query('select count(*)::int as n from motorista_temporario')).rows[0].n;
  const vinculos = (await db.query('select count(*)::int as n from equipamento_ativo where data_fim is null')).rows[0].n;
  const estados = (await db.query('select count(*)::int as n from telemetria.ultimo_estado')).rows[0].n;
  await db.end();
  console.log(`Ativos: ${counts}; ${temporarios} motoristas temporários; ${vinculos} equipamentos vinculados agora, ${estados} últimos estados (${Math.round(performance.now() - t0)} ms de carga); medida na empresa ${empresa}`);

  // The bare server: its own process, like the API.
  const barePort = await freePort();
  bare = spawn(process.execPath, ['--import', 'tsx', 'bench/api-bare.ts'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, PORT: String(barePort), BARE_EMPRESA: String(empresa), BARE_RLS: process.env.BENCH_BARE_RLS ?? '' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const bareBase = `http://127.0.0.1:${barePort}`;
  await waitHttp(`${bareBase}/api/ativo/0`, bare);

  const headers = { authorization: `Bearer ${login.payload.token}`, 'accept-encoding': 'identity' };
  const qs = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join('&');
  const LIST = `/api/ativo?${qs({ sort: ['placa', 'ASC'], range: [0, 24] })}`;
  // What a user types in the search box of one garage's list (3 characters: the trigram indexes apply).
  const SEARCH = ['123', '-45', '078', '901'];
  const filtered = (i: number) => `/api/ativo?${qs({ filter: { idGaragem: garagem, q: SEARCH[i % SEARCH.length] }, sort: ['placa', 'DESC'], range: [0, 24] })}`;
  const byId = (i: number) => `/api/ativo/${ids[i % ids.length]}`;
  const nested = (i: number) => `/api/ativo/${ids[i % ids.length]}/motorista_temporario?${qs({ sort: ['dataInicio', 'DESC'], range: [0, 24] })}`;
  // Same answers from both (status, the whole JSON, Content-Range), so the comparison is fair.
  const same = async (p: string) => {
    const [a, b] = await Promise.all([fetch(base + p, { headers }), fetch(bareBase + p)]);
    const [ja, jb] = [await a.json(), await b.json()];
    if (a.status !== 200 || b.status !== 200 || !isDeepStrictEqual(ja, jb) || a.headers.get('content-range') !== b.headers.get('content-range')) {
      throw new Error(`respostas diferentes em ${p}: ${a.status} ${a.headers.get('content-range')} / ${b.status} ${b.headers.get('content-range')}\ngerada: ${JSON.stringify(ja).slice(0, 600)}\nbare:   ${JSON.stringify(jb).slice(0, 600)}`);
    }
    return Array.isArray(ja) ? ja.length : 1;
  };
  const sizes: Record<string, number[]> = { lista: [await same(LIST)], filtro: [], id: [], aninhada: [] };
  for (let i = 0; i < 8; i++) {
    sizes.filtro!.push(await same(filtered(i)));
    sizes.id!.push(await same(byId(i)));
    sizes.aninhada!.push(await same(nested(i)));
  }
  console.log(`Respostas iguais nas duas (linhas por resposta: ${Object.entries(sizes).map(([k, v]) => `${k} ${v.join('/')}`).join('; ')})`);

  if (process.env.BENCH_HOLD) {
    console.log(`Banco disponível por ${process.env.BENCH_HOLD} s: ${url}`);
    await new Promise((res) => setTimeout(res, Number(process.env.BENCH_HOLD) * 1000));
  }
  const gpid = server!.pid!, bpid = bare.pid!;
  const only = process.env.BENCH_ONLY?.split(',');
  const cases = [
    { key: 'lista', name: 'lista 25 por placa + total', path: () => LIST },
    { key: 'filtro', name: 'garagem + busca q, placa DESC', path: filtered },
    { key: 'id', name: 'por id (com a empresa)', path: byId },
    { key: 'aninhada', name: 'aninhada motorista_temporario', path: nested },
  ].filter((c) => !only || only.includes(c.key));
  // Warm-up (JIT, pools, session cache), then rounds alternating generated / bare, each measurement right after WARMUP
  // seconds of the same load on the same server: the other server's turn leaves a pool idle long enough to close its
  // connections (10 s), whose successors would otherwise plan their statements again inside the measurement.
  for (const c of cases) { await load(c.name, 'gerada', base, gpid, headers, c.path, 3); await load(c.name, 'bare', bareBase, bpid, {}, c.path, 3); }
  const runs: Load[] = [];
  console.log(`\n${CONNECTIONS} conexões, ${SECONDS} s por medida, ${ROUNDS} rodadas alternadas\n${'caso'.padEnd(30)}${'servidor'.padEnd(9)}${'req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU ms/req'.padStart(11)}${'PG ms/req'.padStart(10)}${'erros'.padStart(6)}`);
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      for (const [target, b, pid, h] of (r % 2 ? [['bare', bareBase, bpid, {}], ['gerada', base, gpid, headers]] : [['gerada', base, gpid, headers], ['bare', bareBase, bpid, {}]]) as [string, string, number, Record<string, string>][]) {
        if (WARMUP > 0) await load(c.name, target, b, pid, h, c.path, WARMUP);
        const x = await load(c.name, target, b, pid, h, c.path, SECONDS);
        runs.push(x);
        console.log(`${x.name.padEnd(30)}${x.target.padEnd(9)}${f1(x.rps)}${f2(x.p50)}${f2(x.p99)}${f2(x.cpuPerReq).padStart(11)}${f2(x.pgPerReq).padStart(10)}${String(x.errors).padStart(6)}`);
      }
    }
  }
  const summary = cases.map((c) => {
    const of = (t: string) => runs.filter((x) => x.name === c.name && x.target === t);
    const g = of('gerada'), b = of('bare');
    const ratios = g.map((x, i) => x.rps / b[i].rps);
    return {
      caso: c.name,
      gerada: { rps: Math.round(median(g.map((x) => x.rps))), p50: +median(g.map((x) => x.p50)).toFixed(2), p99: +median(g.map((x) => x.p99)).toFixed(2), cpuMsPorReq: +median(g.map((x) => x.cpuPerReq)).toFixed(3), pgMsPorReq: +median(g.map((x) => x.pgPerReq)).toFixed(3) },
      bare: { rps: Math.round(median(b.map((x) => x.rps))), p50: +median(b.map((x) => x.p50)).toFixed(2), p99: +median(b.map((x) => x.p99)).toFixed(2), cpuMsPorReq: +median(b.map((x) => x.cpuPerReq)).toFixed(3), pgMsPorReq: +median(b.map((x) => x.pgPerReq)).toFixed(3) },
      razoes: ratios.map((x) => +x.toFixed(2)),
      razao: +median(ratios).toFixed(2),
      // CPU per request, floor ÷ API: steadier than req/s when other work shares the machine.
      razaoCpu: +(median(b.map((x) => x.cpuPerReq)) / median(g.map((x) => x.cpuPerReq))).toFixed(2),
    };
  });
  console.log('');
  for (const s of summary) {
    console.log(`${s.caso}: gerada ${s.gerada.rps} req/s (p50 ${s.gerada.p50} ms, p99 ${s.gerada.p99} ms, ${s.gerada.cpuMsPorReq} ms CPU/req, PostgreSQL ${s.gerada.pgMsPorReq}) · bare ${s.bare.rps} req/s (p50 ${s.bare.p50} ms, p99 ${s.bare.p99} ms, ${s.bare.cpuMsPorReq} ms CPU/req, PostgreSQL ${s.bare.pgMsPorReq}) · razão gerada/bare ${s.razao}× (rodadas ${s.razoes.join(', ')}; CPU bare/gerada ${s.razaoCpu}×) ${s.razao >= 0.9 ? '✓ meta ≥ 0,9×' : '✗ abaixo da meta 0,9×'}`);
  }
  // Where the time goes: the API's pipeline alone (session from the cache, no SQL) on the same load.
  const floor = await load('pipeline sem SQL (token_valido)', 'gerada', base, gpid, headers, () => '/api/auth/token_valido', SECONDS);
  console.log(`Referência — ${floor.name}: ${Math.round(floor.rps)} req/s, p50 ${floor.p50.toFixed(2)} ms, ${floor.cpuPerReq.toFixed(3)} ms CPU/req (sessão em cache; a rota não tem SQL, a verificação da sessão lê o contador do banco, uma ida compartilhada pelas requisições simultâneas)`);
  console.log(`Carga da máquina ao fim (1/5/15 min): ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(JSON.stringify({ coldStartMs: { first: Math.round(first), ready: Math.round(cold) }, ativos: ATIVOS, conexoes: CONNECTIONS, segundos: SECONDS, rodadas: ROUNDS, loadavg: os.loadavg(), resultados: summary, pipelineSemSql: { rps: Math.round(floor.rps), p50: +floor.p50.toFixed(2), cpuMsPorReq: +floor.cpuPerReq.toFixed(3) } }));
} finally {
  await stop().catch(() => undefined);
  if (bare && bare.exitCode === null) await new Promise<void>((res) => { bare!.once('exit', () => res()); bare!.kill('SIGTERM'); });
  await database?.close();
  if (process.env.BENCH_KEEP !== '1') for (const d of [tmp, work]) fs.rmSync(d, { recursive: true, force: true });
}
