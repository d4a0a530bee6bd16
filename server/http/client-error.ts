// Requests Node's HTTP parser refuses before the app sees them (headers over the limit, malformed request lines,
// request time-out): answered with the JSON error envelope in pt-BR instead of Node's bare status line.
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

export const MSG_HEADERS_TOO_LARGE = 'Cabeçalhos da requisição grandes demais: reduza os cookies ou os cabeçalhos enviados e tente novamente';
export const MSG_BAD_REQUEST = 'Requisição HTTP malformada';
export const MSG_TIMEOUT = 'Tempo esgotado ao receber a requisição';

const REASON: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The raw HTTP answer for a refused request (status, then the envelope {status, msg, payload, errorMsg}). */
export function clientErrorResponse(code: string | undefined): string {
  const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const msg = status === 431 ? MSG_HEADERS_TOO_LARGE : status === 408 ? MSG_TIMEOUT : MSG_BAD_REQUEST;
  const body = JSON.stringify({ status, msg, payload: null, errorMsg: msg });
  return `HTTP/1.1 ${status} ${REASON[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
}

/** Replaces Node's default 'clientError' answer (same cases: a reset or unwritable socket is only closed). */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already started on this socket, or nobody left to read: close it (as Node does).
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy(err);
      return;
    }
    socket.end(clientErrorResponse(err.code));
  });
}
