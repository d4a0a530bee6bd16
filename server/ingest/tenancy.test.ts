// Device hijack (issue 6 §2): a serial follows its ONE registration. Over real TCP/HTTP against the real server
// schema: company A cannot get company B's positions nor send commands to B's device, even with rows inserted
// around the API (the gateway then refuses the serial); OsmAnd positions only for devices registered as OsmAnd.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { REFUSED } from './commands.ts';
import { startGateway, type Gateway } from './index.ts';
import { QueclinkVehicle } from './simulator.ts';
import { FakeDevice, sleep, until } from './testing/device.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number;
let ativoA: number, ativoB: number;
let userA: Api, userB: Api;
const SERIAL_B = '864100000000202';
const PHONE_A = 'celularA1';

const PERMS = ['adm.cfg.equipamentos.lista', 'adm.cfg.equipamentos.visualizar', 'adm.cfg.equipamentos.adicionar', 'adm.cfg.equipamentos.excluir',
  'adm.cfg.equipamentos.vinculo.lista', 'adm.cfg.equipamentos.vinculo.visualizar', 'adm.cfg.equipamentos.vinculo.adicionar',
  'adm.cfg.equipamentos.vinculo.excluir',
  'adm.cfg.equipamentos.fila_processamento.lista', 'adm.cfg.equipamentos.fila_processamento.visualizar',
  'adm.cfg.equipamentos.fila_processamento.adicionar', 'tlm.ras.rastreamento_ao_vivo', 'tlm.ras.rastreamento_ao_vivo.lista'];

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const body = async (r: Response) => { const j = await json(r); return j?.payload ?? j; };
const status = async (id: number) => (await q('SELECT status, resposta FROM fila_processamento WHERE id = $1', [id]))[0];
const positions = async (serial: string) => (await q('SELECT empresa_id, ativo_id, fix_time FROM telemetria.posicao WHERE serial = $1 ORDER BY fix_time', [serial]));

/** Removes whatever keeps serials unique in equipamento: rows can then be inserted as if the API had been bypassed. */
async function dropSerialUniqueness(): Promise<void> {
  for (const r of await q(`SELECT conname FROM pg_constraint WHERE conrelid = 'equipamento'::regclass AND contype = 'u'`)) {
    await pool.query(`ALTER TABLE equipamento DROP CONSTRAINT "${r.conname}"`);
  }
  for (const r of await q(`SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                            WHERE i.indrelid = 'equipamento'::regclass AND i.indisunique AND NOT i.indisprimary`)) {
    await pool.query(`DROP INDEX "${r.relname}"`);
  }
}

async function queue(u: Api, serial: string, event: string): Promise<number> {
  const r = await u.post('/api/fila_processamento', { serial, event, value: {} });
  const b = await body(r);
  expect(r.status, JSON.stringify(b)).toBeLessThan(300);
  return Number(b.id);
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({
    databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { queclinkTcp: 0, osmandHttp: 0 },
    writer: { lingerMs: 5 }, commands: { pollMs: 100 },
  });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ativoA = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  // the demo links a Queclink tracker to every vehicle: free B's asset for the test's own (one open link per technology)
  await q('UPDATE equipamento_ativo SET data_fim = now() - interval \'2 hours\' WHERE ativo_id = $1 AND data_fim IS NULL', [ativoB]);
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  await ts.createUser({ login: 'gestor_a', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [A], permissoes: PERMS });
  await ts.createUser({ login: 'gestor_b', senha: 'senha-teste-123', ambienteId: ambiente, empresas: [B], permissoes: PERMS });
  userA = await ts.login('gestor_a', 'senha-teste-123');
  userB = await ts.login('gestor_b', 'senha-teste-123');
  expect([userA.empresaAtiva, userB.empresaAtiva]).toEqual([A, B]);
  // B registers its tracker and links it to its asset; A registers an OsmAnd phone — all through the API.
  for (const [u, serial, tecnologia, modelo, ativoId] of [[userB, SERIAL_B, 'queclink', 'gv58cg', ativoB], [userA, PHONE_A, 'osmand', 'osmand', ativoA]] as const) {
    const eq = await u.post('/api/equipamento', { serial, tecnologia, modelo, ativado: true });
    expect(eq.status, JSON.stringify(await json(eq.clone()))).toBeLessThan(300);
    const link = await u.post('/api/equipamento_ativo', { serial, ativoId, dataInicio: new Date(Date.now() - 3600_000).toISOString() });
    expect(link.status, JSON.stringify(await json(link.clone()))).toBeLessThan(300);
  }
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('a serial follows its one registration', () => {
  const v = new QueclinkVehicle(SERIAL_B, 'gv58cg', 9, Date.now() - 3600_000);
  let dev: FakeDevice;
  const report = async (ageMs: number) => {
    const f = v.fri(new Date(Date.now() - ageMs));
    const n = dev.count('+SACK:');
    await dev.send(f);
    await until(() => dev.count('+SACK:') === n + 1);
  };

  it('A cannot register B’s serial through the API (unique on the platform)', async () => {
    const r = await userA.post('/api/equipamento', { serial: SERIAL_B, tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
    expect(r.status).toBe(409);
    expect((await json(r)).msg).toBe('Já existe um registro com o valor informado em Serial (IMEI)');
    expect((await q('SELECT empresa_id FROM equipamento WHERE serial = $1', [SERIAL_B])).map((x) => x.empresa_id)).toEqual([B]);
  });

  it('positions of B’s device go to B only; A sees nothing of it', async () => {
    dev = await FakeDevice.connect(gw.ports.queclinkTcp);
    await report(50_000);
    const rows = await positions(SERIAL_B);
    expect(rows.map((r) => [r.empresa_id, r.ativo_id])).toEqual([[B, ativoB]]);
    expect((await userA.get(`/api/equipamento_ativo/por_serial/${SERIAL_B}`)).status).toBe(404);
    const liveA = await body(await userA.get('/api/rastreamento/ultimo_estado'));
    expect(liveA.map((x: any) => x.serial)).not.toContain(SERIAL_B);
    const liveB = await body(await userB.get('/api/rastreamento/ultimo_estado'));
    expect(liveB.find((x: any) => x.serial === SERIAL_B)).toMatchObject({ ativoId: ativoB });
  });

  it('a command queued by A for B’s serial never reaches the device; B’s own command does', async () => {
    // The API refuses it (server/crud/lookup.ts: the serial must be a device of A); a row written around it is refused by the gateway.
    const refused = await userA.post('/api/fila_processamento', { serial: SERIAL_B, event: 'engineBlock', value: {} });
    expect(refused.status).toBe(400);
    const idA = (await q(`INSERT INTO fila_processamento (empresa_id, serial, event, value, status, created_at, updated_at)
      VALUES ($1, $2, 'engineBlock', '{}', 'pendente', now(), now()) RETURNING id`, [A, SERIAL_B]))[0].id;
    await until(async () => (await status(idA)).status === 'erro');
    expect(await status(idA)).toEqual({ status: 'erro', resposta: REFUSED.outraEmpresa });
    const idB = await queue(userB, SERIAL_B, 'reboot');
    await dev.waitFor(/AT\+GTRTO=[^$]*\$/);
    expect(dev.has('GTOUT')).toBe(false);
    const cmd = /AT\+GTRTO=[^$]*\$/.exec(dev.received)![0];
    await dev.send(v.ackFor(cmd)!);
    await until(async () => (await status(idB)).status === 'concluido');
  });

  it('a device ack never completes a command of another company', async () => {
    // A's command marked as sent (e.g. before the fix), with the number the device will acknowledge.
    const id = (await q(`INSERT INTO fila_processamento (empresa_id, serial, event, value, status, processing, tentativas, enviado_em, created_at, updated_at)
      VALUES ($1, $2, 'engineBlock', '{}', 'enviado', true, 1, now(), now(), now()) RETURNING id`, [A, SERIAL_B]))[0].id;
    const hex = (id & 0xffff).toString(16).toUpperCase().padStart(4, '0');
    const seen = gw.metrics.messages;
    await dev.send(v.ackFor(`AT+GTOUT=gv58cg,1,,,,,,,,,,${hex}$`)!);
    await until(() => gw.metrics.messages > seen);
    await gw.drain();
    await sleep(300);
    expect((await status(id)).status).toBe('enviado');
    await pool.query(`UPDATE fila_processamento SET status = 'cancelado', processing = false WHERE id = $1`, [id]);
  });

  it('the configuration B’s device reports never answers a read of another company', async () => {
    // A's read (Ler do equipamento) for B's serial, marked as sent: B's device's +RESP:GTALL must not become its answer.
    const id = (await q(`INSERT INTO fila_processamento (empresa_id, serial, event, value, status, processing, tentativas, enviado_em, created_at, updated_at)
      VALUES ($1, $2, 'readConfig', '{}', 'enviado', true, 1, now(), now(), now()) RETURNING id`, [A, SERIAL_B]))[0].id;
    const n = dev.count('+SACK:');
    await dev.send(`+RESP:GTALL,8020030703,${SERIAL_B},GV58CG,FRI,1,0,,,0000,0000,30,30,,,,,0,3600,TOW,1,120,20261126002000,00B1$`);
    await until(() => dev.count('+SACK:') > n); // stored and answered: the gateway is done with it
    await sleep(300);
    expect(await status(id)).toEqual({ status: 'enviado', resposta: null });
    await pool.query(`UPDATE fila_processamento SET status = 'cancelado', processing = false WHERE id = $1`, [id]);
  });

  it('a second registration of the serial inserted around the API: nobody gets the positions or sends commands', async () => {
    await dropSerialUniqueness();
    const rogue = (await q(`INSERT INTO equipamento (empresa_id, serial, tecnologia, modelo, ativado, created_at, updated_at)
      VALUES ($1, $2, 'queclink', 'gv58cg', true, now(), now()) RETURNING id`, [A, SERIAL_B]))[0].id;
    await pool.query(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at)
      VALUES ($1, $2, $3, now() - interval '1 hour', now(), now())`, [A, SERIAL_B, ativoA]);
    gw.writer.directory.invalidate();
    const before = (await positions(SERIAL_B)).length;
    await report(30_000);
    // Acked (kept in the pending list, attributed to no company), not stored as A's nor as B's position.
    expect((await positions(SERIAL_B)).length).toBe(before);
    expect((await positions(SERIAL_B)).some((r) => r.empresa_id === A)).toBe(false);
    expect(gw.writer.directory.isConflict(SERIAL_B)).toBe(true);
    expect((await q('SELECT quantidade FROM equipamento_pendente WHERE serial = $1', [SERIAL_B]))[0]?.quantidade).toBe(1);
    const ue = (await q('SELECT empresa_id, ativo_id FROM telemetria.ultimo_estado WHERE serial = $1', [SERIAL_B]))[0];
    expect(ue).toEqual({ empresa_id: B, ativo_id: ativoB });
    expect((await userA.get(`/api/equipamento_ativo/por_serial/${SERIAL_B}`)).status).toBe(200); // A's own (rogue) link row…
    const liveA = await body(await userA.get('/api/rastreamento/ultimo_estado'));
    expect(liveA.map((x: any) => x.serial)).not.toContain(SERIAL_B); // …but none of the device's data

    // Commands of both companies are refused while the serial is registered twice.
    const idA = await queue(userA, SERIAL_B, 'engineBlock');
    const idB = await queue(userB, SERIAL_B, 'sync');
    await until(async () => (await status(idA)).status === 'erro' && (await status(idB)).status === 'erro');
    expect(await status(idA)).toEqual({ status: 'erro', resposta: REFUSED.conflito });
    expect(await status(idB)).toEqual({ status: 'erro', resposta: REFUSED.conflito });
    await sleep(300);
    expect(dev.has('GTOUT')).toBe(false);

    // The rogue row goes: B's device is B's again.
    await pool.query('DELETE FROM equipamento_ativo WHERE serial = $1 AND empresa_id = $2', [SERIAL_B, A]);
    await pool.query('DELETE FROM equipamento WHERE id = $1', [rogue]);
    gw.writer.directory.invalidate();
    await report(20_000);
    expect((await positions(SERIAL_B)).map((r) => r.empresa_id)).toEqual(Array(before + 1).fill(B));
  });

  it('a command queued before the current registration of the serial is not for it', async () => {
    const id = (await q(`INSERT INTO fila_processamento (empresa_id, serial, event, value, status, created_at, updated_at)
      VALUES ($1, $2, 'engineBlock', '{}', 'pendente', now() - interval '1 day', now()) RETURNING id`, [B, SERIAL_B]))[0].id;
    await until(async () => (await status(id)).status === 'erro');
    expect(await status(id)).toEqual({ status: 'erro', resposta: REFUSED.anterior });
    expect(dev.has('GTOUT')).toBe(false);
  });

  it('when the serial passes to another company, none of the previous company’s latest state is carried over', async () => {
    const old = (await q('SELECT fix_time FROM telemetria.ultimo_estado WHERE serial = $1', [SERIAL_B]))[0].fix_time as Date;
    // Through the API, without touching the gateway's cache: the change events make it resolve the serial afresh.
    for (const r of await q('SELECT id FROM equipamento_ativo WHERE serial = $1', [SERIAL_B])) {
      expect((await userB.del(`/api/equipamento_ativo/${r.id}`)).status).toBeLessThan(300);
    }
    const eqB = (await q('SELECT id FROM equipamento WHERE serial = $1', [SERIAL_B]))[0].id;
    expect((await userB.del(`/api/equipamento/${eqB}`)).status).toBeLessThan(300);
    const eq = await userA.post('/api/equipamento', { serial: SERIAL_B, tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
    expect(eq.status).toBeLessThan(300);
    // A buffered report older than B's last position: B's position must not stay in A's latest state.
    const t = new Date(old.getTime() - 600_000);
    const n = dev.count('+SACK:');
    await dev.send(v.fri(t, 'BUFF'));
    await until(() => dev.count('+SACK:') === n + 1);
    const ue = (await q('SELECT empresa_id, ativo_id, fix_time FROM telemetria.ultimo_estado WHERE serial = $1', [SERIAL_B]))[0];
    expect(ue).toEqual({ empresa_id: A, ativo_id: null, fix_time: new Date(Math.floor(t.getTime() / 1000) * 1000) });
    const liveB = await body(await userB.get('/api/rastreamento/ultimo_estado'));
    expect(liveB.map((x: any) => x.serial)).not.toContain(SERIAL_B);
    dev.close();
  });
});

describe('OsmAnd HTTP', () => {
  const post = (id: string, lat = -23.55) => fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=${id}&lat=${lat}&lon=-46.63&timestamp=${Math.floor(Date.now() / 1000) - 5}&speed=10`, { method: 'POST' });

  it('accepts positions of a device registered as OsmAnd', async () => {
    const r = await post(PHONE_A);
    expect(r.status).toBe(200);
    expect((await positions(PHONE_A)).map((x) => [x.empresa_id, x.ativo_id])).toEqual([[A, ativoA]]);
  });

  it('refuses positions for a Queclink serial (403, pt-BR), storing nothing', async () => {
    const before = (await positions(SERIAL_B)).length;
    const pend = (await q('SELECT quantidade FROM equipamento_pendente WHERE serial = $1', [SERIAL_B]))[0]?.quantidade ?? 0;
    const refused = gw.metrics.refusedMessages;
    gw.writer.directory.invalidate(); // first through the writer (resolves, refuses), then from the cache
    for (const lat of [-10, -11]) {
      const r = await post(SERIAL_B, lat);
      expect(r.status).toBe(403);
      expect(await r.text()).toBe('Equipamento não registrado com o protocolo OsmAnd');
    }
    expect(gw.metrics.refusedMessages).toBe(refused + 2);
    await sleep(200);
    expect((await positions(SERIAL_B)).length).toBe(before);
    expect((await q('SELECT quantidade FROM equipamento_pendente WHERE serial = $1', [SERIAL_B]))[0]?.quantidade ?? 0).toBe(pend);
    expect([-10, -11]).not.toContain((await q('SELECT lat FROM telemetria.ultimo_estado WHERE serial = $1', [SERIAL_B]))[0].lat);
  });

  it('the pending list shows the dropped count through the generated API', async () => {
    const r = await post('celularDesconhecido');
    expect(r.status).toBe(200);
    const admin = await ts.login(ADMIN.login, ADMIN.senha);
    const res = await admin.get('/api/equipamento_pendente');
    const list = await body(res);
    const rows = Array.isArray(list) ? list : list.data;
    expect(rows.find((x: any) => x.serial === 'celularDesconhecido')).toMatchObject({ quantidade: 1, descartadas: 0, protocolo: 'osmand' });
  });
});
