// Import of registers from a sheet (modules/importacao/server/importacao.ts) over real HTTP: the importable registers offered by
// key, the model sheet, a CSV preview with per-row pt-BR errors writing nothing, all-or-nothing import, an XLSX
// import creating rows (references by name, enums by label, booleans in pt-BR) in the caller's company with history,
// and the refusals (screen key, register key, other company's references, unknown columns, non-importable register).
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
let garagem: number;

const form = (body: string | Buffer, name: string) => {
  const f = new FormData();
  f.append('file', new Blob([body as BlobPart]), name);
  return f;
};
const send = (api: Api, path: string, body: string | Buffer, name = 'planilha.csv') =>
  ts.fetch(path, { method: 'POST', headers: api.headers(), body: form(body, name) });
const count = async (sql: string, params: unknown[] = []) => Number(((await ts.em().getConnection().execute(sql, params)) as any[])[0].n);

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
  garagem = (await json(await admin.post('/api/garagem', { nome: 'Garagem Central' }))).id;
  await ts.insert('garagem', { empresaId: B, nome: 'Garagem de B' });
});
afterAll(async () => { await ts?.stop(); });

const CSV_RUIM = [
  'Nome;CPF;Garagem;Situação;Crachás',
  'Ana Import;123.456.789-01;Garagem Central;Ativo;A1, A2',
  ';123.456.789-02;;;',
  'Bruno Import;123;;;',
  'Carla Import;123.456.789-01;;;',
  'Davi Import;123.456.789-04;Garagem de B;;',
  'Eva Import;123.456.789-05;;Férias;',
].join('\r\n');

describe('importacao', () => {
  it('offers the importable registers the caller may add to, with their columns', async () => {
    const list = await json(await admin.get('/api/importacao/registros'));
    expect(list.map((r: any) => r.key)).toEqual(expect.arrayContaining(['ativo', 'motorista', 'garagem', 'passageiro', 'pontuacao_de_eventos']));
    expect(list.some((r: any) => r.key === 'usuario')).toBe(false);
    const m = list.find((r: any) => r.key === 'motorista');
    expect(m.label).toBe('Motoristas');
    expect(m.colunas.filter((c: any) => c.required).map((c: any) => c.label)).toEqual(['Nome', 'CPF', 'Situação']);
    expect(m.colunas.find((c: any) => c.name === 'idGaragem')).toMatchObject({ label: 'Garagem', reference: 'garagem' });
  });

  it('answers the model sheet (XLSX with the header row)', async () => {
    const res = await admin.get('/api/importacao/motorista/modelo');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('importacao_motorista.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const header = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['Nome', 'CPF', 'CNH']);
  });

  it('previews a CSV: each row with its pt-BR errors (repeats within the sheet too), nothing written', async () => {
    const before = await count('SELECT count(*) n FROM motorista');
    const res = await send(admin, '/api/importacao/motorista/previa', CSV_RUIM);
    expect(res.status).toBe(200);
    const p = await res.json();
    expect([p.total, p.validas, p.invalidas]).toEqual([6, 1, 5]);
    const by = Object.fromEntries(p.linhas.map((l: any) => [l.linha, l.erros]));
    expect(by[2]).toEqual([]);
    expect(p.linhas[0].dados).toEqual({ nome: 'Ana Import', documento: '123.456.789-01', idGaragem: garagem, situacao: 'ativo', badges: ['A1', 'A2'] });
    expect(by[3]).toEqual(['O campo Nome é obrigatório']);
    expect(by[4]).toEqual(['CPF inválido: use o formato 000.000.000-00']);
    expect(by[5]).toEqual(['Já existe um registro com o valor informado em CPF']);
    expect(by[6]).toEqual(['Garagem: Garagem de B não encontrado']);
    expect(by[7]).toHaveLength(1);
    expect(by[7][0]).toContain('Situação');
    expect(await count('SELECT count(*) n FROM motorista')).toBe(before);
  });

  it('imports all or nothing: a sheet with errors writes no row (400 with the rows)', async () => {
    const before = await count('SELECT count(*) n FROM motorista');
    const res = await send(admin, '/api/importacao/motorista', CSV_RUIM);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.msg).toBe('A planilha tem 5 linha(s) com erro; nenhuma linha foi importada');
    expect(body.payload.linhas).toHaveLength(6);
    expect(await count('SELECT count(*) n FROM motorista')).toBe(before);
  });

  it('imports an XLSX in the active company, as creates (history), references by name and labels', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Motoristas');
    ws.addRow(['nome', 'CPF', 'garagem', 'Situação', 'Validade da CNH', 'E-mail']);
    ws.addRow(['Fábio Xlsx', '321.654.987-01', 'Garagem Central', 'Afastado', new Date(Date.UTC(2027, 4, 31)), 'fabio@example.com']);
    ws.addRow(['Gina Xlsx', '321.654.987-02', garagem, null, '15/06/2027', null]);
    ws.addRow([]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const prev = await json(await send(admin, '/api/importacao/motorista/previa', buf, 'motoristas.xlsx'));
    expect([prev.total, prev.invalidas]).toEqual([2, 0]);
    const res = await send(admin, '/api/importacao/motorista', buf, 'motoristas.xlsx');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ importados: 2, total: 2 });
    const rows = await ts.em().getConnection().execute(
      `SELECT nome, empresa_id, id_garagem, situacao, validade_cnh::text v, email FROM motorista WHERE nome LIKE '%Xlsx' ORDER BY nome`) as any[];
    expect(rows.map((r) => [r.nome, r.empresa_id, r.id_garagem, r.situacao, r.v, r.email])).toEqual([
      ['Fábio Xlsx', A, garagem, 'afastado', '2027-05-31', 'fabio@example.com'],
      ['Gina Xlsx', A, garagem, 'ativo', '2027-06-15', null],
    ]);
    const ids = (await json(await admin.get(`/api/motorista?filter=${encodeURIComponent(JSON.stringify({ q: 'Xlsx' }))}`))).map((r: any) => r.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect((await json(await admin.get(`/api/motorista/${id}/historico`))).map((h: any) => h.operacao)).toEqual(['create']);
    // the same sheet again: every CPF exists now
    const again = await send(admin, '/api/importacao/motorista', buf, 'motoristas.xlsx');
    expect(again.status).toBe(400);
  });

  it('refuses unknown columns, empty sheets, non-importable registers and files that are not CSV/XLSX', async () => {
    const unk = await send(admin, '/api/importacao/motorista/previa', 'Nome;Apelido\nZé;Z');
    expect(unk.status).toBe(400);
    expect((await unk.json()).msg).toMatch(/^Coluna desconhecida na planilha: Apelido\. Use: Nome, CPF/);
    const empty = await send(admin, '/api/importacao/motorista/previa', 'Nome;CPF\n');
    expect((await empty.json()).msg).toBe('A planilha não tem linhas para importar');
    expect((await send(admin, '/api/importacao/usuario/previa', 'Login\nx')).status).toBe(404);
    const bin = await send(admin, '/api/importacao/motorista/previa', Buffer.from([0x00, 0x01, 0x02, 0xff]), 'x.csv');
    expect(bin.status).toBe(400);
    const none = await ts.fetch('/api/importacao/motorista/previa', { method: 'POST', headers: admin.headers(), body: new FormData() });
    expect((await none.json()).msg).toBe('Envie a planilha no campo file');
  });

  it('needs an import screen key and the register adicionar key; rows land in the caller company only', async () => {
    const ambienteId = admin.user.ambienteId;
    await ts.createUser({ login: 'imp_sem_tela', ambienteId, empresas: [A], permissoes: ['tlm.fro.motorista.adicionar'] });
    await ts.createUser({ login: 'imp_sem_cad', ambienteId, empresas: [A], permissoes: ['cfg.cfg.importacao', 'tlm.fro.garagem.adicionar'] });
    await ts.createUser({ login: 'imp_b', ambienteId, empresas: [B], permissoes: ['adm.sis.integracao.importar', 'tlm.fro.motorista.adicionar'] });
    const semTela = await ts.login('imp_sem_tela', 'senha-teste-123');
    const semCad = await ts.login('imp_sem_cad', 'senha-teste-123');
    const b = await ts.login('imp_b', 'senha-teste-123');
    const csv = 'Nome;CPF;Garagem\nHelena B;555.666.777-01;Garagem Central';
    expect((await semTela.get('/api/importacao/registros')).status).toBe(403);
    expect((await send(semTela, '/api/importacao/motorista', csv)).status).toBe(403);
    expect((await json(await semCad.get('/api/importacao/registros'))).map((r: any) => r.key)).toEqual(['garagem']);
    expect((await send(semCad, '/api/importacao/motorista/previa', csv)).status).toBe(403);
    expect((await semCad.get('/api/importacao/motorista/modelo')).status).toBe(403);
    // company B's user: company A's garage is not found by its name
    const p = await json(await send(b, '/api/importacao/motorista/previa', csv));
    expect(p.linhas[0].erros).toEqual(['Garagem: Garagem Central não encontrado']);
    const ok = await send(b, '/api/importacao/motorista', 'Nome;CPF\nHelena B;555.666.777-01');
    expect(ok.status).toBe(201);
    expect(await count(`SELECT count(*) n FROM motorista WHERE nome = 'Helena B' AND empresa_id = ?`, [B])).toBe(1);
    expect(await count(`SELECT count(*) n FROM motorista WHERE nome = 'Helena B' AND empresa_id = ?`, [A])).toBe(0);
  });
});
