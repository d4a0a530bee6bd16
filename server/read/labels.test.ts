// Reference labels come with the row (issue 20): the read engine answers, with every row, the label (the referenced
// row's recordRepresentation) of each reference / referenceList field in `_labels`, read in the same statement and
// only from rows of the caller's company. A user whose role holds only the asset keys reads the asset list, the asset
// by id and its export with the labels of Categoria, Fabricante, Modelo, Garagem and Situação, though the referenced
// registers answer 403; another company's row never lends its label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let limited: Api;
let A: number, B: number;
let ativo: number, intruso: number, foreignAtivo: number;
const ids: Record<string, number> = {};
const SENHA = 'Rotulos-2024!';
const ATIVO_KEYS = ['tlm.fro.ativo.lista', 'tlm.fro.ativo.visualizar', 'tlm.fro.ativo.editar', 'tlm.fro.ativo.informacoes'];

const created = async (res: Response) => {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return Number(body.id);
};

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  ids.categoria = await created(await admin.post('/api/categoria_de_ativo', { descricao: 'Cavalo mecânico rótulo' }));
  ids.fabricante = await created(await admin.post('/api/fabricante_de_ativo', { descricao: 'Fabricante rótulo' }));
  ids.modelo = await created(await admin.post('/api/modelo_de_ativo', { descricao: 'Modelo rótulo' }));
  ids.situacao = await created(await admin.post('/api/situacao_do_ativo', { descricao: 'Situação rótulo' }));
  ids.garagem = await created(await admin.post('/api/garagem', { nome: 'Garagem rótulo' }));
  ativo = await created(await admin.post('/api/ativo', {
    descricao: 'Caminhão rotulado', placa: 'ROT1A23', categoria: ids.categoria, fabricante: ids.fabricante, modelo: ids.modelo,
    situacao: ids.situacao, idGaragem: ids.garagem,
  }));
  // Rows of company B, and a row of A naming B's rows (written past the API's checks, as a corrupt import would).
  const foreignCat = Number((await ts.insert('categoria_de_ativo', { empresaId: B, descricao: 'Categoria secreta de B' })).id);
  const foreignGaragem = Number((await ts.insert('garagem', { empresaId: B, nome: 'Garagem secreta de B' })).id);
  foreignAtivo = Number((await ts.insert('ativo', { empresaId: B, descricao: 'Ativo secreto de B', placa: 'SEC1B23' })).id);
  intruso = Number((await ts.insert('ativo', { empresaId: A, descricao: 'Ativo com referência alheia', placa: 'ROT2B34', categoria: foreignCat, idGaragem: foreignGaragem })).id);
  // The role holds only the asset keys, created through the API.
  const cargo = await created(await admin.post('/api/cargo', { descricao: 'Somente ativos (rótulos)', permissoes: ATIVO_KEYS }));
  await created(await admin.post('/api/usuario', { nome: 'Operador de ativos', login: 'rotulos.ativos', senha: SENHA, empresas: [A], empresaAtiva: A, cargos: [cargo] }));
  limited = await ts.login('rotulos.ativos', SENHA);
});
afterAll(async () => { await ts?.stop(); });

const LABELS = {
  idGaragem: 'Garagem rótulo', categoria: 'Cavalo mecânico rótulo', fabricante: 'Fabricante rótulo', modelo: 'Modelo rótulo', situacao: 'Situação rótulo',
};

describe('reference labels come with the row', () => {
  it('the referenced registers are closed to the user (what the front end used to read: 403)', async () => {
    for (const key of ['categoria_de_ativo', 'fabricante_de_ativo', 'modelo_de_ativo', 'situacao_do_ativo', 'garagem']) {
      const res = await limited.get(`/api/${key}?filter=${encodeURIComponent(JSON.stringify({ id: [ids.categoria] }))}`);
      expect(res.status, key).toBe(403);
    }
  });

  it('the list answers each row with the labels of its references', async () => {
    const res = await limited.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ q: 'ROT' }))}&sort=${encodeURIComponent('["placa","ASC"]')}`);
    expect(res.status).toBe(200);
    const rows = await res.json();
    expect(rows.map((r: any) => r.placa)).toEqual(['ROT1A23', 'ROT2B34']);
    expect(rows[0]._labels).toEqual(LABELS);
    expect(rows[0].categoria).toBe(ids.categoria); // the id stays the field's value
    // Another company's rows lend no label: null, and their texts appear nowhere in the answer.
    expect(rows[1]._labels).toEqual({ idGaragem: null, categoria: null, fabricante: null, modelo: null, situacao: null });
    const text = JSON.stringify(rows);
    expect(text).not.toContain('secreta');
  });

  it('by id too; another company\'s asset stays 404', async () => {
    const one = await json(await limited.get(`/api/ativo/${ativo}`));
    expect(one.descricao).toBe('Caminhão rotulado');
    expect(one._labels).toEqual(LABELS);
    const other = await limited.get(`/api/ativo/${intruso}`);
    expect((await other.json())._labels.categoria).toBeNull();
    expect((await limited.get(`/api/ativo/${foreignAtivo}`)).status).toBe(404);
  });

  it('a nested list (the garage\'s assets) carries them as well', async () => {
    const rows = await json(await admin.get(`/api/garagem/${ids.garagem}/ativo`));
    expect(rows.map((r: any) => [r.placa, r._labels.idGaragem, r._labels.situacao])).toEqual([['ROT1A23', 'Garagem rótulo', 'Situação rótulo']]);
  });

  it('a referenceList gets its labels in the order of its ids, null for a row of another company', async () => {
    const grupo = await created(await admin.post('/api/grupo_generico_ativo', { descricao: 'Grupo rótulos', ativos: [ativo] }));
    await ts.em().getConnection().execute('update grupo_generico_ativo set ativos = ? where id = ?', [`{${intruso},${foreignAtivo},${ativo}}`, grupo]);
    const row = await json(await admin.get(`/api/grupo_generico_ativo/${grupo}`));
    expect(row.ativos).toEqual([intruso, foreignAtivo, ativo]);
    expect(row._labels.ativos).toEqual(['Ativo com referência alheia', null, 'Caminhão rotulado']);
  });

  it('the record sent back with its labels saves (react-admin sends the whole record)', async () => {
    const one = await json(await limited.get(`/api/ativo/${ativo}`));
    const res = await limited.put(`/api/ativo/${ativo}`, { ...one, cor: 'Azul' });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    expect((await res.json()).cor).toBe('Azul');
  });

  it('the CSV and XLSX exports write the labels (not ids), never another company\'s', async () => {
    const cols = encodeURIComponent(JSON.stringify(['placa', 'categoria', 'fabricante', 'modelo', 'idGaragem', 'situacao']));
    const filter = encodeURIComponent(JSON.stringify({ q: 'ROT' }));
    const csv = await limited.get(`/api/ativo/export?format=csv&sort=${encodeURIComponent('["placa","ASC"]')}&filter=${filter}&columns=${cols}`);
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toEqual([
      'Placa;Categoria;Fabricante;Modelo;Garagem;Situação',
      'ROT1A23;Cavalo mecânico rótulo;Fabricante rótulo;Modelo rótulo;Garagem rótulo;Situação rótulo',
      // another company's rows: the id, never their label
      expect.stringMatching(/^ROT2B34;\d+;;;\d+;$/),
    ]);
    const xlsx = await limited.get(`/api/ativo/export?format=xlsx&sort=${encodeURIComponent('["placa","ASC"]')}&filter=${filter}&columns=${cols}`);
    expect(xlsx.status).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    expect((ws.getRow(2).values as unknown[]).slice(1)).toEqual(['ROT1A23', 'Cavalo mecânico rótulo', 'Fabricante rótulo', 'Modelo rótulo', 'Garagem rótulo', 'Situação rótulo']);
    expect(JSON.stringify(ws.getRow(3).values)).not.toContain('secreta');
  });
});
