// Company boundary of device links, commands and provider exports over real HTTP (issue 18): company A's admin
// cannot link company B's tracker (same ambiente) or a serial nobody registered, cannot queue commands to it
// through a link row that already exists, and a provider export under B's parent is 404 before any byte is sent.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTelemetria } from '../ingest/migrate.ts';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let A: number, B: number;
let ativoA: number, ativoRogue: number, ativoB: number, motoristaA: number, motoristaB: number;
const OWN = '865300000000001';
const OWN2 = '865300000000002';
const FOREIGN = '866300000000001';
const TECLADO_A = '7700000001';
const TECLADO_B = '7700000002';

const q = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows;
const links = (serial: string) => q('SELECT empresa_id, ativo_id FROM equipamento_ativo WHERE serial = $1', [serial]);
const queued = (serial: string) => q('SELECT empresa_id, event FROM fila_processamento WHERE serial = $1', [serial]);

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  await migrateTelemetria(pool);
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id')).map((r) => r.id);
  expect(admin.empresaAtiva).toBe(A);
  expect((await q('SELECT ambiente_id FROM empresa WHERE id = ANY($1) GROUP BY ambiente_id', [[A, B]])).length).toBe(1);
  ativoA = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão de A', placa: 'CRA1A11' }))).id;
  ativoRogue = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão com vínculo antigo', placa: 'CRA2B22' }))).id;
  ativoB = Number((await ts.insert('ativo', { empresaId: B, descricao: 'Caminhão de B', placa: 'CRB1A11' })).id);
  for (const serial of [OWN, OWN2]) {
    expect((await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).status).toBe(201);
  }
  await ts.insert('equipamento', { empresaId: B, serial: FOREIGN, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  await ts.insert('equipamento_ativo', { empresaId: B, serial: FOREIGN, ativoId: ativoB, dataInicio: new Date('2024-01-01') });
  motoristaA = (await json(await admin.post('/api/motorista', { nome: 'Motorista de A', documento: '321.654.987-01' }))).id;
  motoristaB = Number((await ts.insert('motorista', { empresaId: B, nome: 'Motorista de B', documento: '321.654.987-02', situacao: 'ativo' })).id);
  expect((await admin.post('/api/dispositivo_teclado', { descricao: 'Teclado de A', serial: TECLADO_A, deviceModel: 'T1', ativado: true })).status).toBe(201);
  await ts.insert('dispositivo_teclado', { empresaId: B, descricao: 'Teclado de B', serial: TECLADO_B, deviceModel: 'T1', ativado: true });
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('a device link (equipamento_ativo) takes only a device of the same company', () => {
  it("refuses another company's serial: 400 on the field, pt-BR, no row written", async () => {
    const res = await admin.post('/api/equipamento_ativo', { serial: FOREIGN, ativoId: ativoA, dataInicio: '2024-01-01T00:00:00Z' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.msg).toBe(`O valor '${FOREIGN}' do campo Serial (IMEI) não está cadastrado em Equipamentos desta empresa`);
    expect(body.payload.map((e: any) => e.field)).toEqual(['serial']);
    expect(await links(FOREIGN)).toEqual([{ empresa_id: B, ativo_id: ativoB }]);
  });

  it('refuses a serial nobody registered', async () => {
    const res = await admin.post('/api/equipamento_ativo', { serial: '999999999999999', ativoId: ativoA, dataInicio: '2024-01-01T00:00:00Z' });
    expect(res.status).toBe(400);
    expect((await res.json()).msg).toBe("O valor '999999999999999' do campo Serial (IMEI) não está cadastrado em Equipamentos desta empresa");
    expect(await links('999999999999999')).toEqual([]);
  });

  it("links the company's own device (201), and an update cannot move the link to another company's serial", async () => {
    const res = await admin.post('/api/equipamento_ativo', { serial: OWN, ativoId: ativoA, dataInicio: '2024-01-01T00:00:00Z' });
    expect(res.status).toBe(201);
    const id = (await res.json()).id;
    expect(await links(OWN)).toEqual([{ empresa_id: A, ativo_id: ativoA }]);
    const put = await admin.put(`/api/equipamento_ativo/${id}`, { serial: FOREIGN, ativoId: ativoA, dataInicio: '2024-01-01T00:00:00Z' });
    expect(put.status).toBe(400);
    expect((await put.json()).msg).toContain('não está cadastrado em Equipamentos desta empresa');
    expect(await links(OWN)).toEqual([{ empresa_id: A, ativo_id: ativoA }]);
    expect(await links(FOREIGN)).toEqual([{ empresa_id: B, ativo_id: ativoB }]);
    // Another own device is fine.
    expect((await admin.put(`/api/equipamento_ativo/${id}`, { serial: OWN2, ativoId: ativoA, dataInicio: '2024-01-01T00:00:00Z' })).status).toBe(200);
    expect(await links(OWN2)).toEqual([{ empresa_id: A, ativo_id: ativoA }]);
  });

  it('offers only the company\'s own devices as choices of the form', async () => {
    const opts = await json(await admin.get('/api/equipamento_ativo/opcoes/serial'));
    const values = opts.map((o: any) => o.value);
    expect(values).toEqual(expect.arrayContaining([OWN, OWN2]));
    expect(values).not.toContain(FOREIGN);
  });
});

describe('a link keeps its device in use only while in force', () => {
  it('a device with a link in force is neither deleted nor given another serial (409); once the link ends it can be (the ended link stays as history)', async () => {
    const serial = '865300000000003';
    const dev = await json(await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true }));
    // a vehicle of its own: ativoA holds OWN2 (one open link per technology per vehicle)
    const ativo = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão do vínculo em vigor', placa: 'CRA3C33' }))).id;
    const link = await json(await admin.post('/api/equipamento_ativo', { serial, ativoId: ativo, dataInicio: '2024-03-01T00:00:00Z' }));
    const del = await admin.del(`/api/equipamento/${dev.id}`);
    expect(del.status).toBe(409);
    expect((await del.json()).msg).toBe(`Este registro está em uso: 1 Vínculo de equipamento (campo Serial (IMEI)) usa o valor '${serial}' do campo Serial (IMEI); ele não pode ser excluído nem ter o campo Serial (IMEI) alterado`);
    const recode = await admin.put(`/api/equipamento/${dev.id}`, { serial: '865300000000004', tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
    expect(recode.status).toBe(409);
    expect((await admin.put(`/api/equipamento_ativo/${link.id}`, { serial, ativoId: ativo, dataInicio: '2024-03-01T00:00:00Z', dataFim: '2024-04-01T00:00:00Z' })).status).toBe(200);
    expect((await admin.del(`/api/equipamento/${dev.id}`)).status).toBe(200);
    expect(await q('SELECT count(*)::int AS n FROM equipamento WHERE serial = $1', [serial])).toEqual([{ n: 0 }]);
    expect(await links(serial)).toEqual([{ empresa_id: A, ativo_id: ativo }]);
  });
});

describe('commands are queued only to a device of the caller\'s company', () => {
  it("a link row to another company's tracker already in the database: engine block skips it (only registered devices), nothing queued", async () => {
    await ts.insert('equipamento_ativo', { empresaId: A, serial: FOREIGN, ativoId: ativoRogue, dataInicio: new Date('2024-01-01') });
    const res = await admin.post(`/api/ativo/${ativoRogue}/bloqueia_motor`);
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('O ativo não tem equipamento vinculado: não há para onde enviar o comando');
    expect((await admin.post(`/api/ativo/${ativoRogue}/desbloqueia_motor`)).status).toBe(422);
    expect(await queued(FOREIGN)).toEqual([]);
  });

  it("POST /api/fila_processamento with another company's or an unknown serial is refused; the own device is queued", async () => {
    for (const serial of [FOREIGN, '999999999999999']) {
      const res = await admin.post('/api/fila_processamento', { serial, event: 'engineBlock', value: {} });
      expect(res.status).toBe(400);
      expect((await res.json()).msg).toBe(`O valor '${serial}' do campo Serial (IMEI) não está cadastrado em Equipamentos desta empresa`);
      expect(await queued(serial)).toEqual([]);
    }
    const own = await admin.post('/api/fila_processamento', { serial: OWN, event: 'reboot', value: {} });
    expect(own.status).toBe(201);
    // An update cannot point the command at another company's device either.
    const put = await admin.put(`/api/fila_processamento/${(await own.json()).id}`, { serial: FOREIGN, event: 'reboot', value: {} });
    expect(put.status).toBe(400);
    expect(await queued(OWN)).toEqual([{ empresa_id: A, event: 'reboot' }]);
    expect(await queued(FOREIGN)).toEqual([]);
  });

  it('engine block through the own link still queues (a second link of the same technology is refused)', async () => {
    expect((await admin.post('/api/equipamento_ativo', { serial: OWN, ativoId: ativoA, dataInicio: '2024-02-01T00:00:00Z' })).status).toBe(409);
    const res = await admin.post(`/api/ativo/${ativoA}/bloqueia_motor`);
    expect(res.status).toBe(201);
    expect((await res.json()).map((r: any) => [r.serial, r.event])).toEqual([[OWN2, 'engineBlock']]);
  });
});

describe("provider exports under another company's parent are 404 before streaming", () => {
  // Every provider of company scope whose path names a parent record (a free parameter, not a choice), with A's and B's parent.
  const parents = () => ({
    acesso_ativo: { own: String(ativoA), foreign: String(ativoB) },
    ranking_motorista: { own: String(motoristaA), foreign: String(motoristaB) },
    logs_teclado: { own: TECLADO_A, foreign: TECLADO_B },
    viagem_ativo: { own: String(ativoA), foreign: String(ativoB) },
  } as Record<string, { own: string; foreign: string }>);
  // Providers whose param is no register row: what another company's value gives is said where they are tested.
  const notParents: Record<string, string> = {
    trajeto_viagem: "a trip (telemetria.viagem) of another company has no positions: [] (modules/viagens/server/viagens.test.ts)",
    itinerario_viagem_registro: "its {id} names a register row (row: itinerario): another company's itinerary is 404 before any read (modules/relatorios/server/registros.test.ts)",
  };
  const url = (key: string, value: string) => {
    const p = ts.model.providers.find((x) => x.key === key)!;
    return `/api${p.path!.replace(/\{[^}]+\}/, encodeURIComponent(value))}`;
  };

  it('the model has exactly these providers under a parent', () => {
    // dates (a period) are no parent
    const withParent = ts.model.providers.filter((p) => p.scope === 'empresa' && p.path && p.params.some((x) => !x.enum && !x.values && x.type !== 'date')).map((p) => p.key).sort();
    expect(withParent).toEqual([...Object.keys(parents()), ...Object.keys(notParents)].sort());
  });

  for (const key of ['acesso_ativo', 'ranking_motorista', 'logs_teclado', 'viagem_ativo']) {
    it(`${key}: export under B's parent is 404 (JSON, pt-BR), under A's own parent 200 CSV`, async () => {
      const { own, foreign } = parents()[key]!;
      const list = await admin.get(url(key, foreign));
      expect(list.status).toBe(404);
      const listMsg = (await list.json()).msg;
      for (const format of ['csv', 'xlsx']) {
        const res = await admin.get(`${url(key, foreign)}/export?format=${format}`);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toContain('application/json');
        const body = await res.json();
        expect(body.msg).toBe(listMsg);
        expect(body.msg).toMatch(/não encontrado$/);
      }
      const mine = await admin.get(`${url(key, own)}/export`);
      expect(mine.status).toBe(200);
      expect(mine.headers.get('content-type')).toContain('text/csv');
      const bytes = new Uint8Array(await mine.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the CSV's BOM
      const text = new TextDecoder().decode(bytes);
      const header = ts.model.providers.find((p) => p.key === key)!.columns.filter((c) => c.default).map((c) => c.label).join(';');
      expect(text.split('\r\n')[0]).toBe(header);
      expect(text).not.toContain('ERRO:');
    });
  }
});
