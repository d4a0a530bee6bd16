// Latest states pushed over real sockets (issue 21): a write to telemetria.ultimo_estado reaches the sockets of its
// company that hold a key of the live map's provider — never another company's, never a socket without the key —
// batched per company (at most one message per LIVE_WINDOW_MS), with the provider's row shape.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { socketsOf } from '../test/sockets.ts';
import { ADMIN, startTestServer, type TestServer } from '../test/harness.ts';
import { LIVE_WINDOW_MS, type LiveMessage } from './index.ts';

let ts: TestServer;
let pool: pg.Pool;
let base: string;
let ambienteId: number;
let A: number, B: number;
const sockets = socketsOf(() => base);

beforeAll(async () => {
  ts = await startTestServer();
  base = ts.url.replace('localhost', '127.0.0.1');
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  const admin = await ts.login(ADMIN.login, ADMIN.senha);
  ambienteId = admin.user.ambienteId;
  A = admin.empresaAtiva;
  B = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== A);
});
afterEach(() => sockets.closeAll());
afterAll(async () => { await pool?.end(); await ts?.stop(); });

let n = 0;
/** A user of one company with these keys, its socket connected and joined to the company room. */
async function listener(empresa: number, permissoes: string[]) {
  const login = `live.user${++n}`;
  await ts.createUser({ login, senha: 'senha-live-123', ambienteId, empresas: [empresa], permissoes });
  const api = await ts.login(login, 'senha-live-123');
  expect(api.empresaAtiva).toBe(empresa);
  const { s, got } = await sockets.join(api.token, empresa, 'ultimo_estado', (m: LiveMessage) => ({ at: Date.now(), m }));
  return { s, got, serials: () => got.flatMap((g) => g.m.rows.map((r) => String(r.serial))) };
}

const write = (serial: string, empresa: number, lat: number) => pool.query(
  `INSERT INTO telemetria.ultimo_estado (serial, empresa_id, lat, lon, speed, ignition, fix_time, ultima_comunicacao)
   VALUES ($1, $2, $3, -46.6, 37, true, now(), now())
   ON CONFLICT (serial) DO UPDATE SET lat = excluded.lat, empresa_id = excluded.empresa_id, fix_time = now(), ultima_comunicacao = now()`,
  [serial, empresa, lat]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ultimo_estado push', () => {
  it("reaches its company's sockets holding the key, with the provider's row — not the other company's, not a socket without the key", async () => {
    const a = await listener(A, ['tlm.ras.rastreamento_ao_vivo']);
    const b = await listener(B, ['tlm.ras.rastreamento_ao_vivo']);
    const semChave = await listener(A, ['tlm.fro.motorista.lista']);
    await write('LIVE-A-1', A, -23.51);
    await write('LIVE-B-1', B, -22.91);
    await expect.poll(() => a.serials(), { timeout: 15_000 }).toContain('LIVE-A-1');
    await expect.poll(() => b.serials(), { timeout: 15_000 }).toContain('LIVE-B-1');
    const row = a.got.flatMap((g) => g.m.rows).find((r) => r.serial === 'LIVE-A-1')!;
    expect(row).toMatchObject({ serial: 'LIVE-A-1', latitude: -23.51, longitude: -46.6, velocidade: 37, ignicao: true });
    expect(a.got.every((g) => g.m.empresaId === A && g.m.completo === false)).toBe(true);
    // what the others must never get, given time to arrive
    await sleep(LIVE_WINDOW_MS * 3);
    expect(a.serials()).not.toContain('LIVE-B-1');
    expect(b.serials()).not.toContain('LIVE-A-1');
    expect(b.got.every((g) => g.m.empresaId === B)).toBe(true);
    expect(semChave.got).toEqual([]);
  });

  it('a device moved to another company is pushed to the new company only', async () => {
    const a = await listener(A, ['tlm.fro.ativo.lista']);
    const b = await listener(B, ['tlm.ras.mapa_do_ativo']);
    await write('LIVE-MOVE', B, -10);
    await expect.poll(() => b.serials(), { timeout: 15_000 }).toContain('LIVE-MOVE');
    await sleep(LIVE_WINDOW_MS * 3);
    expect(a.serials()).not.toContain('LIVE-MOVE');
  });

  it('batches: 40 writes in 2 s reach a socket in a few messages, at least a window apart, naming every serial', async () => {
    const a = await listener(A, ['tlm.ras.rastreamento_ao_vivo']);
    const serials = Array.from({ length: 40 }, (_, i) => `LIVE-BATCH-${String(i).padStart(2, '0')}`);
    const t0 = Date.now();
    for (const s of serials) { await write(s, A, -23.6); await sleep(50); }
    const span = Date.now() - t0;
    await expect.poll(() => new Set(a.serials()).size, { timeout: 15_000 }).toBe(40);
    await sleep(LIVE_WINDOW_MS * 2);
    const at = a.got.map((g) => g.at);
    // one message per window at most: 40 writes in `span` ms give no more than span/window + 2 messages
    expect(at.length).toBeLessThanOrEqual(Math.ceil(span / LIVE_WINDOW_MS) + 2);
    expect(at.length).toBeLessThan(40);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(LIVE_WINDOW_MS - 50);
  });

  it("ouvir: a socket that listens to the live map only is put in that room alone; one that never said is in every room its keys allow; a bad list is 400", async () => {
    const keys = ['tlm.ras.rastreamento_ao_vivo', 'rel.ges.gestao_a_vista'];
    const login = `live.user${++n}`;
    await ts.createUser({ login, senha: 'senha-live-123', ambienteId, empresas: [A], permissoes: keys });
    const api = await ts.login(login, 'senha-live-123');
    const mapa = await sockets.join(api.token, A, 'ultimo_estado', (m: LiveMessage) => m.rows.map((r) => String(r.serial)));
    const gestaoDoMapa: unknown[] = [];
    mapa.s.on('gestao_estado', (m) => gestaoDoMapa.push(m));
    expect(await mapa.s.timeout(30_000).emitWithAck('ouvir', ['ultimo_estado', 'tarefa'])).toEqual({ status: 200, msg: 'ok' });
    // (the dashboard's rows are vehicles: this state of no vehicle comes as a message without rows)
    const todos = await sockets.join(api.token, A, 'gestao_estado', (m: LiveMessage) => m.empresaId);
    await write('LIVE-OUVIR-1', A, -23.4);
    await expect.poll(() => mapa.got.flat(), { timeout: 15_000 }).toContain('LIVE-OUVIR-1');
    await expect.poll(() => todos.got, { timeout: 15_000 }).toContain(A);
    await sleep(LIVE_WINDOW_MS * 3);
    expect(gestaoDoMapa).toEqual([]);
    // a screen of the dashboards opens: its room too, at once
    expect(await mapa.s.timeout(30_000).emitWithAck('ouvir', ['gestao_estado', 'ultimo_estado'])).toEqual({ status: 200, msg: 'ok' });
    await write('LIVE-OUVIR-2', A, -23.4);
    await expect.poll(() => gestaoDoMapa.length, { timeout: 15_000 }).toBeGreaterThan(0);
    for (const bad of ['ultimo_estado', [1], Array.from({ length: 101 }, (_, i) => `e${i}`)]) {
      expect(await mapa.s.timeout(30_000).emitWithAck('ouvir', bad)).toEqual({ status: 400, msg: 'Lista de eventos inválida' });
    }
  });

  it('a user who loses the key stops receiving at once', async () => {
    const login = `live.user${++n}`;
    const id = await ts.createUser({ login, senha: 'senha-live-123', ambienteId, empresas: [A], permissoes: ['tlm.ras.rastreamento_ao_vivo'] });
    const api = await ts.login(login, 'senha-live-123');
    const { s, got } = await sockets.join(api.token, A, 'ultimo_estado', (m: LiveMessage) => m.rows.map((r) => String(r.serial)));
    const changed = new Promise((r) => s.once('permissoes_alteradas', r));
    await write('LIVE-KEY-1', A, -23.7);
    await expect.poll(() => got.flat(), { timeout: 15_000 }).toContain('LIVE-KEY-1');
    const admin = await ts.login(ADMIN.login, ADMIN.senha);
    const row = await (await admin.get(`/api/usuario/${id}`)).json();
    expect((await admin.put(`/api/usuario/${id}`, { ...row, permissoesExtras: ['tlm.fro.motorista.lista'] })).status).toBe(200);
    await changed;
    await sleep(300); // the server re-reads the session and leaves the live room
    await write('LIVE-KEY-2', A, -23.7);
    await sleep(LIVE_WINDOW_MS * 4);
    expect(got.flat()).not.toContain('LIVE-KEY-2');
  });
});
