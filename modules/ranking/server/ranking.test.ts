// Driver ranking (provider ranking_motorista, the record tab /tlm/fro/motorista/:id/ranking) over real HTTP: the
// weights of Pontuação de eventos × the speed multiplier (pontuacao_avancada) × the hour's risk factor
// (analise_de_risco), summed per driver from telemetria.evento in the period, ranked, classified by the padrão RAG;
// other company's driver 404, missing key 403, bad period 400.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTelemetria } from '../../../server/ingest/migrate.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let A: number, B: number;
let m1: number, m2: number, m3: number, mB: number;
const Q = (o: Record<string, unknown>) => new URLSearchParams(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)])));
const OUTUBRO = { data_gte: '2026-10-01T00:00:00.000Z', data_lte: '2026-10-31T23:59:59.000Z' };

async function evento(serial: string, fix: string, key: string, empresa: number, motoristaId: number, speed: number) {
  await pool.query(`INSERT INTO telemetria.evento (serial, fix_time, code, key, empresa_id, motorista_id, speed) VALUES ($1, $2, $3, $3, $4, $5, $6)`,
    [serial, fix, key, empresa, motoristaId, speed]);
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  await migrateTelemetria(pool);
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  m1 = (await json(await admin.post('/api/motorista', { nome: 'Ana Ranking', documento: '111.222.333-01' }))).id;
  m2 = (await json(await admin.post('/api/motorista', { nome: 'Bruno Ranking', documento: '111.222.333-02' }))).id;
  m3 = (await json(await admin.post('/api/motorista', { nome: 'Carla Ranking', documento: '111.222.333-03' }))).id;
  mB = Number((await ts.insert('motorista', { empresaId: B, nome: 'Motorista de B', documento: '111.222.333-09', situacao: 'ativo' })).id);
  for (const [path, body] of [
    ['/api/pontuacao_de_eventos', { evento: 'harshBraking', descricao: 'Frenagem brusca', pontos: 10 }],
    ['/api/pontuacao_de_eventos', { evento: 'overspeed', descricao: 'Excesso de velocidade', pontos: 5 }],
    ['/api/pontuacao_de_eventos', { evento: 'idle', descricao: 'Marcha lenta', pontos: 100, ativo: false }],
    ['/api/pontuacao_avancada', { descricao: 'Frenagem acima de 80', evento: 'harshBraking', velocidadeMinima: 80, multiplicador: 2 }],
    ['/api/analise_de_risco', { descricao: 'Madrugada', horaInicio: 22, horaFim: 6, fatorRisco: 1.5 }],
    ['/api/pontuacao_rag', { descricao: 'Outro', verdeAte: 0, ambarAte: 1, padrao: false }],
    ['/api/pontuacao_rag', { descricao: 'Frota', verdeAte: 10, ambarAte: 20, padrao: true }],
  ] as const) expect((await admin.post(path, body)).status).toBe(201);
  // Ana: 10 (braking at 50 km/h, 12:00 local) + 5 (overspeed) = 15; the idle weight is inactive; September is outside.
  await evento('861100000000001', '2026-10-05T15:00:00Z', 'harshBraking', A, m1, 50);
  await evento('861100000000001', '2026-10-05T16:00:00Z', 'overspeed', A, m1, 100);
  await evento('861100000000001', '2026-10-05T17:00:00Z', 'idle', A, m1, 0);
  await evento('861100000000001', '2026-09-05T15:00:00Z', 'harshBraking', A, m1, 50);
  // Bruno: braking at 90 km/h at 00:30 local (03:30 UTC): 10 × 2 × 1.5 = 30; an event without weight counts nothing.
  await evento('861100000000002', '2026-10-06T03:30:00Z', 'harshBraking', A, m2, 90);
  await evento('861100000000002', '2026-10-06T04:00:00Z', 'ignitionOn', A, m2, 0);
  // Company B's event naming Ana's id never reaches company A's ranking.
  await evento('862100000000001', '2026-10-07T12:00:00Z', 'harshBraking', B, m1, 50);
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('ranking_motorista', () => {
  it('ranks the company drivers by weighted score in the period, RAG classified, the page driver marked', async () => {
    const res = await admin.get(`/api/ranking_motorista/${m1}?${Q({ filter: OUTUBRO, range: [0, 49] })}`);
    expect(res.status).toBe(200);
    const rows = (await res.json()) as any[];
    const mine = rows.filter((r) => [m1, m2, m3].includes(r.id)).map((r) => [r.nome, r.eventos, r.pontuacao, r.classificacao, r.este]);
    expect(mine).toEqual([
      ['Carla Ranking', 0, 0, 'Verde', false],
      ['Ana Ranking', 2, 15, 'Âmbar', true],
      ['Bruno Ranking', 1, 30, 'Vermelho', false],
    ]);
    const pos = Object.fromEntries(rows.map((r) => [r.id, r.posicao]));
    expect(pos[m2] - pos[m1]).toBe(1);
    expect(pos[m1] - pos[m3]).toBeGreaterThanOrEqual(1);
    expect(rows.every((r) => r.totalMotoristas === rows.length)).toBe(true);
    expect(rows.some((r) => r.id === mB)).toBe(false);
  });

  it('filters the page driver (este) and by name; sorts by score', async () => {
    const only = await json(await admin.get(`/api/ranking_motorista/${m2}?${Q({ filter: { ...OUTUBRO, este: true } })}`));
    expect(only.map((r: any) => [r.nome, r.pontuacao, r.este])).toEqual([['Bruno Ranking', 30, true]]);
    const desc = await json(await admin.get(`/api/ranking_motorista/${m2}?${Q({ filter: { ...OUTUBRO, q: 'ranking' }, sort: ['pontuacao', 'DESC'] })}`));
    expect(desc.map((r: any) => r.nome)).toEqual(['Bruno Ranking', 'Ana Ranking', 'Carla Ranking']);
  });

  it('a weight change applies at once (inactive weight: the event no longer counts)', async () => {
    const peso = (await json(await admin.get(`/api/pontuacao_de_eventos?${Q({ filter: { q: 'overspeed' } })}`)))[0];
    expect((await admin.put(`/api/pontuacao_de_eventos/${peso.id}`, { ...peso, ativo: false })).status).toBe(200);
    const only = await json(await admin.get(`/api/ranking_motorista/${m1}?${Q({ filter: { ...OUTUBRO, este: true } })}`));
    expect(only.map((r: any) => [r.eventos, r.pontuacao, r.classificacao])).toEqual([[1, 10, 'Verde']]);
    expect((await admin.put(`/api/pontuacao_de_eventos/${peso.id}`, { ...peso, ativo: true })).status).toBe(200);
  });

  it("refuses another company's driver (404), a too long or inverted period (400) and users without the key (403)", async () => {
    expect((await admin.get(`/api/ranking_motorista/${mB}`)).status).toBe(404);
    const longo = await admin.get(`/api/ranking_motorista/${m1}?${Q({ filter: { data_gte: '2025-01-01T00:00:00Z', data_lte: '2026-10-01T00:00:00Z' } })}`);
    expect(longo.status).toBe(400);
    expect(JSON.stringify(await longo.json())).toContain('O período deve ter no máximo 366 dias');
    const inv = await admin.get(`/api/ranking_motorista/${m1}?${Q({ filter: { data_gte: '2026-10-02T00:00:00Z', data_lte: '2026-10-01T00:00:00Z' } })}`);
    expect(inv.status).toBe(400);
    const base = { ambienteId: admin.user.ambienteId, empresas: [A] };
    await ts.createUser({ ...base, login: 'semranking', permissoes: ['tlm.fro.motorista.lista', 'tlm.fro.motorista.visualizar'] });
    await ts.createUser({ ...base, login: 'comranking', permissoes: ['tlm.fro.motorista.ranking'] });
    await ts.createUser({ ambienteId: admin.user.ambienteId, empresas: [B], login: 'rankingB', permissoes: ['tlm.fro.motorista.ranking'] });
    expect((await (await ts.login('semranking', 'senha-teste-123')).get(`/api/ranking_motorista/${m1}`)).status).toBe(403);
    expect((await (await ts.login('comranking', 'senha-teste-123')).get(`/api/ranking_motorista/${m1}`)).status).toBe(200);
    expect((await (await ts.login('rankingB', 'senha-teste-123')).get(`/api/ranking_motorista/${m1}`)).status).toBe(404);
  });
});
