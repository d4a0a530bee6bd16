// Entry point: `npm start` (tsx server/main.ts): web app + API, device gateway, and the demo trackers.
import { startServer } from './app/start.ts';
import { portsFromEnv, startGateway, type Gateway } from './ingest/index.ts';
import { startDemoSimulation, type Simulation } from './ingest/simulator.ts';

const off = (v: string | undefined) => v === 'off' || v === '0' || v === 'false';

const t0 = performance.now();
const running = await startServer();
const { log } = running;
log.info({ url: running.url, coldStartMs: Math.round(performance.now() - t0) }, `Rastro disponível em ${running.url} (partida a frio em ${Math.round(performance.now() - t0)} ms)`);

let gateway: Gateway | undefined;
let demo: Simulation | undefined;
if (!off(process.env.GATEWAY)) {
  try {
    gateway = await startGateway({ databaseUrl: running.databaseUrl, ports: portsFromEnv() });
    // Demo trackers for the seeded ativos, except in production or when switched off.
    const wantDemo = process.env.DEMO_SIMULATION ? !off(process.env.DEMO_SIMULATION) : process.env.NODE_ENV !== 'production';
    if (wantDemo && gateway.ports.queclinkTcp) {
      demo = await startDemoSimulation({ databaseUrl: running.databaseUrl, port: gateway.ports.queclinkTcp, rate: Number(process.env.DEMO_RATE ?? 0.2) });
      log.info('simulação de demonstração iniciada (DEMO_SIMULATION=off para desligar)');
    }
  } catch (e) {
    // The web app stays up; the gateway problem is reported loudly.
    log.error({ err: e }, 'gateway de equipamentos não iniciado');
  }
}

let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (closing) return;
    closing = true;
    log.info('encerrando');
    await demo?.stop().catch(() => undefined);
    await gateway?.stop().catch(() => undefined);
    await running.close().catch(() => undefined);
    process.exit(0);
  });
}
