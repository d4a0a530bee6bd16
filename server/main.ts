// Entry point: `npm start` (tsx server/main.ts): web app + API, device gateway, and the demo trackers.
// SIGTERM/SIGINT stop it within SHUTDOWN_TIMEOUT_MS whatever state the database is in: the graceful steps run
// with a deadline, then the process exits anyway (a dead database made the old graceful stop wait forever).
import { startServer, type Running } from './app/start.ts';
import { portsFromEnv, startGateway, type Gateway } from './ingest/index.ts';
import { startDemoSimulation, type Simulation } from './ingest/simulator.ts';
import { startDemoTachographs } from './ingest/tacografo-demo.ts';

const off = (v: string | undefined) => v === 'off' || v === '0' || v === 'false';
const SHUTDOWN_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 8000);

let running: Running | undefined;
let gateway: Gateway | undefined;
let demo: Simulation | undefined;
let demoTaco: { stop(): Promise<void> } | undefined;
let closing = false;

const say = (level: 'info' | 'error', msg: string, extra: Record<string, unknown> = {}) => {
  if (running) running.log[level](extra, msg);
  else process.stderr.write(`${msg}\n`);
};

/** Runs a graceful step, giving up (and saying so) when it takes longer than `ms`. */
async function step(name: string, ms: number, fn: (() => Promise<unknown>) | undefined): Promise<void> {
  if (!fn) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), ms); });
  const r = await Promise.race([fn().then(() => 'ok' as const, (err) => { say('error', `encerramento: ${name} falhou`, { err }); return 'failed' as const; }), late]);
  clearTimeout(timer);
  if (r === 'late') say('error', `encerramento: ${name} não terminou em ${ms} ms; seguindo`);
}

async function shutdown(sig: NodeJS.Signals): Promise<void> {
  if (closing) {
    // A second signal: stop now.
    process.exit(1);
  }
  closing = true;
  say('info', `encerrando (${sig})`);
  // Whatever hangs below, the process ends by the deadline.
  setTimeout(() => {
    say('error', `encerramento excedeu ${SHUTDOWN_MS} ms; saindo`);
    process.exit(1);
  }, SHUTDOWN_MS).unref();
  const share = Math.max(500, Math.floor(SHUTDOWN_MS / 3));
  await step('simulação', share, (demo || demoTaco) && (() => Promise.all([demo?.stop(), demoTaco?.stop()])));
  await step('gateway', share, gateway && (() => gateway!.stop()));
  await step('servidor web e banco', share, running && (() => running!.close()));
  process.exit(0);
}

// Installed before anything starts, so a signal during start-up (e.g. waiting for a database) also stops it.
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => { void shutdown(sig); });

const t0 = performance.now();
running = await startServer();
const { log } = running;
log.info({ url: running.url, coldStartMs: Math.round(performance.now() - t0) }, `Rastro disponível em ${running.url} (partida a frio em ${Math.round(performance.now() - t0)} ms)`);

// Demo trackers for the demo ativos and the demo VDO bridge: in demo mode (README), unless switched off.
const wantDemo = process.env.DEMO_SIMULATION ? !off(process.env.DEMO_SIMULATION) : running.demo;
if (!off(process.env.GATEWAY) && !closing) {
  try {
    // The app applied the migrations (the schema telemetria's included) and created the partitions.
    gateway = await startGateway({ databaseUrl: running.databaseUrl, ports: portsFromEnv(), migrate: false });
    if (wantDemo && gateway.ports.queclinkTcp) {
      demo = await startDemoSimulation({ databaseUrl: running.databaseUrl, port: gateway.ports.queclinkTcp, rate: Number(process.env.DEMO_RATE ?? 0.2) });
      log.info('simulação de demonstração iniciada (DEMO_SIMULATION=off para desligar)');
    }
  } catch (e) {
    // The web app stays up; the gateway problem is reported loudly.
    log.error({ err: e }, 'gateway de equipamentos não iniciado');
  }
}
if (wantDemo && !closing) {
  try {
    // The demo's tachograph trucks send their daily files over the API (not through the gateway: the vdo family
    // reports to the video service, whose bridge posts the frames).
    demoTaco = await startDemoTachographs({ databaseUrl: running.databaseUrl, apiUrl: running.url, log });
  } catch (e) {
    log.error({ err: e }, 'ponte VDO de demonstração não iniciada');
  }
}
