// Vincular usuários às empresas (/cfg/cfg/configuracao/vincular, usuario actions vincula_empresa / desvincula_empresa)
// over real HTTP: link and unlink with history, the pt-BR refusals, the grants guard (a company the caller does not
// administer), the action keys, and the bulk form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
let u1: number, u2: number;
const empresasDe = async (id: number) => ((await ts.em().getConnection().execute('SELECT empresas, empresa_ativa FROM usuario WHERE id = ?', [id])) as any[])[0];

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
  const ambienteId = admin.user.ambienteId;
  u1 = await ts.createUser({ login: 'vinc_um', ambienteId, empresas: [A] });
  u2 = await ts.createUser({ login: 'vinc_dois', ambienteId, empresas: [A] });
});
afterAll(async () => { await ts?.stop(); });

describe('vincular usuários às empresas', () => {
  it('links a user to a company and unlinks it, recorded in the history', async () => {
    const res = await admin.post(`/api/usuario/${u1}/vincula_empresa`, { empresa: B });
    expect(res.status).toBe(200);
    expect((await res.json()).empresas).toEqual([A, B]);
    const again = await admin.post(`/api/usuario/${u1}/vincula_empresa`, { empresa: B });
    expect(again.status).toBe(422);
    expect((await again.json()).msg).toBe('O usuário já está vinculado a esta empresa');
    await ts.em().getConnection().execute('UPDATE usuario SET empresa_ativa = ? WHERE id = ?', [B, u1]);
    expect((await admin.post(`/api/usuario/${u1}/desvincula_empresa`, { empresa: B })).status).toBe(200);
    const row = await empresasDe(u1);
    expect([row.empresas, row.empresa_ativa]).toEqual([[A], A]);
    const last = await admin.post(`/api/usuario/${u1}/desvincula_empresa`, { empresa: A });
    expect(last.status).toBe(422);
    expect((await last.json()).msg).toBe('O usuário deve continuar vinculado a ao menos uma empresa');
    const hist = await json(await admin.get(`/api/usuario/${u1}/historico`));
    expect(hist.map((h: any) => h.operacao).slice(0, 2)).toEqual(['desvincula_empresa', 'vincula_empresa']);
  });

  it('links several users at once (bulk), each answering its own status', async () => {
    await admin.post(`/api/usuario/${u2}/vincula_empresa`, { empresa: B });
    const res = await admin.post('/api/usuario/vincula_empresa', { ids: [u1, u2], payload: { empresa: B } });
    expect(res.status).toBe(200);
    expect((await res.json()).map((r: any) => [r.id, r.status])).toEqual([[u1, 200], [u2, 422]]);
    expect((await empresasDe(u1)).empresas).toEqual([A, B]);
  });

  it("refuses a company the caller does not administer, a missing key, and an empty payload", async () => {
    const ambienteId = admin.user.ambienteId;
    const alvo = await ts.createUser({ login: 'vinc_alvo', ambienteId, empresas: [A] });
    await ts.createUser({ login: 'vinc_adm_a', ambienteId, empresas: [A], permissoes: ['adm.sis.usuario.lista', 'adm.sis.usuario.editar', 'adm.sis.usuario.vincula_empresa'] });
    await ts.createUser({ login: 'vinc_sem', ambienteId, empresas: [A], permissoes: ['adm.sis.usuario.lista', 'adm.sis.usuario.editar'] });
    const admA = await ts.login('vinc_adm_a', 'senha-teste-123');
    const sem = await ts.login('vinc_sem', 'senha-teste-123');
    expect((await admA.post(`/api/usuario/${alvo}/vincula_empresa`, { empresa: B })).status).toBe(403);
    expect((await sem.post(`/api/usuario/${alvo}/vincula_empresa`, { empresa: A })).status).toBe(403);
    expect((await admin.post(`/api/usuario/${alvo}/vincula_empresa`, {})).status).toBe(400);
    expect((await empresasDe(alvo)).empresas).toEqual([A]);
  });
});
