// Device gateway: TCP/UDP listeners per protocol + OsmAnd HTTP, batched writer, command dispatcher.
import type dgram from 'node:dgram';
import type http from 'node:http';
import type net from 'node:net';
import pg from 'pg';
import type { Decoder } from '../../protocol/types.ts';
import { CommandDispatcher, type DispatcherOptions } from './commands.ts';
import { loadDecoders } from './decoders.ts';
import { AddressLimiter, startTcp, startUdp, tcpSockets, type ConnectionLimits } from './listeners.ts';
import { events, type RowChange } from '../realtime/events.ts';
import { ESTADO_CHANNEL, estadoPayloads, namespaceOf, redisEstadoPublisher } from '../realtime/bus.ts';
import { envNumber, envPort } from './env.ts';
import { log } from './log.ts';
import { newMetrics, type GatewayMetrics } from './metrics.ts';
import { ensurePartitionsAround, migrateTelemetria } from './migrate.ts';
import { startOsmandHttp } from './osmand.ts';
import { startDirectoryListener } from './directory-listener.ts';
import { loadIngestModules, type IngestConsumer, type IngestModule } from '../core/ingest.ts';
import { BatchWriter, pendingLimitsFromEnv, writerOptionsFromEnv, type WriterOptions } from './writer.ts';

export { migrateTelemetria } from './migrate.ts';
export type { ConnectionLimits } from './listeners.ts';
export type { GatewayMetrics } from './metrics.ts';

/** Listening ports; undefined/null = disabled, 0 = any free port. */
export interface GatewayPorts {
  queclinkTcp?: number | null;
  queclinkUdp?: number | null;
  legacyTcp?: number | null;
  legacyUdp?: number | null;
  osmandHttp?: number | null;
}

export interface GatewayOptions {
  databaseUrl: string;
  ports?: GatewayPorts;
  host?: string;
  /** Override/extend the protocol decoders (tests). */
  decoders?: Record<string, Decoder>;
  /** Extra listeners for other protocols (tests): protocol name → ports. */
  extra?: Record<string, { tcp?: number; udp?: number }>;
  writer?: WriterOptions;
  commands?: DispatcherOptions;
  poolSize?: number;
  migrate?: boolean;
  /** Device connection limits; default limitsFromEnv(). */
  limits?: Partial<ConnectionLimits>;
  /**
   * TCP ports with SO_REUSEPORT (Linux): each process of a cluster opens its own listening socket and the kernel
   * spreads connections evenly by address hash. Node's cluster hands each connection to whichever worker is free
   * first: 1,000 devices connecting at once ended 395/605, and the busier worker then set the pace alone.
   */
  reusePort?: boolean;
  /** The modules' ingest consumers (server/core/ingest.ts); default every modules/<name>/ingest.ts, [] for none. */
  ingestModules?: IngestModule[];
  /** Redis of the latest-state bus; default REDIS_URL (null: none, the database trigger notifies). */
  redisUrl?: string | null;
}

export interface Gateway {
  ports: Record<string, number>;
  metrics: GatewayMetrics;
  pool: pg.Pool;
  writer: BatchWriter;
  commands: CommandDispatcher;
  /** Waits until everything received so far is committed (and handed to the ingest consumers, and processed). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/** Ports from env: QUECLINK_TCP_PORT=5001, QUECLINK_UDP_PORT=5001, LEGACY_TCP_PORT=5002, LEGACY_UDP_PORT=5002, OSMAND_HTTP_PORT=5055. */
export function portsFromEnv(): GatewayPorts {
  return {
    queclinkTcp: envPort('QUECLINK_TCP_PORT', 5001),
    queclinkUdp: envPort('QUECLINK_UDP_PORT', 5001),
    legacyTcp: envPort('LEGACY_TCP_PORT', 5002),
    legacyUdp: envPort('LEGACY_UDP_PORT', 5002),
    osmandHttp: envPort('OSMAND_HTTP_PORT', 5055),
  };
}

/**
 * Connection limits from env. GATEWAY_IDLE_TIMEOUT_S (2400 = 40 min): longer than the 30-minute heartbeat assumed
 * for parked devices (Queclink +RESP:GTHBD every 30 min); GATEWAY_FIRST_MESSAGE_TIMEOUT_S (10): a connection that
 * sends no valid message is closed (a device sends one right after connecting); GATEWAY_MAX_CONN_PER_IP (200):
 * connections per remote address that have not sent a valid message yet (over it the oldest of them is closed;
 * identified devices behind one carrier NAT are not counted). 0 disables each.
 */
export function limitsFromEnv(): ConnectionLimits {
  return {
    idleTimeoutMs: envNumber('GATEWAY_IDLE_TIMEOUT_S', 2400) * 1000,
    firstMessageTimeoutMs: envNumber('GATEWAY_FIRST_MESSAGE_TIMEOUT_S', 10) * 1000,
    maxPerAddress: envNumber('GATEWAY_MAX_CONN_PER_IP', 200),
  };
}

/** Registers whose changes can change what a serial resolves to. */
const DIRECTORY_ENTITIES = new Set(['equipamento', 'equipamento_ativo', 'ativo', 'motorista_temporario']);

/**
 * A pool that survives the database going away: node-postgres emits 'error' on a client whose server ends the
 * connection (shutdown, restart, network cut) even while a query is running or the client is checked out, and an
 * 'error' event without a listener kills the process. Every client gets a permanent listener (the failed query
 * rejects on its own; the writer/dispatcher retry), and the pool's own idle-client errors are logged. Broken
 * clients are discarded (release(err) / pool's idle handler), so the next checkout opens a fresh connection.
 */
export function hardenPool(pool: pg.Pool): pg.Pool {
  let lastLog = 0;
  const warn = (err: Error, msg: string) => {
    const now = Date.now();
    if (now - lastLog < 1000) return; // one line per second at most while the database is down
    lastLog = now;
    log.warn({ err: err.message, code: (err as { code?: string }).code }, msg);
  };
  pool.on('error', (err) => warn(err, 'conexão ociosa do banco perdida'));
  pool.on('connect', (client) => {
    client.on('error', (err) => warn(err, 'conexão do banco perdida'));
  });
  return pool;
}

export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const host = opts.host ?? process.env.GATEWAY_HOST ?? '0.0.0.0';
  // Invalid limits stop the start before anything is opened.
  const limits: ConnectionLimits = { ...limitsFromEnv(), ...opts.limits };
  pendingLimitsFromEnv();
  const inFlight = opts.writer?.maxInFlight ?? writerOptionsFromEnv().maxInFlight;
  const ingestModules = opts.ingestModules ?? await loadIngestModules();
  // One connection per concurrent batch, plus room for the device lookups and the command dispatcher (a lookup
  // waiting for a connection would hold up the next batch).
  const pool = new pg.Pool({
    connectionString: opts.databaseUrl, max: opts.poolSize ?? inFlight + 2 + ingestModules.length,
    connectionTimeoutMillis: 5000, query_timeout: 30_000, idleTimeoutMillis: 30_000,
  });
  hardenPool(pool);
  if (opts.migrate !== false) await migrateTelemetria(pool);
  const metrics = newMetrics();
  const limiter = new AddressLimiter(limits.maxPerAddress, metrics);
  const decoders = { ...(await loadDecoders()), ...opts.decoders };
  const commands = new CommandDispatcher(pool, decoders, metrics, opts.commands);
  // The latest-state bus (server/realtime/bus.ts): with REDIS_URL the writer publishes there; else the trigger NOTIFYs.
  const redisUrl = opts.redisUrl === undefined ? process.env.REDIS_URL : opts.redisUrl ?? undefined;
  const estadoBus = redisUrl ? redisEstadoPublisher(redisUrl, namespaceOf(opts.databaseUrl), log) : undefined;
  // What the ingest modules write besides the latest state (e.g. fence events) is told on the same bus.
  const publish = (rows: { empresaId: number | null; serial: string }[]) => {
    if (estadoBus) { estadoBus.publish(rows); return; }
    const payloads = estadoPayloads(rows);
    if (payloads.length) {
      pool.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) p', [ESTADO_CHANNEL, payloads])
        .catch((err: Error) => log.warn({ err: err.message }, 'falha ao avisar o barramento de estado'));
    }
  };
  const consumers: IngestConsumer[] = ingestModules.map((m) => m.start({ pool, log, publish }));
  const writer = new BatchWriter(pool, metrics, {
    estadoBus,
    ...opts.writer,
    ...(consumers.length ? { onPositionsCommitted: (fixes: import('../core/ingest.ts').IngestFix[]) => { for (const c of consumers) c.positions(fixes); } } : {}),
    onAcksCommitted: (acks) => {
      opts.writer?.onAcksCommitted?.(acks);
      void commands.handleAcks(acks);
    },
  });
  const ev = { onLink: (l: import('./types.ts').Link) => commands.attach(l), onLinkClosed: (l: import('./types.ts').Link) => commands.detach(l) };

  const tcp: net.Server[] = [];
  const udp: dgram.Socket[] = [];
  const httpServers: http.Server[] = [];
  const ports: Record<string, number> = {};
  const p = opts.ports ?? {};
  const plan: [string, number | null | undefined, number | null | undefined][] = [
    ['queclink', p.queclinkTcp, p.queclinkUdp],
    ['legacy', p.legacyTcp, p.legacyUdp],
    ...Object.entries(opts.extra ?? {}).map(([k, v]) => [k, v.tcp, v.udp] as [string, number | undefined, number | undefined]),
  ];
  try {
    for (const [proto, tcpPort, udpPort] of plan) {
      const dec = decoders[proto];
      if (!dec) {
        if (tcpPort != null || udpPort != null) log.warn({ protocol: proto }, 'protocolo sem decodificador: portas não abertas');
        continue;
      }
      if (tcpPort != null) {
        const s = await startTcp(tcpPort, host, dec, writer, metrics, ev, limits, limiter, opts.reusePort);
        tcp.push(s);
        ports[`${proto}Tcp`] = (s.address() as net.AddressInfo).port;
      }
      if (udpPort != null) {
        const s = await startUdp(udpPort, host, dec, writer, metrics, ev);
        udp.push(s);
        ports[`${proto}Udp`] = s.address().port;
      }
    }
    if (p.osmandHttp != null) {
      const s = await startOsmandHttp(p.osmandHttp, host, writer, metrics, { directory: writer.directory, limiter });
      httpServers.push(s);
      ports.osmandHttp = (s.address() as net.AddressInfo).port;
    }
  } catch (err) {
    for (const s of tcp) s.close();
    for (const s of udp) s.close();
    for (const s of httpServers) s.close();
    for (const c of consumers) await c.stop();
    await pool.end();
    throw err;
  }
  commands.start();
  writer.startMaintenance();
  // Registrations changed anywhere (the API of any process, a script): the database notifies, the directory forgets.
  const listener = startDirectoryListener(opts.databaseUrl, writer.directory);
  // The API of this process (npm start) tells at once, before its commit's notification arrives.
  const onChange = (c: RowChange) => { if (DIRECTORY_ENTITIES.has(c.entity)) writer.directory.invalidateChange(c); };
  events.on('change', onChange);
  // Partitions a couple of months ahead, refreshed daily.
  const partTimer = setInterval(() => {
    void pool.connect().then(async (c) => {
      let broken: Error | undefined;
      try { await ensurePartitionsAround(c, new Date()); } catch (err) { broken = err as Error; throw err; } finally { c.release(broken); }
    })
      .catch((err) => log.warn({ err: err.message }, 'falha ao criar partições'));
  }, 24 * 3600_000);
  partTimer.unref();
  log.info({ ports }, 'gateway de equipamentos iniciado');

  return {
    ports, metrics, pool, writer, commands,
    drain: async () => { await writer.drain(); for (const c of consumers) await c.drain(); },
    async stop() {
      clearInterval(partTimer);
      events.off('change', onChange);
      await listener.close();
      commands.stop();
      const closing = [
        ...tcp.map((s) => new Promise<void>((r) => { s.close(() => r()); })),
        ...httpServers.map((s) => new Promise<void>((r) => { s.close(() => r()); s.closeAllConnections(); })),
      ];
      for (const s of udp) s.close();
      await writer.stop();
      // Close remaining device sockets so server.close() can finish.
      for (const s of tcp) for (const sock of tcpSockets.get(s) ?? []) sock.destroy();
      await Promise.race([Promise.all(closing), new Promise((r) => setTimeout(r, 1000))]);
      for (const c of consumers) await c.stop();
      await pool.end();
      await estadoBus?.close();
    },
  };
}
