// Background jobs over real HTTP and the real socket: start (kind key, 403), progress pushed to the user's sockets,
// the job's company scope (RLS), another company's job 404, cancel, and a job started before a restart finishing
// after it (pg-boss retries the interrupted job on the new server).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectIo, type Socket } from 'socket.io-client';
import { json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { SOCKET_PATH } from '../realtime/index.ts';
import { HttpError } from '../http/envelope.ts';
import { JOB_PUSH, JobError, registerJobKind } from './index.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A test kind: counts `passos` steps of `espera` ms, reporting each; reads the company's assets through ctx.sql (RLS).
registerJobKind({
  name: 'teste_contagem',
  permission: 'tlm.fro.ativo.editar',
  describe: (d: { passos: number }) => `Contagem de teste (${d.passos} passos)`,
  prepare: async (raw) => {
    const d = raw as { passos?: unknown; espera?: unknown; falha?: unknown };
    if (!Number.isInteger(d.passos) || (d.passos as number) < 1) throw new HttpError(400, 'Informe o número de passos');
    return { passos: d.passos as number, espera: Number(d.espera ?? 0), falha: !!d.falha };
  },
  handler: async (ctx) => {
    const [{ n }] = await ctx.sql('SELECT count(*)::int AS n FROM ativo');
    for (let i = 1; i <= ctx.data.passos; i++) {
      await sleep(ctx.data.espera);
      if (ctx.data.falha && i === 2) throw new JobError('Falha proposital no passo 2');
      await ctx.progress(i, ctx.data.passos, `Passo ${i} de ${ctx.data.passos}`);
    }
    return `Contou ${ctx.data.passos} passos; ${n} ativos na empresa`;
  },
});

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number, ativosA: number;
let userA: Api, userB: Api, semChave: Api;
const sockets: Socket[] = [];
const keys = ['tlm.fro.ativo.editar', 'adm.sis.tarefa.lista', 'adm.sis.tarefa.visualizar', 'adm.sis.tarefa.cancela'];

async function login() {
  userA = await ts.login('tarefa_a', 'senha-teste-123');
  userB = await ts.login('tarefa_b', 'senha-teste-123');
  semChave = await ts.login('tarefa_sem', 'senha-teste-123');
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id LIMIT 2')).rows.map((r) => r.id);
  ativosA = (await pool.query('SELECT count(*)::int n FROM ativo WHERE empresa_id = $1', [A])).rows[0].n;
  const ambiente = (await pool.query('SELECT ambiente_id FROM empresa WHERE id = $1', [A])).rows[0].ambiente_id;
  await ts.createUser({ login: 'tarefa_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'tarefa_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'tarefa_sem', ambienteId: ambiente, empresas: [A], permissoes: keys.filter((k) => k !== 'tlm.fro.ativo.editar') });
  await login();
});

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await pool?.end();
  await ts?.stop();
});

/** A socket of the user collecting the `tarefa` pushes. */
async function listen(api: Api): Promise<{ pushes: any[] }> {
  const s = connectIo(ts.url.replace('localhost', '127.0.0.1'), { path: SOCKET_PATH, auth: { token: api.token }, transports: ['websocket'] });
  sockets.push(s);
  const out = { pushes: [] as any[] };
  s.on(JOB_PUSH, (p) => out.pushes.push(p));
  await new Promise<void>((res, rej) => { s.once('connect', () => res()); s.once('connect_error', rej); });
  return out;
}

const start = (api: Api, body: unknown) => api.post('/api/tarefa/inicia/teste_contagem', body);
const one = async (api: Api, id: number) => json(await api.get(`/api/tarefa/${id}`));

describe('background jobs', () => {
  it('runs in the company, pushes its progress to the user’s socket, ends concluded at 100 %', async () => {
    const sock = await listen(userA);
    const other = await listen(userB);
    const r = await start(userA, { passos: 5, espera: 300 });
    expect(r.status).toBe(201);
    const job = await json(r);
    expect(job).toMatchObject({ tipo: 'teste_contagem', descricao: 'Contagem de teste (5 passos)', estado: 'na_fila', progresso: 0 });
    await expect.poll(() => sock.pushes.filter((p) => p.id === job.id).at(-1)?.estado, { timeout: 20_000 }).toBe('concluido');
    const mine = sock.pushes.filter((p) => p.id === job.id);
    expect(mine[0].estado).toBe('executando');
    const pcts = mine.map((p) => p.progresso);
    expect(pcts).toEqual([...pcts].sort((a, b) => a - b));
    // every step reported (300 ms apart, beyond the push throttle), then the concluded state
    expect(pcts.filter((p) => p > 0)).toEqual([20, 40, 60, 80, 100, 100]);
    expect(mine.map((p) => p.estado).slice(-2)).toEqual(['executando', 'concluido']);
    expect(mine.at(-1)).toMatchObject({ progresso: 100, feito: 5, total: 5, resultado: `Contou 5 passos; ${ativosA} ativos na empresa` });
    // the other company's user heard nothing
    expect(other.pushes).toEqual([]);
    const row = await one(userA, job.id);
    expect(row).toMatchObject({ estado: 'concluido', progresso: 100, tentativas: 1, resultado: `Contou 5 passos; ${ativosA} ativos na empresa` });
    expect(row.iniciadoEm).toBeTruthy();
    expect(row.terminadoEm).toBeTruthy();
    // the list: the company's jobs with the user's name, not an id
    const list = await json(await userA.get('/api/tarefa'));
    expect(list.find((x: any) => x.id === job.id)._labels.usuario).toBe('tarefa_a');
  });

  it('another company’s job is 404 (get, cancel) and absent from its list; without the kind’s key: 403', async () => {
    const job = await json(await start(userA, { passos: 1 }));
    expect((await userB.get(`/api/tarefa/${job.id}`)).status).toBe(404);
    expect((await userB.post(`/api/tarefa/${job.id}/cancela`)).status).toBe(404);
    expect((await json(await userB.get('/api/tarefa'))).map((x: any) => x.id)).not.toContain(job.id);
    const r = await start(semChave, { passos: 1 });
    expect([r.status, (await json(r)).msg]).toEqual([403, 'Você não tem permissão para fazer isso']);
    const u = await userA.post('/api/tarefa/inicia/nao_existe', {});
    expect([u.status, (await json(u)).msg]).toEqual([404, 'Tipo de tarefa desconhecido']);
    const bad = await start(userA, { passos: 0 });
    expect([bad.status, (await json(bad)).msg]).toEqual([400, 'Informe o número de passos']);
    await expect.poll(async () => (await one(userA, job.id)).estado).toBe('concluido');
  });

  it('a failing handler ends failed with its pt-BR message', async () => {
    const job = await json(await start(userA, { passos: 4, falha: true }));
    await expect.poll(async () => (await one(userA, job.id)).estado, { timeout: 15_000 }).toBe('falhou');
    expect(await one(userA, job.id)).toMatchObject({ erro: 'Falha proposital no passo 2', progresso: 25, tentativas: 1 });
  });

  it('cancel stops the running handler at its next report', async () => {
    const sock = await listen(userA);
    const job = await json(await start(userA, { passos: 50, espera: 100 }));
    await expect.poll(async () => (await one(userA, job.id)).progresso, { timeout: 15_000 }).toBeGreaterThan(0);
    const c = await userA.post(`/api/tarefa/${job.id}/cancela`);
    expect(c.status).toBe(200);
    expect((await json(c)).estado).toBe('cancelado');
    await expect.poll(() => sock.pushes.filter((p) => p.id === job.id).at(-1)?.estado).toBe('cancelado');
    await ts.tarefas.idle();
    const row = await one(userA, job.id);
    expect(row).toMatchObject({ estado: 'cancelado', mensagem: 'Cancelada pelo usuário' });
    expect(row.feito).toBeLessThan(50);
    // settled: nothing runs on it any more
    await sleep(400);
    expect((await one(userA, job.id)).feito).toBe(row.feito);
    // a finished job cannot be cancelled
    expect((await userA.post(`/api/tarefa/${job.id}/cancela`)).status).toBe(409);
  });

  it('a job started before a restart finishes after it (pg-boss retries it on the new server)', async () => {
    const job = await json(await start(userA, { passos: 20, espera: 150 }));
    await expect.poll(async () => (await one(userA, job.id)).progresso, { timeout: 15_000 }).toBeGreaterThan(0);
    const url = ts.databaseUrl;
    await ts.close(); // the server stops: the handler is interrupted, its job goes back to the queue
    const mid = (await pool.query('SELECT estado, mensagem, tentativas FROM tarefa WHERE id = $1', [job.id])).rows[0];
    expect(mid).toEqual({ estado: 'na_fila', mensagem: 'Interrompida pela parada do servidor; será retomada', tentativas: 1 });
    ts = await startTestServer({ databaseUrl: url });
    await login();
    await expect.poll(async () => (await one(userA, job.id)).estado, { timeout: 30_000 }).toBe('concluido');
    expect(await one(userA, job.id)).toMatchObject({ progresso: 100, tentativas: 2, resultado: `Contou 20 passos; ${ativosA} ativos na empresa` });
  });
});
