// Several API processes share socket.io rooms through Redis (issue 21, @socket.io/redis-adapter): two real API
// processes and a real gateway process on one database and the Redis at 127.0.0.1:6379 (TEST_REDIS_URL). A position
// produced by the gateway reaches a client on either process; a permissoes_alteradas caused through process 1 reaches a
// socket held by process 2; a public link revoked through process 1 ends its page open on process 2. Skipped — and said so — only when Redis does not answer.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectIo, type Socket } from 'socket.io-client';
import { ADMIN, createMigratedDatabase } from '../test/harness.ts';
import { freePort } from '../db/embedded.ts';
import { MSG, SOCKET_PATH } from './index.ts';
import { serverNodeArgs } from '../app/node-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => undefined);
  try { await r.connect(); return (await r.ping()) === 'PONG'; } catch { return false; } finally { r.disconnect(); }
}
const up = await redisAnswers();
if (!up) console.warn(`[cluster.redis.test] Redis em ${REDIS_URL} não responde: teste de vários processos PULADO`);

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
let pool: pg.Pool;
let api1: string, api2: string, gatewayPort: number;
let A: number;

/** A child process (tsx), its output kept for the failure message. */
function start(file: string, env: Record<string, string>): { child: ChildProcess; out: () => string } {
  const child = spawn(process.execPath, serverNodeArgs(file), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => { out = (out + d).slice(-20_000); });
  child.stderr!.on('data', (d) => { out = (out + d).slice(-20_000); });
  return { child, out: () => out };
}

async function ready(check: () => Promise<boolean>, p: { child: ChildProcess; out: () => string }, what: string) {
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (p.child.exitCode !== null) throw new Error(`${what} saiu (${p.child.exitCode}):\n${p.out()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} não ficou pronto:\n${p.out()}`);
}

const post = async (base: string, p: string, body: unknown, token?: string, method = 'POST') => {
  const r = await fetch(`${base}${p}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${j.msg}`);
  return j;
};
const login = async (base: string, l: string, senha: string) => (await post(base, '/api/auth/login', { login: l, senha })).payload;

function socket(base: string, token: string) {
  const s = connectIo(base, { path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
  sockets.push(s);
  return s;
}
const connected = (s: Socket) => new Promise<void>((res, rej) => { s.once('connect', () => res()); s.once('connect_error', rej); });

/** A GTFRI (position report) of imei sent over TCP to the gateway. */
async function frame(imei: string, lat: number, lon: number, speed: number) {
  const t = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const f = `+RESP:GTFRI,740904,${imei},GV350CEU,,10,1,1,${speed.toFixed(1)},90,672.9,${lon.toFixed(6)},${lat.toFixed(6)},${t},0730,0001,0836,002BEE06,01,12,775824.1,0000439:30:29,,,,100,221102,,,,${t},AA3C$`;
  await new Promise<void>((resolve, reject) => {
    const sock = net.connect(gatewayPort, '127.0.0.1', () => sock.end(f, () => resolve()));
    sock.on('error', reject);
  });
}

beforeAll(async () => {
  if (!up) return;
  const { url } = await createMigratedDatabase();
  pool = new pg.Pool({ connectionString: url, max: 2 });
  A = (await pool.query('SELECT min(id)::int AS id FROM empresa')).rows[0].id;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-cluster-'));
  const [p1, p2] = [await freePort(), await freePort()];
  gatewayPort = await freePort();
  // Same database, same Redis, same token secret (DATA_DIR): one system behind a balancer.
  const common = {
    DATABASE_URL: url, REDIS_URL, DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist'), HOST: '127.0.0.1',
    GATEWAY: 'off', DEMO: 'off', DEMO_SIMULATION: 'off', LOG_LEVEL: 'warn', LIVE_PUSH_MS: '200',
  };
  const s1 = start('server/main.ts', { ...common, PORT: String(p1) });
  const s2 = start('server/main.ts', { ...common, PORT: String(p2) });
  const gw = start('server/ingest/main.ts', {
    DATABASE_URL: url, REDIS_URL, GATEWAY_WORKERS: '1', LOG_LEVEL: 'warn', DATA_DIR: dataDir,
    QUECLINK_TCP_PORT: String(gatewayPort), QUECLINK_UDP_PORT: 'off', LEGACY_TCP_PORT: 'off', LEGACY_UDP_PORT: 'off', OSMAND_HTTP_PORT: 'off',
  });
  api1 = `http://127.0.0.1:${p1}`;
  api2 = `http://127.0.0.1:${p2}`;
  const http = (base: string) => async () => (await fetch(`${base}/api/auth/token_valido`)).status < 500;
  await Promise.all([ready(http(api1), s1, 'API 1'), ready(http(api2), s2, 'API 2'),
    ready(() => new Promise((res) => { const c = net.connect(gatewayPort, '127.0.0.1', () => { c.end(); res(true); }); c.on('error', () => res(false)); }), gw, 'gateway')]);
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await Promise.all(children.map((c) => new Promise<void>((res) => {
    if (c.exitCode !== null) return res();
    const t = setTimeout(() => c.kill('SIGKILL'), 10_000);
    c.once('exit', () => { clearTimeout(t); res(); });
    c.kill('SIGTERM');
  })));
  await pool?.end();
});

describe.skipIf(!up)('socket.io rooms across API processes (Redis adapter)', () => {
  it('a position produced by the gateway reaches a client connected to either process', async () => {
    const admin = await login(api1, ADMIN.login, ADMIN.senha);
    expect(admin.user.empresaAtiva).toBe(A);
    const imei = `8640015${String(Date.now()).slice(-8)}`;
    const ativoId = (await post(api1, '/api/ativo', { descricao: 'Caminhão do cluster', placa: `CLU${String(Date.now()).slice(-4)}` }, admin.token)).id;
    await post(api1, '/api/equipamento', { serial: imei, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true }, admin.token);
    await post(api1, '/api/equipamento_ativo', { serial: imei, ativoId, dataInicio: '2024-01-01T00:00:00Z' }, admin.token);
    const got: Record<string, number[]> = { p1: [], p2: [] };
    for (const [name, base] of [['p1', api1], ['p2', api2]] as const) {
      const s = socket(base, admin.token);
      s.on('ultimo_estado', (m: { empresaId: number; rows: { serial: string; latitude: number }[] }) => {
        for (const r of m.rows) if (r.serial === imei) got[name].push(r.latitude);
      });
      await connected(s);
      expect(await s.timeout(20_000).emitWithAck('join_room', A)).toEqual({ status: 200, msg: 'ok' });
    }
    await frame(imei, -23.123456, -46.654321, 48);
    await expect.poll(() => got.p1, { timeout: 20_000 }).toContain(-23.123456);
    await expect.poll(() => got.p2, { timeout: 20_000 }).toContain(-23.123456);
  });

  it('permissoes_alteradas caused through process 1 reaches the socket on process 2', async () => {
    const admin = await login(api1, ADMIN.login, ADMIN.senha);
    const l = `cluster.user${Date.now() % 100000}`;
    const u = await post(api1, '/api/usuario', { nome: 'Usuário do cluster', login: l, senha: 'Senha-cluster-123', empresas: [A], empresaAtiva: A, permissoesExtras: ['tlm.fro.ativo.lista'] }, admin.token);
    const user = await login(api2, l, 'Senha-cluster-123');
    const s = socket(api2, user.token);
    const pushes: { usuarioId: number; msg: string }[] = [];
    s.on('permissoes_alteradas', (m) => pushes.push(m));
    await connected(s);
    expect(await s.timeout(20_000).emitWithAck('set_user', u.id)).toEqual({ status: 200, msg: 'ok' });
    // The change goes through process 1 only.
    const row = (await (await fetch(`${api1}/api/usuario/${u.id}`, { headers: { authorization: `Bearer ${admin.token}` } })).json());
    await post(api1, `/api/usuario/${u.id}`, { ...row, permissoesExtras: ['tlm.fro.ativo.lista', 'tlm.fro.motorista.lista'] }, admin.token, 'PUT');
    await expect.poll(() => pushes, { timeout: 20_000 }).toEqual([{ usuarioId: u.id, msg: MSG.permissoesAlteradas }]);
  });

  it('a public link revoked through process 1 ends its page held by process 2', async () => {
    const admin = await login(api1, ADMIN.login, ADMIN.senha);
    const ativoId = (await pool.query('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A])).rows[0].id;
    const l = await post(api1, '/api/link_publico', { descricao: 'Link do cluster', ativos: [ativoId], validoAte: new Date(Date.now() + 3_600_000).toISOString() }, admin.token);
    const s = connectIo(`${api2}/publico`, { path: SOCKET_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: l.token } });
    sockets.push(s);
    const fim: string[] = [];
    s.on('link_encerrado', (m) => fim.push(m.msg));
    await connected(s);
    await post(api1, `/api/link_publico/${l.id}/revoga`, {}, admin.token);
    await expect.poll(() => fim, { timeout: 20_000 }).toEqual(['Este link não é mais válido.']);
    await expect.poll(() => s.connected, { timeout: 20_000 }).toBe(false);
  });
});
