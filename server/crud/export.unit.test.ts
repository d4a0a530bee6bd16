// Export streaming over a real HTTP server: a failure midway leaves an error line and aborts the connection;
// a client that goes away stops the source; slots are limited per user.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { HttpError } from '../http/envelope.ts';
import { CSV_ERROR_LINE, acquireExportSlot, activeExports, exportBody } from './export.ts';

const enc = new TextEncoder();
let server: http.Server | undefined;
afterEach(async () => { await new Promise((r) => (server ? server.close(r) : r(null))); server = undefined; });

/** Serves one streaming body; answers its URL. */
async function serveBody(make: () => Promise<ReadableStream<Uint8Array>>): Promise<string> {
  const app = new Hono();
  app.get('/', async () => new Response(await make(), { headers: { 'content-type': 'text/csv' } }));
  server = await new Promise<http.Server>((resolve) => { const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as http.Server)); });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Reads a response until its end or failure: the text received and whether it ended cleanly. */
async function readAll(url: string): Promise<{ text: string; complete: boolean; status: number }> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ text, complete: res.complete, status: res.statusCode! }));
      res.on('error', () => resolve({ text, complete: false, status: res.statusCode! }));
      res.on('aborted', () => resolve({ text, complete: false, status: res.statusCode! }));
    }).on('error', reject);
  });
}

describe('exportBody', () => {
  it('streams every chunk and ends cleanly', async () => {
    let ended = 0;
    async function* chunks() { for (let i = 0; i < 5; i++) yield enc.encode(`linha ${i}\r\n`); }
    const url = await serveBody(() => exportBody(chunks(), { format: 'csv', onEnd: () => ended++ }));
    const r = await readAll(url);
    expect(r).toEqual({ status: 200, complete: true, text: [0, 1, 2, 3, 4].map((i) => `linha ${i}\r\n`).join('') });
    expect(ended).toBe(1);
  });

  it('a CSV failing midway ends with the error line and an aborted connection', async () => {
    let ended = 0;
    async function* chunks() {
      yield enc.encode('cab\r\n');
      yield enc.encode('a\r\n');
      throw new Error('conexão com o banco perdida');
    }
    const url = await serveBody(() => exportBody(chunks(), { format: 'csv', onEnd: () => ended++ }));
    const r = await readAll(url);
    expect(r.status).toBe(200);
    expect(r.complete).toBe(false);
    expect(r.text).toBe(`cab\r\na\r\n\r\n${CSV_ERROR_LINE}\r\n`);
    expect(ended).toBe(1);
  });

  it('an XLSX failing midway aborts the connection', async () => {
    async function* chunks() { yield enc.encode('PK'); throw new Error('falha'); }
    const url = await serveBody(() => exportBody(chunks(), { format: 'xlsx' }));
    const r = await readAll(url);
    expect(r.complete).toBe(false);
    expect(r.text).toBe('PK');
  });

  it('a failure before the first chunk is thrown (the route answers a JSON error)', async () => {
    let ended = 0;
    // eslint-disable-next-line require-yield
    async function* chunks(): AsyncGenerator<Uint8Array> { throw new Error('consulta inválida'); }
    await expect(exportBody(chunks(), { format: 'csv', onEnd: () => ended++ })).rejects.toThrow('consulta inválida');
    expect(ended).toBe(1);
  });

  it('a client that goes away stops the source and ends the export', async () => {
    let produced = 0, closed = false, ended = 0;
    async function* chunks() {
      try {
        for (;;) { produced++; yield enc.encode('x'.repeat(64 * 1024)); }
      } finally { closed = true; }
    }
    const url = await serveBody(() => exportBody(chunks(), { format: 'csv', onEnd: () => ended++ }));
    await new Promise<void>((resolve) => {
      const req = http.get(url, (res) => { res.once('data', () => { req.destroy(); resolve(); }); });
    });
    for (let i = 0; i < 500 && !closed; i++) await new Promise((r) => setTimeout(r, 20)); // up to 10 s
    expect(closed).toBe(true);
    expect(ended).toBe(1);
    const at = produced;
    await new Promise((r) => setTimeout(r, 100));
    expect(produced).toBe(at);
  });
});

describe('exportBody idle timeout', () => {
  it('a client that stops reading loses the export after idleMs: source closed, slot freed', async () => {
    let closed = false, ended = 0;
    async function* chunks() {
      try { for (;;) yield enc.encode('y'.repeat(64 * 1024)); } finally { closed = true; }
    }
    const url = await serveBody(() => exportBody(chunks(), { format: 'csv', onEnd: () => ended++, idleMs: 300 }));
    const res = await new Promise<http.IncomingMessage>((resolve) => { http.get(url, (r) => { r.pause(); resolve(r); }); });
    for (let i = 0; i < 500 && !closed; i++) await new Promise((r) => setTimeout(r, 20)); // up to 10 s
    expect(closed).toBe(true);
    expect(ended).toBe(1);
    res.destroy();
  });

  it('a slow client that keeps reading is not cut', async () => {
    async function* chunks() { for (let i = 0; i < 6; i++) yield enc.encode(`l${i}\n`); }
    const url = await serveBody(() => exportBody(chunks(), { format: 'csv', idleMs: 300 }));
    const r = await readAll(url);
    expect(r).toEqual({ status: 200, complete: true, text: 'l0\nl1\nl2\nl3\nl4\nl5\n' });
  });
});

describe('acquireExportSlot', () => {
  it('allows EXPORT_MAX_PER_USER per user, 429 beyond, released once', () => {
    const a1 = acquireExportSlot(9001);
    const a2 = acquireExportSlot(9001);
    let err: unknown;
    try { acquireExportSlot(9001); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(429);
    expect((err as HttpError).message).toBe('Você já tem 2 exportações em andamento. Aguarde o término de uma delas para iniciar outra.');
    const b = acquireExportSlot(9002); // another user is not affected
    expect(activeExports().byUser).toEqual({ 9001: 2, 9002: 1 });
    a1(); a1(); // idempotent
    expect(activeExports().byUser).toEqual({ 9001: 1, 9002: 1 });
    const a3 = acquireExportSlot(9001);
    a2(); a3(); b();
    expect(activeExports()).toEqual({ total: 0, byUser: {} });
  });

  it('limits the total across users', () => {
    const prev = process.env.EXPORT_MAX_TOTAL;
    process.env.EXPORT_MAX_TOTAL = '2';
    try {
      const r = [acquireExportSlot(1), acquireExportSlot(2)];
      expect(() => acquireExportSlot(3)).toThrow('O servidor está com muitas exportações em andamento. Tente novamente em instantes.');
      r.forEach((f) => f());
    } finally {
      if (prev === undefined) delete process.env.EXPORT_MAX_TOTAL; else process.env.EXPORT_MAX_TOTAL = prev;
    }
  });
});
