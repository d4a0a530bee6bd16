// Public link over real HTTP and sockets (issue 21): the register lists the catalogue's columns and never the token;
// the token (random, stored as its SHA-256) opens the link's assets only, in the link's company, with no sign-in;
// pushed live through /publico; revoked, re-addressed or expired links stop at once (410, socket dropped); another
// company's user neither sees nor acts on the link; failed tokens are rate-limited like sign-ins.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connectIo, type Socket } from 'socket.io-client';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { SOCKET_PATH } from '../../../server/realtime/index.ts';

let ts: TestServer;
let pool: pg.Pool;
let base: string;
let admin: Api, outra: Api, semChave: Api;
let A: number, B: number;
type Ativo = { id: number; descricao: string; placa: string };
let a1: Ativo, a2: Ativo, b1: Ativo;
const sockets: Socket[] = [];
const PUBLIC = '/api/public/rastreamento_ao_vivo/query';
const future = (ms = 86_400_000) => new Date(Date.now() + ms).toISOString();

beforeAll(async () => {
  ts = await startTestServer();
  base = ts.url.replace('localhost', '127.0.0.1');
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  A = admin.empresaAtiva;
  B = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== A);
  const ativos = async (e: number) => (await pool.query('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [e])).rows as Ativo[];
  [a1, a2] = await ativos(A);
  [b1] = await ativos(B);
  expect([a1, a2, b1].every(Boolean)).toBe(true);
  const ambienteId = admin.user.ambienteId;
  await ts.createUser({ login: 'link.outra', senha: 'senha-link-123', ambienteId, empresas: [B], permissoes: ['tlm.ras.link_publico.lista', 'tlm.ras.link_publico.visualizar', 'tlm.ras.link_publico.adicionar', 'tlm.ras.link_publico.revoga', 'tlm.ras.link_publico.copia', 'tlm.fro.ativo.lista'] });
  await ts.createUser({ login: 'link.semchave', senha: 'senha-link-123', ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  outra = await ts.login('link.outra', 'senha-link-123');
  semChave = await ts.login('link.semchave', 'senha-link-123');
  await position(a1, -23.5, -46.6, 42);
  await position(a2, -23.6, -46.7, 0);
  await position(b1, -22.9, -43.2, 55);
});
afterEach(() => { for (const s of sockets.splice(0)) s.disconnect(); });
afterAll(async () => { await pool?.end(); await ts?.stop(); });

/** A latest state of the asset's device (the gateway's table), serial LP-<asset>. */
async function position(a: Ativo, lat: number, lon: number, speed: number) {
  const empresa = (await pool.query('SELECT empresa_id FROM ativo WHERE id = $1', [a.id])).rows[0].empresa_id;
  await pool.query(
    `INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, lat, lon, speed, ignition, fix_time, ultima_comunicacao)
     VALUES ($1, $2, $3, $4, $5, $6, true, now(), now())
     ON CONFLICT (serial) DO UPDATE SET lat = excluded.lat, lon = excluded.lon, speed = excluded.speed, fix_time = now(), ultima_comunicacao = now()`,
    [`LP${a.id}`, empresa, a.id, lat, lon, speed]);
}

async function criar(api: Api, body: Record<string, unknown>) {
  const res = await api.post('/api/link_publico', body);
  const b = await json(res);
  expect(res.status, JSON.stringify(b)).toBe(201);
  return b as { id: number; token: string };
}

/** A socket of the public page, with what it received. */
async function pagina(token: string) {
  const s = connectIo(`${base}/publico`, { path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
  sockets.push(s);
  const estados: any[] = [], fim: string[] = [];
  let desligado = false;
  s.on('estado', (m) => estados.push(m));
  s.on('link_encerrado', (m) => fim.push(m.msg));
  s.on('disconnect', () => { desligado = true; });
  const erro = await new Promise<any>((res) => { s.once('connect', () => res(null)); s.once('connect_error', (e) => res(e)); });
  return { s, estados, fim, erro, desligado: () => desligado };
}

describe('link público', () => {
  it('creation answers the token once (256 bits); only its SHA-256 is stored; the list shows the catalogue columns and never the token', async () => {
    const l = await criar(admin, { descricao: 'Cliente Alfa', ativos: [a1.id, a2.id], validoAte: future() });
    expect(l.token).toMatch(/^rst_[A-Za-z0-9_-]{43}$/);
    const stored = (await pool.query('SELECT token FROM link_publico WHERE id = $1', [l.id])).rows[0].token;
    expect(stored).toBe(crypto.createHash('sha256').update(l.token).digest('hex'));
    const res = await admin.get(`/api/link_publico?filter=${encodeURIComponent(JSON.stringify({ q: 'Cliente Alfa' }))}`);
    const rows = await json(res);
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).not.toHaveProperty('token');
    expect(JSON.stringify(rows)).not.toContain(l.token.slice(4, 20));
    expect(JSON.stringify(rows)).not.toContain(stored);
    const nomes = [a1, a2].map((a) => a.descricao).sort();
    expect(row.nomeAtivo).toBe(nomes.join(', '));
    expect(row.placa).toBe([a1, a2].sort((x, y) => x.descricao.localeCompare(y.descricao)).map((a) => a.placa).join(', '));
    expect(row.ultimaPosicao).toMatch(/^-23\.(500000|600000), -46\.(600000|700000)$|\S/);
    expect(row.ultimaComunicacao).toBeTruthy();
    expect(row.situacao).toBe('Válido');
    for (const k of ['modeloConfig', 'nomeEquip']) expect(row).toHaveProperty(k);
    // by id: no token either
    const one = await json(await admin.get(`/api/link_publico/${l.id}`));
    expect(one).not.toHaveProperty('token');
    expect(one.descricao).toBe('Cliente Alfa');
  });

  it("the token shows the link's assets only, with no sign-in — never another asset or company", async () => {
    const l = await criar(admin, { descricao: 'Só o primeiro', ativos: [a1.id], validoAte: future() });
    const lb = await criar(outra, { descricao: 'Da outra empresa', ativos: [b1.id], validoAte: future() });
    const res = await fetch(`${base}${PUBLIC}?token=${l.token}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.payload.descricao).toBe('Só o primeiro');
    expect(body.payload.ativos).toEqual([expect.objectContaining({ ativoId: a1.id, descricao: a1.descricao, placa: a1.placa, latitude: -23.5, longitude: -46.6, velocidade: 42, ignicao: true })]);
    const text = JSON.stringify(body);
    for (const x of [a2.descricao, b1.descricao, `LP${a1.id}`, 'empresa']) expect(text).not.toContain(x);
    // B's token shows B's asset only
    const rb = await (await fetch(`${base}${PUBLIC}?token=${lb.token}`)).json();
    expect(rb.payload.ativos.map((r: any) => r.ativoId)).toEqual([b1.id]);
    expect(JSON.stringify(rb)).not.toContain(a1.descricao);
    // a link cannot name another company's asset
    const bad = await admin.post('/api/link_publico', { descricao: 'Mistura', ativos: [a1.id, b1.id], validoAte: future() });
    expect(bad.status).toBe(400);
  });

  it("another company's user neither lists nor acts on the link; a user without the key gets 403", async () => {
    const l = await criar(admin, { descricao: 'Restrito A', ativos: [a1.id], validoAte: future() });
    const lista = await json(await outra.get('/api/link_publico'));
    expect(lista.map((r: any) => r.descricao)).not.toContain('Restrito A');
    expect((await outra.get(`/api/link_publico/${l.id}`)).status).toBe(404);
    const rev = await outra.post(`/api/link_publico/${l.id}/revoga`, {});
    expect(rev.status).toBe(404);
    expect((await fetch(`${base}${PUBLIC}?token=${l.token}`)).status).toBe(200);
    const r = await semChave.get('/api/link_publico');
    expect(r.status).toBe(403);
    expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
  });

  it('pushed live through /publico: a new position of its asset arrives, another asset\'s does not', async () => {
    const l = await criar(admin, { descricao: 'Ao vivo', ativos: [a1.id], validoAte: future() });
    const p = await pagina(l.token);
    expect(p.erro).toBeNull();
    await expect.poll(() => p.estados.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(p.estados[0].ativos.map((r: any) => r.ativoId)).toEqual([a1.id]);
    await position(a1, -23.55, -46.65, 61);
    await position(b1, -22.95, -43.25, 70);
    await position(a2, -23.65, -46.75, 12);
    await expect.poll(() => p.estados.flatMap((m) => m.ativos).some((r: any) => r.latitude === -23.55 && r.velocidade === 61), { timeout: 15_000 }).toBe(true);
    const seen = new Set(p.estados.flatMap((m) => m.ativos.map((r: any) => r.ativoId)));
    expect([...seen]).toEqual([a1.id]);
  });

  it('revoked: the open page is told and dropped at once; the address answers 410 in pt-BR', async () => {
    const l = await criar(admin, { descricao: 'Revogar', ativos: [a1.id], validoAte: future() });
    const p = await pagina(l.token);
    expect(p.erro).toBeNull();
    const res = await admin.post(`/api/link_publico/${l.id}/revoga`, {});
    expect(res.status).toBe(200);
    await expect.poll(() => p.fim, { timeout: 10_000 }).toEqual(['Este link não é mais válido.']);
    await expect.poll(() => p.desligado(), { timeout: 10_000 }).toBe(true);
    const r = await fetch(`${base}${PUBLIC}?token=${l.token}`);
    expect(r.status).toBe(410);
    expect((await r.json()).msg).toBe('Este link não é mais válido.');
    const again = await pagina(l.token);
    expect(again.erro?.message).toBe('Este link não é mais válido.');
    const row = (await json(await admin.get(`/api/link_publico/${l.id}`)));
    expect(row.ativo).toBe(false);
  });

  it('Copiar link: a new address (answered once); the old one stops, its open page too', async () => {
    const l = await criar(admin, { descricao: 'Copiar', ativos: [a1.id], validoAte: future() });
    const p = await pagina(l.token);
    const res = await admin.post(`/api/link_publico/${l.id}/copia`, {});
    expect(res.status).toBe(200);
    const b = await json(res);
    expect(b.token).toMatch(/^rst_/);
    expect(b.token).not.toBe(l.token);
    await expect.poll(() => p.fim, { timeout: 10_000 }).toEqual(['Este link não é mais válido.']);
    expect((await fetch(`${base}${PUBLIC}?token=${l.token}`)).status).toBe(404);
    expect((await fetch(`${base}${PUBLIC}?token=${b.token}`)).status).toBe(200);
  });

  it('Prorrogar: a future date only; expiry ends the open page by itself', async () => {
    const l = await criar(admin, { descricao: 'Expira', ativos: [a1.id], validoAte: future(4000) });
    const passado = await admin.post(`/api/link_publico/${l.id}/prorroga`, { validoAte: new Date(Date.now() - 60_000).toISOString() });
    expect(passado.status).toBe(422);
    expect((await json(passado)).msg).toBe('A nova validade deve ser uma data futura');
    const p = await pagina(l.token);
    expect(p.erro).toBeNull();
    await expect.poll(() => p.fim, { timeout: 15_000 }).toEqual(['Este link não é mais válido.']);
    expect((await fetch(`${base}${PUBLIC}?token=${l.token}`)).status).toBe(410);
    // extended again: the same address opens
    const ok = await admin.post(`/api/link_publico/${l.id}/prorroga`, { validoAte: future() });
    expect(ok.status).toBe(200);
    expect((await fetch(`${base}${PUBLIC}?token=${l.token}`)).status).toBe(200);
  });

  // Last: it blocks this address for the rest of the file.
  it('wrong tokens are rate-limited like failed sign-ins (429, pt-BR), the valid one too while blocked', async () => {
    const l = await criar(admin, { descricao: 'Bloqueio', ativos: [a1.id], validoAte: future() });
    // 30 failures per address (the file made one before: the replaced address of Copiar link).
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await fetch(`${base}${PUBLIC}?token=rst_${crypto.randomBytes(32).toString('base64url')}`)).status);
    expect(statuses.slice(0, 29)).toEqual(Array(29).fill(404));
    expect(statuses[29]).toBe(429);
    const r = await fetch(`${base}${PUBLIC}?token=nada`);
    expect(r.status).toBe(429);
    expect((await r.json()).msg).toMatch(/^Muitas tentativas com links inválidos\. Tente novamente em \d+ minuto\(s\)\.$/);
    expect((await fetch(`${base}${PUBLIC}?token=${l.token}`)).status).toBe(429);
    const p = await pagina(l.token);
    expect(p.erro?.message).toMatch(/^Muitas tentativas/);
  });
});
