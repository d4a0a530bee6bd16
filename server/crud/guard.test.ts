// The engine block of a moving vehicle over HTTP (ativo.bloqueia_motor, metadata guard): above the moving limit
// (5 km/h, ativo.yaml) the server refuses (409 pt-BR) unless the plate was typed into `confirmacao`; a stopped
// vehicle and the unblock need none; another company's vehicle is 404 and a caller without the key 403, whatever
// the body. The queued command records who sent it and the command list names the vehicle (computed column).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';
import type { MenuNode } from '../../shared/model.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, holder: Api, noKey: Api;
let A: number, B: number, holderId: number;
let movendo: number, parado: number, alheio: number;

const fila = async () => (await pool.query('SELECT serial, event, usuario FROM fila_processamento ORDER BY id')).rows;
const estado = (serial: string, empresa: number, ativo: number, speed: number) => pool.query(
  `INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, speed, ignition, lat, lon, fix_time, ultima_comunicacao)
   VALUES ($1, $2, $3, $4, true, -23.5, -46.6, now(), now())
   ON CONFLICT (serial) DO UPDATE SET speed = EXCLUDED.speed, ativo_id = EXCLUDED.ativo_id`, [serial, empresa, ativo, speed]);

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  movendo = (await json(await admin.post('/api/ativo', { descricao: 'Carreta em rota', placa: 'MOV1A23' }))).id;
  parado = (await json(await admin.post('/api/ativo', { descricao: 'Carreta no pátio', placa: 'PAR2B34' }))).id;
  for (const [serial, ativoId] of [['865200000000001', movendo], ['865200000000002', parado]] as const) {
    expect((await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).status).toBe(201);
    expect((await admin.post('/api/equipamento_ativo', { serial, ativoId, dataInicio: '2024-01-01T00:00:00Z' })).status).toBe(201);
  }
  await estado('865200000000001', A, movendo, 62.4);
  await estado('865200000000002', A, parado, 3);
  // Company B's vehicle, moving, with its own device.
  alheio = Number((await ts.insert('ativo', { empresaId: B, descricao: 'Carreta de B', placa: 'OUT9Z87' })).id);
  await ts.insert('equipamento_ativo', { empresaId: B, serial: '866200000000001', ativoId: alheio, dataInicio: new Date('2024-01-01') });
  await estado('866200000000001', B, alheio, 80);
  const ambienteId = admin.user.ambienteId;
  holderId = await ts.createUser({ login: 'bloqueio-guarda', ambienteId, empresas: [A, B], permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.bloqueia_motor', 'adm.cfg.equipamentos.fila_processamento.lista'] });
  await ts.createUser({ login: 'sem-bloqueio', ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar'] });
  holder = await ts.login('bloqueio-guarda', 'senha-teste-123');
  noKey = await ts.login('sem-bloqueio', 'senha-teste-123');
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('engine block of a moving vehicle (action guard)', () => {
  it('declares the guard in the model: provider, plate typed, 5 km/h', () => {
    const a = ts.model.entities.find((e) => e.key === 'ativo')!.actions.find((x) => x.name === 'bloqueia_motor')!;
    expect(a.guard).toEqual({ provider: 'ultimo_estado', by: 'ativoId', typed: 'placa', speedAbove: 5 });
  });

  it('refuses (409 pt-BR) a moving vehicle without the typed plate, or with another one, and queues nothing', async () => {
    for (const body of [undefined, {}, { confirmacao: '' }, { confirmacao: 'PAR2B34' }]) {
      const res = await holder.post(`/api/ativo/${movendo}/bloqueia_motor`, body);
      expect(res.status).toBe(409);
      expect((await res.json()).msg).toBe('O veículo Carreta em rota (MOV1A23) está em movimento (62 km/h): para confirmar "Bloquear motor", digite a placa MOV1A23');
    }
    expect(await fila()).toEqual([]);
  });

  it('queues the block of a moving vehicle with the plate typed (any case, with or without the dash) and records who sent it', async () => {
    const res = await holder.post(`/api/ativo/${movendo}/bloqueia_motor`, { confirmacao: 'mov-1a23' });
    expect(res.status).toBe(201);
    expect((await res.json()).map((r: any) => [r.serial, r.event, r.usuario])).toEqual([['865200000000001', 'engineBlock', holderId]]);
    expect(await fila()).toEqual([{ serial: '865200000000001', event: 'engineBlock', usuario: holderId }]);
  });

  it('needs no confirmation for a vehicle at or below the limit, nor for the unblock', async () => {
    expect((await holder.post(`/api/ativo/${parado}/bloqueia_motor`)).status).toBe(201);
    expect((await holder.post(`/api/ativo/${movendo}/desbloqueia_motor`)).status).toBe(201);
    expect((await fila()).map((r) => [r.serial, r.event])).toEqual([
      ['865200000000001', 'engineBlock'], ['865200000000002', 'engineBlock'], ['865200000000001', 'engineUnblock']]);
  });

  it("is 404 for another company's moving vehicle, even with its plate typed; 403 without the key", async () => {
    const before = (await fila()).length;
    const res = await holder.post(`/api/ativo/${alheio}/bloqueia_motor`, { confirmacao: 'OUT9Z87' });
    expect(res.status).toBe(404);
    expect((await res.json()).msg).toBe('Registro não encontrado');
    const refused = await noKey.post(`/api/ativo/${movendo}/bloqueia_motor`, { confirmacao: 'MOV1A23' });
    expect(refused.status).toBe(403);
    expect((await refused.json()).msg).toBe('Você não tem permissão para fazer isso');
    expect((await fila()).length).toBe(before);
  });

  it('in bulk, the moving vehicle is refused (409) and the stopped one queued', async () => {
    const before = (await fila()).length;
    const out = await json(await holder.post('/api/ativo/bloqueia_motor', { ids: [movendo, parado] }));
    expect(out.map((r: any) => [r.id, r.status])).toEqual([[movendo, 409], [parado, 201]]);
    expect((await fila()).length).toBe(before + 1);
  });

  it('the command list names the vehicle, the user and the times; a client cannot choose the user', async () => {
    const adminId = Number(admin.user.id);
    const res = await admin.post('/api/fila_processamento', { serial: '865200000000002', event: 'reboot', usuario: holderId });
    expect(res.status).toBe(201);
    expect((await res.json()).usuario).toBe(adminId);
    const q = new URLSearchParams({ filter: JSON.stringify({ serial: '865200000000002' }), sort: JSON.stringify(['id', 'ASC']) });
    const rows = await json(await holder.get(`/api/fila_processamento?${q}`));
    expect(rows.map((r: any) => [r.ativo, r.event, r.usuario, r.status])).toEqual([
      ['Carreta no pátio (PAR2B34)', 'engineBlock', holderId, 'pendente'],
      ['Carreta no pátio (PAR2B34)', 'engineBlock', holderId, 'pendente'],
      ['Carreta no pátio (PAR2B34)', 'reboot', adminId, 'pendente'],
    ]);
    expect(typeof rows[0].createdAt).toBe('string');
    // Controle de comandos is a menu entry, on the spec's route (the menu tree: area adm, section adm/con)
    const flat = (ns: MenuNode[]): MenuNode[] => ns.flatMap((n) => [n, ...flat(n.children ?? [])]);
    const entry = flat(ts.model.menu).find((n) => n.route === '/adm/con/controle');
    expect(entry).toEqual({ label: 'Controle de comandos', route: '/adm/con/controle', permission: 'adm.cfg.equipamentos.fila_processamento.lista', icon: 'SettingsRemote' });
  });
});
