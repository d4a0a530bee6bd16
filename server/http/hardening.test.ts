// Issue 6 section 3 over real HTTP: NUL bytes and deep JSON are 400 everywhere, protective headers,
// openapi/docs need a session and show only what the caller may use, exports are limited per user and a
// failure midway is visible to the client.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ADMIN, LEITOR, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { MSG_NUL, msgDepth } from './input-guard.ts';
import { API_POLICY } from './security-headers.ts';
import { CSV_ERROR_LINE, activeExports } from '../crud/export.ts';

let ts: TestServer;
let admin: Api;
let leitor: Api;
let ativoId: number;
const BIG = 80_000;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  ativoId = (await (await admin.get('/api/ativo?range=[0,0]')).json())[0].id;
});
afterAll(async () => { await ts?.stop(); });

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const enc = encodeURIComponent;

async function expect400(res: Response, msg: string) {
  expect(res.status).toBe(400);
  const j = await res.json();
  expect(j.msg).toBe(msg);
  expect(j.status).toBe(400);
}

describe('NUL bytes and deep JSON', () => {
  it('list, show and export: NUL in filter, q, sort or path is 400', async () => {
    await expect400(await admin.get(`/api/ativo?filter=${enc(JSON.stringify({ q: 'a\u0000b' }))}`), MSG_NUL);
    await expect400(await admin.get(`/api/ativo?filter=${enc(JSON.stringify({ descricao: '\u0000' }))}`), MSG_NUL);
    await expect400(await admin.get(`/api/ativo?filter=${enc('{"placa":"A%00"}')}`.replace('%2500', '%00')), MSG_NUL);
    await expect400(await admin.get(`/api/ativo?sort=${enc(JSON.stringify(['descricao\u0000', 'ASC']))}`), MSG_NUL);
    await expect400(await admin.get('/api/ativo/1%00'), MSG_NUL);
    await expect400(await admin.get(`/api/ativo/export?format=csv&filter=${enc(JSON.stringify({ q: '\u0000' }))}`), MSG_NUL);
    await expect400(await admin.get('/api/ativo/export?format=csv%00'), MSG_NUL);
  });

  it('create, update, actions and named calls: NUL in the body is 400 and nothing is written', async () => {
    const before = (await (await admin.get('/api/ativo?range=[0,0]')).headers.get('content-range'));
    await expect400(await admin.post('/api/ativo', { descricao: 'Nulo\u0000', placa: 'NUL1234' }), MSG_NUL);
    expect((await admin.get('/api/ativo?range=[0,0]')).headers.get('content-range')).toBe(before);
    await expect400(await admin.put(`/api/ativo/${ativoId}`, { descricao: 'x\u0000y' }), MSG_NUL);
    expect((await (await admin.get(`/api/ativo/${ativoId}`)).json()).descricao).not.toContain('\u0000');
    const u = await ts.createUser({ login: 'alvo_nul', ambienteId: admin.user.ambienteId, empresas: [admin.empresaAtiva] });
    await expect400(await admin.post(`/api/usuario/${u}/desativa`, { motivo: '\u0000' }), MSG_NUL);
    expect((await (await admin.get(`/api/usuario/${u}`)).json()).ativo).toBe(true);
    await expect400(await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin\u0000', senha: 'x' }) }), MSG_NUL);
    await expect400(await admin.put('/api/usuario', { ui: { colunas: ['a\u0000'] } }), MSG_NUL);
  });

  it('deep JSON (3,000 levels) is 400 in bodies and query parameters, before anything recursive runs', async () => {
    const d = msgDepth(64);
    await expect400(await admin.post('/api/ativo', `{"descricao":"x","placa":"DEP1234","cor":${deep(3000)}}`), d);
    await expect400(await admin.put(`/api/ativo/${ativoId}`, `{"cor":${deep(3000)}}`), d);
    await expect400(await admin.put('/api/usuario', `{"ui":{"a":${deep(3000)}}}`), d);
    await expect400(await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"login":${deep(3000)}}` }), d);
    await expect400(await admin.post(`/api/empresa/${admin.empresaAtiva}/suspende`, deep(3000)), d);
    // (a 3,000-level query string exceeds Node's header limit: 431 before the app)
    await expect400(await admin.get(`/api/ativo?filter=${enc(`{"id":${deep(1000)}}`)}`), d);
    await expect400(await admin.get(`/api/ativo/export?filter=${enc(`{"id":${deep(1000)}}`)}`), d);
    // Ordinary nesting still works.
    const ok = await admin.put('/api/usuario', { ui: { '/tlm/fro/ativo': [{ key: 'descricao', label: 'Descrição', selected: true }] } });
    expect(ok.status).toBe(200);
  });
});

describe('protective headers', () => {
  it('pages carry the SPA policy; API answers a closed policy, nosniff and no-store', async () => {
    const page = await ts.fetch('/tlm/fro/ativo');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain('https://tile.openstreetmap.org');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const api = await admin.get('/api/ativo?range=[0,0]');
    expect(api.headers.get('content-security-policy')).toBe(API_POLICY);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('cache-control')).toBe('no-store');
    const err = await ts.fetch('/api/ativo');
    expect(err.status).toBe(401);
    expect(err.headers.get('content-security-policy')).toBe(API_POLICY);
    expect(api.headers.get('strict-transport-security')).toBe(null);
  });
  it('set on the Node response before the app (one of each), the answer’s own header winning; HSTS behind HTTPS', async () => {
    const api = await ts.fetch('/api/ativo?range=[0,0]', { headers: { ...admin.headers(), 'x-forwarded-proto': 'https' } });
    expect(api.status).toBe(200);
    expect(api.headers.get('strict-transport-security')).toBe('max-age=31536000');
    // Fetch joins repeated headers with ', ': exactly one value each
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    expect(api.headers.get('cache-control')).toBe('no-store');
    expect(api.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    // the documentation page sets its own policy: it wins over the API's
    const docs = await ts.fetch('/api/docs', { headers: admin.headers() });
    expect(docs.headers.get('content-security-policy')).not.toBe(API_POLICY);
    expect(docs.headers.get('content-security-policy')).toContain("style-src 'unsafe-inline'");
  });
});

describe('openapi and docs', () => {
  const ops = (doc: any) => Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).filter((k) => k !== 'parameters').map((m) => `${m.toUpperCase()} ${p}`));

  it('need a session', async () => {
    for (const p of ['/api/openapi.json', '/api/docs']) {
      const r = await ts.fetch(p);
      expect(r.status).toBe(401);
      expect((await r.json()).msg).toBe('Sessão inválida ou expirada. Entre novamente.');
    }
  });

  it('show only the operations the caller may use', async () => {
    const full = await (await admin.get('/api/openapi.json')).json();
    const mine = await (await leitor.get('/api/openapi.json')).json();
    const perms: string[] = (await (await leitor.get('/api/usuario/permissoes')).json()).payload;
    const adminOps = ops(full), leitorOps = ops(mine);
    expect(adminOps).toContain('POST /api/ativo');
    expect(adminOps).toContain('POST /api/empresa/{id}/suspende');
    expect(leitorOps).toContain('GET /api/ativo');
    expect(leitorOps).not.toContain('POST /api/ativo');
    expect(leitorOps).not.toContain('DELETE /api/ativo/{id}');
    expect(leitorOps).not.toContain('POST /api/empresa/{id}/suspende');
    expect(leitorOps.length).toBeLessThan(adminOps.length);
    for (const item of Object.values(mine.paths) as any[]) {
      for (const [m, op] of Object.entries(item)) if (m !== 'parameters' && !(op as any)['x-self']) expect(perms).toContain((op as any)['x-permission']);
    }
    // No schema of a register the reader may not write stays in the document.
    expect(Object.keys(mine.components.schemas).length).toBeLessThan(Object.keys(full.components.schemas).length);
    const docs = await leitor.get('/api/docs');
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain('/api/ativo');
    expect(html).not.toContain('/api/empresa/{id}/suspende');
    expect(docs.headers.get('content-security-policy')).toContain("style-src 'unsafe-inline'");
  });

  it('opened in a browser tab: the front end\'s token cookie is the session', async () => {
    const page = await ts.fetch('/api/docs', { headers: { cookie: `rastro_token=${encodeURIComponent(leitor.token)}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('/api/empresa/{id}/suspende');
    const doc = await (await ts.fetch('/api/openapi.json', { headers: { cookie: `rastro_token=${encodeURIComponent(leitor.token)}` } })).json();
    expect(ops(doc)).not.toContain('POST /api/ativo');
    expect((await ts.fetch('/api/docs', { headers: { cookie: 'rastro_token=forjado' } })).status).toBe(401);
  });
});

describe('export limits and failures', () => {
  beforeAll(async () => {
    await ts.orm.em.getConnection().execute(
      `insert into ativo (empresa_id, descricao, placa, created_at, updated_at)
       select ${admin.empresaAtiva}, 'Carga ' || lpad(g::text, 6, '0') || ' ' || repeat('x', 100), 'ZZ' || lpad(g::text, 6, '0'), now(), now()
       from generate_series(1, ${BIG}) g`);
  });

  /** Starts an export and stops reading after the headers (the server stalls on backpressure). */
  function pausedExport(api: Api, q = 'format=csv'): Promise<{ status: number; req: http.ClientRequest; res: http.IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${ts.url.replace('localhost', '127.0.0.1')}/api/ativo/export?${q}`, { headers: api.headers() }, (res) => {
        res.pause();
        resolve({ status: res.statusCode!, req, res });
      });
      req.on('error', reject);
    });
  }
  const waitFor = async (cond: () => boolean) => { for (let i = 0; i < 1200 && !cond(); i++) await new Promise((r) => setTimeout(r, 25)); return cond(); }; // up to 30 s

  it('a third concurrent export of the same user is 429 (pt-BR); others are not affected; slots come back', async () => {
    const a = await pausedExport(admin);
    const b = await pausedExport(admin, 'format=xlsx');
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await admin.get('/api/ativo/export?format=csv');
    expect(third.status).toBe(429);
    expect((await third.json()).msg).toBe('Você já tem 2 exportações em andamento. Aguarde o término de uma delas para iniciar outra.');
    const other = await leitor.get(`/api/ativo/export?format=csv&filter=${enc(JSON.stringify({ q: 'Veículo 01' }))}`);
    expect(other.status).toBe(200);
    expect((await other.text()).trim().split('\r\n')).toHaveLength(1 + 10);
    // Closing the downloads frees the slots (cursor closed).
    a.req.destroy(); b.req.destroy();
    expect(await waitFor(() => activeExports().total === 0)).toBe(true);
    const again = await admin.get(`/api/ativo/export?format=csv&filter=${enc(JSON.stringify({ q: 'Veículo 01' }))}`);
    expect(again.status).toBe(200);
    await again.text();
  });

  it('a nullable sort column: every row exactly once, nulls first in DESC', async () => {
    await ts.orm.em.getConnection().execute(`update ativo set numero_frota = lpad((id % 7)::text, 2, '0') where id % 3 = 0`);
    const r = await admin.get(`/api/ativo/export?format=csv&columns=${enc('["numeroFrota","placa"]')}&sort=${enc('["numeroFrota","DESC"]')}`);
    const lines = (await r.text()).replace(/^\uFEFF/, '').trim().split('\r\n').slice(1);
    const total = Number((await ts.orm.em.getConnection().execute(`select count(*)::int as n from ativo where empresa_id = ${admin.empresaAtiva}`))[0].n);
    expect(lines).toHaveLength(total);
    expect(new Set(lines.map((l) => l.split(';')[1])).size).toBe(total);
    const frota = lines.map((l) => l.split(';')[0]);
    const firstSet = frota.findIndex((x) => x !== '');
    expect(firstSet).toBeGreaterThan(0);
    expect(frota.slice(firstSet).every((x) => x !== '')).toBe(true);
    const digits = frota.slice(firstSet).filter((x) => /^\d\d$/.test(x));
    expect(digits.length).toBeGreaterThan(20_000);
    expect(digits).toEqual([...digits].sort().reverse());
  });

  it('streams a large export completely (every row once, in order)', async () => {
    const r = await admin.get(`/api/ativo/export?format=csv&columns=${enc('["placa"]')}&sort=${enc('["placa","ASC"]')}&filter=${enc(JSON.stringify({ q: 'Carga ' }))}`);
    expect(r.status).toBe(200);
    const lines = (await r.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(1 + BIG);
    expect(lines[1]).toBe('ZZ000001');
    expect(lines[BIG]).toBe(`ZZ${String(BIG).padStart(6, '0')}`);
    expect(activeExports().total).toBe(0);
  });

  it('a database failure midway ends the CSV with an error line and aborts the download', async () => {
    const { req, res } = await pausedExport(admin, `format=csv&columns=${enc('["descricao","placa"]')}`);
    // The connection that holds the export's cursor is killed while the download is stalled.
    try {
      const c = new pg.Client({ connectionString: ts.databaseUrl });
      await c.connect();
      const killed = await c.query(`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike '%rastro_export%'`);
      await c.end();
      expect(killed.rowCount).toBe(1);
    } catch (e) { req.destroy(); throw e; }
    const { text, complete } = await new Promise<{ text: string; complete: boolean }>((resolve) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ text, complete: res.complete }));
      res.on('aborted', () => resolve({ text, complete: false }));
      res.on('error', () => resolve({ text, complete: false }));
      res.on('close', () => resolve({ text, complete: res.complete }));
      res.resume();
    });
    expect(complete).toBe(false);
    expect(text.startsWith('\uFEFFDescrição;Placa\r\n')).toBe(true);
    expect(text.endsWith(`\r\n${CSV_ERROR_LINE}\r\n`)).toBe(true);
    const rows = text.trim().split('\r\n').length;
    expect(rows).toBeGreaterThan(2);
    expect(rows).toBeLessThan(BIG);
    expect(await waitFor(() => activeExports().total === 0)).toBe(true);
    // The server goes on serving.
    expect((await admin.get('/api/ativo?range=[0,0]')).status).toBe(200);
  });
});
