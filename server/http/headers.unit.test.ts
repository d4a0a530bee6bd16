// Request headers from Node's IncomingMessage (no Fetch Headers built) agree with the Fetch request's.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, headerValues } from './headers.ts';
import { inputGuard } from './input-guard.ts';

let server: http.Server;
let port = 0;
beforeAll(async () => {
  const app = new Hono();
  app.use('*', inputGuard());
  app.get('/h', (c) => c.json({
    viaNode: { auth: header(c, 'Authorization') ?? null, x: header(c, 'x-dup') ?? null, missing: header(c, 'x-none') ?? null, values: headerValues(c).length },
    viaFetch: { auth: c.req.header('authorization') ?? null, x: c.req.header('x-dup') ?? null },
  }));
  server = await new Promise((res) => { const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => res(s as http.Server)); });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((res) => server.close(() => res())));

/** A raw HTTP/1.1 request (fetch would normalize or refuse what is tested). */
function raw(lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.end([...lines, 'Connection: close', '', ''].join('\r\n')));
    let out = '';
    s.on('data', (d) => { out += d; });
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

describe('header() and headerValues() on the Node adapter', () => {
  it('answer what the Fetch headers answer: any case, repeated headers joined', async () => {
    const res = await raw(['GET /h HTTP/1.1', 'Host: x', 'authorization: Bearer abc', 'X-Dup: 1', 'x-dup: 2']);
    const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
    expect(body.viaNode).toEqual({ auth: 'Bearer abc', x: '1, 2', missing: null, values: 5 });
    expect(body.viaFetch).toEqual({ auth: 'Bearer abc', x: '1, 2' });
  });

  it('a NUL byte in a header value never reaches a handler', async () => {
    const res = await raw(['GET /h HTTP/1.1', 'Host: x', 'X-Bad: a\u0000b']);
    expect(res.startsWith('HTTP/1.1 400')).toBe(true);
  });
});
