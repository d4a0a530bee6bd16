// Device identity (issue 24): a company's allowed source networks (empresa.redesPermitidas). Through the real gateway
// (TCP on loopback) and the real API: a frame of the company's device from outside the list is dropped — not stored,
// not acknowledged, counted and logged — and stored once the list admits the address; another company's devices are
// not affected; the field is validated and only the company's own administrators change it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { startGateway, type Gateway } from './index.ts';
import { networkAllowed, parseRedes, plainAddress } from './networks.ts';
import { QueclinkVehicle } from './simulator.ts';
import { FakeDevice, sleep, until } from './testing/device.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let admin: Api, gestorB: Api, semChave: Api;
let A: number, B: number;
const SERIAL_A = '864100000000301', SERIAL_B = '864100000000302';

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const positions = async (serial: string) => Number((await q('SELECT count(*)::int AS n FROM telemetria.posicao WHERE serial = $1', [serial]))[0].n);

async function register(u: Api, serial: string, empresa: number): Promise<void> {
  const ativo = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [empresa]))[0].id;
  await q(`UPDATE equipamento_ativo SET data_fim = now() - interval '2 hours' WHERE ativo_id = $1 AND data_fim IS NULL`, [ativo]);
  const eq = await u.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
  expect(eq.status, JSON.stringify(await json(eq.clone()))).toBeLessThan(300);
  const link = await u.post('/api/equipamento_ativo', { serial, ativoId: ativo, dataInicio: new Date(Date.now() - 3600_000).toISOString() });
  expect(link.status, JSON.stringify(await json(link.clone()))).toBeLessThan(300);
}

async function setRedes(u: Api, empresa: number, redes: string | null): Promise<Response> {
  const cur = await json(await u.get(`/api/empresa/${empresa}`));
  const { id: _id, createdAt: _c, updatedAt: _u, _labels, ambienteId: _a, status: _s, ...body } = cur;
  return u.put(`/api/empresa/${empresa}`, { ...body, redesPermitidas: redes });
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { queclinkTcp: 0 }, writer: { lingerMs: 5 } });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  const keys = ['adm.sis.empresa.lista', 'adm.sis.empresa.visualizar', 'adm.sis.empresa.editar', 'adm.cfg.equipamentos.lista', 'adm.cfg.equipamentos.visualizar',
    'adm.cfg.equipamentos.adicionar', 'adm.cfg.equipamentos.vinculo.lista', 'adm.cfg.equipamentos.vinculo.visualizar', 'adm.cfg.equipamentos.vinculo.adicionar'];
  await ts.createUser({ login: 'redes.gestor.b', senha: 'redes-gestor-b1', ambienteId: admin.user.ambienteId, empresas: [B], permissoes: keys });
  gestorB = await ts.login('redes.gestor.b', 'redes-gestor-b1');
  await ts.createUser({ login: 'redes.sem.chave', senha: 'redes-sem-chave1', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['adm.sis.empresa.lista', 'adm.sis.empresa.visualizar'] });
  semChave = await ts.login('redes.sem.chave', 'redes-sem-chave1');
  await register(admin, SERIAL_A, A);
  await register(gestorB, SERIAL_B, B);
});
afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('allowed source networks of a company', () => {
  it('parses IPs and CIDRs (IPv4 and IPv6), compares IPv4-mapped addresses as IPv4', () => {
    const r = parseRedes('10.0.0.0/8\n200.150.10.7, 2001:db8::/32; lixo 300.1.1.1/8')!;
    expect(r.entries).toEqual(['10.0.0.0/8', '200.150.10.7/32', '2001:db8::/32']);
    expect(networkAllowed(r, '10.20.30.40')).toBe(true);
    expect(networkAllowed(r, '::ffff:10.20.30.40')).toBe(true);
    expect(networkAllowed(r, '200.150.10.8')).toBe(false);
    expect(networkAllowed(r, '2001:db8:1::5')).toBe(true);
    expect(networkAllowed(r, undefined)).toBe(false);
    expect(networkAllowed(null, '1.2.3.4')).toBe(true);
    expect(parseRedes('  ')).toBeNull();
    expect(plainAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
  });

  it('the API validates the field; another company and a user without the key cannot change it', async () => {
    const bad = await setRedes(admin, A, '10.0.0.0/8\nqualquer coisa');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await json(bad))).toContain('Informe endereços IP ou redes CIDR (ex.: 200.150.10.0/24), um por linha');
    expect((await setRedes(semChave, A, '10.0.0.0/8')).status).toBe(403);
    const other = await gestorB.put(`/api/empresa/${A}`, { fantasia: 'X', redesPermitidas: '0.0.0.0/0' });
    expect([403, 404]).toContain(other.status);
    expect((await q('SELECT redes_permitidas FROM empresa WHERE id = $1', [A]))[0].redes_permitidas).toBeNull();
  });

  it("drops and logs frames of the company's device from outside its networks; stores them once the list admits the address", async () => {
    const ok = await setRedes(admin, A, '10.0.0.0/8\n192.168.0.0/16');
    expect(ok.status, JSON.stringify(await json(ok.clone()))).toBe(200);
    gw.writer.directory.invalidate();
    const va = new QueclinkVehicle(SERIAL_A, 'gv58cg', 11, Date.now() - 3600_000);
    const vb = new QueclinkVehicle(SERIAL_B, 'gv58cg', 12, Date.now() - 3600_000);
    const da = await FakeDevice.connect(gw.ports.queclinkTcp);
    const db = await FakeDevice.connect(gw.ports.queclinkTcp);
    const refused = gw.metrics.networkRefused;
    await da.send(va.fri(new Date(Date.now() - 40_000)));
    await db.send(vb.fri(new Date(Date.now() - 40_000)));
    await until(() => gw.metrics.networkRefused === refused + 1);
    await db.waitFor('+SACK:'); // B has no list: stored and acknowledged
    await gw.drain();
    await sleep(200);
    expect(da.count('+SACK:')).toBe(0);
    expect(await positions(SERIAL_A)).toBe(0);
    expect(await positions(SERIAL_B)).toBe(1);
    // Not quarantined either: the serial is known, the frame is simply not believed.
    expect(await q('SELECT serial FROM equipamento_pendente WHERE serial = $1', [SERIAL_A])).toEqual([]);

    expect((await setRedes(admin, A, '10.0.0.0/8\n127.0.0.0/8')).status).toBe(200);
    gw.writer.directory.invalidate();
    await da.send(va.fri(new Date(Date.now() - 30_000)));
    await da.waitFor('+SACK:');
    expect(await positions(SERIAL_A)).toBe(1);
    expect(gw.metrics.networkRefused).toBe(refused + 1);
    da.close(); db.close();
  });

  it("a change of the company's networks is what the in-app gateway forgets (the company's serials only)", async () => {
    const dir = gw.writer.directory;
    await dir.resolve([SERIAL_A, SERIAL_B]);
    expect(dir.get(SERIAL_A)?.redes?.entries).toEqual(['10.0.0.0/8', '127.0.0.0/8']);
    dir.invalidateChange({ entity: 'empresa', id: A, before: null, after: null });
    expect(dir.get(SERIAL_A)).toBeUndefined();
    expect(dir.get(SERIAL_B)).toMatchObject({ serial: SERIAL_B, redes: null });
  });
});
