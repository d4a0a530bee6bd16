// A TCP proxy on loopback we can cut and restore, to simulate a database outage.
import net from 'node:net';

export interface Proxy { port: number; cut(): void; restore(): void; close(): Promise<void> }

export async function startProxy(targetHost: string, targetPort: number): Promise<Proxy> {
  let down = false;
  const pairs = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (down) { client.destroy(); return; }
    const upstream = net.connect(targetPort, targetHost);
    pairs.add(client); pairs.add(upstream);
    client.pipe(upstream); upstream.pipe(client);
    const kill = () => { client.destroy(); upstream.destroy(); pairs.delete(client); pairs.delete(upstream); };
    client.on('error', kill); upstream.on('error', kill); client.on('close', kill); upstream.on('close', kill);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() { down = true; for (const s of pairs) s.destroy(); pairs.clear(); },
    restore() { down = false; },
    close: () => new Promise((r) => { for (const s of pairs) s.destroy(); server.close(() => r()); }),
  };
}
