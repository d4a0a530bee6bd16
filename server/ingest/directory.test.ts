// The gateway's device directory keeps a serial's registration for minutes while the database's change
// notifications arrive, and still follows every change at once, whoever writes it: here plain SQL from another
// connection (as a script or a second API process would), never the in-process events of the API. A driver
// assignment ending by the clock alone ends with it; a lost listener falls back to the short TTL and comes back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { DeviceDirectory } from './devices.ts';
import { startDirectoryListener } from './directory-listener.ts';
import { startGateway, type Gateway } from './index.ts';
import { QueclinkVehicle } from './simulator.ts';
import { FakeDevice, sleep, until } from './testing/device.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number;
let ativo1: number, ativo2: number, ativoB: number, motorista: number;
const SERIAL = '864100000000303';

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const last = async () => (await q('SELECT empresa_id, ativo_id, motorista_id FROM telemetria.posicao WHERE serial = $1 ORDER BY fix_time DESC LIMIT 1', [SERIAL]))[0];

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { queclinkTcp: 0 }, writer: { lingerMs: 5 } });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [ativo1, ativo2] = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A])).map((r) => r.id);
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  motorista = (await q('SELECT id FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  await q(`UPDATE equipamento_ativo SET data_fim = now() - interval '2 hours' WHERE ativo_id = ANY($1) AND data_fim IS NULL`, [[ativo1, ativo2, ativoB]]);
  await q(`DELETE FROM motorista_temporario WHERE ativo_id = ANY($1)`, [[ativo1, ativo2, ativoB]]);
  await q(`INSERT INTO equipamento (empresa_id, serial, tecnologia, modelo, ativado, created_at, updated_at) VALUES ($1, $2, 'queclink', 'gv58cg', true, now(), now())`, [A, SERIAL]);
  await q(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at) VALUES ($1, $2, $3, now() - interval '1 hour', now(), now())`, [A, SERIAL, ativo1]);
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('device directory: long cache, changes at once', () => {
  const v = new QueclinkVehicle(SERIAL, 'gv58cg', 9, Date.now() - 3600_000);
  let dev: FakeDevice;
  let age = 600_000;
  const report = async () => {
    const n = dev.count('+SACK:');
    await dev.send(v.fri(new Date(Date.now() - (age -= 1000))));
    await until(() => dev.count('+SACK:') === n + 1);
    await gw.drain();
    return last();
  };

  it('reports of one device cost one lookup, not one per report', async () => {
    dev = await FakeDevice.connect(gw.ports.queclinkTcp);
    expect(await report()).toEqual({ empresa_id: A, ativo_id: ativo1, motorista_id: null });
    const lookups = gw.writer.directory.lookups;
    for (let i = 0; i < 5; i++) await report();
    expect(gw.writer.directory.lookups).toBe(lookups);
  });

  it('a link moved by plain SQL takes effect at the next report', async () => {
    await q(`UPDATE equipamento_ativo SET ativo_id = $1 WHERE serial = $2`, [ativo2, SERIAL]);
    await until(async () => (await report()).ativo_id === ativo2, 5000, 100);
    expect(await last()).toEqual({ empresa_id: A, ativo_id: ativo2, motorista_id: null });
  });

  it('a driver assignment starts on its insert and ends by the clock, with no write', async () => {
    await q(`INSERT INTO motorista_temporario (empresa_id, ativo_id, motorista_id, data_inicio, data_fim, created_at, updated_at)
      VALUES ($1, $2, $3, now() - interval '1 minute', now() + interval '2 seconds', now(), now())`, [A, ativo2, motorista]);
    await until(async () => (await report()).motorista_id === motorista, 5000, 100);
    await sleep(2100);
    expect(await report()).toEqual({ empresa_id: A, ativo_id: ativo2, motorista_id: null });
  });

  it('a device moved to another company by plain SQL reports there at once', async () => {
    await q(`UPDATE equipamento_ativo SET data_fim = now() WHERE serial = $1`, [SERIAL]);
    await q(`UPDATE equipamento SET empresa_id = $1 WHERE serial = $2`, [B, SERIAL]);
    await q(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at) VALUES ($1, $2, $3, now() - interval '1 second', now(), now())`, [B, SERIAL, ativoB]);
    await until(async () => (await report()).empresa_id === B, 5000, 100);
    expect(await last()).toEqual({ empresa_id: B, ativo_id: ativoB, motorista_id: null });
  });
});

describe('device directory listener', () => {
  it('keeps entries past the short TTL while listening; without the listener the short TTL holds; it reconnects', async () => {
    const dir = new DeviceDirectory(pool, 150);
    const listener = startDirectoryListener(ts.databaseUrl, dir, 100);
    try {
      await listener.ready;
      await dir.resolve([SERIAL]);
      await sleep(300);
      await dir.resolve([SERIAL]);
      expect(dir.lookups).toBe(1);
      // the listening connection dies (server restart, network): the cache falls back to 150 ms until it is back
      await q(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'rastro-equipamentos-listener' AND datname = current_database() AND pid <> pg_backend_pid()`);
      await until(() => { void dir.resolve([SERIAL]); return dir.lookups >= 2; }, 5000, 20);
      // back: the change notifications arrive again and a change of the registration is followed
      await sleep(400);
      const before = dir.lookups;
      await dir.resolve([SERIAL]);
      await sleep(300);
      await dir.resolve([SERIAL]);
      expect(dir.lookups).toBe(before + 1);
      await q(`UPDATE equipamento SET modelo = 'gv350mg' WHERE serial = $1`, [SERIAL]);
      await until(async () => (await dir.resolve([SERIAL])).get(SERIAL)?.modelo === 'gv350mg', 5000, 50);
    } finally {
      await listener.close();
    }
  });
});
