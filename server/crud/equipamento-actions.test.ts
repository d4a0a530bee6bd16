// Equipment actions of the record page /adm/cfg/equipamentos/:serial over HTTP: sincronizar_can and redefinir queue
// their command in fila_processamento for the device, in the caller's active company; refused without the key, for
// another company's device and (sincronizar_can) for a model without a CAN interface.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, holder: Api, noKey: Api;
let A: number, B: number;
let can: number, semCan: number, legado: number, alheio: number;

const fila = async () => (await pool.query('SELECT serial, event, value, status, empresa_id FROM fila_processamento ORDER BY id')).rows;

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  const equip = async (serial: string, tecnologia: string, modelo: string) =>
    (await json(await admin.post('/api/equipamento', { serial, tecnologia, modelo }))).id as number;
  can = await equip('865200000000001', 'queclink', 'gv350ceu');
  semCan = await equip('865200000000002', 'queclink', 'gv50cg');
  legado = await equip('865200000000003', 'legacy', 'legacy');
  alheio = Number((await ts.insert('equipamento', { empresaId: B, serial: '866200000000001', tecnologia: 'queclink', modelo: 'gv350ceu', ativado: true })).id);
  const ambienteId = admin.user.ambienteId;
  await ts.createUser({ login: 'tecnico', ambienteId, empresas: [A, B], permissoes: ['adm.cfg.equipamentos.visualizar', 'adm.cfg.equipamentos.sincronizar_can', 'adm.cfg.equipamentos.redefinir'] });
  await ts.createUser({ login: 'semchave', ambienteId, empresas: [A], permissoes: ['adm.cfg.equipamentos.lista', 'adm.cfg.equipamentos.visualizar', 'adm.cfg.equipamentos.editar', 'adm.cfg.equipamentos.reiniciar_simcard'] });
  holder = await ts.login('tecnico', 'senha-teste-123');
  noKey = await ts.login('semchave', 'senha-teste-123');
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('equipamento.sincronizar_can and redefinir (record page tabs)', () => {
  it('are declared as record tabs of the equipment with their own keys', () => {
    const e = ts.model.entities.find((x) => x.key === 'equipamento')!;
    expect(e.actions.filter((a) => ['sincronizar_can', 'redefinir'].includes(a.name)).map((a) => [a.name, a.handler, a.permission])).toEqual([
      ['sincronizar_can', 'sincronizar_can', 'adm.cfg.equipamentos.sincronizar_can'],
      ['redefinir', 'redefinir', 'adm.cfg.equipamentos.redefinir'],
    ]);
    expect(e.record!.tabs.filter((t) => ['sincronizar_can', 'redefinir'].includes(t.name)).map((t) => [t.name, t.kind, t.permission])).toEqual([
      ['sincronizar_can', 'action', 'adm.cfg.equipamentos.sincronizar_can'],
      ['redefinir', 'action', 'adm.cfg.equipamentos.redefinir'],
    ]);
    expect(ts.model.routes.filter((r) => r.path.startsWith('/adm/cfg/equipamentos/:serial/') && ['sincronizar_can', 'redefinir'].includes(r.tab ?? '')).map((r) => r.path))
      .toEqual(['/adm/cfg/equipamentos/:serial/sincronizar_can', '/adm/cfg/equipamentos/:serial/redefinir']);
  });

  it('sincronizar_can queues sync { can: true } for a CAN device, in the active company, and the queue shows it', async () => {
    const res = await holder.post(`/api/equipamento/${can}/sincronizar_can`);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ serial: '865200000000001', event: 'sync', value: { can: true }, status: 'pendente', processing: false, empresaId: A });
    expect(await fila()).toEqual([{ serial: '865200000000001', event: 'sync', value: { can: true }, status: 'pendente', empresa_id: A }]);
    const list = await json(await admin.get('/api/equipamento/865200000000001/fila_processamento'));
    expect(list.map((r: any) => [r.id, r.event])).toEqual([[body[0].id, 'sync']]);
  });

  it('sincronizar_can is 422 in pt-BR for a model without CAN and for another technology, queuing nothing', async () => {
    const before = (await fila()).length;
    let res = await holder.post(`/api/equipamento/${semCan}/sincronizar_can`);
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('O modelo GV50CG não tem interface CAN: não há dados CAN para sincronizar');
    res = await holder.post(`/api/equipamento/${legado}/sincronizar_can`);
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('O modelo Legado não tem interface CAN: não há dados CAN para sincronizar');
    expect((await fila()).length).toBe(before);
  });

  it('redefinir queues the factory reset (reboot { reset: true }) for any device of the company', async () => {
    const res = await holder.post(`/api/equipamento/${semCan}/redefinir`);
    expect(res.status).toBe(201);
    expect((await res.json()).map((r: any) => [r.serial, r.event, r.value])).toEqual([['865200000000002', 'reboot', { reset: true }]]);
    expect((await fila()).at(-1)).toEqual({ serial: '865200000000002', event: 'reboot', value: { reset: true }, status: 'pendente', empresa_id: A });
  });

  it('are 403 without their key and 404 for another company\'s device, queuing nothing', async () => {
    const before = (await fila()).length;
    for (const name of ['sincronizar_can', 'redefinir']) {
      const r403 = await noKey.post(`/api/equipamento/${can}/${name}`);
      expect(r403.status).toBe(403);
      expect((await r403.json()).msg).toBe('Você não tem permissão para fazer isso');
      const r404 = await holder.post(`/api/equipamento/${alheio}/${name}`);
      expect(r404.status).toBe(404);
      expect((await r404.json()).msg).toBe('Registro não encontrado');
    }
    expect((await fila()).length).toBe(before);
  });

  it('refuse a body outside the empty payload (400)', async () => {
    const res = await holder.post(`/api/equipamento/${can}/redefinir`, { reset: false });
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toBe('Campo desconhecido: reset');
  });
});
