// Diagnostics over real HTTP: /api/diagnostico/healthcheck probes the registered services (a local server answering
// 200 and 503, an address that does not answer) besides the database; /api/diagnostico/comandos_vdo/{situacao} lists
// the command queue of the company's VDO devices only (another company's and other technologies' are not shown),
// processando keeping those under way; keys refused with 403.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, vdo: Api, semChave: Api, outraB: Api;
let A: number, B: number;
let svc: http.Server;
let base = '';

beforeAll(async () => {
  svc = http.createServer((req, res) => { res.statusCode = req.url === '/ok' ? 200 : 503; res.end('corpo ignorado'); });
  await new Promise<void>((r) => svc.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(svc.address() as AddressInfo).port}`;
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  const ambienteId = admin.user.ambienteId;
  await ts.createUser({ login: 'diag.vdo', ambienteId, empresas: [A, B], permissoes: ['cfg.dia.comandos_vdo_onboard', 'cfg.dia.healthcheck'] });
  await ts.createUser({ login: 'diag.sem', ambienteId, empresas: [A], permissoes: ['cfg.fir.lista.lista'] });
  await ts.createUser({ login: 'diag.b', ambienteId, empresas: [B], permissoes: ['cfg.dia.comandos_vdo_onboard'] });
  vdo = await ts.login('diag.vdo', 'senha-teste-123');
  semChave = await ts.login('diag.sem', 'senha-teste-123');
  outraB = await ts.login('diag.b', 'senha-teste-123');
  for (const [descricao, url, statusEsperado, ativo] of [['Serviço bom', `${base}/ok`, 200, true], ['Serviço com erro', `${base}/falha`, 200, true],
    ['Serviço desligado', 'http://127.0.0.1:1/', 200, true], ['Serviço inativo', `${base}/ok`, 200, false]] as const) {
    await ts.insert('healthcheck', { descricao, url, statusEsperado, intervaloSegundos: 60, ativo });
  }
  const eq = (empresaId: number, serial: string, tecnologia: string, modelo: string) => ts.insert('equipamento', { empresaId, serial, tecnologia, modelo, ativado: true });
  await eq(A, 'VDO0001', 'vdo', 'vdo_telemetria');
  await eq(A, '865300000000001', 'queclink', 'gv50cg');
  await eq(B, 'VDO0009', 'vdo', 'mix');
  const cmd = (empresaId: number, serial: string, event: string, status: string) => ts.insert('fila_processamento', { empresaId, serial, event, status, processing: status === 'enviado', tentativas: 0 });
  await cmd(A, 'VDO0001', 'reboot', 'concluido');
  await cmd(A, 'VDO0001', 'sync', 'pendente');
  await cmd(A, 'VDO0001', 'readConfig', 'enviado');
  await cmd(A, '865300000000001', 'reboot', 'pendente');
  await cmd(B, 'VDO0009', 'reboot', 'pendente');
});
afterAll(async () => { await pool?.end(); await ts?.stop(); await new Promise((r) => svc?.close(r)); });

describe('GET /api/diagnostico/healthcheck', () => {
  it('checks the database and each active registered service by its status code', async () => {
    const res = await vdo.get(`/api/diagnostico/healthcheck?sort=${encodeURIComponent('["componente","ASC"]')}`);
    const rows = await json(res);
    expect(res.status, JSON.stringify(rows)).toBe(200);
    const by = Object.fromEntries(rows.map((r: any) => [r.componente, r]));
    expect(new Set(Object.keys(by))).toEqual(new Set(['Banco de dados', 'Serviço bom', 'Serviço com erro', 'Serviço desligado', 'Servidor da aplicação']));
    expect(by['Banco de dados']).toMatchObject({ ok: true, situacao: 'Conectado', tipo: 'Plataforma' });
    expect(by['Serviço bom']).toMatchObject({ ok: true, situacao: 'Respondeu 200', endereco: `${base}/ok`, tipo: 'Serviço monitorado' });
    expect(by['Serviço bom'].tempoMs).toBeGreaterThanOrEqual(0);
    expect(by['Serviço com erro']).toMatchObject({ ok: false, situacao: 'Respondeu 503, esperado 200' });
    expect(by['Serviço desligado']).toMatchObject({ ok: false, situacao: 'Falha de conexão', tempoMs: null });
  });

  it('is refused without the key (403) and without a session (401)', async () => {
    const res = await semChave.get('/api/diagnostico/healthcheck');
    expect(res.status).toBe(403);
    expect((await json(res)).msg).toBe('Você não tem permissão para fazer isso');
    expect((await ts.fetch('/api/diagnostico/healthcheck')).status).toBe(401);
  });
});

describe('GET /api/diagnostico/comandos_vdo/{situacao}', () => {
  const list = async (api: Api, situacao: string) => {
    const res = await api.get(`/api/diagnostico/comandos_vdo/${situacao}?sort=${encodeURIComponent('["id","ASC"]')}`);
    expect(res.status).toBe(200);
    return (await res.json()).map((r: any) => [r.serial, r.event, r.status]);
  };

  it("lists the active company's VDO commands: all of them, or those under way", async () => {
    expect(await list(vdo, 'comandos')).toEqual([['VDO0001', 'Reiniciar/Reset', 'Concluído'], ['VDO0001', 'Sincronizar', 'Pendente'], ['VDO0001', 'Ler do equipamento', 'Enviado']]);
    expect(await list(vdo, 'processando')).toEqual([['VDO0001', 'Sincronizar', 'Pendente'], ['VDO0001', 'Ler do equipamento', 'Enviado']]);
    expect(await list(outraB, 'comandos')).toEqual([['VDO0009', 'Reiniciar/Reset', 'Pendente']]);
  });

  it('names the vehicle the device was in when the command was queued and the user who asked', async () => {
    const ativo = await ts.insert('ativo', { empresaId: A, descricao: 'Caminhão VDO', placa: 'VDO1A23' });
    await new Promise((r) => setTimeout(r, 50));
    const desde = new Date();
    await ts.insert('equipamento_ativo', { empresaId: A, serial: 'VDO0001', ativoId: ativo.id, dataInicio: desde });
    // another company's vehicle linked to a device of the same serial never names A's command
    const deB = await ts.insert('ativo', { empresaId: B, descricao: 'Ônibus de B', placa: 'BBB0B00' });
    await ts.insert('equipamento_ativo', { empresaId: B, serial: 'VDO0001', ativoId: deB.id, dataInicio: desde });
    await new Promise((r) => setTimeout(r, 50));
    const cmd = await ts.insert('fila_processamento', { empresaId: A, serial: 'VDO0001', event: 'reboot', status: 'pendente', processing: false, tentativas: 0, usuario: admin.user.id });
    const res = await vdo.get(`/api/diagnostico/comandos_vdo/processando?sort=${encodeURIComponent('["id","DESC"]')}`);
    const rows = await res.json();
    const row = rows.find((r: any) => r.id === cmd.id);
    expect([row.veiculo, row.usuario]).toEqual(['Caminhão VDO (VDO1A23)', admin.user.nome]);
    // commands queued before the link name no vehicle
    expect(rows.filter((r: any) => r.id !== cmd.id).map((r: any) => r.veiculo)).toEqual([null, null]);
  });

  it('is 404 for another tab value, 403 without the key', async () => {
    expect((await vdo.get('/api/diagnostico/comandos_vdo/todos')).status).toBe(404);
    const res = await semChave.get('/api/diagnostico/comandos_vdo/comandos');
    expect(res.status).toBe(403);
  });
});
