// npm run bench:ingest — decode rate (one core), end-to-end ingest rate (TCP → committed rows) with 1,000
// simulated Queclink devices, and the raw COPY rate of the same rows into the same table shape.
// BENCH_DATABASE_URL (else TEST_DATABASE_URL, DATABASE_URL, a PostgreSQL on 127.0.0.1:5432, or an embedded one):
// a database `rastro_bench_ingest` is created on that server and dropped at the end.
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { queclinkDecoder } from '../protocol/queclink/index.ts';
import { isDecodeError } from '../protocol/types.ts';
import { startGatewayCluster } from '../server/ingest/cluster.ts';
import { startGateway } from '../server/ingest/index.ts';
import { QueclinkVehicle } from '../server/ingest/simulator.ts';
import { createDatabase } from '../server/ingest/testing/db.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const PER_DEVICE = Number(process.env.BENCH_MESSAGES_PER_DEVICE ?? 200);
const SERIAL_BASE = 864100000000000;
const envUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

/** The server to run on: the env URL, a local PostgreSQL on 5432, or an embedded one in a temp dir. */
async function databaseServer(): Promise<{ url: string; stop?: () => Promise<void>; label: string }> {
  if (envUrl) return { url: envUrl, label: 'variável de ambiente' };
  const local = 'postgres://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: local, connectionTimeoutMillis: 2000 });
  try { await c.connect(); await c.end(); return { url: local, label: 'PostgreSQL local :5432' }; } catch { /* none */ }
  const { startEmbeddedPostgres } = await import('../server/db/embedded.ts');
  const dir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'rastro-bench-pg-'));
  const e = await startEmbeddedPostgres({ dir: join(dir, 'data'), database: 'postgres' });
  return { url: e.url, stop: e.stop, label: 'PostgreSQL embutido (fsync=off)' };
}
const fmt = (n: number) => Math.round(n).toLocaleString('pt-BR');

function decodeBench(): number {
  const start = Date.UTC(2026, 10, 1);
  const frames: Buffer[] = [];
  for (let d = 0; d < 200; d++) {
    const v = new QueclinkVehicle(String(SERIAL_BASE + d), (['gv58cg', 'gv50cg', 'gv350ceu'] as const)[d % 3], d, start);
    for (let i = 0; i < 500; i++) for (const f of v.step(start + (i + 1) * 1000)) frames.push(Buffer.from(f));
  }
  for (const f of frames.slice(0, 5000)) queclinkDecoder.decode(f); // warm-up
  let bad = 0;
  const t = process.hrtime.bigint();
  for (const f of frames) if (isDecodeError(queclinkDecoder.decode(f))) bad++;
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  if (bad) console.log(`  (atenção: ${bad} quadros com erro)`);
  return frames.length / s;
}

async function main(): Promise<void> {
  console.log(`Benchmark de ingestão — ${DEVICES} equipamentos × ${PER_DEVICE} mensagens`);
  const decodeRate = decodeBench();
  console.log(`decodificação (1 núcleo):        ${fmt(decodeRate)} msg/s`);

  const server = await databaseServer();
  console.log(`banco: ${server.label}`);
  const db = await createDatabase(server.url, 'rastro_bench_ingest');
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    await pool.query(`INSERT INTO equipamento (empresa_id, serial, modelo, tecnologia, ativado)
      SELECT 1 + (g % 5), ($1::bigint + g)::text, 'gv58cg', 'queclink', true FROM generate_series(0, $2 - 1) g`, [SERIAL_BASE, DEVICES]);
    await pool.query(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio)
      SELECT 1 + (g % 5), ($1::bigint + g)::text, 1000 + g, now() - interval '1 day' FROM generate_series(0, $2 - 1) g`, [SERIAL_BASE, DEVICES]);

    // BENCH_WORKERS=N: N gateway processes sharing the port (node:cluster); default one in-process gateway.
    const workers = Number(process.env.BENCH_WORKERS ?? 1);
    const clusterPort = 15000 + Math.floor(Math.random() * 1000);
    const cl = workers > 1 ? await startGatewayCluster({ databaseUrl: db.url, host: '127.0.0.1', ports: { queclinkTcp: clusterPort }, workers }) : null;
    const gw = cl ? null : await startGateway({ databaseUrl: db.url, host: '127.0.0.1', ports: { queclinkTcp: 0 }, commands: { pollMs: 60_000 } });
    const load = fork(join(dirname(fileURLToPath(import.meta.url)), 'ingest-load.ts'),
      [String(gw ? gw.ports.queclinkTcp : clusterPort), String(DEVICES), String(PER_DEVICE), String(SERIAL_BASE)], { execArgv: ['--import', 'tsx'] });
    const msgs: Record<string, unknown>[] = [];
    const waitFor = (key: string) => new Promise<Record<string, unknown>>((resolve, reject) => {
      const h = (m: Record<string, unknown>) => { if (m.error) reject(new Error(String(m.error))); if (m[key]) { load.off('message', h); resolve(m); } };
      load.on('message', h);
    });
    load.on('message', (m: Record<string, unknown>) => msgs.push(m));
    const ready = await waitFor('ready');
    await waitFor('connected');
    const total = ready.total as number;
    // BENCH_PROFILE=file.cpuprofile: CPU profile of the gateway during the end-to-end phase.
    const prof = process.env.BENCH_PROFILE ? new (await import('node:inspector/promises')).Session() : null;
    if (prof) { prof.connect(); await prof.post('Profiler.enable'); await prof.post('Profiler.start'); }
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    load.send({ go: true, chunk: 10 });
    const done = await waitFor('done');
    const e2eS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const gwCpu = (cpu.user + cpu.system) / 1e6;
    if (prof) {
      const { profile } = await prof.post('Profiler.stop');
      (await import('node:fs')).writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    }
    load.kill();
    const posicoes = Number((await pool.query('SELECT count(*) n FROM telemetria.posicao')).rows[0].n);
    const eventos = Number((await pool.query('SELECT count(*) n FROM telemetria.evento')).rows[0].n);
    const batches = gw?.metrics.batches ?? 0;
    await gw?.stop();
    await cl?.stop();
    const e2eRate = total / e2eS;
    console.log(`ponta a ponta (TCP → COMMIT):    ${fmt(e2eRate)} msg/s  (${fmt(total)} mensagens em ${e2eS.toFixed(2)} s; ${fmt(posicoes)} posições, ${fmt(eventos)} eventos; ${workers > 1 ? `${workers} processos` : `${batches} lotes`})`);
    if (!cl) console.log(`  CPU: gateway ${gwCpu.toFixed(2)} s, gerador de carga ${Number(done.cpu).toFixed(2)} s`);
    if (posicoes !== ready.withPosition) console.log(`  (atenção: esperadas ${ready.withPosition} posições)`);

    // Raw COPY of the same rows into a table of the same shape (same partitions, PK and index).
    const rows: Record<string, unknown>[] = [];
    {
      const { rows: all } = await pool.query('SELECT * FROM telemetria.posicao');
      for (const r of all) rows.push(r);
    }
    await pool.query(`CREATE TABLE telemetria.posicao_copia (LIKE telemetria.posicao INCLUDING DEFAULTS) PARTITION BY RANGE (fix_time)`);
    await pool.query(`ALTER TABLE telemetria.posicao_copia ADD PRIMARY KEY (serial, fix_time, tipo)`);
    await pool.query(`CREATE INDEX ON telemetria.posicao_copia (ativo_id, fix_time)`);
    const parts = await pool.query(`SELECT pg_get_expr(c.relpartbound, c.oid) b, c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'telemetria.posicao'::regclass`);
    for (const p of parts.rows) await pool.query(`CREATE TABLE telemetria.${p.relname}_copia PARTITION OF telemetria.posicao_copia ${p.b}`);
    const cols = ['serial', 'fix_time', 'tipo', 'received_at', 'empresa_id', 'ativo_id', 'motorista_id', 'lat', 'lon', 'speed', 'course', 'altitude', 'valid', 'satellites', 'hdop', 'ignition', 'buffered', 'attributes'];
    const esc = (v: unknown) => v === null || v === undefined ? '\\N'
      : v instanceof Date ? v.toISOString()
        : typeof v === 'object' ? JSON.stringify(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n')
          : String(v);
    const t1 = performance.now();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const lines = function* () { for (let i = 0; i < rows.length; i += 1000) yield rows.slice(i, i + 1000).map((r) => cols.map((c) => esc(r[c])).join('\t')).join('\n') + '\n'; };
      await pipeline(Readable.from(lines()), client.query(copyFrom(`COPY telemetria.posicao_copia (${cols.join(',')}) FROM STDIN`)));
      await client.query('COMMIT');
    } finally { client.release(); }
    const copyRate = rows.length / ((performance.now() - t1) / 1000);
    console.log(`COPY bruto das mesmas linhas:    ${fmt(copyRate)} linhas/s`);
    console.log(`razão ponta a ponta / COPY:      ${(e2eRate / copyRate).toFixed(2)}`);
    console.log(`meta: ≥ 20.000 msg/s ponta a ponta e razão ≥ 0,5 → ${e2eRate >= 20_000 && e2eRate / copyRate >= 0.5 ? 'atingida' : 'NÃO atingida'}`);
  } finally {
    await pool.end();
    await db.drop();
    await server.stop?.();
  }
}

void main().catch((err) => { console.error(err); process.exit(1); });
