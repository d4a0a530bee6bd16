// WebSocket upgrades through the one pipeline. Every upgrade request outside socket.io's path is handed to the app as
// an ordinary GET (session → permission → scope → handler run as for any route); a handler that wants the socket
// calls acceptWebSocket(c)(open) and answers 200, and the connection is upgraded after the pipeline said yes. Any
// other answer (401/403/404…) is written back as the refusal with its JSON body. Used by the video proxy: browsers
// open at most 6 HTTP/1.1 connections per host, so live HTTP-FLV windows over HTTP would starve a 9- or 16-window grid
// (and every API call of the page); WebSockets do not count against that limit.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'hono';
import { WebSocketServer, type WebSocket } from 'ws';

const ACCEPT = Symbol.for('rastro.ws.accept');
type Open = (ws: WebSocket) => void;
type Accept = (open: Open, abort?: () => void) => void;
type Env = { incoming: IncomingMessage; outgoing: undefined; [ACCEPT]: Accept };

/** Inside a handler: the upgrade of this request, or null when it is not a WebSocket upgrade. */
/** `abort` runs when the socket is not upgraded after all (the client went, another step refused). */
export function acceptWebSocket(c: Context): Accept | null {
  return (c.env as Partial<Env> | undefined)?.[ACCEPT] ?? null;
}

const STATUS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Entity', 500: 'Internal Server Error', 502: 'Bad Gateway', 504: 'Gateway Timeout' };

function refuse(socket: Duplex, status: number, body: string) {
  if (socket.destroyed) return;
  const b = Buffer.from(body);
  socket.end(`HTTP/1.1 ${status} ${STATUS[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${b.length}\r\n\r\n${body}`);
}

/** Handles the server's upgrade requests except those under `skipPath` (socket.io, which answers its own). */
export function attachUpgrades(server: Server, fetch: (req: Request, env: Env) => Response | Promise<Response>, o: { skipPath: string }): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === o.skipPath || path.startsWith(`${o.skipPath}/`)) return;
    socket.on('error', () => undefined);
    void (async () => {
      if (req.headers.upgrade?.toLowerCase() !== 'websocket') return refuse(socket, 400, '{"status":400,"msg":"Requisição inválida"}');
      let open: Open | null = null;
      let abort: (() => void) | undefined;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
      let res: Response;
      try {
        res = await fetch(new Request(url, { method: 'GET', headers }), { incoming: req, outgoing: undefined, [ACCEPT]: (f, a) => { open = f; abort = a; } });
      } catch {
        return refuse(socket, 500, '{"status":500,"msg":"Erro interno"}');
      }
      const accepted = open as Open | null;
      if (!accepted || res.status !== 200) {
        (abort as (() => void) | undefined)?.();
        const body = res.status === 200 ? '{"status":404,"msg":"Não encontrado"}' : await res.text().catch(() => '');
        return refuse(socket, res.status === 200 ? 404 : res.status, body);
      }
      await res.body?.cancel();
      if (socket.destroyed) return (abort as (() => void) | undefined)?.();
      wss.handleUpgrade(req, socket, head, (ws) => accepted(ws));
    })();
  });
  return { close: () => wss.close() };
}
