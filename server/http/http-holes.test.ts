// Issue 18 (smaller HTTP holes), over real HTTP: headers over Node's limit answer 431 with the pt-BR envelope; a
// body that is not JSON by its media type is 415 (text/plain is a cross-site "simple" request); the OpenAPI
// document does not show nested routes the caller's keys refuse.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { MSG_MEDIA_TYPE } from './input-guard.ts';
import { MSG_HEADERS_TOO_LARGE } from './client-error.ts';

let ts: TestServer;
let admin: Api;
let base: string;

beforeAll(async () => {
  ts = await startTestServer();
  base = ts.url.replace('localhost', '127.0.0.1');
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await ts?.stop(); });

/** One raw HTTP/1.1 request: status, headers and body as the server wrote them. */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

describe('headers over the limit', () => {
  it('a 20 KB header answers 431 with the JSON envelope in pt-BR, and the server goes on', async () => {
    const res = await raw('/api/ativo', { authorization: `Bearer ${admin.token}`, 'x-grande': 'a'.repeat(20 * 1024) });
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body)).toEqual({ status: 431, msg: MSG_HEADERS_TOO_LARGE, payload: null, errorMsg: MSG_HEADERS_TOO_LARGE });
    expect(MSG_HEADERS_TOO_LARGE).toBe('Cabeçalhos da requisição grandes demais: reduza os cookies ou os cabeçalhos enviados e tente novamente');
    expect((await raw('/api/ativo?range=[0,0]', { authorization: `Bearer ${admin.token}` })).status).toBe(200);
  });
});

describe('bodies that are not JSON', () => {
  const count = async () => Number((await ts.em().getConnection().execute('select count(*)::int as n from ativo'))[0].n);

  it('text/plain and form bodies are 415 (pt-BR) and write nothing, on the CRUD routes and on sign-in', async () => {
    const before = await count();
    const body = JSON.stringify({ descricao: 'Via text/plain', placa: 'TXT1A23' });
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      const res = await ts.fetch('/api/ativo', { method: 'POST', headers: admin.headers({ 'content-type': type }), body });
      expect(res.status, type).toBe(415);
      expect(await res.json()).toEqual({ status: 415, msg: MSG_MEDIA_TYPE, payload: null, errorMsg: MSG_MEDIA_TYPE });
    }
    // fetch's default type for a string body is text/plain.
    const untyped = await ts.fetch('/api/ativo', { method: 'POST', headers: admin.headers(), body });
    expect(untyped.status).toBe(415);
    expect(await count()).toBe(before);
    const login = await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(415);
    expect((await login.json()).msg).toBe('Tipo de conteúdo não suportado: envie o corpo da requisição como JSON (Content-Type: application/json)');
    // The same body as JSON is taken.
    const ok = await ts.fetch('/api/ativo', { method: 'POST', headers: admin.headers({ 'content-type': 'application/json; charset=utf-8' }), body });
    expect(ok.status).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});

describe('openapi: nested routes', () => {
  const paths = async (api: Api) => Object.keys((await (await api.get('/api/openapi.json')).json()).paths);
  let n = 0;
  const user = async (keys: string[]) => {
    const login = `doc.nested${++n}`;
    await ts.createUser({ login, senha: 'senha-teste-123', ambienteId: admin.user.ambienteId, empresas: [admin.empresaAtiva], permissoes: keys });
    return ts.login(login, 'senha-teste-123');
  };

  it('a nested route is shown only with the parent\'s key and the keys of the parent\'s tab, as the server requires', async () => {
    const ativoId = (await (await admin.get('/api/ativo?range=[0,0]')).json())[0].id;
    const garagemId = (await (await admin.get('/api/garagem?range=[0,0]')).json())[0].id;
    const own = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.motorista_temporario.lista', 'tlm.fro.motorista_temporario.visualizar'];
    const u = await user(own);
    const p = await paths(u);
    expect(p).toContain('/api/ativo');
    expect(p).toContain('/api/motorista_temporario');
    // Without tlm.fro.garagem.visualizar / the tab key tlm.fro.ativo.motorista_temporario: refused, and not shown.
    expect((await u.get(`/api/garagem/${garagemId}/ativo`)).status).toBe(403);
    expect(p).not.toContain('/api/garagem/{parent}/ativo');
    expect(p).not.toContain('/api/garagem/{parent}/ativo/{id}');
    expect((await u.get(`/api/ativo/${ativoId}/motorista_temporario`)).status).toBe(403);
    expect(p).not.toContain('/api/ativo/{parent}/motorista_temporario');
    expect(p).not.toContain('/api/ativo/{parent}/motorista_temporario/{id}');

    // With them: shown, and answered.
    const v = await user([...own, 'tlm.fro.garagem.visualizar', 'tlm.fro.ativo.motorista_temporario']);
    const q = await paths(v);
    expect((await v.get(`/api/garagem/${garagemId}/ativo`)).status).toBe(200);
    expect(q).toContain('/api/garagem/{parent}/ativo');
    expect((await v.get(`/api/ativo/${ativoId}/motorista_temporario`)).status).toBe(200);
    expect(q).toContain('/api/ativo/{parent}/motorista_temporario');
  });
});
