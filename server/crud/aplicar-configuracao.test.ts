// Applying a configuration model to equipment (/adm/cfg/configurar_equipamentos/{tecnology}/{model}/{idConfig}/editar,
// action aplicar_configuracao) over HTTP: writeConfig with the model's parameters queued for each chosen device of the
// company; refused for a device of another model, another company's device or configuration, without the key, and
// for an empty choice.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, holder: Api, noKey: Api;
let A: number, B: number;
let config: number, configB: number, gv50a: number, gv50b: number, gv58: number, alheio: number;
const Q = '/api/modelo_de_configuracao/queclink/gv50cg';

const fila = async () => (await pool.query('SELECT serial, event, value, empresa_id FROM fila_processamento ORDER BY id')).rows;

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  config = (await json(await admin.post(Q, { descricao: 'Urbano', tempoAntifurto: 30, periodoSono: 60, intervaloSnapshot: 10 }))).id;
  const equip = async (serial: string, modelo: string) => (await json(await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo }))).id as number;
  gv50a = await equip('865300000000001', 'gv50cg');
  gv50b = await equip('865300000000002', 'gv50cg');
  gv58 = await equip('865300000000003', 'gv58cg');
  alheio = Number((await ts.insert('equipamento', { empresaId: B, serial: '866300000000001', tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).id);
  configB = Number((await ts.insert('modelo_de_configuracao', { empresaId: B, descricao: 'De B', tecnologia: 'queclink', modelo: 'gv50cg' })).id);
  const ambienteId = admin.user.ambienteId;
  await ts.createUser({ login: 'configurador', ambienteId, empresas: [A, B], permissoes: ['adm.bib.modelos_de_configuracao.visualizar', 'adm.bib.modelos_de_configuracao.aplicar_configuracao'] });
  await ts.createUser({ login: 'semchave', ambienteId, empresas: [A], permissoes: ['adm.bib.modelos_de_configuracao.lista', 'adm.bib.modelos_de_configuracao.visualizar', 'adm.bib.modelos_de_configuracao.editar'] });
  holder = await ts.login('configurador', 'senha-teste-123');
  noKey = await ts.login('semchave', 'senha-teste-123');
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('modelo_de_configuracao.aplicar_configuracao', () => {
  it('queues writeConfig with the model parameters for each chosen device, in the active company', async () => {
    const res = await holder.post(`${Q}/${config}/aplicar_configuracao`, { equipamentos: [gv50a, gv50b] });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.map((r: any) => [r.serial, r.event, r.status, r.empresaId])).toEqual([
      ['865300000000001', 'writeConfig', 'pendente', A], ['865300000000002', 'writeConfig', 'pendente', A],
    ]);
    const rows = await fila();
    expect(rows.map((r) => [r.serial, r.event, r.empresa_id])).toEqual([['865300000000001', 'writeConfig', A], ['865300000000002', 'writeConfig', A]]);
    expect(rows[0].value).toMatchObject({ modeloDeConfiguracao: config, descricao: 'Urbano' });
    expect(rows[0].value.parametros).toMatchObject({
      tempoAntifurto: 30, periodoSono: 60, intervaloSnapshot: 10, intervaloIgnicaoLigada: 60, intervaloIgnicaoDesligada: 3600, dopMaximo: 15, alarmeMudancaDirecao: false,
    });
    expect(Object.keys(rows[0].value.parametros)).not.toContain('descricao');
    expect(Object.keys(rows[0].value.parametros)).not.toContain('empresaId');
  });

  it('is 422 in pt-BR for a device of another model or another company, queuing nothing', async () => {
    const before = (await fila()).length;
    let res = await holder.post(`${Q}/${config}/aplicar_configuracao`, { equipamentos: [gv50a, gv58] });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('A configuração é para queclink/gv50cg; não serve para: 865300000000003 (queclink/gv58cg)');
    res = await holder.post(`${Q}/${config}/aplicar_configuracao`, { equipamentos: [alheio] });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe(`Equipamento não encontrado na empresa: ${alheio}`);
    expect((await fila()).length).toBe(before);
  });

  it("is 404 for another company's configuration and for the wrong route parameters, 403 without the key", async () => {
    const before = (await fila()).length;
    let res = await holder.post(`${Q}/${configB}/aplicar_configuracao`, { equipamentos: [gv50a] });
    expect(res.status).toBe(404);
    expect((await res.json()).msg).toBe('Registro não encontrado');
    res = await holder.post(`/api/modelo_de_configuracao/queclink/gv58cg/${config}/aplicar_configuracao`, { equipamentos: [gv58] });
    expect(res.status).toBe(404);
    res = await noKey.post(`${Q}/${config}/aplicar_configuracao`, { equipamentos: [gv50a] });
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('Você não tem permissão para fazer isso');
    expect((await fila()).length).toBe(before);
  });

  it('validates the choice (400): at least one device, integers only', async () => {
    const msgs: string[] = [];
    for (const body of [{}, { equipamentos: [] }, { equipamentos: ['x'] }, { equipamentos: [gv50a], outro: 1 }]) {
      const res = await holder.post(`${Q}/${config}/aplicar_configuracao`, body);
      expect(res.status).toBe(400);
      msgs.push((await res.json()).msg);
    }
    expect(msgs).toEqual(['O campo Equipamentos é obrigatório', 'O campo Equipamentos é obrigatório', 'O campo Equipamentos deve ser um número inteiro', 'Campo desconhecido: outro']);
    expect((await fila()).length).toBe(2);
  });
});
