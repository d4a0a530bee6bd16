// Spool downloads in every format, share links and comments over real HTTP: a report generated in the background
// (CSV) downloaded as stored and as XLSX/PDF produced from its request by a job; a share link (random token, only its SHA-256
// kept) opens the same bytes with no session until it expires or is revoked; comments; another user or company 404;
// missing keys 403.
import crypto from 'node:crypto';
import pg from 'pg';
import { twoTrips } from './users.kit.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
let userA: Api, colegaA: Api, userB: Api, semChave: Api;
let spoolId: number;
let csv: Buffer;
let link: string;
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const PERIODO = { inicio: '2026-03-10T00:00:00-03:00', fim: '2026-03-11T23:59:59.999-03:00' };

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  await twoTrips(q, 'sl-a1', A);
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['rel.rel.relatorios', 'rel.rel.relatorios.viagem', ...['lista', 'visualizar', 'compartilhar', 'comentar'].map((k) => `rel.rel.relatorios.gerados.${k}`)];
  await ts.createUser({ login: 'sl_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'sl_colega', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'sl_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'sl_sem', ambienteId: ambiente, empresas: [A], permissoes: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem', 'rel.rel.relatorios.gerados.lista', 'rel.rel.relatorios.gerados.visualizar'] });
  userA = await ts.login('sl_a', 'senha-teste-123');
  colegaA = await ts.login('sl_colega', 'senha-teste-123');
  userB = await ts.login('sl_b', 'senha-teste-123');
  semChave = await ts.login('sl_sem', 'senha-teste-123');

  const r = await userA.post('/api/tarefa/inicia/relatorio_gera', { familia: 'viagem', tipo: 'detalhado', params: { periodo: PERIODO }, formato: 'csv', fuso: 'America/Sao_Paulo' });
  expect(r.status).toBe(201);
  const tarefa = (await json(r)).id;
  for (let i = 0; i < 200 && (await q('SELECT estado FROM tarefa WHERE id = $1', [tarefa]))[0].estado !== 'concluido'; i++) await new Promise((res) => setTimeout(res, 100));
  spoolId = (await q('SELECT id FROM relatorio_gerado WHERE tarefa = $1', [tarefa]))[0].id;
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('downloads', () => {
  it('the stored CSV and the other formats exported from the same request hold the same trips', async () => {
    const r = await userA.get(`/api/spool/get/${spoolId}/csv`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    csv = Buffer.from(await r.arrayBuffer());
    const lines = csv.toString('utf8').replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('50,00');
    expect(lines[2]).toContain('30,00');
    // the other formats are produced by a job first (spool-formato.test.ts), then downloaded as stored
    for (const f of ['xlsx', 'pdf']) {
      const g = await userA.post(`/api/spool/gera/${spoolId}/${f}`);
      expect(g.status).toBe(202);
      const t = (await json(g)).payload.tarefa;
      await expect.poll(async () => (await q('SELECT estado FROM tarefa WHERE id = $1', [t]))[0].estado, { timeout: 20_000 }).toBe('concluido');
    }
    const x = await userA.get(`/api/spool/get/${spoolId}/xlsx`);
    expect(x.status).toBe(200);
    expect(x.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(x.headers.get('content-disposition')).toBe('attachment; filename="relatorio_viagem_detalhado.xlsx"');
    expect(Buffer.from(await x.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    const p = await userA.get(`/api/spool/get/${spoolId}/pdf`);
    expect(p.status).toBe(200);
    expect(p.headers.get('content-disposition')).toBe('attachment; filename="relatorio_viagem_detalhado.pdf"');
    expect(Buffer.from(await p.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await userA.get(`/api/spool/get/${spoolId}/doc`)).status).toBe(404);
    expect((await userB.get(`/api/spool/get/${spoolId}/xlsx`)).status).toBe(404);
    expect((await colegaA.get(`/api/spool/get/${spoolId}/pdf`)).status).toBe(404);
  });
});

describe('share link', () => {
  it('creates a link whose token is kept only as its hash; the link opens the same bytes without a session', async () => {
    const r = await userA.post(`/api/spool/share/${spoolId}`, { link: true, dias: 2 });
    const j = await json(r);
    expect(r.status, JSON.stringify(j)).toBe(200);
    expect(j.msg).toBe('Link de compartilhamento criado');
    link = j.payload.link;
    expect(link).toMatch(/^\/api\/report\/get\/rel_[A-Za-z0-9_-]{43}$/);
    const token = link.split('/').pop()!;
    const [row] = await q('SELECT link_token, link_valido_ate FROM relatorio_gerado WHERE id = $1', [spoolId]);
    expect(row.link_token).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(Math.abs(new Date(row.link_valido_ate).getTime() - (Date.now() + 2 * 86_400_000))).toBeLessThan(60_000);
    expect(j.payload.linkValidoAte).toBe(new Date(row.link_valido_ate).toISOString());
    // the list never answers the hash
    const list = await (await userA.get('/api/relatorio_gerado')).json();
    expect(list[0].linkToken).toBeUndefined();
    expect(list[0].linkValidoAte).toBe(j.payload.linkValidoAte);

    const pub = await ts.fetch(link);
    expect(pub.status).toBe(200);
    expect(pub.headers.get('content-disposition')).toBe('attachment; filename="relatorio_viagem_detalhado.csv"');
    expect(pub.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await pub.arrayBuffer()).equals(csv)).toBe(true);
  });

  it('another company or user: 404; without the key: 403; bad validity: 400', async () => {
    expect((await userB.post(`/api/spool/share/${spoolId}`, { link: true })).status).toBe(404);
    expect((await colegaA.post(`/api/spool/share/${spoolId}`, { link: true })).status).toBe(404);
    expect((await userB.del(`/api/spool/share/${spoolId}`)).status).toBe(404);
    const s = await semChave.post(`/api/spool/share/${spoolId}`, { link: true });
    expect(s.status).toBe(403);
    expect((await json(s)).msg).toBe('Você não tem permissão para fazer isso');
    expect((await semChave.del(`/api/spool/share/${spoolId}`)).status).toBe(403);
    const bad = await userA.post(`/api/spool/share/${spoolId}`, { link: true, dias: 31 });
    expect(bad.status).toBe(400);
    expect((await json(bad)).msg).toBe('Validade do link inválida: informe de 1 a 30 dias');
    // unknown or malformed tokens
    expect((await ts.fetch(`/api/report/get/rel_${'x'.repeat(43)}`)).status).toBe(404);
    const m = await ts.fetch('/api/report/get/nada');
    expect(m.status).toBe(404);
    expect((await json(m)).msg).toBe('Link de relatório não encontrado. Confira o endereço recebido.');
  });

  it('an expired link is refused (410); revoking ends it (404) and a new link works again', async () => {
    await q(`UPDATE relatorio_gerado SET link_valido_ate = now() - interval '1 minute' WHERE id = $1`, [spoolId]);
    const e = await ts.fetch(link);
    expect(e.status).toBe(410);
    expect((await json(e)).msg).toBe('Este link de relatório expirou ou foi revogado.');
    const again = await json(await userA.post(`/api/spool/share/${spoolId}`, { link: true }));
    expect(again.payload.link).not.toBe(link);
    expect((await ts.fetch(link)).status).toBe(404); // the old address stops
    expect((await ts.fetch(again.payload.link)).status).toBe(200);
    const rv = await userA.del(`/api/spool/share/${spoolId}`);
    expect(rv.status).toBe(200);
    expect((await json(rv)).msg).toBe('Link de compartilhamento revogado');
    expect((await ts.fetch(again.payload.link)).status).toBe(404);
    expect(await q('SELECT link_token, link_valido_ate FROM relatorio_gerado WHERE id = $1', [spoolId])).toEqual([{ link_token: null, link_valido_ate: null }]);
    expect((await userA.del(`/api/spool/share/${spoolId}`)).status).toBe(404);
  });
});

describe('row actions (the list’s ⋮ menu)', () => {
  it('compartilha_link answers the token once (the address), revoga_link ends it, comenta keeps the note; others 404, no key 403', async () => {
    const r = await userA.post(`/api/relatorio_gerado/${spoolId}/compartilha_link`, { dias: 1 });
    const j = await json(r);
    expect(r.status, JSON.stringify(j)).toBe(200);
    expect(j.linkToken).toMatch(/^rel_[A-Za-z0-9_-]{43}$/);
    expect(Math.abs(new Date(j.linkValidoAte).getTime() - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    expect((await ts.fetch(`/api/report/get/${j.linkToken}`)).status).toBe(200);
    expect((await userA.post(`/api/relatorio_gerado/${spoolId}/compartilha_link`, { dias: 0 })).status).toBe(400);
    expect((await userB.post(`/api/relatorio_gerado/${spoolId}/compartilha_link`, { dias: 1 })).status).toBe(404);
    expect((await semChave.post(`/api/relatorio_gerado/${spoolId}/compartilha_link`, { dias: 1 })).status).toBe(403);
    expect((await semChave.post(`/api/relatorio_gerado/${spoolId}/revoga_link`, {})).status).toBe(403);
    expect((await userA.post(`/api/relatorio_gerado/${spoolId}/revoga_link`, {})).status).toBe(200);
    expect((await ts.fetch(`/api/report/get/${j.linkToken}`)).status).toBe(404);
    const c = await userA.post(`/api/relatorio_gerado/${spoolId}/comenta`, { comentario: 'Via menu' });
    expect(c.status).toBe(200);
    expect((await json(c)).comentario).toBe('Via menu');
  });
});

describe('comment', () => {
  it('the owner comments; others 404; without the key 403; too long 400', async () => {
    const r = await userA.post(`/api/spool/${spoolId}/comment`, { comentario: '  Conferido com a frota  ' });
    expect(r.status).toBe(200);
    expect((await json(r)).payload.comentario).toBe('Conferido com a frota');
    expect((await (await userA.get('/api/relatorio_gerado')).json())[0].comentario).toBe('Conferido com a frota');
    expect((await userB.post(`/api/spool/${spoolId}/comment`, { comentario: 'x' })).status).toBe(404);
    expect((await colegaA.post(`/api/spool/${spoolId}/comment`, { comentario: 'x' })).status).toBe(404);
    expect((await semChave.post(`/api/spool/${spoolId}/comment`, { comentario: 'x' })).status).toBe(403);
    const long = await userA.post(`/api/spool/${spoolId}/comment`, { comentario: 'a'.repeat(1001) });
    expect(long.status).toBe(400);
    expect((await json(long)).msg).toBe('O comentário deve ter no máximo 1000 caracteres');
    expect((await q('SELECT comentario FROM relatorio_gerado WHERE id = $1', [spoolId]))[0].comentario).toBe('Conferido com a frota');
  });
});
