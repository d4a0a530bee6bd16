// GET /api/adm/parametro/{parametro}: the active company's parameter by name; other companies' are not seen.
import pg from 'pg';
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

describe('parameters the code reads', () => {
  it('sessao.duracao_horas sets the lifetime of a sign-in in that company only; out of bounds falls back to 12 h', async () => {
    const [A, B] = [admin.empresaAtiva, admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== admin.empresaAtiva)];
    await ts.insert('parametro', { empresaId: A, chave: 'sessao.duracao_horas', valor: '1,5' });
    await ts.insert('parametro', { empresaId: B, chave: 'sessao.duracao_horas', valor: '0' }); // below 15 min: default
    for (const [login, empresa] of [['sessao.a', A], ['sessao.b', B]] as const) {
      await ts.createUser({ login, senha: 'sessao-teste-123', ambienteId: admin.user.ambienteId, empresas: [empresa], permissoes: ['tlm.fro.ativo.lista'] });
    }
    const hoursOf = async (login: string) => {
      const t0 = Date.now();
      const u = await ts.login(login, 'sessao-teste-123');
      const c = new pg.Client({ connectionString: ts.databaseUrl });
      await c.connect();
      const [s] = (await c.query('select data_valido_ate from sessao where id = $1', [u.user.sessaoId]).finally(() => c.end())).rows as { data_valido_ate: Date }[];
      const exp = JSON.parse(Buffer.from(u.token.split('.')[1]!, 'base64url').toString()).exp * 1000;
      return { sessao: Math.round((s!.data_valido_ate.getTime() - t0) / 60_000), token: Math.round((exp - t0) / 60_000) };
    };
    expect(await hoursOf('sessao.a')).toEqual({ sessao: 90, token: 90 });
    expect(await hoursOf('sessao.b')).toEqual({ sessao: 720, token: 720 });
  });

  it('sessao.inatividade_segundos reaches the front end with the session (warning 5 s before)', async () => {
    expect((await json(await admin.get('/api/auth/get_session'))).payload.user.inatividade).toEqual({ desconectar: 6000, aviso: 5995 });
    await ts.insert('parametro', { empresaId: admin.empresaAtiva, chave: 'sessao.inatividade_segundos', valor: '900' });
    expect((await json(await admin.get('/api/auth/get_session'))).payload.user.inatividade).toEqual({ desconectar: 900, aviso: 895 });
    expect((await json(await leitor.get('/api/auth/get_session'))).payload.user.inatividade.desconectar).toBe(leitor.empresaAtiva === admin.empresaAtiva ? 900 : 6000);
  });
});
