// CRUD contract over real HTTP: ra-data-simple-rest, validation, conflicts, history, export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await ts?.stop(); });

const count = async (table: string, where = 'true') => Number((await ts.orm.em.getConnection().execute(`select count(*)::int as n from ${table} where ${where}`))[0].n);

describe('list', () => {
  it('answers a page with Content-Range and the exposed header', async () => {
    const res = await admin.get('/api/ativo?sort=["placa","ASC"]&range=[0,9]');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('ativo 0-9/40');
    expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
    const rows = await res.json();
    expect(rows).toHaveLength(10);
    const placas = rows.map((r: any) => r.placa);
    expect([...placas].sort()).toEqual(placas);
    expect(rows.every((r: any) => r.empresaId === admin.empresaAtiva)).toBe(true);
  });

  it('sorts DESC and pages', async () => {
    const a = await (await admin.get('/api/ativo?sort=["descricao","DESC"]&range=[0,4]')).json();
    const b = await (await admin.get('/api/ativo?sort=["descricao","DESC"]&range=[5,9]')).json();
    expect(a[0].descricao > a[4].descricao).toBe(true);
    expect(a[4].descricao > b[0].descricao).toBe(true);
  });

  it('q searches the quick-search fields case-insensitively', async () => {
    const res = await admin.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ q: 'veículo 00' }))}`);
    const rows = await res.json();
    expect(rows.length).toBe(9);
    expect(res.headers.get('content-range')).toMatch(/\/9$/);
  });

  it('filters by field, reference, id list (getMany) and date range', async () => {
    const all = await (await admin.get('/api/ativo?range=[0,99]')).json();
    const g = all[0].idGaragem;
    const byRef = await (await admin.get(`/api/ativo?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ idGaragem: g }))}`)).json();
    expect(byRef.length).toBe(all.filter((r: any) => r.idGaragem === g).length);
    const ids = all.slice(0, 3).map((r: any) => r.id);
    const many = await (await admin.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ id: ids }))}`)).json();
    expect(many.map((r: any) => r.id).sort()).toEqual([...ids].sort());
    const anos = await (await admin.get(`/api/ativo?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ ano_gte: 2020, ano_lte: 2021 }))}`)).json();
    expect(anos.length).toBeGreaterThan(0);
    expect(anos.every((r: any) => r.ano >= 2020 && r.ano <= 2021)).toBe(true);
    const future = await (await admin.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ createdAt_gte: '2999-01-01' }))}`)).json();
    expect(future).toEqual([]);
  });

  it('refuses unknown sort/filter fields and SQL metacharacters with 400', async () => {
    const bad = [
      '/api/ativo?sort=["placa; drop table ativo","ASC"]',
      '/api/ativo?sort=["placa","ASC; drop table ativo"]',
      '/api/ativo?sort=not-json',
      `/api/ativo?filter=${encodeURIComponent('{"placa\' or 1=1 --":"x"}')}`,
      `/api/ativo?filter=${encodeURIComponent('{"ano":"1 or 1=1"}')}`,
      '/api/ativo?range=[0,"x"]',
      '/api/ativo?range=[-1,5]',
      '/api/ativo?filter={bad json',
      `/api/ativo?filter=${encodeURIComponent('{"senha":"x"}')}`,
    ];
    for (const p of bad) {
      const res = await admin.get(p);
      expect(res.status, p).toBe(400);
      const b = await res.json();
      expect(b.msg, p).toBeTypeOf('string');
    }
    expect(await count('ativo')).toBe(50);
  });

  it('treats LIKE wildcards in q literally', async () => {
    const rows = await (await admin.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ q: "%' or '1'='1" }))}`)).json();
    expect(rows).toEqual([]);
    const pct = await (await admin.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ q: '%' }))}`)).json();
    expect(pct).toEqual([]);
  });
});

describe('write', () => {
  let garagem: number;
  beforeAll(async () => {
    garagem = (await (await admin.get('/api/garagem?range=[0,0]')).json())[0].id;
  });

  it('validates with pt-BR messages and writes nothing on failure', async () => {
    const before = await count('ativo');
    const res = await admin.post('/api/ativo', { descricao: 'Sem placa' });
    expect(res.status).toBe(400);
    const b = await res.json();
    expect(b.msg).toContain('O campo Placa é obrigatório');
    expect(b.payload).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'placa', message: 'O campo Placa é obrigatório' })]));

    const r2 = await json(await admin.post('/api/ativo', { descricao: 'X', placa: 'INV4L1D' }));
    expect(r2.msg).toContain('Placa inválida: use o formato AAA-1234 ou AAA1A23');
    const r3 = await json(await admin.post('/api/ativo', { descricao: 'X', placa: 'ABC1234', ano: 'dois mil' }));
    expect(r3.msg).toContain('O campo Ano deve ser um número inteiro');
    const r4 = await json(await admin.post('/api/ativo', { descricao: 'X', placa: 'ABC1234', ano: 1800 }));
    expect(r4.msg).toContain('O campo Ano deve ser no mínimo 1950');
    const r5 = await admin.post('/api/ativo', { descricao: 'X', placa: 'ABC1234', desconhecido: 1 });
    expect(r5.status).toBe(400);
    expect((await r5.json()).msg).toContain('Campo desconhecido: desconhecido');
    const r6 = await json(await admin.post('/api/ativo', { descricao: 'x'.repeat(200), placa: 'ABC1234' }));
    expect(r6.msg).toContain('O campo Descrição deve ter no máximo 120 caracteres');
    const r7 = await admin.post('/api/ativo', '{"descricao": ');
    expect(r7.status).toBe(400);
    const r8 = await admin.post('/api/ativo', { descricao: 'X', placa: 'ABC1234', idGaragem: 999999 });
    expect(r8.status).toBe(400);
    expect((await r8.json()).msg).toContain('Garagem');
    const r9 = await json(await admin.post('/api/empresa', { fantasia: 'E', email: 'não-é-email' }));
    expect(r9.msg).toContain('O campo E-mail deve ser um e-mail válido');
    expect(await count('ativo')).toBe(before);
    expect(await count('historico_alteracao', "entidade = 'ativo'")).toBe(0);
  });

  it('creates (upper-casing), reads, updates, records history, deletes', async () => {
    const res = await admin.post('/api/ativo', { descricao: 'Caminhão novo', placa: 'abc1d23', idGaragem: garagem, ano: 2022, empresaId: 999 });
    expect(res.status).toBe(201);
    const a = await res.json();
    expect(a.placa).toBe('ABC1D23');
    expect(a.empresaId).toBe(admin.empresaAtiva);
    expect((await (await admin.get(`/api/ativo/${a.id}`)).json()).descricao).toBe('Caminhão novo');

    const up = await admin.put(`/api/ativo/${a.id}`, { ...a, descricao: 'Caminhão usado', cor: 'Azul' });
    expect(up.status).toBe(200);
    expect((await up.json()).descricao).toBe('Caminhão usado');

    const hist = await (await admin.get(`/api/ativo/${a.id}/historico`)).json();
    expect(hist.map((h: any) => h.operacao)).toEqual(['update', 'create']);
    expect(hist[0].alteracoes.descricao).toEqual({ antes: 'Caminhão novo', depois: 'Caminhão usado' });
    expect(hist[0].login).toBe('admin');

    const del = await admin.del(`/api/ativo/${a.id}`);
    expect(del.status).toBe(200);
    expect((await admin.get(`/api/ativo/${a.id}`)).status).toBe(404);
    const hist2 = await (await admin.get(`/api/ativo/${a.id}/historico`)).json();
    expect(hist2[0].operacao).toBe('delete');
  });

  it('answers 409 on unique conflicts and writes nothing', async () => {
    const existing = (await (await admin.get('/api/ativo?range=[0,0]')).json())[0];
    const before = await count('ativo');
    const res = await admin.post('/api/ativo', { descricao: 'Duplicado', placa: existing.placa });
    expect(res.status).toBe(409);
    expect((await res.json()).msg).toBe('Já existe um registro com o valor informado em Placa');
    expect(await count('ativo')).toBe(before);
  });

  it('refuses to delete a record in use (409 em uso) and keeps it and its users', async () => {
    const ativo = (await (await admin.get('/api/ativo?range=[0,99]')).json()).find((a: any) => a.idGaragem);
    expect(ativo.idGaragem).toBeGreaterThan(0);
    const res = await admin.del(`/api/garagem/${ativo.idGaragem}`);
    expect(res.status).toBe(409);
    expect((await res.json()).msg).toBe('Este registro está em uso por outros cadastros e não pode ser excluído ou alterado');
    expect(await count('garagem', `id = ${Number(ativo.idGaragem)}`)).toBe(1);
    expect((await (await admin.get(`/api/ativo/${ativo.id}`)).json()).idGaragem).toBe(ativo.idGaragem);
  });

  it('hashes passwords with argon2id and never returns them', async () => {
    const res = await admin.post('/api/usuario', { nome: 'Novo', login: 'novo.usuario', senha: 'senha-forte-1', empresas: [admin.empresaAtiva] });
    expect(res.status).toBe(201);
    const u = await res.json();
    expect(u).not.toHaveProperty('senha');
    const row = (await ts.orm.em.getConnection().execute('select senha from usuario where id = ?', [u.id]))[0];
    expect(row.senha).toMatch(/^\$argon2id\$/);
    const list = await (await admin.get('/api/usuario?range=[0,99]')).json();
    expect(list.every((x: any) => !('senha' in x))).toBe(true);
    // Empty password on update keeps the current one.
    const up = await admin.put(`/api/usuario/${u.id}`, { ...u, senha: '' });
    expect(up.status).toBe(200);
    expect((await ts.orm.em.getConnection().execute('select senha from usuario where id = ?', [u.id]))[0].senha).toBe(row.senha);
  });

  it('runs declarative actions with their permission and history', async () => {
    const b = (await (await admin.get('/api/empresa?range=[0,9]')).json()).find((e: any) => e.id !== admin.empresaAtiva);
    const res = await admin.post(`/api/empresa/${b.id}/suspende`);
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe('suspensa');
    expect((await admin.post(`/api/empresa/${b.id}/suspende`)).status).toBe(409);
    expect((await (await admin.post(`/api/empresa/${b.id}/cancela_suspensao`)).json()).status).toBe('ativa');
    const hist = await (await admin.get(`/api/empresa/${b.id}/historico`)).json();
    expect(hist.map((h: any) => h.operacao)).toEqual(['cancela_suspensao', 'suspende']);
  });

  it('writes without the companyId header act on the active company; a header naming another company is refused', async () => {
    const res = await ts.fetch('/api/ativo', { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ descricao: 'sem cabeçalho', placa: 'SEM1C23' }) });
    expect(res.status).toBe(201);
    const row = await res.json();
    expect(row.empresaId).toBe(admin.empresaAtiva);
    const other = await admin.post('/api/ativo', { descricao: 'x', placa: 'ABC1234' }, { companyId: '999' });
    expect(other.status).toBe(403);
    expect((await other.json()).msg).toBe('A empresa da requisição (companyId) não corresponde à empresa ativa da sessão');
    const del = await ts.fetch(`/api/ativo/${row.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${admin.token}` } });
    expect(del.status).toBe(200);
  });

  it('limits the body size', async () => {
    const res = await admin.post('/api/ativo', { descricao: 'x'.repeat(2 * 1024 * 1024), placa: 'ABC1234' });
    expect(res.status).toBe(413);
  });
});

describe('export', () => {
  it('exports the whole filtered result as CSV with pt-BR headers', async () => {
    const res = await admin.get(`/api/ativo/export?format=csv&sort=["placa","ASC"]&columns=${encodeURIComponent('["descricao","placa","idGaragem"]')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Descrição;Placa;Garagem');
    expect(lines).toHaveLength(1 + 40);
    expect(lines[1].split(';')[2]).not.toMatch(/^\d+$/); // garage shown by name
  });

  it('exports XLSX', async () => {
    const res = await admin.get(`/api/ativo/export?format=xlsx&filter=${encodeURIComponent(JSON.stringify({ q: 'Veículo 01' }))}`);
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('Descrição');
    expect(ws.rowCount).toBe(1 + 10);
  });

  it('refuses unknown formats and columns', async () => {
    expect((await admin.get('/api/ativo/export?format=pdf')).status).toBe(400);
    expect((await admin.get('/api/ativo/export?format=csv&columns=["senha"]')).status).toBe(400);
  });
});
