// Sign-in flows over real HTTP: login/logout, revoked sessions, rate limit, recover e-mail, company switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { ADMIN, LEITOR, json, startTestServer, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let smtp: SMTPServer;
const inbox: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, _session, cb) {
      let buf = '';
      stream.on('data', (d) => (buf += d.toString()));
      stream.on('end', () => { inbox.push(buf); cb(); });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  process.env.SMTP_HOST = '127.0.0.1';
  process.env.SMTP_PORT = String((smtp.server.address() as AddressInfo).port);
  process.env.SMTP_FROM = 'Rastro <rastro@teste.local>';
  ts = await startTestServer({ auth: { maxFailsPerLogin: 3, maxFailsPerIp: 1000, publicUrl: 'https://rastro.exemplo.com.br' } });
});
afterAll(async () => {
  await ts?.stop();
  await new Promise<void>((r) => smtp.close(() => r()));
  delete process.env.SMTP_HOST;
});

const login = (l: string, s: string) => ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: l, senha: s }) });

describe('login', () => {
  it('signs in and answers the envelope with token and user', async () => {
    const res = await login(ADMIN.login, ADMIN.senha);
    expect(res.status).toBe(200);
    const b = await res.json();
    expect(b.status).toBe(200);
    expect(b.payload.token).toBeTypeOf('string');
    expect(b.payload.user).toMatchObject({ login: 'admin', roles: ['dev'] });
    expect(b.payload.user.empresas).toHaveLength(2);
    const s = await ts.fetch('/api/auth/get_session', { headers: { authorization: `Bearer ${b.payload.token}` } });
    expect((await s.json()).payload.user.empresaAtiva).toBe(b.payload.user.empresaAtiva);
  });

  it('refuses wrong passwords (401) and records every attempt', async () => {
    const res = await login('leitor', 'errada');
    expect(res.status).toBe(401);
    expect((await res.json()).msg).toBe('Login ou senha inválidos');
    expect((await login('ninguem', 'x')).status).toBe(401);
    const rows = await ts.em().getConnection().execute('select nome, sucesso, esta_logado from historico_de_login order by id');
    expect(rows.some((r: any) => r.nome === 'Administrador' && r.sucesso && r.esta_logado)).toBe(true);
    expect(rows.some((r: any) => r.nome === 'Leitor' && !r.sucesso)).toBe(true);
    expect(rows.some((r: any) => r.nome === 'ninguem' && !r.sucesso)).toBe(true);
  });

  it('rate limits failed logins per login with 429', async () => {
    for (let i = 0; i < 3; i++) await login('admin-rl', 'x');
    const res = await login('admin-rl', 'x');
    expect(res.status).toBe(429);
    expect((await res.json()).msg).toMatch(/Muitas tentativas de login/);
  });

  it('refuses malformed bodies with 400', async () => {
    const r = await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(r.status).toBe(400);
    const r2 = await ts.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin' }) });
    expect(r2.status).toBe(400);
    expect((await r2.json()).msg).toBe('O campo Senha é obrigatório');
  });
});

describe('sessions end at once', () => {
  it('logout -> 401', async () => {
    const api = await ts.login(LEITOR.login, LEITOR.senha);
    expect((await api.get('/api/ativo')).status).toBe(200);
    expect((await api.post('/api/auth/logout')).status).toBe(200);
    expect((await api.get('/api/ativo')).status).toBe(401);
    expect((await api.get('/api/auth/token_valido')).status).toBe(401);
  });

  it('forced logout by an administrator -> 401', async () => {
    const admin = await ts.login(ADMIN.login, ADMIN.senha);
    const victim = await ts.login(LEITOR.login, LEITOR.senha);
    const sid = victim.user.sessaoId;
    expect((await victim.get('/api/auth/token_valido')).status).toBe(200);
    const r = await admin.post(`/api/adm/sessao/elimina/${sid}`);
    expect(r.status).toBe(200);
    expect((await victim.get('/api/ativo')).status).toBe(401);
    // the generic action does the same
    const v2 = await ts.login(LEITOR.login, LEITOR.senha);
    expect((await admin.post(`/api/sessao/${v2.user.sessaoId}/elimina`)).status).toBe(200);
    expect((await v2.get('/api/ativo')).status).toBe(401);
    // the read-only user cannot force anyone out
    const v3 = await ts.login(LEITOR.login, LEITOR.senha);
    expect((await v3.post(`/api/adm/sessao/elimina/${admin.user.sessaoId}`)).status).toBe(403);
  });

  it("the 401 after a session ended by someone else says why ('Sessão terminada' before the push arrives)", async () => {
    const admin = await ts.login(ADMIN.login, ADMIN.senha);
    const body = async (r: Response) => { const j = await r.json(); return [r.status, j.msg, j.payload]; };
    // by an administrator, through the named call and through the register's action
    const v1 = await ts.login(LEITOR.login, LEITOR.senha);
    expect((await admin.post(`/api/adm/sessao/elimina/${v1.user.sessaoId}`)).status).toBe(200);
    expect(await body(await v1.get('/api/ativo'))).toEqual([401, 'Sua sessão foi finalizada por um administrador do sistema.', { motivo: 'administrador' }]);
    const v2 = await ts.login(LEITOR.login, LEITOR.senha);
    expect((await admin.post(`/api/sessao/${v2.user.sessaoId}/elimina`)).status).toBe(200);
    expect(await body(await v2.get('/api/ativo'))).toEqual([401, 'Sua sessão foi finalizada por um administrador do sistema.', { motivo: 'administrador' }]);
    // by the user's own logout: the plain 401
    const v3 = await ts.login(LEITOR.login, LEITOR.senha);
    expect((await v3.post('/api/auth/logout')).status).toBe(200);
    expect(await body(await v3.get('/api/ativo'))).toEqual([401, 'Sessão inválida ou expirada. Entre novamente.', null]);
    const rows = await ts.em().getConnection().execute(`SELECT id, motivo_fim FROM sessao WHERE id IN (${v1.user.sessaoId}, ${v2.user.sessaoId}, ${v3.user.sessaoId}) ORDER BY id`);
    expect(rows.map((r: any) => r.motivo_fim)).toEqual(['administrador', 'administrador', 'logout']);
  });

  it('disabling the user -> 401 and no new sign-in', async () => {
    const admin = await ts.login(ADMIN.login, ADMIN.senha);
    const id = await ts.createUser({ login: 'temp', senha: 'temp-senha-1', ambienteId: admin.user.ambienteId, empresas: [admin.empresaAtiva], permissoes: ['tlm.fro.ativo.lista'] });
    const u = await ts.login('temp', 'temp-senha-1');
    expect((await u.get('/api/ativo')).status).toBe(200);
    expect((await admin.post(`/api/usuario/${id}/desativa`)).status).toBe(200);
    expect((await u.get('/api/ativo')).status).toBe(401);
    expect((await login('temp', 'temp-senha-1')).status).toBe(403);
  });
});

describe('companies', () => {
  it('switches company; suspended companies refuse switch and sign-in', async () => {
    const admin = await ts.login(ADMIN.login, ADMIN.senha);
    const [a, b] = admin.user.empresas.map((e: any) => e.id);
    const sw = await ts.fetch(`/api/auth/empresa/${b}`, { method: 'POST', headers: admin.headers() });
    expect(sw.status).toBe(200);
    const moved = ts.as(admin.token, b);
    const rows = await (await moved.get('/api/ativo?range=[0,99]')).json();
    expect(rows.length).toBe(10);
    expect(rows.every((r: any) => r.empresaId === b)).toBe(true);
    // a company the user does not belong to
    expect((await ts.fetch('/api/auth/empresa/99999', { method: 'POST', headers: moved.headers() })).status).toBe(403);
    // back to A, then suspend A: A's only-company users cannot sign in; A's sessions end
    await ts.fetch(`/api/auth/empresa/${a}`, { method: 'POST', headers: moved.headers() });
    const leitor = await ts.login(LEITOR.login, LEITOR.senha);
    const adminB = ts.as(admin.token, a);
    expect((await adminB.post(`/api/empresa/${a}/suspende`)).status).toBe(200);
    expect((await leitor.get('/api/ativo')).status).toBe(401);
    const res = await login(LEITOR.login, LEITOR.senha);
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toMatch(/suspensa ou desativada/);
    // the admin still signs in, in company B
    const again = await ts.login(ADMIN.login, ADMIN.senha);
    expect(again.empresaAtiva).toBe(b);
    expect((await ts.fetch(`/api/auth/empresa/${a}`, { method: 'POST', headers: again.headers() })).status).toBe(403);
    // empresa is scoped by ambiente: the administrator, working in B, lifts A's suspension
    expect((await again.post(`/api/empresa/${a}/cancela_suspensao`)).status).toBe(200);
    expect((await login(LEITOR.login, LEITOR.senha)).status).toBe(200);
  });
});

describe('passwords', () => {
  it('changepwd with the current password', async () => {
    const id = await ts.createUser({ login: 'troca', senha: 'antiga-senha-1', ambienteId: 1, empresas: [1] });
    const u = await ts.login('troca', 'antiga-senha-1');
    const bad = await u.post('/api/auth/changepwd', { senhaAtual: 'errada', novaSenha: 'nova-senha-123' });
    expect(bad.status).toBe(400);
    expect((await u.post('/api/auth/changepwd', { senhaAtual: 'antiga-senha-1', novaSenha: 'curta' })).status).toBe(400);
    expect((await u.post('/api/auth/changepwd', { senhaAtual: 'antiga-senha-1', novaSenha: 'nova-senha-123' })).status).toBe(200);
    expect((await login('troca', 'antiga-senha-1')).status).toBe(401);
    expect((await login('troca', 'nova-senha-123')).status).toBe(200);
    expect(id).toBeGreaterThan(0);
  });

  it('recover sends an e-mail with /alterar_senha/{token}; the token changes the password once', async () => {
    await ts.createUser({ login: 'esquecido', senha: 'antiga-senha-1', ambienteId: 1, empresas: [1] });
    const aberta = await ts.login('esquecido', 'antiga-senha-1');
    const res = await ts.fetch('/api/auth/recover', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'esquecido' }) });
    expect(res.status).toBe(200);
    const mail = inbox.find((m) => m.includes('esquecido@teste.local'));
    expect(mail).toBeDefined();
    // The link uses the configured public URL, whatever the request's Host header.
    const token = /https:\/\/rastro\.exemplo\.com\.br\/alterar_senha\/([A-Za-z0-9_-]+)/.exec(mail!.replace(/=\r?\n/g, ''))![1];
    const valid = await json(await ts.fetch(`/api/auth/token_valido?token=${token}`));
    expect(valid.payload.valido).toBe(true);
    const ch = await ts.fetch('/api/auth/changepwd', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, novaSenha: 'recuperada-123' }) });
    expect(ch.status).toBe(200);
    // The recovery ends the sessions opened with the old password.
    expect((await aberta.get('/api/auth/get_session')).status).toBe(401);
    expect((await login('esquecido', 'recuperada-123')).status).toBe(200);
    const again = await ts.fetch('/api/auth/changepwd', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, novaSenha: 'outra-senha-123' }) });
    expect(again.status).toBe(400);
    // unknown users get the same answer and no e-mail
    const n = inbox.length;
    const r2 = await ts.fetch('/api/auth/recover', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'nao-existe' }) });
    expect(r2.status).toBe(200);
    expect(inbox.length).toBe(n);
  });
});

describe('named calls', () => {
  it('permissoes, ui, meta, por_empresa, home, openapi, docs', async () => {
    const leitor = await ts.login(LEITOR.login, LEITOR.senha);
    const perms = (await (await leitor.get('/api/usuario/permissoes')).json()).payload;
    expect(perms.length).toBeGreaterThan(0);
    const screenKeys = new Set([...ts.model.screens, ...(ts.model.hubs ?? [])].map((s) => s.permission));
    expect(perms.every((p: string) => p.endsWith('.lista') || p.endsWith('.visualizar') || screenKeys.has(p))).toBe(true);
    expect(perms).toContain('tlm.ras.rastreamento_ao_vivo');
    expect(perms).toContain('adm.sis.cadastro');
    expect(perms).not.toContain('tlm.fro.ativo.adicionar');

    const ui = { '/tlm/fro/ativo': [{ key: 'placa', label: 'Placa', selected: true }] };
    expect((await leitor.put('/api/usuario', { _id: leitor.user.id, ui })).status).toBe(200);
    expect((await leitor.put('/api/usuario', { _id: leitor.user.id + 1, ui })).status).toBe(403);
    const s = await (await leitor.get('/api/auth/get_session')).json();
    expect(s.payload.user.ui).toEqual(ui);

    const meta = await (await leitor.get('/api/meta')).json();
    const ativo = meta.entities.find((e: any) => e.key === 'ativo');
    expect(ativo.actions).toEqual([]);
    expect(meta.entities.find((e: any) => e.key === 'empresa').actions).toEqual([]);
    const admin = await ts.login(ADMIN.login, ADMIN.senha);
    const adminMeta = await (await admin.get('/api/meta')).json();
    expect(adminMeta.entities.find((e: any) => e.key === 'empresa').actions.length).toBe(3);
    expect(adminMeta.entities.find((e: any) => e.key === 'usuario').fields.some((f: any) => f.hidden)).toBe(false);

    const gar = await (await leitor.get(`/api/garagem/por_empresa/${leitor.empresaAtiva}`)).json();
    expect(gar.payload.length).toBe(4);
    expect(gar.payload[0]).toHaveProperty('grupoSuperior');
    const atv = await (await leitor.get(`/api/ativo/por_empresa/${leitor.empresaAtiva}`)).json();
    expect(atv.payload.length).toBe(40);
    expect((await leitor.get(`/api/ativo/por_empresa/${leitor.empresaAtiva + 1}`)).status).toBe(403);
    const home = await (await leitor.get('/api/home/resumo')).json();
    expect(home.payload.contagens).toEqual([]); // register counters: administrators only

    expect((await (await leitor.get('/api/openapi.json')).json()).openapi).toMatch(/^3\.1/);
    const docs = await leitor.get('/api/docs');
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(await docs.text()).toContain('/api/ativo');
  });

  it('JSON 404 under /api, SPA fallback elsewhere', async () => {
    const r = await ts.fetch('/api/nao/existe');
    expect(r.status).toBe(404);
    expect((await r.json()).msg).toBe('Rota não encontrada');
    const page = await ts.fetch('/tlm/fro/ativo');
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
