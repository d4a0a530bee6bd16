// GET /api/adm/parametro/{parametro}: the active company's parameter by name; other companies' are not seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api;
let leitor: Api;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
});
afterAll(async () => { await ts?.stop(); });

describe('GET /api/adm/parametro/{parametro}', () => {
  it('answers the parameter of the active company, 404 for an unknown one or another company\'s, 403 without the key', async () => {
    const created = await admin.post('/api/parametro', { chave: 'relatorio.limite_linhas', valor: '5000', descricao: 'Linhas por relatório' });
    expect(created.status).toBe(201);
    const other = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== admin.empresaAtiva);
    await ts.insert('parametro', { empresaId: other, chave: 'so.da.outra', valor: 'x' });

    expect(await json(await admin.get('/api/adm/parametro/relatorio.limite_linhas'))).toEqual({
      status: 200, msg: 'OK', errorMsg: null, payload: { chave: 'relatorio.limite_linhas', valor: '5000', descricao: 'Linhas por relatório' },
    });
    // The read-only role holds the list key of the register.
    expect((await json(await leitor.get('/api/adm/parametro/relatorio.limite_linhas'))).payload.valor).toBe('5000');
    const missing = await admin.get('/api/adm/parametro/nao.existe');
    expect(missing.status).toBe(404);
    expect((await json(missing)).msg).toBe('Parâmetro não encontrado');
    expect((await admin.get('/api/adm/parametro/so.da.outra')).status).toBe(404);

    await ts.createUser({ login: 'sem.parametro', senha: 'sem-parametro-1', ambienteId: admin.user.ambienteId, empresas: [admin.empresaAtiva], permissoes: ['tlm.fro.ativo.lista'] });
    const u = await ts.login('sem.parametro', 'sem-parametro-1');
    expect((await u.get('/api/adm/parametro/relatorio.limite_linhas')).status).toBe(403);
    expect((await ts.fetch('/api/adm/parametro/relatorio.limite_linhas')).status).toBe(401);
  });
});
