// Providers over real HTTP: a SQL provider (telemetria.ultimo_estado, scope empresa) paged, sorted and filtered in SQL
// with the company condition added by the core; the whole-result export of providers (CSV through the shared writer).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTelemetria } from '../ingest/migrate.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
const Q = (o: Record<string, unknown>) => new URLSearchParams(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)])));

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  await migrateTelemetria(pool);
  const empresas = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  const rows: [string, number, number][] = [['861000000000001', empresas[0], 40], ['861000000000002', empresas[0], 80], ['861000000000003', empresas[0], 10],
    ['862000000000001', empresas[1], 50], ['862000000000002', empresas[1], 60]];
  for (const [serial, empresa, speed] of rows) {
    await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, speed, ultima_comunicacao, protocolo) VALUES ($1, $2, $3, now(), 'queclink')`, [serial, empresa, speed]);
  }
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await pool?.end(); await ts?.close(); });

describe('SQL provider (ultimo_estado, scope empresa)', () => {
  it('pages and sorts in SQL, only the active company, with Content-Range', async () => {
    const res = await admin.get(`/api/rastreamento/estados?${Q({ sort: ['velocidade', 'DESC'], range: [0, 1] })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-range')).toBe('rastreamento.estados 0-1/3');
    expect((await res.json()).map((r: any) => [r.serial, r.velocidade])).toEqual([['861000000000002', 80], ['861000000000001', 40]]);
    const last = await admin.get(`/api/rastreamento/estados?${Q({ sort: ['velocidade', 'DESC'], range: [2, 9] })}`);
    expect(last.headers.get('content-range')).toBe('rastreamento.estados 2-2/3');
    expect((await last.json()).map((r: any) => r.serial)).toEqual(['861000000000003']);
    const past = await admin.get(`/api/rastreamento/estados?${Q({ range: [10, 19] })}`);
    expect(past.headers.get('content-range')).toBe('rastreamento.estados 10-10/3');
  });

  it('filters by the declared filters; other keys and sorts are 400 in pt-BR', async () => {
    const q = await admin.get(`/api/rastreamento/estados?${Q({ filter: { q: '0000003' } })}`);
    expect((await q.json()).map((r: any) => r.serial)).toEqual(['861000000000003']);
    const other = await admin.get(`/api/rastreamento/estados?${Q({ filter: { q: '862' } })}`);
    expect(other.headers.get('content-range')).toBe('rastreamento.estados 0-0/0');
    const bad = async (qs: URLSearchParams, msg: string) => {
      const r = await admin.get(`/api/rastreamento/estados?${qs}`);
      expect(r.status).toBe(400);
      expect((await json(r)).msg).toBe(msg);
    };
    await bad(Q({ filter: { empresaId: 2 } }), 'Filtro desconhecido: empresaId');
    await bad(Q({ filter: { ativoId: 'x' } }), 'Valor inválido no filtro Ativo');
    await bad(Q({ sort: ['latitude', 'ASC'] }), 'Campo de ordenação desconhecido: latitude');
  });

  it('route parameters are checked before the handler (pt-BR)', async () => {
    const lista = await admin.get('/api/biblioteca/queclink/gv58cg/alarmes');
    expect(lista.status).toBe(404);
    expect((await json(lista)).msg).toBe('Valor desconhecido para Lista: alarmes. Use eventos, parametros.');
    const ativo = await admin.get('/api/equipamento_ativo/por_ativo/abc');
    expect(ativo.status).toBe(400);
    expect((await json(ativo)).msg).toBe('Valor inválido para Identificador do ativo: abc');
  });

  it('the named call answers the envelope with the same rows', async () => {
    const res = await admin.get('/api/rastreamento/ultimo_estado');
    const body = await json(res);
    expect(body.status).toBe(200);
    expect(body.payload.map((r: any) => r.serial).sort()).toEqual(['861000000000001', '861000000000002', '861000000000003']);
  });
});

describe('provider export', () => {
  it('exports the whole filtered, sorted result as CSV with the chosen columns', async () => {
    const res = await admin.get(`/api/rastreamento/estados/export?${new URLSearchParams({ format: 'csv', sort: '["velocidade","ASC"]', columns: '["serial","velocidade"]' })}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ultimo_estado.csv"');
    expect((await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual(['Serial;Velocidade', '861000000000003;10', '861000000000001;40', '861000000000002;80']);
    const lib = await admin.get(`/api/biblioteca/queclink/gv58cg/eventos/export?${new URLSearchParams({ filter: '{"q":"ignição ligada"}', columns: '["event","description"]' })}`);
    const lines = (await lib.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Evento;Descrição');
    expect(lines).toContain('ignitionOn;Ignição ligada');
  });

  it('rejects unknown columns and formats; needs the session and a key', async () => {
    const col = await admin.get(`/api/biblioteca/familia/eventos/export?${new URLSearchParams({ columns: '["senha"]' })}`);
    expect(col.status).toBe(400);
    expect((await json(col)).msg).toBe('Coluna desconhecida: senha');
    const fmt = await admin.get('/api/biblioteca/familia/eventos/export?format=pdf');
    expect((await json(fmt)).msg).toBe('Formato de exportação inválido: use csv ou xlsx');
    expect((await ts.fetch('/api/biblioteca/familia/eventos/export')).status).toBe(401);
  });
});
