// API keys (chave_de_api, server/auth/api-key.ts) over real HTTP: shown once, only the hash stored, a call with it
// acts as its company with its keys (another company's key cannot reach company A's rows), limits per minute, hour
// and in total answer 429 at the exact count, a revoked key 401, usage visible on the register.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from './harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;

const ATIVO_READ = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'];
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const withKey = (key: string, p: string, init: RequestInit = {}) =>
  ts.fetch(p, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });

let n = 0;
/** Creates a key of company A through the API; answers its id and the key shown once. */
async function newKey(o: Record<string, unknown> = {}): Promise<{ id: number; chave: string; body: any }> {
  const res = await admin.post('/api/chave_de_api', {
    descricao: `Chave ${++n}`, limiteConexaoMinutos: 100, limiteConexaoHoras: 1000, limite: 10000, permissoes: ATIVO_READ, ...o,
  });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return { id: body.id, chave: body.chave, body };
}
const statuses = async (key: string, times: number) => {
  const out: number[] = [];
  for (let i = 0; i < times; i++) out.push((await withKey(key, '/api/ativo?range=[0,0]')).status);
  return out;
};

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  expect(A).not.toBe(B);
  expect(admin.empresaAtiva).toBe(A);
});
afterAll(async () => { await ts?.stop(); });

describe('chave de API', () => {
  it('is shown once on creation and stored as its SHA-256 only', async () => {
    const { id, chave, body } = await newKey();
    expect(chave).toMatch(/^rst_[A-Za-z0-9_-]{43}$/);
    expect(body.prefixo).toBe(chave.slice(0, 10));
    expect(body.usos).toBe(0);
    const [row] = await ts.em().getConnection().execute('select chave, prefixo from chave_de_api where id = ?', [id]);
    expect(row.chave).toBe(sha256(chave));
    expect(JSON.stringify(row)).not.toContain(chave);
    // never read back: by id, list, history
    const one = await json(await admin.get(`/api/chave_de_api/${id}`));
    expect(one.descricao).toBe(body.descricao);
    expect('chave' in one).toBe(false);
    const list = await (await admin.get('/api/chave_de_api')).text();
    expect(list).not.toContain(chave);
    expect(list).not.toContain(sha256(chave));
    const hist = await (await admin.get(`/api/chave_de_api/${id}/historico`)).text();
    expect(hist).not.toContain(chave);
    expect(hist).not.toContain(sha256(chave));
  });

  it('acts as its company with its keys; another company\'s key cannot reach company A\'s rows', async () => {
    const { chave } = await newKey({ permissoes: [...ATIVO_READ, 'tlm.fro.ativo.editar'] });
    const mine = await json(await admin.get('/api/ativo?range=[0,999]'));
    const viaKey = await withKey(chave, '/api/ativo?range=[0,999]');
    expect(viaKey.status).toBe(200);
    const rows = (await viaKey.json()) as { id: number; empresaId: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id).sort()).toEqual(mine.map((r: { id: number }) => r.id).sort());
    expect(new Set(rows.map((r) => r.empresaId))).toEqual(new Set([A]));

    // A key of company B (inserted as stored: its hash), with the same keys.
    const chaveB = `rst_${crypto.randomBytes(32).toString('base64url')}`;
    await ts.insert('chave_de_api', {
      empresaId: B, descricao: 'Chave B', limiteConexaoMinutos: 100, limiteConexaoHoras: 1000, limite: 1000,
      permissoes: [...ATIVO_READ, 'tlm.fro.ativo.editar'], chave: sha256(chaveB), prefixo: chaveB.slice(0, 10), usos: 0, ativa: true,
    });
    const rowsB = (await (await withKey(chaveB, '/api/ativo?range=[0,999]')).json()) as { id: number; empresaId: number }[];
    expect(rowsB.length).toBeGreaterThan(0);
    expect(new Set(rowsB.map((r) => r.empresaId))).toEqual(new Set([B]));
    const target = rows[0];
    expect(rowsB.some((r) => r.id === target.id)).toBe(false);
    expect((await withKey(chaveB, `/api/ativo/${target.id}`)).status).toBe(404);
    const put = await withKey(chaveB, `/api/ativo/${target.id}`, { method: 'PUT', body: JSON.stringify({ descricao: 'invadido' }) });
    expect(put.status).toBe(404);
    // companyId of another company is refused; the key's own company is accepted
    expect((await withKey(chaveB, `/api/ativo/${target.id}`, { method: 'PUT', headers: { companyId: String(A) }, body: '{}' })).status).toBe(403);
    const [still] = await ts.em().getConnection().execute('select descricao from ativo where id = ?', [target.id]);
    expect(still.descricao).not.toBe('invadido');
  });

  it('holds only its own keys (403) and cannot be given keys its creator lacks', async () => {
    const { chave } = await newKey({ permissoes: ['tlm.fro.motorista.lista'] });
    expect((await withKey(chave, '/api/ativo')).status).toBe(403);
    expect((await withKey(chave, '/api/motorista?range=[0,0]')).status).toBe(200);
    expect((await withKey(chave, '/api/chave_de_api')).status).toBe(403);
    const id = await ts.createUser({ login: 'chaves.gestor', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['adm.sis.chaves_de_api.adicionar', ...ATIVO_READ] });
    expect(id).toBeGreaterThan(0);
    const gestor = await ts.login('chaves.gestor', 'senha-teste-123');
    const refused = await gestor.post('/api/chave_de_api', { descricao: 'Escalada', limiteConexaoMinutos: 1, limiteConexaoHoras: 1, limite: 1, permissoes: ['adm.sis.usuario.editar'] });
    expect(refused.status).toBe(403);
    expect((await gestor.post('/api/chave_de_api', { descricao: 'Permitida', limiteConexaoMinutos: 1, limiteConexaoHoras: 1, limite: 1, permissoes: ATIVO_READ })).status).toBe(201);
  });

  it('answers 401 for an unknown key and for a revoked one', async () => {
    expect((await withKey('rst_naoexiste', '/api/ativo')).status).toBe(401);
    expect((await withKey('qualquer coisa', '/api/ativo')).status).toBe(401);
    const { id, chave } = await newKey();
    expect((await withKey(chave, '/api/ativo?range=[0,0]')).status).toBe(200);
    expect((await admin.post(`/api/chave_de_api/${id}/revoga`)).status).toBe(200);
    const res = await withKey(chave, '/api/ativo?range=[0,0]');
    expect(res.status).toBe(401);
    expect((await json(res)).msg).toBe('Chave de API inválida ou revogada');
  });

  it('limits calls per minute at the exact count (429, pt-BR)', async () => {
    const { chave } = await newKey({ limiteConexaoMinutos: 3 });
    expect(await statuses(chave, 4)).toEqual([200, 200, 200, 429]);
    const res = await withKey(chave, '/api/ativo?range=[0,0]');
    expect(res.status).toBe(429);
    expect((await json(res)).msg).toMatch(/^Limite de chamadas por minuto da chave de API atingido\. Tente novamente em \d+ s\.$/);
  });

  it('limits calls per hour at the exact count', async () => {
    const { chave } = await newKey({ limiteConexaoHoras: 2 });
    expect(await statuses(chave, 3)).toEqual([200, 200, 429]);
    expect((await json(await withKey(chave, '/api/ativo'))).msg).toMatch(/^Limite de chamadas por hora/);
  });

  it('limits calls in total and shows the usage (count, last use)', async () => {
    const { id, chave } = await newKey({ limite: 2 });
    const before = Date.now();
    expect(await statuses(chave, 3)).toEqual([200, 200, 429]);
    expect((await json(await withKey(chave, '/api/ativo'))).msg).toBe('Limite total de chamadas da chave de API atingido');
    const row = await json(await admin.get(`/api/chave_de_api/${id}`));
    expect(row.usos).toBe(2);
    expect(new Date(row.ultimoUso).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // usage is read-only: a client cannot reset it
    expect((await admin.put(`/api/chave_de_api/${id}`, { ...row, usos: 0 })).status).toBe(200);
    expect((await json(await admin.get(`/api/chave_de_api/${id}`))).usos).toBe(2);
  });
});
