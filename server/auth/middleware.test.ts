// requireSession(), requirePermission(key), tenant() on a small app over the real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import type { AppEnv } from '../app/env.ts';
import { HttpError } from '../http/envelope.ts';
import { requirePermission, requireSession, tenant } from './middleware.ts';
import { ADMIN, LEITOR, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { requestEm } from '../db/context.ts';

let ts: TestServer;
let admin: Api;
let leitor: Api;
const app = new Hono<AppEnv>();
app.onError((err, c) => c.json({ msg: err.message }, err instanceof HttpError ? err.status : 500));
app.use('*', async (c, next) => { c.set('em', ts.orm.em.fork()); await next(); });
app.get('/s', requireSession(), (c) => c.json({ login: c.get('session').login }));
app.get('/p', requireSession(), requirePermission('tlm.fro.ativo.editar'), (c) => c.text('ok'));
app.all('/t', requireSession(), tenant(), async (c) => {
  const em = requestEm(c);
  // The empresa filter is on: a plain find only sees the active company's rows.
  const rows = (await em.find('Ativo' as never, {}, { limit: 1000 })) as { empresaId: { id: number } }[];
  return c.json({ n: rows.length, empresas: [...new Set(rows.map((r) => r.empresaId.id))] });
});

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
});
afterAll(async () => { await ts?.stop(); });

describe('requireSession', () => {
  it('401 without or with a bad token, session otherwise', async () => {
    expect((await app.request('/s')).status).toBe(401);
    expect((await app.request('/s', { headers: { authorization: 'Bearer x.y.z' } })).status).toBe(401);
    const r = await app.request('/s', { headers: admin.headers() });
    expect(await r.json()).toEqual({ login: 'admin' });
  });
});

describe('requirePermission', () => {
  it('403 without the key; roles dev/wiki hold every key', async () => {
    expect((await app.request('/p', { headers: leitor.headers() })).status).toBe(403);
    expect((await app.request('/p', { headers: admin.headers() })).status).toBe(200);
  });
});

describe('tenant', () => {
  it('filters reads by the active company', async () => {
    const r = await (await app.request('/t', { headers: admin.headers() })).json();
    expect(r).toEqual({ n: 40, empresas: [admin.empresaAtiva] });
  });
  it('writes: a companyId header must be empresaAtiva; without it the active company is used', async () => {
    const h = admin.headers();
    expect((await app.request('/t', { method: 'POST', headers: h })).status).toBe(200);
    expect((await app.request('/t', { method: 'POST', headers: { ...h, companyId: String(admin.empresaAtiva + 1) } })).status).toBe(403);
    expect((await app.request('/t', { method: 'POST', headers: { ...h, companyId: 'abc' } })).status).toBe(403);
    const { companyId: _omit, ...noCompany } = h;
    expect((await app.request('/t', { method: 'DELETE', headers: noCompany })).status).toBe(200);
    // The token in the cookie alone (a browser's ambient credential): the custom header is required.
    const cookie = { cookie: `token=${admin.token}` };
    expect((await app.request('/t', { method: 'GET', headers: cookie })).status).toBe(200);
    const refused = await app.request('/t', { method: 'POST', headers: cookie });
    expect(refused.status).toBe(403);
    expect((await refused.json()).msg).toBe('Alterações autenticadas pelo cookie precisam do cabeçalho companyId (ou use o cabeçalho Authorization: Bearer)');
    expect((await app.request('/t', { method: 'POST', headers: { ...cookie, companyId: String(admin.empresaAtiva) } })).status).toBe(200);
  });
});
