// Another format of a spooled report over real HTTP and a real socket: a CSV in Relatórios gerados; its XLSX is not
// exported inside a request (409 until produced) but asked for with POST /api/spool/gera/{id}/xlsx, which starts job
// relatorio_formato (202) — progress and the row's state pushed to the user's sockets — and then downloads at once
// as stored (the same trips, read back); two requests at once start one job; a failing export is kept as 'falhou'
// and asked again; shared rows carry the produced formats; expired rows take their files along; another company or
// user 404, missing keys 403.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { io as connectIo, type Socket } from 'socket.io-client';
import { twoTrips } from './users.kit.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { localStorage, type Storage } from '../../../server/uploads/storage.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
let userA: Api, colegaA: Api, userB: Api, semSpool: Api, semFamilia: Api;
let colegaId: number;
let spoolId: number;
let sock: Socket;
let storage: Storage;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spool-formato-'));
const tarefas: any[] = [];
const estados: any[] = [];
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const PERIODO = { inicio: '2026-03-10T00:00:00-03:00', fim: '2026-03-11T23:59:59.999-03:00' };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const done = async (id: number) => {
  await expect.poll(async () => (await q('SELECT estado FROM tarefa WHERE id = $1', [id]))[0].estado, { timeout: 20_000 }).toMatch(/concluido|falhou/);
  return (await q('SELECT * FROM tarefa WHERE id = $1', [id]))[0];
};
const row = async (api: Api, id: number) => (await (await api.get('/api/relatorio_gerado?range=[0,99]')).json()).find((r: any) => r.id === id);
const cell = (v: string | null) => (v === null ? null : JSON.parse(v));

beforeAll(async () => {
  process.env.AGENDAMENTO_TICK_MS = '300';
  storage = localStorage(dir);
  ts = await startTestServer({ storage });
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  await twoTrips(q, 'sf-a1', A);
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const spool = ['lista', 'visualizar', 'compartilhar'].map((k) => `rel.rel.relatorios.gerados.${k}`);
  const keys = ['rel.rel.relatorios', 'rel.rel.relatorios.viagem', ...spool];
  await ts.createUser({ login: 'sf_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  colegaId = await ts.createUser({ login: 'sf_colega', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'sf_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'sf_sem_spool', ambienteId: ambiente, empresas: [A], permissoes: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem', 'rel.rel.relatorios.gerados.lista'] });
  await ts.createUser({ login: 'sf_sem_familia', ambienteId: ambiente, empresas: [A], permissoes: ['rel.rel.relatorios', ...spool] });
  userA = await ts.login('sf_a', 'senha-teste-123');
  colegaA = await ts.login('sf_colega', 'senha-teste-123');
  userB = await ts.login('sf_b', 'senha-teste-123');
  semSpool = await ts.login('sf_sem_spool', 'senha-teste-123');
  semFamilia = await ts.login('sf_sem_familia', 'senha-teste-123');
  sock = connectIo(ts.url, { path: '/socket_server', auth: { token: userA.token }, transports: ['websocket'] });
  sock.on('tarefa', (m) => tarefas.push(m));
  sock.on('relatorio_gerado', (m) => estados.push(m));
  await new Promise<void>((r, j) => { sock.on('connect', () => r()); sock.on('connect_error', j); });

  const r = await userA.post('/api/tarefa/inicia/relatorio_gera', {
    familia: 'viagem', tipo: 'detalhado', params: { periodo: PERIODO }, colunas: ['ativo', 'distancia'], formato: 'csv', fuso: 'America/Sao_Paulo',
  });
  expect(r.status).toBe(201);
  const tarefa = (await json(r)).id;
  for (let i = 0; i < 200 && (await q('SELECT estado FROM tarefa WHERE id = $1', [tarefa]))[0].estado !== 'concluido'; i++) await new Promise((res) => setTimeout(res, 100));
  spoolId = (await q('SELECT id FROM relatorio_gerado WHERE tarefa = $1', [tarefa]))[0].id;
}, 120_000);

afterAll(async () => {
  sock?.close();
  delete process.env.RELATORIO_PDF_MAX;
  delete process.env.AGENDAMENTO_TICK_MS;
  await pool?.end();
  await ts?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('another format of a spooled report', () => {
  it('is not exported inside a request: 409 until produced; the list offers to produce it', async () => {
    const g = await userA.get(`/api/spool/get/${spoolId}/xlsx`);
    expect(g.status).toBe(409);
    expect((await json(g)).msg).toBe('O relatório em XLSX ainda não foi gerado: peça-o em Relatórios gerados');
    const r = await row(userA, spoolId);
    expect(cell(r.baixarCsv)).toEqual({ url: `/api/spool/get/${spoolId}/csv` });
    expect(cell(r.baixarXlsx)).toEqual({ gerar: `/api/spool/gera/${spoolId}/xlsx`, erro: null });
    expect(cell(r.baixarPdf)).toEqual({ gerar: `/api/spool/gera/${spoolId}/pdf`, erro: null });
    expect(await q(`SELECT count(*)::int AS n FROM tarefa WHERE tipo = 'relatorio_formato'`)).toEqual([{ n: 0 }]);
  });

  it('POST gera starts one background job (two requests at once: one job), pushes its progress and the row state, then downloads as stored', async () => {
    const [r1, r2] = await Promise.all([userA.post(`/api/spool/gera/${spoolId}/xlsx`), userA.post(`/api/spool/gera/${spoolId}/xlsx`)]);
    expect([r1.status, r2.status]).toEqual([202, 202]);
    const [j1, j2] = [await json(r1), await json(r2)];
    const first = [j1, j2].find((j) => j.msg === 'Gerando o relatório em XLSX')!;
    expect(first.payload).toMatchObject({ estado: 'gerando', url: null });
    const jobs = await q(`SELECT id, descricao, usuario FROM tarefa WHERE tipo = 'relatorio_formato'`);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].id).toBe(first.payload.tarefa);
    expect(jobs[0].descricao).toBe('Gerar relatório Viagem — Detalhado (XLSX)');
    const t = await done(jobs[0].id);
    expect(t, String(t.erro)).toMatchObject({ estado: 'concluido', progresso: 100, feito: 2, total: 2 });
    expect(t.resultado).toMatch(/^Relatório gerado: 2 linhas, [\d,]+ KB$/);
    await expect.poll(() => tarefas.filter((p) => p.id === jobs[0].id).map((p) => p.estado).at(-1)).toBe('concluido');
    await expect.poll(() => estados.filter((p) => p.id === spoolId && p.formato === 'xlsx').map((p) => p.estado)).toEqual(['gerando', 'gerando', 'disponivel']);

    const [{ formatos }] = await q('SELECT formatos FROM relatorio_gerado WHERE id = $1', [spoolId]);
    expect(formatos.xlsx).toMatchObject({ estado: 'disponivel', tarefa: jobs[0].id, nomeArquivo: 'relatorio_viagem_detalhado.xlsx' });
    expect(formatos.xlsx.arquivo).toMatch(/^[0-9a-f]{32}\.xlsx$/);
    expect(cell((await row(userA, spoolId)).baixarXlsx)).toEqual({ url: `/api/spool/get/${spoolId}/xlsx` });

    const x = await userA.get(`/api/spool/get/${spoolId}/xlsx`);
    expect(x.status).toBe(200);
    expect(x.headers.get('content-type')).toBe(XLSX);
    expect(x.headers.get('content-disposition')).toBe('attachment; filename="relatorio_viagem_detalhado.xlsx"');
    const buf = Buffer.from(await x.arrayBuffer());
    expect(buf.length).toBe(formatos.xlsx.tamanho);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as never);
    const ws = wb.worksheets[0];
    expect(ws.getCell('A1').value).toBe('Relatório de Viagem — Detalhado');
    expect(ws.getRow(9).values).toEqual([undefined, 'Ativo', 'Distância (km)']);
    expect([ws.getRow(10).values, ws.getRow(11).values].map((v) => (v as unknown[])[2])).toEqual([50, 30]);
    // a second download is the same stored file: no new job
    expect(Buffer.from(await (await userA.get(`/api/spool/get/${spoolId}/xlsx`)).arrayBuffer()).equals(buf)).toBe(true);
    const again = await userA.post(`/api/spool/gera/${spoolId}/xlsx`);
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ msg: 'O relatório em XLSX já está disponível', payload: { estado: 'disponivel', url: `/api/spool/get/${spoolId}/xlsx`, tarefa: null } });
    const own = await userA.post(`/api/spool/gera/${spoolId}/csv`);
    expect(own.status).toBe(200);
    expect((await json(own)).payload.estado).toBe('disponivel');
    expect(await q(`SELECT count(*)::int AS n FROM tarefa WHERE tipo = 'relatorio_formato'`)).toEqual([{ n: 1 }]);
  });

  it('a failing export is kept as falhou with its message and can be asked again', async () => {
    process.env.RELATORIO_PDF_MAX = '1';
    const r = await userA.post(`/api/spool/gera/${spoolId}/pdf`);
    expect(r.status).toBe(202);
    const t = await done((await json(r)).payload.tarefa);
    expect(t.estado).toBe('falhou');
    expect(t.erro).toBe('O relatório tem 2 linhas, acima do limite de 1 do PDF: exporte em XLSX ou CSV');
    expect(cell((await row(userA, spoolId)).baixarPdf)).toEqual({ gerar: `/api/spool/gera/${spoolId}/pdf`, erro: t.erro });
    const g = await userA.get(`/api/spool/get/${spoolId}/pdf`);
    expect(g.status).toBe(409);
    expect((await json(g)).msg).toBe(`A geração do relatório em PDF falhou: ${t.erro}`);
    await expect.poll(() => estados.filter((p) => p.id === spoolId && p.formato === 'pdf').map((p) => p.estado).at(-1)).toBe('falhou');

    delete process.env.RELATORIO_PDF_MAX;
    const r2 = await userA.post(`/api/spool/gera/${spoolId}/pdf`);
    expect(r2.status).toBe(202);
    expect((await done((await json(r2)).payload.tarefa)).estado).toBe('concluido');
    const p = await userA.get(`/api/spool/get/${spoolId}/pdf`);
    expect(p.status).toBe(200);
    expect(p.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await p.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('another company or user: 404; without the spool key or the family key: 403; a bad format 400; a row without its request 404', async () => {
    const b = await userB.post(`/api/spool/gera/${spoolId}/pdf`);
    expect(b.status).toBe(404);
    expect((await json(b)).msg).toBe('Relatório gerado não encontrado');
    expect((await colegaA.post(`/api/spool/gera/${spoolId}/pdf`)).status).toBe(404);
    expect((await userA.post('/api/spool/gera/999999999/pdf')).status).toBe(404);
    expect((await userA.post('/api/spool/gera/abc/pdf')).status).toBe(404);
    const s = await semSpool.post(`/api/spool/gera/${spoolId}/pdf`);
    expect(s.status).toBe(403);
    expect((await json(s)).msg).toBe('Você não tem permissão para fazer isso');
    const bad = await userA.post(`/api/spool/gera/${spoolId}/doc`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).msg).toBe('Formato de exportação inválido: use xlsx, csv ou pdf');
    // the job route refuses the same (another company's row, no family key)
    expect((await userB.post('/api/tarefa/inicia/relatorio_formato', { gerado: spoolId, formato: 'pdf' })).status).toBe(404);

    // a user holding the spool keys but not the family's: their own row, refused
    const [own] = await q(`INSERT INTO relatorio_gerado (empresa_id, usuario, titulo, familia, tipo, parametros, formato, tamanho, linhas, situacao, arquivo, nome_arquivo, gerado_em, expira_em, pedido, created_at, updated_at)
      SELECT empresa_id, (SELECT id FROM usuario WHERE login = 'sf_sem_familia'), titulo, familia, tipo, parametros, formato, tamanho, linhas, situacao, arquivo, nome_arquivo, gerado_em, expira_em, pedido, now(), now()
      FROM relatorio_gerado WHERE id = $1 RETURNING id`, [spoolId]);
    const f = await semFamilia.post(`/api/spool/gera/${own.id}/pdf`);
    expect(f.status).toBe(403);
    expect((await json(f)).msg).toBe('Você não tem permissão para fazer isso');
    await q(`UPDATE relatorio_gerado SET pedido = NULL, usuario = (SELECT id FROM usuario WHERE login = 'sf_a') WHERE id = $1`, [own.id]);
    const semPedido = await userA.post(`/api/spool/gera/${own.id}/pdf`);
    expect(semPedido.status).toBe(404);
    expect((await json(semPedido)).msg).toBe('Este relatório está disponível só em CSV');
    expect(cell((await row(userA, own.id)).baixarPdf)).toBeNull();
    expect(await q(`SELECT count(*)::int AS n FROM tarefa WHERE tipo = 'relatorio_formato'`)).toEqual([{ n: 3 }]);
    await q('DELETE FROM relatorio_gerado WHERE id = $1', [own.id]);
  });

  it('a shared row carries the produced formats; expiry deletes their files once no row names them', async () => {
    expect((await userA.post(`/api/spool/share/${spoolId}`, { usuarios: [colegaId] })).status).toBe(200);
    const [shared] = await q('SELECT id, formatos FROM relatorio_gerado WHERE compartilhado_por IS NOT NULL AND id <> $1', [spoolId]);
    expect(Object.keys(shared.formatos).sort()).toEqual(['pdf', 'xlsx']);
    const x = await colegaA.get(`/api/spool/get/${shared.id}/xlsx`);
    expect(x.status).toBe(200);
    const [{ formatos }] = await q('SELECT formatos FROM relatorio_gerado WHERE id = $1', [spoolId]);
    expect(Buffer.from(await x.arrayBuffer()).length).toBe(formatos.xlsx.tamanho);

    const file = async (key: string) => (await storage.get(key))?.length ?? null;
    expect(await file(formatos.xlsx.arquivo)).toBe(formatos.xlsx.tamanho);
    // the owner's row goes first: the colleague's still names the files
    await q(`UPDATE relatorio_gerado SET expira_em = now() - interval '1 minute' WHERE id = $1`, [spoolId]);
    await expect.poll(async () => (await q('SELECT count(*)::int AS n FROM relatorio_gerado WHERE id = $1', [spoolId]))[0].n, { timeout: 10_000 }).toBe(0);
    expect(await file(formatos.xlsx.arquivo)).toBe(formatos.xlsx.tamanho);
    expect((await colegaA.get(`/api/spool/get/${shared.id}/pdf`)).status).toBe(200);
    await q(`UPDATE relatorio_gerado SET expira_em = now() - interval '1 minute' WHERE id = $1`, [shared.id]);
    await expect.poll(async () => [await file(formatos.xlsx.arquivo), await file(formatos.pdf.arquivo)], { timeout: 10_000 }).toEqual([null, null]);
    expect(await q('SELECT count(*)::int AS n FROM relatorio_gerado WHERE id = $1', [shared.id])).toEqual([{ n: 0 }]);
  });
});
