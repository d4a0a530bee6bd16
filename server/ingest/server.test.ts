// Gateway + named calls against the real server schema (generated equipamento tables, seed, auth, tenancy).
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../app/env.ts';
import { HttpError } from '../http/envelope.ts';
import { ADMIN, createDatabase, json, LEITOR, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { getModel } from '../core/registry.ts';
import { mountProviders } from '../crud/provider.ts';
import { providers } from '../calls/index.ts';
import { startGateway, type Gateway } from './index.ts';
import { QueclinkVehicle, startDemoSimulation } from './simulator.ts';
import { FakeDevice, until } from './testing/device.ts';
import { crc16 } from '../../protocol/crc16.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let app: Hono<AppEnv>;
let admin: Api;
let empresas: number[];
let ativoA: number, ativoB: number;
const SERIAL_A = '864000000000101';
const SERIAL_B = '864000000000202';

/** The providers' named calls mounted like server/app does (modules/vinculo, modules/rastreamento among them). */
function callsApp(): Hono<AppEnv> {
  const a = new Hono<AppEnv>();
  a.use('/api/*', async (c, next) => { c.set('em', ts.orm.em.fork()); c.set('log', ts.log); await next(); });
  const api = new Hono<AppEnv>();
  mountProviders(api, getModel().providers ?? [], providers);
  a.route('/api', api);
  a.onError((err, c) => (err instanceof HttpError ? c.json({ status: err.status, msg: err.message, payload: null }, err.status) : c.json({ msg: String(err) }, 500)));
  return a;
}
const call = async (u: Api, p: string) => { const r = await app.request(p, { headers: u.headers() }); return { status: r.status, body: await r.json() as any }; };

beforeAll(async () => {
  const url = await createDatabase();
  ts = await startTestServer({ databaseUrl: url });
  pool = new pg.Pool({ connectionString: url, max: 2 });
  gw = await startGateway({ databaseUrl: url, host: '127.0.0.1', ports: { queclinkTcp: 0, osmandHttp: null }, writer: { lingerMs: 5 }, commands: { pollMs: 100 } });
  app = callsApp();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  empresas = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  ativoA = (await pool.query('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [empresas[0]])).rows[0].id;
  ativoB = (await pool.query('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [empresas[1]])).rows[0].id;
  // the demo links a Queclink tracker to every vehicle: free both assets for the test's own (one open link per technology)
  await pool.query("UPDATE equipamento_ativo SET data_fim = now() - interval '2 hours' WHERE ativo_id = ANY($1) AND data_fim IS NULL", [[ativoA, ativoB]]);
  // Registered through the generated CRUD API, like a user would.
  for (const [serial, ativoId, empresa] of [[SERIAL_A, ativoA, empresas[0]], [SERIAL_B, ativoB, empresas[1]]] as const) {
    const u = ts.as(admin.token, empresa);
    const r1 = await u.put('/api/usuario/empresa_ativa', { empresaAtiva: empresa }).catch(() => null);
    void r1;
    const eq = await u.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
    if (eq.status !== 201 && eq.status !== 200) {
      // Session bound to the first company: fall back to a direct insert for the second one.
      await ts.insert('equipamento', { empresaId: empresa, serial, tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
      await ts.insert('equipamento_ativo', { empresaId: empresa, serial, ativoId, dataInicio: new Date(Date.now() - 3600_000) });
    } else {
      const link = await u.post('/api/equipamento_ativo', { serial, ativoId, dataInicio: new Date(Date.now() - 3600_000).toISOString() });
      expect(link.status, JSON.stringify(await json(link))).toBeLessThan(300);
    }
  }
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('gateway with the real schema, and the named calls', () => {
  it('stores Queclink reports of registered devices and answers by serial / by asset / latest state', async () => {
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const v = new QueclinkVehicle(SERIAL_A, 'gv58cg', 1, Date.now() - 60_000);
    const frames = [...v.step(Date.now() - 30_000), ...v.step(Date.now() - 20_000), ...v.step(Date.now() - 10_000)];
    await d.send(frames.join(''));
    await until(() => d.count('+SACK:') === frames.length);
    const pos = await pool.query('SELECT * FROM telemetria.posicao WHERE serial = $1', [SERIAL_A]);
    expect(pos.rows.length).toBeGreaterThanOrEqual(2);
    expect(pos.rows[0]).toMatchObject({ empresa_id: empresas[0], ativo_id: ativoA });
    expect(pos.rows[0].lat).toBeGreaterThan(-23.7);
    expect(pos.rows[0].lat).toBeLessThan(-23.4);

    const s = await call(admin, `/api/equipamento_ativo/por_serial/${SERIAL_A}`);
    expect(s.status).toBe(200);
    expect(s.body.payload).toMatchObject({ serial: SERIAL_A, ativoId: ativoA, modelo: 'gv58cg' });
    const byAsset = await call(admin, `/api/equipamento_ativo/por_ativo/${ativoA}`);
    // the demo seed's tracker of this asset is linked too
    expect(byAsset.body.payload.every((x: any) => x.ativoId === ativoA)).toBe(true);
    expect(byAsset.body.payload.filter((x: any) => x.serial === SERIAL_A)).toEqual([expect.objectContaining({ serial: SERIAL_A, ativoId: ativoA })]);
    const live = await call(admin, '/api/rastreamento/ultimo_estado');
    expect(live.status).toBe(200);
    const mine = live.body.payload.find((x: any) => x.serial === SERIAL_A);
    expect(mine).toMatchObject({ ativoId: ativoA, protocolo: 'queclink', modelo: 'gv58cg' });
    expect(mine.placa).toBeTruthy();
    expect(typeof mine.latitude).toBe('number');
    // equipamento.ultimaComunicacao is kept up to date (throttled)
    expect((await pool.query('SELECT ultima_comunicacao FROM equipamento WHERE serial = $1', [SERIAL_A])).rows[0].ultima_comunicacao).not.toBeNull();
    d.close();
  });

  it('is tenancy-scoped: another company’s device is invisible', async () => {
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const v = new QueclinkVehicle(SERIAL_B, 'gv58cg', 2, Date.now() - 60_000);
    const f = v.fri(new Date(Date.now() - 5000));
    await d.send(f);
    await d.waitFor('+SACK:');
    expect((await call(admin, `/api/equipamento_ativo/por_serial/${SERIAL_B}`)).status).toBe(404);
    expect((await call(admin, `/api/equipamento_ativo/por_ativo/${ativoB}`)).body.payload).toEqual([]);
    const live = await call(admin, '/api/rastreamento/ultimo_estado');
    expect(live.body.payload.some((x: any) => x.serial === SERIAL_B)).toBe(false);
    d.close();
  });

  it('checks permissions', async () => {
    const uid = await ts.createUser({ login: 'semacesso', senha: 'senha-teste-123', ambienteId: (await pool.query('SELECT id FROM ambiente LIMIT 1')).rows[0].id, empresas: [empresas[0]!], permissoes: [] });
    void uid;
    const u = await ts.login('semacesso', 'senha-teste-123');
    expect((await call(u, `/api/equipamento_ativo/por_serial/${SERIAL_A}`)).status).toBe(403);
    expect((await call(u, '/api/rastreamento/ultimo_estado')).status).toBe(403);
    const anon = await app.request('/api/rastreamento/ultimo_estado');
    expect(anon.status).toBe(401);
    const leitor = await ts.login(LEITOR.login, LEITOR.senha);
    const r = await call(leitor, '/api/rastreamento/ultimo_estado');
    expect([200, 403]).toContain(r.status);
  });

  it('keeps unknown devices in equipamento_pendente, listed by the generated API', async () => {
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const v = new QueclinkVehicle('864999999999999', 'gv50cg', 3);
    await d.send(v.fri(new Date(Date.now() - 1000)) + v.fri(new Date()));
    await until(() => d.count('+SACK:') === 2);
    const res = await admin.get('/api/equipamento_pendente');
    const body = await json(res);
    expect(res.status).toBe(200);
    const list = Array.isArray(body) ? body : body.payload ?? body.data;
    expect(JSON.stringify(list)).toContain('864999999999999');
    expect((await pool.query(`SELECT quantidade FROM equipamento_pendente WHERE serial = '864999999999999'`)).rows[0].quantidade).toBe(2);
    expect((await pool.query(`SELECT count(*)::int n FROM telemetria.posicao WHERE serial = '864999999999999'`)).rows[0].n).toBe(0);
    d.close();
  });

  /** SERIAL_A connected and reporting, and a reboot queued for it through the API: the device, its vehicle, the row id. */
  async function connectedWithReboot() {
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const v = new QueclinkVehicle(SERIAL_A, 'gv58cg', 1);
    await d.send(v.fri(new Date()));
    await d.waitFor('+SACK:');
    const res = await admin.post('/api/fila_processamento', { serial: SERIAL_A, event: 'reboot', value: {} });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBeLessThan(300);
    return { d, v, id: Number((body.payload ?? body).id) };
  }

  it('sends a queued command created through the API and marks it done on the device ack', async () => {
    const { d, v, id } = await connectedWithReboot();
    await d.waitFor(/AT\+GTRTO=gv58cg,3,[^$]*\$/);
    const cmd = /AT\+GTRTO=[^$]*\$/.exec(d.received)![0];
    await d.send(v.ackFor(cmd)!);
    await until(async () => (await pool.query('SELECT status FROM fila_processamento WHERE id = $1', [id])).rows[0].status === 'concluido');
    d.close();
    await until(() => gw.metrics.connections === 0);
    // Cancelled through the generated action while the device is away: never sent.
    const res2 = await admin.post('/api/fila_processamento', { serial: SERIAL_A, event: 'engineBlock', value: {} });
    const b2 = await json(res2);
    const id2 = Number((b2.payload ?? b2).id);
    const cancel = await admin.post(`/api/fila_processamento/${id2}/cancela`, {});
    expect(cancel.status, JSON.stringify(await json(cancel))).toBeLessThan(300);
    expect((await pool.query('SELECT status FROM fila_processamento WHERE id = $1', [id2])).rows[0].status).toBe('cancelado');
    const d2 = await FakeDevice.connect(gw.ports.queclinkTcp);
    await d2.send(v.fri(new Date()));
    await d2.waitFor('+SACK:');
    // a command queued after it reaches the device: the queue was read for it, in id order, and the cancelled one
    // was not sent
    const res3 = await admin.post('/api/fila_processamento', { serial: SERIAL_A, event: 'reboot', value: {} });
    const b3 = await json(res3);
    expect(res3.status, JSON.stringify(b3)).toBeLessThan(300);
    const id3 = Number((b3.payload ?? b3).id);
    await d2.waitFor(/AT\+GTRTO=gv58cg,3,[^$]*\$/);
    expect(d2.has('GTOUT')).toBe(false);
    await d2.send(v.ackFor(/AT\+GTRTO=[^$]*\$/.exec(d2.received)![0])!);
    await until(async () => (await pool.query('SELECT status FROM fila_processamento WHERE id = $1', [id3])).rows[0].status === 'concluido');
    d2.close();
  });

  it('a device in HEX mode acknowledges a queued command with a binary +ACK: the command is done', async () => {
    const { d, id } = await connectedWithReboot();
    await d.waitFor(new RegExp(`AT\\+GTRTO=gv58cg,3,[^$]*${(id & 0xffff).toString(16).toUpperCase().padStart(4, '0')}\\$`));
    // +ACK, type 16 (GTRTO), mask 6F (IMEI), device type 4B, versions, the IMEI as decimal pairs, id, serial, time, count
    const imei = SERIAL_A.slice(0, 14).match(/../g)!.map(Number).concat(Number(SERIAL_A[14]));
    const t = new Date();
    const body = Buffer.from([0x10, 0x6f, 0, 0x4b, 3, 5, 3, 0x18, ...imei, 0, (id >> 8) & 255, id & 255,
      t.getUTCFullYear() >> 8, t.getUTCFullYear() & 255, t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds(), 0, 0x42, 0, 0, 13, 10]);
    const frame = Buffer.concat([Buffer.from('+ACK', 'latin1'), body]);
    frame[6] = frame.length;
    frame.writeUInt16BE(crc16(frame, 4, frame.length - 4), frame.length - 4);
    await d.send(frame);
    await until(async () => (await pool.query('SELECT status FROM fila_processamento WHERE id = $1', [id])).rows[0].status === 'concluido');
    d.close();
    await until(() => gw.metrics.connections === 0);
  });

  it("writes a configuration model to a connected device: its model's commands, in order, each done on its ack", async () => {
    const modelo = (await pool.query(`SELECT id FROM modelo WHERE codigo = 'gv58cg'`)).rows[0].id;
    const templates = 'AT+GTFRI={senha},1,0,,,0000,0000,{intervaloIgnicaoLigada},{intervaloIgnicaoLigada},,,,,0,{intervaloIgnicaoDesligada},{serial}$\n'
      + 'AT+GTTOW={senha},{tempoAntifurto},{serial}$';
    expect((await admin.put(`/api/modelo/${modelo}`, { comandosConfiguracao: templates })).status).toBe(200);
    const Q = '/api/modelo_de_configuracao/queclink/gv58cg';
    const config = (await json(await admin.post(Q, { descricao: 'Rodovia', intervaloIgnicaoLigada: 30, tempoAntifurto: 120 }))).id;
    const equipamento = (await pool.query('SELECT id FROM equipamento WHERE serial = $1', [SERIAL_A])).rows[0].id;
    const applied = await admin.post(`${Q}/${config}/aplicar_configuracao`, { equipamentos: [equipamento] });
    expect(applied.status).toBe(201);
    const ids = (await applied.json()).map((r: any) => Number(r.id));
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const v = new QueclinkVehicle(SERIAL_A, 'gv58cg', 1);
    await d.send(v.fri(new Date()));
    const hex = (id: number) => (id & 0xffff).toString(16).toUpperCase().padStart(4, '0');
    await d.waitFor(`AT+GTTOW=gv58cg,120,${hex(ids[1]!)}$`);
    const sent = d.received.match(/AT\+GT[A-Z]{3}=[^$]*\$/g)!.filter((c) => !c.startsWith('AT+GTRTO'));
    expect(sent).toEqual([`AT+GTFRI=gv58cg,1,0,,,0000,0000,30,30,,,,,0,3600,${hex(ids[0]!)}$`, `AT+GTTOW=gv58cg,120,${hex(ids[1]!)}$`]);
    for (const cmd of sent) await d.send(v.ackFor(cmd)!);
    await until(async () => (await pool.query(`SELECT count(*)::int n FROM fila_processamento WHERE id = ANY($1) AND status = 'concluido'`, [ids])).rows[0].n === 2);
    d.close();
    await until(() => gw.metrics.connections === 0);
  });

  it('Ler do equipamento: the configuration the device reports (+RESP:GTALL) is the answer of the read', async () => {
    const res = await admin.post('/api/fila_processamento', { serial: SERIAL_A, event: 'readConfig', value: {} });
    expect(res.status).toBe(201);
    const id = Number((await res.json()).id);
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const v = new QueclinkVehicle(SERIAL_A, 'gv58cg', 1);
    await d.send(v.fri(new Date()));
    await d.waitFor(/AT\+GTRTO=gv58cg,2,[^$]*\$/);
    const cmd = /AT\+GTRTO=gv58cg,2,[^$]*\$/.exec(d.received)![0];
    await d.send(v.ackFor(cmd)!);
    await d.send(`+RESP:GTALL,8020030703,${SERIAL_A},GV58CG,FRI,1,0,,,0000,0000,30,30,,,,,0,3600,TOW,1,120,20261126002000,00A1$`);
    await d.waitFor('+SACK:00A1$');
    await until(async () => (await pool.query('SELECT resposta FROM fila_processamento WHERE id = $1', [id])).rows[0].resposta?.startsWith('GTALL'));
    const row = (await pool.query('SELECT status, processing, resposta FROM fila_processamento WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ status: 'concluido', processing: false, resposta: 'GTALL: FRI,1,0,,,0000,0000,30,30,,,,,0,3600,TOW,1,120' });
    // an answer, not an event
    expect((await pool.query(`SELECT count(*)::int n FROM telemetria.evento WHERE serial = $1 AND code = 'GTALL'`, [SERIAL_A])).rows[0].n).toBe(0);
    d.close();
    await until(() => gw.metrics.connections === 0);
  });

  it('demo: the simulation reports for the trackers the demo seed registered (nothing registered), with their drivers', async () => {
    const dbUrl = (pool as unknown as { options: { connectionString: string } }).options.connectionString;
    const devices = async () => (await pool.query(`SELECT count(*)::int n FROM equipamento`)).rows[0].n;
    const before = await devices();
    const sim = await startDemoSimulation({ databaseUrl: dbUrl, port: gw.ports.queclinkTcp, rate: 5, maxDevices: 4 });
    try {
      const demo = `SELECT count(*)::int n FROM telemetria.ultimo_estado WHERE serial LIKE '86400150%' AND ativo_id IS NOT NULL AND fix_time IS NOT NULL`;
      await until(async () => (await pool.query(demo)).rows[0].n >= 4, 15_000);
      expect((await pool.query(demo)).rows[0].n).toBe(4);
      // the driver assigned to each vehicle (motorista_temporario) is the one the gateway records
      const r = await pool.query(`SELECT u.motorista_id, t.motorista_id AS escalado FROM telemetria.ultimo_estado u
        JOIN motorista_temporario t ON t.ativo_id = u.ativo_id AND t.data_inicio <= now() AND t.data_fim > now() WHERE u.serial LIKE '86400150%'`);
      expect(r.rows.length).toBe(4);
      for (const x of r.rows) expect(x.motorista_id).toBe(x.escalado);
      const live = await call(admin, '/api/rastreamento/ultimo_estado');
      expect(live.body.payload.filter((x: any) => /^86400150/.test(x.serial) && x.ativoDescricao && x.latitude < -22 && x.latitude > -26).length).toBeGreaterThanOrEqual(1);
    } finally {
      await sim.stop();
    }
    expect(await devices()).toBe(before);
  });
});
