// Entry point: `npm start` (tsx server/main.ts).
import { startServer } from './app/start.ts';

const t0 = performance.now();
const running = await startServer();
running.log.info({ url: running.url, coldStartMs: Math.round(performance.now() - t0) }, `Rastro disponível em ${running.url} (partida a frio em ${Math.round(performance.now() - t0)} ms)`);

let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (closing) return;
    closing = true;
    running.log.info('encerrando');
    await running.close().catch(() => undefined);
    process.exit(0);
  });
}
