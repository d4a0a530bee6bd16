// The alarm console and the heat map over real HTTP and real sockets: alarms are the events whose library entry
// has a risk; a company's alarms only (another company's: never listed, 404 to take); 403 without the key;
// take → close with the treatment row (users and times) and the history list; 409 on a second take; the take is
// pushed to the other consoles of the company and to no other company; the heat map's grid counts.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { socketsOf } from '../../../server/test/sockets.ts';
import { startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { LIVE_WINDOW_MS, type LiveMessage } from '../../../server/realtime/index.ts';
import { passo } from './calor.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number, ambienteId: number, ativoA: number, ativoB: number, placaA: string;
let op1: Api, op2: Api, opB: Api, semChave: Api;
const sockets = socketsOf(() => ts.url);
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const T = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
const idOf = (serial: string, at: Date, code: string) => `${serial}|${at.getTime()}|${code}`;

/** An event as the gateway writes it, and the latest state (whose trigger publishes the serial on the bus). */
async function evento(serial: string, empresa: number, ativo: number, key: string, at: Date, code = key) {
  await q(`INSERT INTO telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, lat, lon, speed)
    VALUES ($1, $2, $3, $4, '', $5, $6, -23.55, -46.63, 12)`, [serial, at, code, key, empresa, ativo]);
  await q(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, lat, lon, speed, fix_time, ultima_comunicacao, ultimo_evento)
    VALUES ($1, $2, $3, -23.55, -46.63, 12, $4, now(), $5)
    ON CONFLICT (serial) DO UPDATE SET fix_time = excluded.fix_time, ultima_comunicacao = now(), ultimo_evento = excluded.ultimo_evento`,
  [serial, empresa, ativo, at, key]);
}

let n = 0;
async function operador(empresa: number, permissoes: string[]) {
  const login = `alarme.op${++n}`;
  await ts.createUser({ login, senha: 'senha-alarme-123', ambienteId, empresas: [empresa], permissoes });
  return ts.login(login, 'senha-alarme-123');
}
async function socket(api: Api) {
  const { got } = await sockets.join<LiveMessage>(api.token, api.empresaAtiva, 'alarme');
  return { got, rows: () => got.flatMap((m) => m.rows) };
}
const list = async (api: Api, path: string) => {
  const r = await api.get(path);
  expect(r.status).toBe(200);
  return (await r.json()) as any[];
};

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ambienteId = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  ({ id: ativoA, placa: placaA } = (await q('SELECT id, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0]);
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  const keys = ['tlm.evt.console_de_alarmes', 'tlm.evt.historico_de_tratamento.lista', 'tlm.evt.mapa_de_calor'];
  op1 = await operador(A, keys);
  op2 = await operador(A, keys);
  opB = await operador(B, keys);
  semChave = await operador(A, ['tlm.fro.ativo.lista']);
});
afterEach(() => sockets.closeAll());
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('alarm console', () => {
  it('lists the company\'s alarms only (library entries with a risk), with the risk from the library', async () => {
    await evento('ALM-A1', A, ativoA, 'panic', T);
    await evento('ALM-A1', A, ativoA, 'ignitionOn', new Date(T.getTime() + 1000)); // not an alarm
    await evento('ALM-A1', A, ativoA, 'frontal_collision_l2', new Date(T.getTime() + 2000), '601');
    await evento('ALM-B1', B, ativoB, 'panic', T);
    const rows = await list(op1, '/api/alarmes?sort=["dataEvento","ASC"]');
    expect(rows.map((r) => [r.serial, r.evento, r.risco, r.situacao, r.placa])).toEqual([
      ['ALM-A1', 'panic', 'alto', 'aberto', placaA],
      ['ALM-A1', 'frontal_collision_l2', 'médio', 'aberto', placaA],
    ]);
    expect(rows[0]).toMatchObject({ id: idOf('ALM-A1', T, 'panic'), descricao: 'Botão de pânico (SOS) acionado', latitude: -23.55 });
    expect((await list(opB, '/api/alarmes')).map((r) => r.serial)).toEqual(['ALM-B1']);
  });

  it('403 without the key (console, take, history, heat map)', async () => {
    expect((await semChave.get('/api/alarmes')).status).toBe(403);
    const r = await semChave.post('/api/alarmes/assumir', { id: idOf('ALM-A1', T, 'panic') });
    expect(r.status).toBe(403);
    expect((await r.json()).msg).toMatch(/permissão/i);
    expect((await semChave.get('/api/tratamento_alarme')).status).toBe(403);
    expect((await semChave.get('/api/alarmes/mapa_de_calor?inicio=2020-01-01&fim=2020-01-02')).status).toBe(403);
  });

  it("another company's alarm cannot be taken (404) and its treatment never shows", async () => {
    const r = await op1.post('/api/alarmes/assumir', { id: idOf('ALM-B1', T, 'panic') });
    expect(r.status).toBe(404);
    expect((await r.json()).msg).toBe('Alarme não encontrado');
    const ok = await opB.post('/api/alarmes/assumir', { id: idOf('ALM-B1', T, 'panic') });
    expect(ok.status).toBe(200);
    expect((await list(op1, '/api/tratamento_alarme')).map((t) => t.serial)).not.toContain('ALM-B1');
    // a non-alarm event is not an alarm either
    expect((await op1.post('/api/alarmes/assumir', { id: idOf('ALM-A1', new Date(T.getTime() + 1000), 'ignitionOn') })).status).toBe(404);
  });

  it('take → 409 for the second operator → close by the taker, every step with user and time, listed in the history', async () => {
    const id = idOf('ALM-A1', T, 'panic');
    const t0 = Date.now();
    const r1 = await op1.post('/api/alarmes/assumir', { id });
    expect(r1.status).toBe(200);
    const j1 = await r1.json();
    expect(j1.msg).toBe('Alarme assumido');
    expect(j1.payload).toMatchObject({ situacao: 'assumido', assumidoPorId: op1.user.id, assumidoPor: op1.user.nome });
    const r2 = await op2.post('/api/alarmes/assumir', { id });
    expect(r2.status).toBe(409);
    expect((await r2.json()).msg).toBe(`Este alarme já foi assumido por ${op1.user.nome}`);
    // only the taker closes, with the text of what was done
    const c2 = await op2.post('/api/alarmes/encerrar', { id, tratamento: 'x' });
    expect(c2.status).toBe(409);
    expect((await c2.json()).msg).toBe(`Este alarme está em tratamento por ${op1.user.nome}; só quem o assumiu pode encerrá-lo`);
    const vazio = await op1.post('/api/alarmes/encerrar', { id, tratamento: '  ' });
    expect(vazio.status).toBe(400);
    expect((await vazio.json()).msg).toBe('O campo Tratamento é obrigatório');
    const c1 = await op1.post('/api/alarmes/encerrar', { id, tratamento: 'Contato com o motorista: alarme falso.' });
    expect(c1.status).toBe(200);
    expect((await op1.post('/api/alarmes/encerrar', { id, tratamento: 'de novo' })).status).toBe(409);
    expect((await op2.post('/api/alarmes/assumir', { id })).status).toBe(409);

    const [row] = await q('SELECT * FROM tratamento_alarme WHERE alarme = $1', [id]);
    expect(row).toMatchObject({ empresa_id: A, serial: 'ALM-A1', codigo: 'panic', evento: 'panic', risco: 'alto', ativo: ativoA,
      situacao: 'encerrado', assumido_por: op1.user.id, encerrado_por: op1.user.id, tratamento: 'Contato com o motorista: alarme falso.' });
    expect(row.data_evento.getTime()).toBe(T.getTime());
    expect(row.assumido_em.getTime()).toBeGreaterThanOrEqual(t0 - 1000);
    expect(row.encerrado_em.getTime()).toBeGreaterThanOrEqual(row.assumido_em.getTime());

    const hist = await list(op1, '/api/tratamento_alarme');
    expect(hist).toHaveLength(1);
    expect(hist[0]).toMatchObject({ placa: placaA, serial: 'ALM-A1', descricao: 'Botão de pânico (SOS) acionado', situacao: 'encerrado',
      _labels: { assumidoPor: op1.user.nome, encerradoPor: op1.user.nome } });
    // the closed alarm leaves the console's open list only after a while, marked encerrado
    const open = await list(op2, '/api/alarmes');
    expect(open.find((r) => r.id === id)).toMatchObject({ situacao: 'encerrado', tratamento: 'Contato com o motorista: alarme falso.' });
  });

  it('release: only the taker gives it back; it is open again, another operator takes it, every step kept', async () => {
    const id = idOf('ALM-A1', new Date(T.getTime() + 7777), 'panic');
    await evento('ALM-A1', A, ativoA, 'panic', new Date(T.getTime() + 7777));
    expect((await op1.post('/api/alarmes/liberar', { id })).status).toBe(409); // nobody holds it
    expect((await op1.post('/api/alarmes/assumir', { id })).status).toBe(200);
    const r2 = await op2.post('/api/alarmes/liberar', { id });
    expect(r2.status).toBe(409);
    expect((await r2.json()).msg).toBe(`Este alarme está em tratamento por ${op1.user.nome}; só quem o assumiu pode liberá-lo`);
    const r1 = await op1.post('/api/alarmes/liberar', { id });
    expect(r1.status).toBe(200);
    expect((await r1.json()).msg).toBe('Alarme liberado');
    expect((await list(op2, '/api/alarmes')).find((r) => r.id === id)).toMatchObject({ situacao: 'aberto', assumidoPorId: null, assumidoPor: null });
    // a released alarm cannot be closed before someone takes it again
    expect((await op1.post('/api/alarmes/encerrar', { id, tratamento: 'x' })).status).toBe(409);
    expect((await op2.post('/api/alarmes/assumir', { id })).status).toBe(200);
    expect((await list(op1, '/api/alarmes')).find((r) => r.id === id)).toMatchObject({ situacao: 'assumido', assumidoPorId: op2.user.id });
    expect((await op2.post('/api/alarmes/encerrar', { id, tratamento: 'Falso alarme: motorista confirmou.' })).status).toBe(200);
    const [row] = await q('SELECT situacao, assumido_por, encerrado_por, passos FROM tratamento_alarme WHERE alarme = $1', [id]);
    expect(row).toMatchObject({ situacao: 'encerrado', assumido_por: op2.user.id, encerrado_por: op2.user.id });
    expect(row.passos.map((p: any) => [p.acao, p.usuarioId, p.usuario])).toEqual([
      ['assumido', op1.user.id, op1.user.nome], ['liberado', op1.user.id, op1.user.nome],
      ['assumido', op2.user.id, op2.user.nome], ['encerrado', op2.user.id, op2.user.nome],
    ]);
    expect(row.passos[3].tratamento).toBe('Falso alarme: motorista confirmou.');
    expect(row.passos.every((p: any) => Date.parse(p.em) > Date.now() - 60_000)).toBe(true);
    // another company's operator cannot release it (404: not their alarm)
    expect((await opB.post('/api/alarmes/liberar', { id })).status).toBe(404);
    await q('DELETE FROM telemetria.evento WHERE serial = $1 AND fix_time = $2', ['ALM-A1', new Date(T.getTime() + 7777)]); // the heat map counts below
  });

  it('pushes: a new alarm and a take reach every console of the company at once, none of another company', async () => {
    const s1 = await socket(op1), s2 = await socket(op2), sB = await socket(opB);
    const at = new Date(T.getTime() + 60_000);
    const id = idOf('ALM-A2', at, 'towing');
    await evento('ALM-A2', A, ativoA, 'towing', at);
    await expect.poll(() => s2.rows().find((r) => r.id === id), { timeout: 15_000 }).toMatchObject({ situacao: 'aberto', risco: 'alto', placa: placaA });
    await expect.poll(() => s1.rows().some((r) => r.id === id), { timeout: 15_000 }).toBe(true);
    expect((await op1.post('/api/alarmes/assumir', { id })).status).toBe(200);
    await expect.poll(() => s2.rows().filter((r) => r.id === id).at(-1), { timeout: 15_000 })
      .toMatchObject({ situacao: 'assumido', assumidoPor: op1.user.nome, assumidoPorId: op1.user.id });
    await sleep(LIVE_WINDOW_MS * 3);
    expect(sB.got).toEqual([]);
    expect(s2.got.every((m) => m.empresaId === A)).toBe(true);
  });
});

describe('heat map', () => {
  it('counts positions per grid cell of the zoom, only the company\'s and the chosen assets\'', async () => {
    const day = new Date(Date.now() - 2 * 86_400_000);
    const pos = (serial: string, empresa: number, ativo: number, lat: number, lon: number, i: number) => q(
      `INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, valid) VALUES ($1, $2, 'fixo', $3, $4, $5, $6, true)`,
      [serial, new Date(day.getTime() + i * 1000), empresa, ativo, lat, lon]);
    for (let i = 0; i < 5; i++) await pos('CAL-A', A, ativoA, -23.5001, -46.6001, i);   // one cell, 5 fixes
    for (let i = 0; i < 2; i++) await pos('CAL-A', A, ativoA, -22.9, -43.2, 10 + i);     // another cell, 2
    for (let i = 0; i < 7; i++) await pos('CAL-B', B, ativoB, -23.5001, -46.6001, i);   // another company
    const zoom = 10, step = passo(zoom);
    const url = (api: Api, extra = '') => `/api/alarmes/mapa_de_calor?fonte=posicoes&inicio=${new Date(day.getTime() - 60_000).toISOString()}&fim=${new Date(day.getTime() + 3600_000).toISOString()}&zoom=${zoom}&bbox=-50,-30,-40,-20${extra}`;
    const r = await op1.get(url(op1, `&ativos=${ativoA}`));
    expect(r.status).toBe(200);
    const { payload } = await r.json();
    expect(payload.passo).toBeCloseTo(step, 10);
    expect(payload.total).toBe(7);
    expect(payload.maximo).toBe(5);
    expect(payload.celulas).toHaveLength(2);
    expect(payload.celulas[0].n).toBe(5);
    expect(payload.celulas[0].lat).toBeCloseTo((Math.floor(-23.5001 / step) + 0.5) * step, 9);
    expect(payload.celulas[0].lon).toBeCloseTo((Math.floor(-46.6001 / step) + 0.5) * step, 9);
    expect(payload.celulas[1]).toMatchObject({ n: 2 });
    // another asset's filter: nothing; the other company sees its 7 only; outside the bbox: nothing
    expect((await (await op1.get(url(op1, `&ativos=${ativoB}`))).json()).payload.total).toBe(0);
    expect((await (await opB.get(url(opB))).json()).payload).toMatchObject({ total: 7, maximo: 7 });
    const fora = await op1.get(url(op1).replace('bbox=-50,-30,-40,-20', 'bbox=0,0,10,10'));
    expect((await fora.json()).payload.total).toBe(0);
    const bad = await op1.get('/api/alarmes/mapa_de_calor?fonte=nada&inicio=2020-01-01&fim=2020-01-02');
    expect(bad.status).toBe(400);
    expect((await bad.json()).msg).toBe('Fonte inválida: use posicoes, eventos ou alarmes');
  });

  it('counts alarm events (fonte=alarmes) apart from every event', async () => {
    const base = `/api/alarmes/mapa_de_calor?inicio=${new Date(T.getTime() - 1000).toISOString()}&fim=${new Date(T.getTime() + 120_000).toISOString()}&zoom=12&ativos=${ativoA}`;
    const ev = (await (await op1.get(`${base}&fonte=eventos`)).json()).payload;
    const al = (await (await op1.get(`${base}&fonte=alarmes`)).json()).payload;
    expect(ev.total).toBe(4); // panic, ignitionOn, frontal_collision_l2, towing
    expect(al.total).toBe(3);
  });
});
