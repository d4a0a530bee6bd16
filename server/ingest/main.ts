// npm run gateway — the device gateway alone (scale-out). DATABASE_URL, or the embedded PostgreSQL under ./data.
// Ports: QUECLINK_TCP_PORT/QUECLINK_UDP_PORT (5001), LEGACY_TCP_PORT/LEGACY_UDP_PORT (5002), OSMAND_HTTP_PORT (5055);
// "off" disables one. GATEWAY_HOST (0.0.0.0). GATEWAY_WORKERS (2 on 2+ cores): processes sharing the TCP ports.
import path from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { defaultWorkers, startGatewayCluster } from './cluster.ts';
import { portsFromEnv, startGateway } from './index.ts';
import { log } from './log.ts';

async function main(): Promise<void> {
  // Settings first: a bad value stops here, before a database is started.
  const workers = defaultWorkers();
  const ports = portsFromEnv();
  let databaseUrl = process.env.DATABASE_URL;
  let stopPg: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const pg = await startEmbeddedPostgres({ dir: path.resolve(process.env.DATA_DIR ?? 'data', 'pg') });
    databaseUrl = pg.url;
    stopPg = pg.stop;
  }
  // GATEWAY_WORKERS=N (N > 1): N processes share the TCP ports (node:cluster); default 2 on 2+ cores.
  const cl = workers > 1 ? await startGatewayCluster({ databaseUrl, ports, host: process.env.GATEWAY_HOST, workers }) : null;
  const gw = cl ? null : await startGateway({ databaseUrl, ports });
  if (gw) setInterval(() => log.info({ metrics: gw.metrics }, 'métricas do gateway'), 60_000).unref();
  const stop = async () => {
    log.info('encerrando o gateway');
    await gw?.stop();
    await cl?.stop();
    await stopPg?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err) => {
  log.error({ err: (err as Error).message }, 'falha ao iniciar o gateway');
  process.exit(1);
});
