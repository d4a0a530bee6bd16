// Nested lists (metadata parent) over HTTP: a garage's ativos and motoristas, an equipment's processing queue by
// serial; filtered by the parent in SQL, creates carry the parent, the parent's key and company come first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
let g1: number, g2: number, gB: number;
let a1: number, a2: number, a3: number;

const ids = async (res: Response) => { expect(res.status).toBe(200); return (await res.json()).map((r: any) => r.id).sort((x: number, y: number) => x - y); };
const q = (o: Record<string, unknown>) => `?${new URLSearchParams(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)])))}`;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  const empresas = await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id');
  [A, B] = empresas.map((r: any) => r.id);
  expect(admin.empresaAtiva).toBe(A);
  g1 = (await json(await admin.post('/api/garagem', { nome: 'Garagem Norte' }))).id;
  g2 = (await json(await admin.post('/api/garagem', { nome: 'Garagem Sul' }))).id;
  const ativo = async (placa: string, idGaragem: number | null) => (await json(await admin.post('/api/ativo', { descricao: `Ativo ${placa}`, placa, idGaragem }))).id;
  a1 = await ativo('NST1A11', g1);
  a2 = await ativo('NST1A12', g1);
  a3 = await ativo('NST1A13', g2);
  await ativo('NST1A14', null);
  expect((await admin.post('/api/motorista', { nome: 'Motorista Norte', documento: '111.222.333-44', idGaragem: g1 })).status).toBe(201);
  expect((await admin.post('/api/motorista', { nome: 'Motorista Sul', documento: '111.222.333-55', idGaragem: g2 })).status).toBe(201);
  gB = Number((await ts.insert('garagem', { empresaId: B, nome: 'Garagem de B' })).id);
  await ts.insert('ativo', { empresaId: B, descricao: 'Ativo de B', placa: 'OUT9A99', idGaragem: gB });
});
afterAll(async () => { await ts?.stop(); });

describe('a garage\'s ativos and motoristas (parent garagem)', () => {
  it('lists only the garage\'s rows, paged with the total, and filters within them', async () => {
    const res = await admin.get(`/api/garagem/${g1}/ativo${q({ range: [0, 24], sort: ['placa', 'ASC'] })}`);
    expect(res.headers.get('content-range')).toBe('ativo 0-1/2');
    expect((await res.json()).map((r: any) => [r.placa, r.idGaragem])).toEqual([['NST1A11', g1], ['NST1A12', g1]]);
    expect(await ids(await admin.get(`/api/garagem/${g2}/ativo`))).toEqual([a3]);
    expect(await ids(await admin.get(`/api/garagem/${g1}/ativo${q({ filter: { q: 'NST1A12' } })}`))).toEqual([a2]);
    // a filter on the parent field cannot widen the list
    expect(await ids(await admin.get(`/api/garagem/${g1}/ativo${q({ filter: { idGaragem: g2 } })}`))).toEqual([]);
    const mot = await (await admin.get(`/api/garagem/${g1}/motorista`)).json();
    expect(mot.map((r: any) => r.nome)).toEqual(['Motorista Norte']);
  });

  it('shows one row only under its own garage', async () => {
    expect((await json(await admin.get(`/api/garagem/${g1}/ativo/${a1}`))).placa).toBe('NST1A11');
    expect((await admin.get(`/api/garagem/${g1}/ativo/${a3}`)).status).toBe(404);
  });

  it('creates carry the parent, whatever the body says', async () => {
    const res = await admin.post(`/api/garagem/${g1}/ativo`, { descricao: 'Novo no norte', placa: 'NST2B22', idGaragem: g2 });
    expect(res.status).toBe(201);
    const row = await res.json();
    expect(row.idGaragem).toBe(g1);
    expect((await json(await admin.get(`/api/ativo/${row.id}`))).idGaragem).toBe(g1);
    expect((await admin.post(`/api/garagem/${g1}/ativo`, { descricao: 'Sem placa' })).status).toBe(400);
  });

  it("another company's garage is 404 for list, one and create, and nothing is written", async () => {
    const list = await admin.get(`/api/garagem/${gB}/ativo`);
    expect(list.status).toBe(404);
    expect((await list.json()).msg).toBe('Registro pai não encontrado');
    expect((await admin.get(`/api/garagem/${gB}/motorista`)).status).toBe(404);
    expect((await admin.post(`/api/garagem/${gB}/ativo`, { descricao: 'Intruso', placa: 'INT1A11' })).status).toBe(404);
    const n = await ts.em().getConnection().execute(`SELECT count(*)::int AS n FROM ativo WHERE placa = 'INT1A11'`);
    expect(n[0].n).toBe(0);
    expect((await admin.get('/api/garagem/999999/ativo')).status).toBe(404);
    expect((await admin.get('/api/garagem/abc/ativo')).status).toBe(404);
  });

  it("needs the parent's visualizar key besides the list key", async () => {
    const ambienteId = admin.user.ambienteId;
    await ts.createUser({ login: 'soativos', ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
    await ts.createUser({ login: 'garagens', ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista', 'tlm.fro.garagem.visualizar'] });
    const only = await ts.login('soativos', 'senha-teste-123');
    const both = await ts.login('garagens', 'senha-teste-123');
    expect((await only.get(`/api/garagem/${g1}/ativo`)).status).toBe(403);
    expect((await only.get('/api/ativo')).status).toBe(200);
    const seen = await ids(await both.get(`/api/garagem/${g1}/ativo`));
    expect(seen.slice(0, 2)).toEqual([a1, a2]);
    expect(seen).toEqual(await ids(await admin.get(`/api/garagem/${g1}/ativo`)));
    expect((await both.post(`/api/garagem/${g1}/ativo`, { descricao: 'x', placa: 'NOP1A11' })).status).toBe(403);
  });
});

describe("an equipment's processing queue by serial (parent equipamento by serial)", () => {
  beforeAll(async () => {
    for (const serial of ['865200000000001', '865200000000002']) {
      expect((await admin.post('/api/equipamento', { serial, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).status).toBe(201);
      expect((await admin.post('/api/fila_processamento', { serial, event: 'reboot' })).status).toBe(201);
    }
    expect((await admin.post('/api/fila_processamento', { serial: '865200000000001', event: 'sync' })).status).toBe(201);
    await ts.insert('equipamento', { empresaId: B, serial: '866200000000001', tecnologia: 'queclink', modelo: 'gv50cg', ativado: true });
  });

  it('lists the serial\'s commands only', async () => {
    const res = await admin.get(`/api/equipamento/865200000000001/fila_processamento${q({ sort: ['id', 'ASC'] })}`);
    expect(res.status).toBe(200);
    expect((await res.json()).map((r: any) => [r.serial, r.event])).toEqual([['865200000000001', 'reboot'], ['865200000000001', 'sync']]);
    expect(res.headers.get('content-range')).toBe('fila_processamento 0-1/2');
  });

  it('creates for the serial of the route', async () => {
    const row = await json(await admin.post('/api/equipamento/865200000000002/fila_processamento', { serial: '865200000000001', event: 'readConfig' }));
    expect([row.serial, row.event, row.status]).toEqual(['865200000000002', 'readConfig', 'pendente']);
  });

  it("another company's serial and an unknown serial are 404", async () => {
    expect((await admin.get('/api/equipamento/866200000000001/fila_processamento')).status).toBe(404);
    expect((await admin.get('/api/equipamento/000000000000000/fila_processamento')).status).toBe(404);
    expect((await admin.post('/api/equipamento/866200000000001/fila_processamento', { event: 'reboot' })).status).toBe(404);
  });
});
