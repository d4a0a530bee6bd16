// Realtime socket over real HTTP (socket.io-client): token auth, set_user / join_room, and the pushes
// permissoes_alteradas and sessao_finalizada.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connectIo, type Socket } from 'socket.io-client';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { PUSH, SOCKET_PATH } from './index.ts';

let ts: TestServer;
let admin: Api;
let base: string;
let ambienteId: number;
let outraEmpresa: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  ts = await startTestServer();
  base = ts.url.replace('localhost', '127.0.0.1');
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  ambienteId = admin.user.ambienteId;
  outraEmpresa = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== admin.empresaAtiva);
});
afterEach(() => { for (const s of sockets.splice(0)) s.disconnect(); });
afterAll(async () => { await ts?.stop(); });

function open(opts: { token?: string; header?: string }): Socket {
  const s = connectIo(base, {
    path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true,
    ...(opts.token ? { auth: { token: opts.token } } : {}),
    ...(opts.header ? { extraHeaders: { authorization: opts.header } } : {}),
  });
  sockets.push(s);
  return s;
}
const connected = (s: Socket) => new Promise<void>((resolve, reject) => { s.once('connect', () => resolve()); s.once('connect_error', reject); });
const refused = (s: Socket) => new Promise<string>((resolve, reject) => { s.once('connect', () => reject(new Error('conectou'))); s.once('connect_error', (e) => resolve(e.message)); });
// bounds for events that must come: room to spare on a loaded machine (they end as soon as the event arrives)
const next = <T = any>(s: Socket, event: string, ms = 30_000) => new Promise<T>((resolve, reject) => {
  const t = setTimeout(() => reject(new Error(`sem evento ${event} em ${ms} ms`)), ms);
  s.once(event, (p: T) => { clearTimeout(t); resolve(p); });
});
const ack = (s: Socket, event: string, arg: unknown) => s.timeout(30_000).emitWithAck(event, arg);
const quiet = (s: Socket, event: string, ms = 300) => new Promise<boolean>((resolve) => {
  const h = () => resolve(false);
  s.once(event, h);
  setTimeout(() => { s.off(event, h); resolve(true); }, ms);
});

let n = 0;
async function user(o: { cargos?: number[]; permissoes?: string[] } = {}) {
  const login = `rt.user${++n}`;
  const id = await ts.createUser({ login, senha: 'senha-rt-123', ambienteId, empresas: [admin.empresaAtiva], permissoes: o.permissoes ?? ['tlm.fro.ativo.lista'] });
  if (o.cargos) await ts.em().getConnection().execute('update usuario set cargos = ? where id = ?', [`{${o.cargos.join(',')}}`, id]);
  const api = await ts.login(login, 'senha-rt-123');
  return { id, api, sessaoId: api.user.sessaoId as number };
}

describe('connection', () => {
  it('refuses a missing or invalid token', async () => {
    expect(await refused(open({}))).toBe('Sessão inválida ou expirada. Entre novamente.');
    expect(await refused(open({ token: 'invalido' }))).toBe('Sessão inválida ou expirada. Entre novamente.');
  });

  it('accepts the session token in the handshake auth or the Authorization header', async () => {
    await connected(open({ token: admin.token }));
    await connected(open({ header: `Bearer ${admin.token}` }));
  });

  it('set_user answers only the session\'s user; join_room only a company of theirs', async () => {
    const u = await user();
    const s = open({ token: u.api.token });
    await connected(s);
    expect(await ack(s, 'set_user', u.id)).toEqual({ status: 200, msg: 'ok' });
    expect((await ack(s, 'set_user', u.id + 1000)).status).toBe(403);
    expect(await ack(s, 'join_room', admin.empresaAtiva)).toEqual({ status: 200, msg: 'ok' });
    expect(await ack(s, 'join_room', outraEmpresa)).toEqual({ status: 403, msg: 'Você não tem acesso a esta empresa' });
    // The admin belongs to both companies.
    const a = open({ token: admin.token });
    await connected(a);
    expect((await ack(a, 'join_room', outraEmpresa)).status).toBe(200);
  });
});

describe(PUSH.permissoesAlteradas, () => {
  it('reaches a user whose permissoesExtras change, not on other edits', async () => {
    const u = await user();
    const s = open({ token: u.api.token });
    await connected(s);
    await ack(s, 'set_user', u.id);
    const row = await (await admin.get(`/api/usuario/${u.id}`)).json();
    const silent = quiet(s, PUSH.permissoesAlteradas);
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, nome: 'Outro nome' })).status).toBe(200);
    expect(await silent).toBe(true);
    const got = next(s, PUSH.permissoesAlteradas);
    expect((await admin.put(`/api/usuario/${u.id}`, { ...row, permissoesExtras: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'] })).status).toBe(200);
    expect(await got).toEqual({ usuarioId: u.id, msg: 'Atenção, suas permissões de usuário foram alteradas pelo administrador do sistema, o sistema será recarregado em 5 segundos.' });
  });

  it('reaches every holder of a cargo whose keys change (and only them)', async () => {
    const cargo = await (await admin.post('/api/cargo', { descricao: 'Cargo RT', permissoes: ['tlm.fro.ativo.lista'] })).json();
    const holder = await user({ cargos: [cargo.id] });
    const other = await user();
    const sh = open({ token: holder.api.token });
    const so = open({ token: other.api.token });
    await Promise.all([connected(sh), connected(so)]);
    const got = next(sh, PUSH.permissoesAlteradas);
    const silent = quiet(so, PUSH.permissoesAlteradas, 500);
    expect((await admin.put(`/api/cargo/${cargo.id}`, { ...cargo, permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.motorista.lista'] })).status).toBe(200);
    expect((await got).usuarioId).toBe(holder.id);
    expect(await silent).toBe(true);
  });
});

describe(PUSH.sessaoFinalizada, () => {
  it('reaches the session an administrator eliminates, which is then disconnected and its token refused', async () => {
    const u = await user();
    const s = open({ token: u.api.token });
    await connected(s);
    const got = next(s, PUSH.sessaoFinalizada);
    const gone = next(s, 'disconnect');
    const res = await admin.post(`/api/adm/sessao/elimina/${u.sessaoId}`);
    expect((await json(res)).status).toBe(200);
    expect(await got).toMatchObject({ sessaoId: u.sessaoId, motivo: 'administrador', msg: 'Sua sessão foi finalizada por um administrador do sistema.' });
    await gone;
    expect((await u.api.get('/api/auth/get_session')).status).toBe(401);
    expect(await refused(open({ token: u.api.token }))).toBe('Sessão inválida ou expirada. Entre novamente.');
  });

  it('also through the screen\'s row action POST /api/sessao/{id}/elimina', async () => {
    const u = await user();
    const s = open({ token: u.api.token });
    await connected(s);
    const got = next(s, PUSH.sessaoFinalizada);
    expect((await admin.post(`/api/sessao/${u.sessaoId}/elimina`)).status).toBe(200);
    expect(await got).toMatchObject({ sessaoId: u.sessaoId, motivo: 'administrador' });
    expect((await u.api.get('/api/auth/get_session')).status).toBe(401);
  });

  it('reaches every session of a user who is disabled', async () => {
    const u = await user();
    const s = open({ token: u.api.token });
    await connected(s);
    const got = next(s, PUSH.sessaoFinalizada);
    expect((await admin.post(`/api/usuario/${u.id}/desativa`)).status).toBe(200);
    expect(await got).toMatchObject({ usuarioId: u.id, motivo: 'administrador' });
  });

  it('a plain logout just closes the socket, without the push', async () => {
    const u = await user();
    const s = open({ token: u.api.token });
    await connected(s);
    const silent = quiet(s, PUSH.sessaoFinalizada, 500);
    const gone = next(s, 'disconnect');
    await u.api.post('/api/auth/logout');
    await gone;
    expect(await silent).toBe(true);
  });
});
