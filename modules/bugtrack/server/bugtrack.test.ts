// /api/bugtrack over real HTTP: reports de-duplicated per company by fingerprint (count, last occurrence, a resolved
// error opening again), the rate limit per session, the administrators' calls (lista, reconhece, resolve, delete)
// refusing another company's rows (404) and callers without the keys (403), bad input 400 in pt-BR.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { fingerprint } from './bugtrack.ts';

let ts: TestServer;
let admin: Api;
let leitor: Api;
let outra: Api;
let semChave: Api;
const STACK = 'TypeError: x is undefined\n    at Lista (https://rastro.local/assets/Lista-abc.js?v=3:10:22)\n    at renderWithHooks (https://rastro.local/assets/vendor-react.js:100:5)';

beforeAll(async () => {
  process.env.BUGTRACK_REPORTS_PER_MINUTE = '5';
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  const other = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== admin.empresaAtiva);
  await ts.createUser({ login: 'bug.outra', senha: 'bug-outra-123', ambienteId: admin.user.ambienteId, empresas: [other], roles: ['dev'] });
  outra = await ts.login('bug.outra', 'bug-outra-123');
  await ts.createUser({ login: 'bug.sem', senha: 'bug-sem-123', ambienteId: admin.user.ambienteId, empresas: [admin.empresaAtiva], permissoes: ['tlm.fro.ativo.lista'] });
  semChave = await ts.login('bug.sem', 'bug-sem-123');
});
afterAll(async () => { delete process.env.BUGTRACK_REPORTS_PER_MINUTE; await ts?.stop(); });

describe('fingerprint', () => {
  it('ignores line:column, query strings and long numbers; tells kinds and messages apart', () => {
    const a = fingerprint('erro', 'x is undefined', STACK);
    expect(fingerprint('erro', 'x is undefined', STACK.replace(':10:22', ':11:40').replace('?v=3', '?v=4'))).toBe(a);
    expect(fingerprint('rejeicao', 'x is undefined', STACK)).not.toBe(a);
    expect(fingerprint('erro', 'y is undefined', STACK)).not.toBe(a);
    expect(fingerprint('chunk', 'Loading chunk 12345 failed', null)).toBe(fingerprint('chunk', 'Loading chunk 67890 failed', null));
  });
});

describe('/api/bugtrack', () => {
  let id = 0;
  it('report: one row per error with a count; company, user, route and browser from the report and the session', async () => {
    const body = { tipo: 'erro', mensagem: 'x is undefined', stack: STACK, rota: '/tlm/fro/ativo', navegador: 'Mozilla/5.0 Teste' };
    const first = await semChave.post('/api/bugtrack/report', body);
    expect(first.status).toBe(201);
    const j = await json(first);
    expect(j.msg).toBe('Erro registrado');
    expect(j.payload.ocorrencias).toBe(1);
    id = j.payload.id;
    const again = await json(await admin.post('/api/bugtrack/report', { ...body, rota: '/tlm/fro/motorista', stack: STACK.replace(':10:22', ':10:30') }));
    expect(again.payload).toMatchObject({ id, ocorrencias: 2 });

    const lista = await json(await admin.get('/api/bugtrack/lista'));
    expect(lista.status).toBe(200);
    expect(lista.payload.total).toBe(1);
    expect(lista.payload.itens[0]).toMatchObject({ id, tipo: 'erro', mensagem: 'x is undefined', rota: '/tlm/fro/motorista', navegador: 'Mozilla/5.0 Teste', ocorrencias: 2, situacao: 'novo', usuario: admin.user.id, empresaId: admin.empresaAtiva });
    // the same error in another company is that company's row
    const alheio = await json(await outra.post('/api/bugtrack/report', body));
    expect(alheio.payload.ocorrencias).toBe(1);
    expect(alheio.payload.id).not.toBe(id);
    expect((await json(await outra.get('/api/bugtrack/lista'))).payload.itens.map((r: any) => r.id)).toEqual([alheio.payload.id]);
  });

  it('reconhece and resolve: who and when; a resolved error that comes back is open again', async () => {
    const r = await json(await admin.post(`/api/bugtrack/reconhece/${id}`));
    expect(r.payload).toMatchObject({ situacao: 'reconhecido', reconhecidoPor: admin.user.id });
    expect(typeof r.payload.reconhecidoEm).toBe('string');
    const again = await admin.post(`/api/bugtrack/reconhece/${id}`);
    expect(again.status).toBe(409);
    expect((await json(again)).msg).toBe('Ação "Reconhecer" não permitida na situação atual do registro');
    expect((await json(await admin.post(`/api/bugtrack/resolve/${id}`))).payload).toMatchObject({ situacao: 'resolvido', resolvidoPor: admin.user.id });
    const volta = await json(await admin.post('/api/bugtrack/report', { tipo: 'erro', mensagem: 'x is undefined', stack: STACK }));
    expect(volta.payload).toMatchObject({ id, ocorrencias: 3 });
    expect((await json(await admin.get(`/api/bug/${id}`))).situacao).toBe('novo');
    const hist = await json(await admin.get(`/api/bug/${id}/historico`));
    expect(hist.map((h: any) => h.operacao)).toEqual(['resolve', 'reconhece']);
  });

  it('another company\'s user sees and changes nothing (404); without the keys 403; without a session 401', async () => {
    expect((await outra.post(`/api/bugtrack/reconhece/${id}`)).status).toBe(404);
    expect((await outra.post(`/api/bugtrack/resolve/${id}`)).status).toBe(404);
    expect((await outra.del(`/api/bugtrack/${id}`)).status).toBe(404);
    expect((await outra.get(`/api/bug/${id}`)).status).toBe(404);
    for (const res of [await semChave.get('/api/bugtrack/lista'), await semChave.post(`/api/bugtrack/reconhece/${id}`), await semChave.post(`/api/bugtrack/resolve/${id}`), await semChave.del(`/api/bugtrack/${id}`)]) {
      expect(res.status).toBe(403);
    }
    // the read-only role lists but may not act
    expect((await leitor.get('/api/bugtrack/lista')).status).toBe(200);
    expect((await leitor.post(`/api/bugtrack/reconhece/${id}`)).status).toBe(403);
    expect((await ts.fetch('/api/bugtrack/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tipo":"erro","mensagem":"x"}' })).status).toBe(401);
    expect((await ts.fetch('/api/bugtrack/lista')).status).toBe(401);
  });

  it('bad input is 400 in pt-BR; reports beyond the session\'s limit per minute are 429', async () => {
    const bad = await admin.post('/api/bugtrack/report', { tipo: 'outro', mensagem: 'x' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).msg).toBe('O campo tipo deve ser um de: erro, rejeicao, componente, chunk, css_chunk');
    expect((await json(await admin.post('/api/bugtrack/report', { tipo: 'erro' }))).msg).toBe('O campo mensagem é obrigatório');
    expect((await admin.post('/api/bugtrack/report', '{nope')).status).toBe(400);
    expect((await admin.get('/api/bugtrack/lista?range=[0,x]')).status).toBe(400);
    const s = await ts.login('bug.sem', 'bug-sem-123');
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await s.post('/api/bugtrack/report', { tipo: 'rejeicao', mensagem: `falha ${i}` })).status);
    expect(codes).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const limited = await s.post('/api/bugtrack/report', { tipo: 'erro', mensagem: 'mais' });
    expect((await json(limited)).msg).toBe('Muitos erros reportados por esta sessão; os próximos serão aceitos em instantes');
  });

  it('delete /{id}: the row is gone and recorded', async () => {
    const del = await json(await admin.del(`/api/bugtrack/${id}`));
    expect(del).toMatchObject({ status: 200, msg: 'Erro excluído', payload: { id } });
    expect((await admin.get(`/api/bug/${id}`)).status).toBe(404);
    expect((await admin.del(`/api/bugtrack/${id}`)).status).toBe(404);
  });
});
