// npm run bench:connections — how many persistent tracker connections one gateway process holds (issue 24): 20,000
// simulated @Track devices on loopback (BENCH_CONNECTIONS), each with one TCP connection, reporting every 60 s
// (BENCH_PERIOD_S) with a heartbeat every other time, all acknowledged (+SACK after commit). One gateway process with
// the default connection caps; the devices in BENCH_CLIENTS (4) processes so that no process runs out of file
// descriptors. Prints the time to accept them all, the gateway's memory per connection (RSS, and V8 heap), the CPU
// per message over a steady window (BENCH_WINDOW_S, 120 s), refusals (must be 0) and the process count 100,000
// devices would need. A process may hold at most its open-file limit (ulimit -n) of sockets: the run is capped there.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDatabase } from '../server/ingest/testing/db.ts';
import { benchServer, registerFleet } from './db.ts';

const here = dirname(fileURLToPath(import.meta.url));
const WANTED = Number(process.env.BENCH_CONNECTIONS ?? 20_000);
const PERIOD = Number(process.env.BENCH_PERIOD_S ?? 60);
const WINDOW = Number(process.env.BENCH_WINDOW_S ?? 120);
const CLIENTS = Math.max(1, Number(process.env.BENCH_CLIENTS ?? 4));
const SERIAL_BASE = 865500000000000;

const openFiles = () => Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 1024);
const status = (pid: number, key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1).replace('.', ',')} MB`;
const fmt = (n: number) => Math.round(n).toLocaleString('pt-BR');
const once = <T>(p: ChildProcess, key: string) => new Promise<T>((resolve, reject) => {
  const exit = (code: number | null) => reject(new Error(`processo saiu (${code}) antes de '${key}'`));
  const h = (m: Record<string, unknown>) => { if (key in m) { p.off('message', h); p.off('exit', exit); resolve(m as T); } };
  p.on('message', h);
  p.once('exit', exit);
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const limit = openFiles();
  const N = Math.min(WANTED, limit - 256);
  console.log(`Benchmark de conexões — ${fmt(N)} rastreadores @Track, um relatório a cada ${PERIOD} s, 1 processo de gateway`);
  if (N < WANTED) console.log(`  (limite de arquivos abertos por processo nesta máquina: ${fmt(limit)}; ${fmt(WANTED)} pedidos, ${fmt(N)} medidos)`);
  const server = await benchServer();
  const db = await createDatabase(server.url, 'rastro_bench_connections');
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const children: ChildProcess[] = [];
  try {
    await registerFleet(pool, SERIAL_BASE, N);
    const gw = fork(join(here, 'connections-gateway.ts'), [db.url], { execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])] });
    children.push(gw);
    const { port, pid } = await once<{ port: number; pid: number }>(gw, 'port');
    await sleep(2000);
    const rss0 = status(pid, 'VmRSS');
    const cpu0 = cpuOf(pid);
    const t0 = performance.now();
    const per = Math.ceil(N / CLIENTS);
    const loads = Array.from({ length: CLIENTS }, (_, i) => fork(join(here, 'connections-load.ts'),
      [String(port), String(SERIAL_BASE + i * per), String(Math.min(per, N - i * per)), String(PERIOD)], { execArgv: ['--import', 'tsx'] }));
    children.push(...loads);
    await Promise.all(loads.map((l) => once(l, 'connected')));
    const acceptS = (performance.now() - t0) / 1000;
    type Report = { connected: number; sent: number; acked: number; refused: number; closed: number; errors: Record<string, number> };
    const report = async () => {
      const rs = await Promise.all(loads.map((l) => { const p = once<Report>(l, 'connected'); l.send({ report: true }); return p; }));
      return rs.reduce((a, r) => ({ connected: a.connected + r.connected, sent: a.sent + r.sent, acked: a.acked + r.acked, refused: a.refused + r.refused, closed: a.closed + r.closed, errors: Object.fromEntries([...new Set([...Object.keys(a.errors), ...Object.keys(r.errors)])].map((k) => [k, (a.errors[k] ?? 0) + (r.errors[k] ?? 0)])) }));
    };
    // The first reports acknowledged (committed), then the steady window.
    for (let i = 0; i < 120; i++) { const r = await report(); if (r.acked >= r.sent) break; await sleep(1000); }
    const cpuConnect = cpuOf(pid) - cpu0;
    const rssConnected = status(pid, 'VmRSS');
    const start = await report();
    const cpu1 = cpuOf(pid);
    await sleep(WINDOW * 1000);
    let end = await report();
    for (let i = 0; i < 30 && end.acked < end.sent; i++) { await sleep(1000); end = await report(); }
    const cpuWindow = cpuOf(pid) - cpu1;
    const rssEnd = status(pid, 'VmRSS');
    const msgs = end.sent - start.sent;
    const perConn = (rssEnd - rss0) / N;
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM telemetria.ultimo_estado');
    const mp = once<{ metrics: Record<string, number> }>(gw, 'metrics');
    gw.send('metrics');
    const m = (await mp).metrics;

    console.log('');
    console.log('medida                                        valor');
    console.log(`conexões abertas e mantidas                   ${fmt(end.connected - end.closed)} de ${fmt(N)}`);
    console.log(`recusadas ou derrubadas                       ${fmt(end.closed)} (gateway: ${m.evictedConnections} por limite de endereço, ${m.idleTimeouts} por silêncio, ${m.garbageCloses} por lixo; ${m.badFrames} quadros inválidos; erros nos equipamentos: ${JSON.stringify(end.errors)})`);
    console.log(`tempo para aceitar todas (e 1º relatório)     ${acceptS.toFixed(1).replace('.', ',')} s (${fmt(N / acceptS)} conexões/s)`);
    console.log(`CPU do gateway para conectar todas            ${cpuConnect.toFixed(1).replace('.', ',')} s`);
    console.log(`memória do gateway (RSS) antes / conectado / fim  ${mb(rss0)} / ${mb(rssConnected)} / ${mb(rssEnd)}`);
    console.log(`memória por conexão                           ${fmt(perConn)} bytes`);
    console.log(`mensagens na janela de ${WINDOW} s                  ${fmt(msgs)} (${fmt(msgs / WINDOW)}/s), confirmadas ${fmt(end.acked - start.acked)}`);
    console.log(`CPU por mensagem (gateway)                    ${msgs ? ((cpuWindow / msgs) * 1e6).toFixed(0) : '—'} µs`);
    console.log(`equipamentos com último estado gravado        ${fmt(rows[0].n)}`);
    // 100,000 devices: the file-descriptor cap per process, memory and CPU each give a process count.
    const perProcessFd = limit - 256;
    const cpuShare = msgs ? (100_000 / PERIOD) * 1.5 * (cpuWindow / msgs) : 0; // heartbeats every other report
    console.log('');
    console.log(`100.000 equipamentos: ${Math.ceil(100_000 / perProcessFd)} processos de gateway pelo limite de ${fmt(limit)} arquivos por processo`
      + ` (${mb(perConn * 100_000)} de memória de conexões no total, ${cpuShare.toFixed(2).replace('.', ',')} núcleo de CPU a 1 relatório/min);`
      + ' com ulimit -n maior, o limite passa a ser a memória e a CPU acima.');
    if (end.closed > 0 || end.connected < N) process.exitCode = 1;
  } finally {
    for (const c of children) { try { c.send(c === children[0] ? 'stop' : { stop: true }); } catch { /* gone */ } }
    await sleep(3000);
    for (const c of children) c.kill('SIGKILL');
    await pool.end();
    await db.drop();
    await server.stop?.();
  }
}

await main();
