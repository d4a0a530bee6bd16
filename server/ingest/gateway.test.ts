// Gateway over real TCP/UDP/HTTP against a real PostgreSQL, with the tiny test protocol.
import dgram from 'node:dgram';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type Gateway } from './index.ts';
import { createDatabase, defaultDatabaseUrl, registerDevice } from './testing/db.ts';
import { FakeDevice, sleep, until } from './testing/device.ts';
import { startProxy, type Proxy } from './testing/proxy.ts';
import { tinyDecoder, tinyFrame } from './testing/tiny-decoder.ts';
import { QueclinkVehicle } from './simulator.ts';

let db: { url: string; drop: () => Promise<void> };
let gw: Gateway;
let pool: pg.Pool;
let proxy: Proxy;
let port: number;

const t0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000; // an hour boundary, yesterday
const iso = (s: number) => new Date(t0 + s * 1000).toISOString();
const count = async (sql: string, params: unknown[] = []) => Number((await pool.query(sql, params)).rows[0].n);

beforeAll(async () => {
  db = await createDatabase(inject('databaseUrl') ?? defaultDatabaseUrl(), `ingest_gw_${process.pid}`);
  pool = new pg.Pool({ connectionString: db.url, max: 3 });
  const u = new URL(db.url);
  proxy = await startProxy(u.hostname, Number(u.port || 5432));
  u.hostname = '127.0.0.1'; u.port = String(proxy.port);
  gw = await startGateway({
    databaseUrl: u.toString(), host: '127.0.0.1', decoders: { tiny: tinyDecoder },
    extra: { tiny: { tcp: 0, udp: 0 } }, ports: { osmandHttp: 0, queclinkTcp: 0, legacyTcp: 0 },
    writer: { lingerMs: 5, retryMinMs: 50, retryMaxMs: 300 }, commands: { pollMs: 100 },
  });
  port = gw.ports.tinyTcp;
  await registerDevice(pool, '860000000000001', 1, 101);
  await registerDevice(pool, '860000000000002', 2, 202);
  await registerDevice(pool, 'phone42', 1, 103, 'osmand', 'osmand');
  await registerDevice(pool, '12345678', 1, 104, 'legacy', 'legacy');
  await registerDevice(pool, '864000000000777', 1, 105, 'gv58cg', 'queclink');
  await registerDevice(pool, '865084030003675', 1, 106, 'gb100', 'queclink');
});

afterAll(async () => {
  await gw?.stop();
  await proxy?.close();
  await pool?.end();
  await db?.drop();
});

describe('gateway', () => {
  it('stores positions, events and the latest state with concrete values, then acks', async () => {
    const d = await FakeDevice.connect(port);
    await d.send(tinyFrame('860000000000001', 'IGN', iso(0), -23.561414, -46.655881, 0, true) + tinyFrame('860000000000001', 'FRI', iso(30), -23.5625, -46.6547, 42.5, true));
    await d.waitFor(`+ACK:860000000000001,${iso(30)}$`);
    const { rows } = await pool.query(`SELECT * FROM telemetria.posicao WHERE serial = $1 ORDER BY fix_time`, ['860000000000001']);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ tipo: 'FRI', lat: -23.5625, lon: -46.6547, speed: 42.5, empresa_id: 1, ativo_id: 101, ignition: true, valid: true, satellites: 9 });
    expect(rows[1].fix_time.toISOString()).toBe(iso(30));
    const ev = await pool.query(`SELECT * FROM telemetria.evento WHERE serial = $1`, ['860000000000001']);
    expect(ev.rows).toHaveLength(1);
    expect(ev.rows[0]).toMatchObject({ code: 'IGN', key: 'ignitionOn', description: 'Ignição ligada', empresa_id: 1, ativo_id: 101, lat: -23.561414 });
    const ue = (await pool.query(`SELECT * FROM telemetria.ultimo_estado WHERE serial = $1`, ['860000000000001'])).rows[0];
    expect(ue).toMatchObject({ empresa_id: 1, ativo_id: 101, lat: -23.5625, lon: -46.6547, speed: 42.5, ignition: true, battery: 87, ultimo_evento: 'ignitionOn' });
    expect(ue.fix_time.toISOString()).toBe(iso(30));
    // An older (buffered) position does not move the latest state back.
    await d.send(tinyFrame('860000000000001', 'FRI', iso(10), -23.0, -46.0, 10, true));
    await d.waitFor(`+ACK:860000000000001,${iso(10)}$`);
    const ue2 = (await pool.query(`SELECT lat FROM telemetria.ultimo_estado WHERE serial = $1`, ['860000000000001'])).rows[0];
    expect(ue2.lat).toBe(-23.5625);
    d.close();
  });

  it('acks only after commit, never before', async () => {
    const d = await FakeDevice.connect(port);
    const locker = await pool.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE telemetria.ultimo_estado IN EXCLUSIVE MODE');
    await d.send(tinyFrame('860000000000002', 'FRI', iso(100), -23.5, -46.6, 30));
    // the batch reached the database and waits on the lock
    await until(async () => (await count(`SELECT count(*) n FROM pg_locks WHERE NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND relation = 'telemetria.ultimo_estado'::regclass`)) > 0, 30_000);
    expect(d.received).toBe(''); // the batch is waiting on the lock: not committed, not acked
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '860000000000002'`)).toBe(0);
    await locker.query('ROLLBACK');
    locker.release();
    await d.waitFor(`+ACK:860000000000002,${iso(100)}$`);
    // when the ack is there, the row is there
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '860000000000002' AND fix_time = $1`, [iso(100)])).toBe(1);
    d.close();
  });

  it('does not store duplicates (same frame twice, in one packet and across batches)', async () => {
    const d = await FakeDevice.connect(port);
    const f = tinyFrame('860000000000002', 'FRI', iso(200), -23.51, -46.61, 12);
    await d.send(f + f);
    await until(() => d.count('+ACK:') === 2);
    await d.send(f);
    await until(() => d.count('+ACK:') === 3);
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '860000000000002' AND fix_time = $1`, [iso(200)])).toBe(1);
    d.close();
  });

  it('keeps messages of unknown devices in the pending list, attached to nothing', async () => {
    const d = await FakeDevice.connect(port);
    await d.send(tinyFrame('999999999999999', 'FRI', iso(300), -23.4, -46.5, 5) + tinyFrame('999999999999999', 'FRI', iso(301), -23.4, -46.5, 5));
    await until(() => d.count('+ACK:') === 2);
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '999999999999999'`)).toBe(0);
    const p = (await pool.query(`SELECT * FROM equipamento_pendente WHERE serial = '999999999999999'`)).rows[0];
    expect(p).toMatchObject({ protocolo: 'tiny', quantidade: 2 });
    expect(p.ultima_mensagem_bruta).toContain(iso(301));
    expect(await count(`SELECT count(*) n FROM telemetria.mensagem_pendente WHERE serial = '999999999999999'`)).toBe(2);
    d.close();
  });

  it('survives garbage between frames, split frames and many frames per packet', async () => {
    const d = await FakeDevice.connect(port);
    const before = gw.metrics.badFrames;
    const a = tinyFrame('860000000000001', 'FRI', iso(400), -23.6, -46.7, 1);
    const b = tinyFrame('860000000000001', 'FRI', iso(401), -23.6, -46.7, 2);
    const c = tinyFrame('860000000000001', 'FRI', iso(402), -23.6, -46.7, 3);
    await d.send(Buffer.concat([Buffer.from([0, 0xff, 0x13]), Buffer.from('lixo' + a + '\r\n#!')]));
    await d.send('+T:860000000000001,FRI,xx$'); // bad frame: counted, connection kept
    await d.send(b.slice(0, 10));
    await sleep(30);
    await d.send(b.slice(10) + c);
    await until(() => d.count('+ACK:860000000000001') === 3);
    expect(gw.metrics.badFrames).toBe(before + 1);
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '860000000000001' AND fix_time BETWEEN $1 AND $2`, [iso(400), iso(402)])).toBe(3);
    d.close();
  });

  it('loses nothing and duplicates nothing when the database goes away mid-stream', async () => {
    const d = await FakeDevice.connect(port);
    const N = 300;
    const frames = Array.from({ length: N }, (_, i) => tinyFrame('860000000000002', 'FRI', iso(1000 + i), -23.5 + i / 1e4, -46.6, i % 90));
    for (let i = 0; i < 100; i++) await d.send(frames[i]);
    await until(() => d.count('+ACK:') === 100);
    proxy.cut(); // database unreachable
    for (let i = 100; i < 200; i++) { await d.send(frames[i]); if (i % 20 === 0) await sleep(10); }
    await until(() => gw.metrics.batchFailures > 0, 30_000); // a batch tried the database and failed
    expect(d.count('+ACK:')).toBe(100); // nothing acked while the database is down
    // the device resends what it did not get acked (a few), plus new messages
    for (let i = 150; i < N; i++) await d.send(frames[i]);
    proxy.restore();
    await until(() => d.count('+ACK:') === N + 50, 20_000);
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '860000000000002' AND fix_time >= $1`, [iso(1000)])).toBe(N);
    expect(await count(`SELECT count(DISTINCT fix_time) n FROM telemetria.posicao WHERE serial = '860000000000002' AND fix_time >= $1`, [iso(1000)])).toBe(N);
    d.close();
  });

  it('answers heartbeats after commit and updates the last communication', async () => {
    const d = await FakeDevice.connect(port);
    await d.send(`+T:860000000000001,HBD,${iso(500)}$`);
    await d.waitFor('+SACK:HBD,860000000000001$');
    const ue = (await pool.query(`SELECT ultimo_tipo, ultima_comunicacao FROM telemetria.ultimo_estado WHERE serial = '860000000000001'`)).rows[0];
    expect(ue.ultimo_tipo).toBe('HBD');
    expect(Date.now() - ue.ultima_comunicacao.getTime()).toBeLessThan(10_000);
    d.close();
  });

  it('receives over UDP and answers the peer', async () => {
    const s = dgram.createSocket('udp4');
    const got = new Promise<string>((r) => s.once('message', (m) => r(m.toString())));
    s.send(tinyFrame('860000000000001', 'FRI', iso(600), -23.7, -46.8, 7), gw.ports.tinyUdp, '127.0.0.1');
    expect(await got).toBe(`+ACK:860000000000001,${iso(600)}$`);
    s.close();
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '860000000000001' AND fix_time = $1`, [iso(600)])).toBe(1);
  });

  it('accepts OsmAnd (Traccar Client) over HTTP, answering 200 after commit', async () => {
    const ts = Math.floor(t0 / 1000) + 700;
    const res = await fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=phone42&lat=-23.55&lon=-46.63&timestamp=${ts}&speed=10&bearing=180&altitude=760&batt=55`, { method: 'POST' });
    expect(res.status).toBe(200);
    const row = (await pool.query(`SELECT * FROM telemetria.posicao WHERE serial = 'phone42'`)).rows[0];
    expect(row).toMatchObject({ lat: -23.55, lon: -46.63, speed: 18.52, course: 180, altitude: 760, empresa_id: 1, ativo_id: 103 });
    expect(row.fix_time.getTime()).toBe(ts * 1000);
    expect((await pool.query(`SELECT battery FROM telemetria.ultimo_estado WHERE serial = 'phone42'`)).rows[0].battery).toBe(55);
    const bad = await fetch(`http://127.0.0.1:${gw.ports.osmandHttp}/?id=phone42&lat=abc`);
    expect(bad.status).toBe(400);
  });

  it('sends queued commands to the connected device and marks them done on its ack; cancel works; delimiters refused', async () => {
    const d = await FakeDevice.connect(port);
    await d.send(`+T:860000000000001,HBD,${iso(800)}$`);
    await d.waitFor('+SACK:HBD');
    const ins = async (event: string, value: unknown, status = 'pendente') => (await pool.query(
      `INSERT INTO fila_processamento (empresa_id, serial, event, value, status, created_at, updated_at) VALUES (1, '860000000000001', $1, $2, $3, now(), now()) RETURNING id`,
      [event, JSON.stringify(value), status])).rows[0].id as number;
    const cancelled = await ins('engineBlock', {}, 'cancelado');
    const bad = await ins('writeConfig', { apn: 'a,b' });
    const id = await ins('reboot', { modo: 'total' });
    const hex = (id & 0xffff).toString(16).toUpperCase().padStart(4, '0');
    await d.waitFor(`+CMD:reboot,${hex},modo=total$`);
    await until(async () => (await pool.query(`SELECT status FROM fila_processamento WHERE id = $1`, [id])).rows[0].status === 'enviado');
    expect((await pool.query(`SELECT processing FROM fila_processamento WHERE id = $1`, [id])).rows[0].processing).toBe(true);
    await d.send(`+T:860000000000001,CMDACK,${hex},1$`);
    await until(async () => (await pool.query(`SELECT status FROM fila_processamento WHERE id = $1`, [id])).rows[0].status === 'concluido');
    const rows = (await pool.query(`SELECT id, status, processing, resposta FROM fila_processamento ORDER BY id`)).rows;
    expect(rows.find((r) => r.id === cancelled)).toMatchObject({ status: 'cancelado' });
    expect(rows.find((r) => r.id === bad)).toMatchObject({ status: 'erro', processing: false });
    expect(rows.find((r) => r.id === id)).toMatchObject({ processing: false });
    expect(d.has('engineBlock')).toBe(false);
    expect(d.has('apn')).toBe(false);
    d.close();
  });

  it('a sent command never acknowledged goes back to pendente, or erro after 3 attempts; kinds it does not send are left to their module', async () => {
    const ins = async (event: string, tentativas: number) => (await pool.query(
      `INSERT INTO fila_processamento (empresa_id, serial, event, value, status, processing, tentativas, enviado_em, created_at, updated_at)
       VALUES (1, '860000000000009', $1, '{}', 'enviado', true, $2, now() - interval '1 hour', now(), now()) RETURNING id`, [event, tentativas])).rows[0].id as number;
    const retry = await ins('reboot', 1);
    const last = await ins('sync', 3);
    const tacho = await ins('tacografoDownload', 1);
    const row = async (id: number) => (await pool.query(`SELECT status, processing, resposta FROM fila_processamento WHERE id = $1`, [id])).rows[0];
    await until(async () => (await row(last)).status === 'erro');
    expect(await row(retry)).toEqual({ status: 'pendente', processing: false, resposta: null });
    expect(await row(last)).toEqual({ status: 'erro', processing: false, resposta: 'Sem resposta do equipamento' });
    expect(await row(tacho)).toEqual({ status: 'enviado', processing: true, resposta: null });
  });

  it('ingests the older binary family over TCP and answers with its binary ack after commit', async () => {
    // SV status (protocol/legacy/README.md): serial 12345678, fix 2024-05-01T12:34:50Z, -23.5/-46.625, 270°, 72 km/h, ignition
    const A = '5356002a1600bc614e0502663236ea00feb58800fd7056010e004801663236f00001000100010ce70000';
    const d = await FakeDevice.connect(gw.ports.legacyTcp);
    const buf = Buffer.from(A, 'hex');
    await d.send(Buffer.concat([Buffer.from([0x00, 0x13]), buf.subarray(0, 20)]));
    await sleep(20);
    await d.send(buf.subarray(20));
    await until(() => Buffer.from(d.received, 'latin1').toString('hex').includes('5356000b0100bc614e0006'));
    const row = (await pool.query(`SELECT * FROM telemetria.posicao WHERE serial = '12345678'`)).rows[0];
    expect(row).toMatchObject({ lat: -23.5, lon: -46.625, speed: 72, course: 270, ativo_id: 104, ignition: true });
    expect(row.fix_time.toISOString()).toBe('2024-05-01T12:34:50.000Z');
    d.close();
  });

  it('sends commands to an SV (legacy) device with its serial in the header; a bare ACK/NACK closes the oldest sent command of its company', async () => {
    const hexOf = (d: FakeDevice) => Buffer.from(d.received, 'latin1').toString('hex');
    const d = await FakeDevice.connect(gw.ports.legacyTcp);
    await d.send(Buffer.from('5356000b1600bc614e0500', 'hex')); // keep-alive of serial 12345678
    await until(() => hexOf(d).includes('5356000b0100bc614e0006'));
    // Company 2's command for the same serial, marked sent long ago: another company's; the device's ACK is not for it.
    const foreign = (await pool.query(
      `INSERT INTO fila_processamento (empresa_id, serial, event, value, status, processing, enviado_em, tentativas, created_at, updated_at)
       VALUES (2, '12345678', 'reboot', '{}', 'enviado', true, now() - interval '1 minute', 1, now(), now()) RETURNING id`)).rows[0].id as number;
    const ins = async (event: string, value: unknown) => (await pool.query(
      `INSERT INTO fila_processamento (empresa_id, serial, event, value, created_at, updated_at) VALUES (1, '12345678', $1, $2, now(), now()) RETURNING id`,
      [event, JSON.stringify(value)])).rows[0].id as number;
    const a = await ins('reboot', { deviceId: 999 }); // the header serial is the connected device's, not the row's
    const b = await ins('engineBlock', {});
    const seq = (id: number) => (id & 0xffff).toString(16).padStart(4, '0');
    // SV | length | version 01 | serial 00bc614e | product 00 | type 90 | sequence | command code | 0 parameters
    const frameA = `5356000f0100bc614e0090${seq(a)}0100`;
    const frameB = `5356000f0100bc614e0090${seq(b)}0300`;
    await until(() => hexOf(d).includes(frameA) && hexOf(d).includes(frameB));
    expect(hexOf(d).indexOf(frameA)).toBeLessThan(hexOf(d).indexOf(frameB));
    const status = async (id: number) => (await pool.query(`SELECT status, processing, resposta FROM fila_processamento WHERE id = $1`, [id])).rows[0];
    await until(async () => (await status(b)).status === 'enviado');
    expect(await status(a)).toMatchObject({ status: 'enviado', processing: true });

    await d.send(Buffer.from('5356000b1600bc614e0506', 'hex')); // bare ACK: no sequence
    await until(async () => (await status(a)).status === 'concluido');
    expect(await status(a)).toMatchObject({ processing: false, resposta: '5356000b1600bc614e0506' });
    expect((await status(b)).status).toBe('enviado');
    expect((await status(foreign)).status).toBe('enviado');

    await d.send(Buffer.from('5356000b1600bc614e0515', 'hex')); // bare NACK: the next oldest fails
    await until(async () => (await status(b)).status === 'erro');
    expect(await status(b)).toMatchObject({ processing: false, resposta: '5356000b1600bc614e0515' });
    expect((await status(foreign)).status).toBe('enviado');
    d.close();
  });

  it('random garbage never stops a Queclink connection: the next good frame is stored and acked', async () => {
    const fc = (await import('fast-check')).default;
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const v = new QueclinkVehicle('864000000000777', 'gv58cg', 7, Date.now() - 3600_000);
    let n = 0;
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (junk) => {
      const f = v.fri(new Date(Date.now() - 3600_000 + ++n * 1000));
      await d.send(Buffer.concat([Buffer.from(junk), Buffer.from('$'), Buffer.from(f)]));
      await d.waitFor(`+SACK:${f.slice(-5, -1)}$`, 5000);
    }), { numRuns: 40 });
    expect((await pool.query(`SELECT count(*)::int n FROM telemetria.posicao WHERE serial = '864000000000777'`)).rows[0].n).toBe(n);
    d.close();
  });

  it('takes binary (HEX) @Track frames and text frames on the same Queclink connection', async () => {
    // +RSP of a GB100 (Traccar's public Gl200BinaryProtocolDecoderTest) between two text reports of the same device.
    // Its fix and send times (7 bytes: year(2) month day hour minute second) are moved to yesterday: the writer
    // drops fixes over 5 years old.
    const bin = Buffer.from('2b5253500700fc1fbf005d4501020209563254030003430564377e42071001000000000000007eff75a151025c6a8107e10801081a2a02680003189c1ac500000000000002100700000000000000000007e1080108241019e17ebe0d0a', 'hex');
    const put7 = (o: number, ms: number) => {
      const t = new Date(ms);
      bin.writeUInt16BE(t.getUTCFullYear(), o);
      bin.set([t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()], o + 2);
    };
    put7(47, t0 + 60_000);
    put7(bin.length - 13, t0 + 120_000);
    const q = (ms: number) => new Date(ms).toISOString().replace(/[-T:]/g, '').slice(0, 14);
    const text = (ms: number, cnt: string) => `+RESP:GTFRI,450102,865084030003675,,14206,10,1,1,0.0,0,126.0,-9.068207,39.611009,${q(ms)},0268,0003,189C,1AC5,01,7,,,,,100,420000,,,,${q(t0 + 120_000)},${cnt}$`;
    const a = text(t0, '19E0'), b = text(t0 + 90_000, '19E2');
    const d = await FakeDevice.connect(gw.ports.queclinkTcp);
    const before = gw.metrics.badFrames;
    await d.send(Buffer.concat([Buffer.from(a), bin.subarray(0, 20)]));
    await sleep(20);
    await d.send(Buffer.concat([bin.subarray(20), Buffer.from(b)]));
    // each report is acked after its batch commits; two batches may commit in either order
    await d.waitFor('+SACK:19E2$', 5000);
    await d.waitFor('+SACK:19E0$', 5000);
    expect(d.count('+SACK:19E0$')).toBe(1);
    await until(async () => (await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '865084030003675'`)) === 3);
    const rows = (await pool.query(`SELECT * FROM telemetria.posicao WHERE serial = '865084030003675' ORDER BY fix_time`)).rows;
    expect(rows.map((r) => r.fix_time.toISOString())).toEqual([iso(0), iso(60), iso(90)]);
    expect(rows[1]).toMatchObject({ lat: 39.611009, lon: -9.068207, empresa_id: 1, ativo_id: 106 });
    expect(gw.metrics.badFrames).toBe(before);
    d.close();
  });

  it('drops positions with an impossible fix time (no partition explosion), keeps the rest', async () => {
    const d = await FakeDevice.connect(port);
    await d.send(tinyFrame('860000000000001', 'FRI', '2090-01-01T00:00:00.000Z', -23.5, -46.6, 1) + tinyFrame('860000000000001', 'FRI', '1999-01-01T00:00:00.000Z', -23.5, -46.6, 1));
    await until(() => d.count('+ACK:860000000000001,2090') === 1 && d.count('+ACK:860000000000001,1999') === 1);
    expect(await count(`SELECT count(*) n FROM telemetria.posicao WHERE serial = '860000000000001' AND (fix_time > now() + interval '2 days' OR fix_time < '2000-01-01')`)).toBe(0);
    expect(gw.metrics.implausiblePositions).toBe(2);
    expect(await count(`SELECT count(*) n FROM pg_tables WHERE schemaname = 'telemetria' AND tablename IN ('posicao_2090_01', 'posicao_1999_01')`)).toBe(0);
    d.close();
  });
});
