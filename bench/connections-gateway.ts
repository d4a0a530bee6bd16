// The gateway process of bench/connections.ts: one process, the @Track TCP listener only, default connection caps.
// Parent ← { port, pid } when listening; → 'stop' to close.
import { startGateway } from '../server/ingest/index.ts';

const gw = await startGateway({
  databaseUrl: process.argv[2]!, host: '127.0.0.1',
  ports: { queclinkTcp: 0, queclinkUdp: null, legacyTcp: null, legacyUdp: null, osmandHttp: null },
});
process.send!({ port: gw.ports.queclinkTcp, pid: process.pid });
process.on('message', async (m) => {
  if (m === 'stop') { setTimeout(() => process.exit(0), 1000); await gw.stop(); process.exit(0); }
  if (m === 'metrics') process.send!({ metrics: JSON.parse(JSON.stringify(gw.metrics)) });
});
