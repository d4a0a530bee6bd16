// Several gateway processes sharing the TCP ports (node:cluster): decoding and row building use every core.
// The primary migrates once and forks; worker 1 also serves UDP and OsmAnd HTTP. Each worker has its own
// writer, pool and command dispatcher (a command is claimed atomically by the worker holding the device).
import cluster from 'node:cluster';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { envNumber } from './env.ts';
import { migrateTelemetria, startGateway, type GatewayOptions, type GatewayPorts } from './index.ts';
import { log } from './log.ts';
import type { GatewayMetrics } from './metrics.ts';

/**
 * Gateway processes when GATEWAY_WORKERS is not set: 2 on a machine with 2 or more cores. Measured on the 2-core
 * reference machine (npm run bench:ingest): two event loops keep PostgreSQL busy while the other decodes, which
 * one process cannot (its loop answers the database only between reading bursts). Not more by default: the
 * database needs the other cores.
 */
export function defaultWorkers(): number {
  return envNumber('GATEWAY_WORKERS', Math.min(2, Math.max(1, os.availableParallelism())), { min: 1 });
}

/** SO_REUSEPORT where Node supports it for TCP (see GatewayOptions.reusePort); elsewhere the cluster shares the port. */
const REUSE_PORT = process.platform === 'linux';

/**
 * Refuses a TCP port already taken. With SO_REUSEPORT a second gateway started by mistake on the same port would
 * bind too and take half of the devices; a plain bind, done once by the primary before forking, still fails.
 */
export function assertPortFree(port: number, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE'
      ? Object.assign(new Error(`porta ${port} já em uso: outro gateway (ou outro programa) escuta nela`), { code: err.code })
      : err));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

export interface ClusterHandle {
  workers: number;
  /** Process ids of the workers. */
  pids: number[];
  /** Each worker's counters. */
  metrics(): Promise<GatewayMetrics[]>;
  stop(): Promise<void>;
}

/** In the primary: migrate, fork `workers` processes running this module's worker entry. */
export async function startGatewayCluster(o: { databaseUrl: string; ports: GatewayPorts; host?: string; workers?: number; env?: Record<string, string> }): Promise<ClusterHandle> {
  const n = Math.max(1, o.workers ?? os.availableParallelism());
  if (REUSE_PORT) for (const p of [o.ports.queclinkTcp, o.ports.legacyTcp]) if (p) await assertPortFree(p, o.host);
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 1 });
  try { await migrateTelemetria(pool); } finally { await pool.end(); }
  // A larger young generation: the hot path allocates many short-lived objects.
  cluster.setupPrimary({ exec: new URL('./cluster-worker.ts', import.meta.url).pathname, execArgv: ['--max-semi-space-size=32', '--import', 'tsx'] });
  const ready: Promise<void>[] = [];
  const list: import('node:cluster').Worker[] = [];
  for (let i = 0; i < n; i++) {
    const ports: GatewayPorts = i === 0 ? o.ports : { queclinkTcp: o.ports.queclinkTcp, legacyTcp: o.ports.legacyTcp };
    const w = cluster.fork({ ...o.env, GATEWAY_WORKER_CONFIG: JSON.stringify({ databaseUrl: o.databaseUrl, ports, host: o.host, migrate: false, reusePort: REUSE_PORT } satisfies GatewayOptions) });
    list.push(w);
    ready.push(new Promise((resolve, reject) => {
      w.on('message', (m: { ready?: boolean; error?: string }) => { if (m.ready) resolve(); if (m.error) reject(new Error(m.error)); });
      w.once('exit', (code) => reject(new Error(`processo do gateway terminou (${code})`)));
    }));
  }
  await Promise.all(ready);
  log.info({ workers: n }, 'gateway em cluster iniciado');
  return {
    workers: n,
    pids: list.map((w) => w.process.pid!),
    metrics: () => Promise.all(list.map((w) => new Promise<GatewayMetrics>((resolve) => {
      const h = (m: { metrics?: GatewayMetrics }) => { if (m.metrics) { w.off('message', h); resolve(m.metrics); } };
      w.on('message', h);
      w.send({ metrics: true });
    }))),
    async stop() {
      await Promise.all(list.map((w) => new Promise<void>((r) => { w.once('exit', () => r()); w.send({ stop: true }); setTimeout(() => { w.kill(); r(); }, 8000).unref(); })));
    },
  };
}

/** Worker entry (cluster-worker.ts calls it). */
export async function runClusterWorker(): Promise<void> {
  const cfg = JSON.parse(process.env.GATEWAY_WORKER_CONFIG ?? '{}') as GatewayOptions;
  try {
    const gw = await startGateway(cfg);
    process.on('message', (m: { stop?: boolean; metrics?: boolean }) => {
      if (m.stop) void gw.stop().then(() => process.exit(0));
      if (m.metrics) process.send?.({ metrics: gw.metrics, cpu: process.cpuUsage() });
    });
    process.send?.({ ready: true });
  } catch (err) {
    process.send?.({ error: (err as Error).message });
    process.exit(1);
  }
}
