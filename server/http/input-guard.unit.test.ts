import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { HttpError } from './envelope.ts';
import { inputGuard, isJsonType, MSG_MEDIA_TYPE, MSG_NUL, msgDepth, scanJson } from './input-guard.ts';

const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('scanJson', () => {
  it('finds NUL raw or escaped only where JSON.parse would produce one', () => {
    expect(scanJson('{"a":"x\\u0000y"}', 10)).toBe('nul');
    expect(scanJson('{"a":"x\u0000"}', 10)).toBe('nul');
    expect(scanJson('{"a\\u0000":1}', 10)).toBe('nul');
    // An escaped backslash followed by the text u0000 is not a NUL.
    expect(scanJson('{"a":"\\\\u0000"}', 10)).toBe(null);
    expect(JSON.parse('{"a":"\\\\u0000"}').a).toBe('\\u0000');
    expect(scanJson('{"a":"\\u0001"}', 10)).toBe(null);
  });
  it('counts nesting outside strings only', () => {
    expect(scanJson(nest(10), 10)).toBe(null);
    expect(scanJson(nest(11), 10)).toBe('depth');
    expect(scanJson(`{"a":"${'['.repeat(50)}"}`, 10)).toBe(null);
    expect(scanJson(nest(3000), 64)).toBe('depth');
    expect(scanJson('[1,{"b":[2]},{"c":{"d":3}}]', 3)).toBe(null);
  });
});

describe('inputGuard()', () => {
  const app = new Hono();
  app.use('*', inputGuard({ maxDepth: 8 }));
  app.all('*', async (c) => c.json({ body: c.req.raw.body ? await c.req.json() : null }));
  app.onError((err, c) => c.json({ msg: err.message }, err instanceof HttpError ? err.status : 500));
  // Bodies are sent as JSON unless the test says otherwise.
  const call = async (url: string, init?: RequestInit) => {
    const r = await app.request(url, init?.body !== undefined ? { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } } : init);
    return { status: r.status, json: await r.json() };
  };

  it('passes ordinary requests and leaves the body readable', async () => {
    expect(await call('/x?filter=%7B%22q%22%3A%22a%22%7D&range=[0,9]')).toEqual({ status: 200, json: { body: null } });
    const r = await call('/x', { method: 'POST', body: '{"a":[[1]],"b":"\\\\u0000"}' });
    expect(r).toEqual({ status: 200, json: { body: { a: [[1]], b: '\\u0000' } } });
  });
  it('refuses NUL in path, query (encoded or as a JSON escape) and body', async () => {
    for (const url of ['/x/%00', '/x?q=a%00b', '/x?filter=' + encodeURIComponent('{"q":"a\\u0000"}')]) {
      expect(await call(url)).toEqual({ status: 400, json: { msg: MSG_NUL } });
    }
    expect(await call('/x', { method: 'PUT', body: '{"nome":"a\\u0000"}' })).toEqual({ status: 400, json: { msg: MSG_NUL } });
  });
  it('refuses deep JSON in body and query', async () => {
    expect(await call('/x', { method: 'POST', body: `{"a":${nest(8)}}` })).toEqual({ status: 400, json: { msg: msgDepth(8) } });
    expect(await call('/x', { method: 'POST', body: `{"a":${nest(7)}}` })).toEqual({ status: 200, json: { body: { a: JSON.parse(nest(7)) } } });
    expect(await call('/x?filter=' + encodeURIComponent(`{"id":${nest(9)}}`))).toEqual({ status: 400, json: { msg: msgDepth(8) } });
  });
  it('reads only JSON media types as JSON: others are 415 (text/plain is a cross-site "simple" request)', async () => {
    for (const t of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'application/xml']) {
      expect(await call('/x', { method: 'POST', headers: { 'content-type': t }, body: '{"a":1}' }), t).toEqual({ status: 415, json: { msg: MSG_MEDIA_TYPE } });
    }
    const bare = new Request('http://x/x', { method: 'PUT', body: new TextEncoder().encode('{"a":1}') });
    expect(bare.headers.get('content-type')).toBe(null);
    expect((await app.request(bare)).status).toBe(415);
    for (const t of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
      expect(await call('/x', { method: 'POST', headers: { 'content-type': t }, body: '{"a":1}' }), t).toEqual({ status: 200, json: { body: { a: 1 } } });
    }
    // An empty body goes on whatever its type (ra-data-simple-rest's DELETE sends text/plain).
    expect((await app.request('/x', { method: 'DELETE', headers: { 'content-type': 'text/plain' } })).status).not.toBe(415);
    expect(isJsonType('application/jsonx')).toBe(false);
    expect(isJsonType('text/json')).toBe(false);
  });
});
