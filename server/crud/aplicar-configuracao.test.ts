// Applying a configuration model to equipment (/adm/cfg/configurar_equipamentos/{tecnology}/{model}/{idConfig}/editar,
// action aplicar_configuracao) over HTTP: the device model's command templates (modelo.comandosConfiguracao, checked
// when saved) filled with the configuration's parameters, one writeConfig per command queued for each chosen device
// of the company; refused for a model without templates, a device of another model, another company's device or
// configuration, without the key, and for an empty choice.
import pg from 'pg';
import { encode } from '../../protocol/queclink/encoder.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, holder: Api, noKey: Api;
let A: number, B: number;
let config: number, configB: number, gv50a: number, gv50b: number, gv58: number, alheio: number;
const Q = '/api/modelo_de_configuracao/queclink/gv50cg';
const TEMPLATES = `# intervalos; sono em horas
AT+GTFRI={senha},1,0,,,0000,0000,{intervaloIgnicaoLigada},{intervaloIgnicaoLigada},,,,,{anguloMudancaDirecao},{intervaloIgnicaoDesligada},{serial}$
AT+GTCFG={senha},,,{periodoSono/60},{alarmeMudancaDirecao},{mensagemGateway},{serial}$`;
const modeloId = async (codigo: string) => (await pool.query('SELECT id FROM modelo WHERE codigo = $1', [codigo])).rows[0].id as number;
const setTemplates = (codigo: string, comandosConfiguracao: string | null) => modeloId(codigo).then((id) => admin.put(`/api/modelo/${id}`, { comandosConfiguracao }));

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

describe('modelo.comandosConfiguracao: the templates are checked by the protocol when saved', () => {
  it('is 400 in pt-BR for a malformed line, an unknown parameter, a protocol without templates', async () => {
    const cases: [string, string, string][] = [
      ['gv50cg', 'AT+GTFRI=gv50cg,1,{serial}$', 'Linha 1: o primeiro campo deve ser {senha}'],
      ['gv50cg', '# ok\nAT+GTFRI={senha},{intervalo},{velocidade*2},{serial}$',
        'Parâmetro desconhecido: {intervalo}, {velocidade} (os parâmetros do modelo de configuração são intervaloIgnicaoLigada, intervaloIgnicaoDesligada, tempoAntifurto, periodoSono, alarmeMudancaDirecao, anguloMudancaDirecao, velocidadeMudancaDirecao, intervaloSnapshot, amostrasPorRegistro, mensagemGateway, dopMaximo)'],
      ['legacy', 'AT+GTFRI={senha},{periodoSono},{serial}$', 'O protocolo legacy não recebe configuração por comandos de texto'],
    ];
    for (const [codigo, text, message] of cases) {
      const res = await setTemplates(codigo, text);
      expect(res.status, text).toBe(400);
      const body = await res.json();
      expect(body.msg, text).toBe(message);
      expect(body.payload, text).toEqual([{ field: 'comandosConfiguracao', label: 'Comandos de configuração', message }]);
    }
    expect((await pool.query(`SELECT count(*)::int n FROM modelo WHERE comandos_configuracao IS NOT NULL`)).rows[0].n).toBe(0);
  });
});

describe('modelo_de_configuracao.aplicar_configuracao', () => {
  it('is 422 while the device model has no configuration commands, queuing nothing', async () => {
    const res = await holder.post(`${Q}/${config}/aplicar_configuracao`, { equipamentos: [gv50a] });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('O modelo GV50CG não tem comandos de configuração cadastrados: cadastre-os em Hardware › Modelos');
    expect(await fila()).toEqual([]);
  });

  it("queues the model's commands filled with the parameters for each chosen device, in the active company", async () => {
    expect((await setTemplates('gv50cg', TEMPLATES)).status).toBe(200);
    const res = await holder.post(`${Q}/${config}/aplicar_configuracao`, { equipamentos: [gv50a, gv50b] });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.map((r: any) => [r.serial, r.event, r.status, r.empresaId, r.value.comando])).toEqual([
      ['865300000000001', 'writeConfig', 'pendente', A, '1/2'], ['865300000000001', 'writeConfig', 'pendente', A, '2/2'],
      ['865300000000002', 'writeConfig', 'pendente', A, '1/2'], ['865300000000002', 'writeConfig', 'pendente', A, '2/2'],
    ]);
    const rows = await fila();
    expect(rows.map((r) => [r.serial, r.event, r.empresa_id])).toEqual([
      ['865300000000001', 'writeConfig', A], ['865300000000001', 'writeConfig', A], ['865300000000002', 'writeConfig', A], ['865300000000002', 'writeConfig', A],
    ]);
    // what the gateway sends (server/ingest/commands.ts: params = the row's value, serial = id & 0xFFFF)
    expect(rows.slice(0, 2).map((r, i) => encode({ type: 'writeConfig', model: 'gv50cg', serial: i + 1, params: r.value }).toString('ascii'))).toEqual([
      'AT+GTFRI=gv50cg,1,0,,,0000,0000,60,60,,,,,30,3600,0001$',
      'AT+GTCFG=gv50cg,,,1,0,,0002$',
    ]);
    expect(rows[0].value).toMatchObject({ modeloDeConfiguracao: config, descricao: 'Urbano' });
    // the command list (Controle de comandos) says what each one writes
    const list = await json(await admin.get(`/api/fila_processamento?filter=${encodeURIComponent(JSON.stringify({ serial: '865300000000001' }))}&sort=${encodeURIComponent('["id","ASC"]')}`));
    expect(list.map((r: any) => r.detalhe)).toEqual(['Urbano (1/2) GTFRI: 1,0,,,0000,0000,60,60,,,,,30,3600', 'Urbano (2/2) GTCFG: ,,1,0,']);
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
    expect((await fila()).length).toBe(4);
  });

  it('is 422 for a model whose protocol takes no text configuration (legacy)', async () => {
    const L = '/api/modelo_de_configuracao/legacy/legacy';
    const id = (await json(await admin.post(L, { descricao: 'Legado' }))).id;
    const eq = (await json(await admin.post('/api/equipamento', { serial: '865300000000009', tecnologia: 'legacy', modelo: 'legacy' }))).id;
    const res = await holder.post(`${L}/${id}/aplicar_configuracao`, { equipamentos: [eq] });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('O protocolo legacy não recebe configuração por comandos de texto: esta configuração não pode ser gravada nos equipamentos Legado');
    expect((await fila()).length).toBe(4);
  });

  it('is 422 when a parameter cannot travel in a command (a comma in the gateway message)', async () => {
    const id = (await json(await admin.post(Q, { descricao: 'Com vírgula', mensagemGateway: 'a,b' }))).id;
    const res = await holder.post(`${Q}/${id}/aplicar_configuracao`, { equipamentos: [gv50a] });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe("O campo Mensagem do gateway não pode conter ',', '$' ou quebras de linha num comando de configuração");
    expect((await fila()).length).toBe(4);
  });
});
