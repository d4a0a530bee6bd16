// Dashboards over real HTTP and sockets (issue 22) and the Grafana proxy against a local double (issue 24): the
// period providers sum the seeded daily totals of the caller's company only (another company's bigger numbers never
// show), the events carry the company's risk bands, the fleet's live rows come with the situation fields and are
// pushed to the company's sockets only; painel is each user's own (owner), its widgets checked; bad dates 400 pt-BR;
// no key 403. Grafana: 404 until configured; then the token goes to Grafana only, the company variable is forced.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { socketsOf } from '../../../server/test/sockets.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { LIVE_WINDOW_MS, type LiveMessage } from '../../../server/realtime/index.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number, ambienteId: number;
let a1: { id: number; descricao: string; placa: string }, a2: { id: number; descricao: string; placa: string }, b1: { id: number };
let userA: Api, userA2: Api, userB: Api, semChave: Api;
const sockets = socketsOf(() => ts.url);
const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const KEYS = ['rel.ges.gestao_a_vista', 'rel.ges.gestao_a_vista.ambiente', 'rel.ges.paineis', 'rel.ges.paineis.cadastro.lista',
  'rel.ges.paineis.cadastro.visualizar', 'rel.ges.paineis.cadastro.adicionar', 'rel.ges.paineis.cadastro.editar', 'rel.ges.paineis.cadastro.excluir'];

/** One seeded day of an asset (distance in metres, times in seconds). */
async function dia(empresa: number, ativo: number, data: string, o: { m: number; conducao: number; lenta: number; vmax: number; viagens: number; eventos: Record<string, number>; horimetro?: number }) {
  const n = Object.values(o.eventos).reduce((s, x) => s + x, 0);
  await q(`INSERT INTO telemetria.total_diario (ativo_id, data, motorista_id, empresa_id, serial, posicoes, distancia, tempo_conducao, tempo_parado,
      tempo_marcha_lenta, tempo_estacionado, viagens, velocidade_maxima, horimetro, eventos, qtd_eventos, pontuacao)
    VALUES ($1, $2, 0, $3, 'S', 10, $4, $5, $6, $6, 0, $7, $8, $9, $10, $11, 0)`,
    [ativo, data, empresa, o.m, o.conducao, o.lenta, o.viagens, o.vmax, o.horimetro ?? o.conducao + o.lenta, JSON.stringify(o.eventos), n]);
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  const admin = await ts.login(ADMIN.login, ADMIN.senha);
  ambienteId = admin.user.ambienteId;
  A = admin.empresaAtiva;
  B = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== A);
  [a1, a2] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [b1] = await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  expect(a2 && b1).toBeTruthy();
  // company A: two days of two vehicles; company B: much bigger numbers on the same days (must never show in A)
  await dia(A, a1.id, '2025-03-10', { m: 120_500, conducao: 7200, lenta: 900, vmax: 97.4, viagens: 3, eventos: { harshBraking: 2, overspeed: 1 } });
  await dia(A, a1.id, '2025-03-11', { m: 80_000, conducao: 3600, lenta: 300, vmax: 82, viagens: 2, eventos: { harshBraking: 1, tombamento: 4 } });
  await dia(A, a2.id, '2025-03-11', { m: 40_000, conducao: 1800, lenta: 2400, vmax: 112.6, viagens: 1, eventos: {} });
  await dia(B, b1.id, '2025-03-11', { m: 9_999_000, conducao: 99_000, lenta: 99_000, vmax: 199, viagens: 50, eventos: { panic: 77, harshBraking: 50 } });
  await q(`DELETE FROM pontuacao_de_eventos WHERE evento IN ('harshBraking', 'overspeed', 'tombamento')`);
  for (const [evento, pontos, ativo] of [['harshBraking', 10, true], ['overspeed', 6, true], ['tombamento', 50, false]] as const) {
    await q(`INSERT INTO pontuacao_de_eventos (empresa_id, evento, descricao, pontos, ativo, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
      [A, evento, evento === 'harshBraking' ? 'Frenagem brusca' : '', pontos, ativo]);
  }
  await q(`INSERT INTO pontuacao_de_eventos (empresa_id, evento, pontos, ativo, created_at, updated_at) VALUES ($1, 'overspeed', 1, true, now(), now())`, [B]);
  await ts.createUser({ login: 'gestao_a', senha: 'senha-teste-123', ambienteId, empresas: [A], permissoes: KEYS });
  await ts.createUser({ login: 'gestao_a2', senha: 'senha-teste-123', ambienteId, empresas: [A], permissoes: KEYS });
  await ts.createUser({ login: 'gestao_b', senha: 'senha-teste-123', ambienteId, empresas: [B], permissoes: KEYS });
  await ts.createUser({ login: 'gestao_sem', senha: 'senha-teste-123', ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  userA = await ts.login('gestao_a', 'senha-teste-123');
  userA2 = await ts.login('gestao_a2', 'senha-teste-123');
  userB = await ts.login('gestao_b', 'senha-teste-123');
  semChave = await ts.login('gestao_sem', 'senha-teste-123');
});
afterEach(() => sockets.closeAll());
afterAll(async () => { await pool?.end(); await ts?.stop(); });

const all = (path: string, sort?: [string, string]) => `${path}?range=[0,99]${sort ? `&sort=${encodeURIComponent(JSON.stringify(sort))}` : ''}`;

describe('Gestão à vista providers', () => {
  it('gestao_diario sums each day of the company, never another company', async () => {
    const r = await userA.get(all('/api/gestao/diario/2025-03-10/2025-03-11'));
    expect(r.status).toBe(200);
    const rows = await json(r);
    expect(rows.map((d: any) => [d.data, d.veiculos, d.veiculosEmViagem, d.distancia, d.tempoConducao, d.tempoMarchaLenta, d.qtdViagens, d.qtdEventos, d.velocidadeMaxima])).toEqual([
      ['2025-03-10', 1, 1, 120.5, 7200, 900, 3, 3, 97.4],
      ['2025-03-11', 2, 2, 120, 5400, 2700, 3, 5, 112.6],
    ]);
    // one day only; B sees its own day, not A's
    expect((await json(await userA.get(all('/api/gestao/diario/2025-03-11/2025-03-11')))).map((d: any) => d.distancia)).toEqual([120]);
    const rb = await json(await userB.get(all('/api/gestao/diario/2025-03-10/2025-03-11')));
    expect(rb.map((d: any) => [d.data, d.distancia, d.qtdEventos])).toEqual([['2025-03-11', 9999, 127]]);
  });

  it('gestao_ativos ranks the vehicles of the company by the sort asked', async () => {
    const vel = await json(await userA.get(all('/api/gestao/ativos/2025-03-10/2025-03-11', ['velocidadeMaxima', 'DESC'])));
    expect(vel.map((a: any) => [a.ativoId, a.ativo, a.velocidadeMaxima, a.distancia, a.tempoMarchaLenta, a.qtdEventos])).toEqual([
      [a2.id, a2.descricao, 112.6, 40, 2400, 0],
      [a1.id, a1.descricao, 97.4, 200.5, 1200, 8],
    ]);
    expect(vel.some((a: any) => a.ativoId === b1.id)).toBe(false);
    const lenta = await json(await userA.get(all('/api/gestao/ativos/2025-03-11/2025-03-11', ['tempoMarchaLenta', 'DESC'])));
    expect(lenta.map((a: any) => [a.ativoId, a.tempoMarchaLenta])).toEqual([[a2.id, 2400], [a1.id, 300]]);
  });

  it("gestao_eventos counts each event with the company's risk band", async () => {
    const ev = await json(await userA.get(all('/api/gestao/eventos/2025-03-10/2025-03-11')));
    expect(ev.map((e: any) => [e.evento, e.descricao, e.qtd, e.pontos, e.risco])).toEqual([
      ['tombamento', 'tombamento', 4, null, 'sem_pontuacao'], // inactive scoring: no risk
      ['harshBraking', 'Frenagem brusca', 3, 10, 'alto'],
      ['overspeed', 'Excesso de velocidade', 1, 6, 'medio'], // no name in the scoring: the event library's
    ]);
    const evB = await json(await userB.get(all('/api/gestao/eventos/2025-03-10/2025-03-11')));
    expect(evB.map((e: any) => [e.evento, e.qtd, e.risco])).toEqual([['panic', 77, 'sem_pontuacao'], ['harshBraking', 50, 'sem_pontuacao']]);
  });

  it('bad dates are 400 in pt-BR; no key 403; no session 401', async () => {
    for (const p of ['/api/gestao/diario/2025-13-01/2025-03-11', '/api/gestao/ativos/ontem/2025-03-11', '/api/gestao/eventos/2025-02-30/2025-03-01']) {
      const r = await userA.get(p);
      expect(r.status).toBe(400);
      expect((await json(r)).msg).toMatch(/^Data inválida para Data (inicial|final): .* Use AAAA-MM-DD\.$/);
    }
    for (const p of ['/api/gestao/diario/2025-03-10/2025-03-11', '/api/gestao/ativos/2025-03-10/2025-03-11', '/api/gestao/eventos/2025-03-10/2025-03-11', '/api/gestao/frota', '/api/gestao/estado']) {
      expect((await semChave.get(p)).status).toBe(403);
      expect((await ts.fetch(p)).status).toBe(401);
    }
  });
});

describe('the fleet, live', () => {
  const estado = (serial: string, empresa: number, ativo: number, speed: number, ignition: boolean, attrs: object, minutos = 0) => q(
    `INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, lat, lon, speed, ignition, fix_time, ultima_comunicacao, attributes)
     VALUES ($1, $2, $3, -23.5, -46.6, $4, $5, now(), now() - make_interval(mins => $7), $6)
     ON CONFLICT (serial) DO UPDATE SET speed = excluded.speed, ignition = excluded.ignition, attributes = excluded.attributes,
       ultima_comunicacao = excluded.ultima_comunicacao, fix_time = now()`,
    [serial, empresa, ativo, speed, ignition, JSON.stringify(attrs), minutos]);

  it("answers every vehicle of the company with its latest device's state and ambient sensors", async () => {
    await estado('GES-A-OLD', A, a1.id, 0, false, { temperature: 20 }, 30);
    // the attribute names the @Track decoder gives (protocol/queclink/decoder.test.ts, GTERI frames): 1-Wire
    // temperature1, BLE bleHumidity1, RF433 rfTemperature1
    await estado('GES-A-1', A, a1.id, 54, true, { temperature1: 36.5, bleHumidity1: 72, co2: 1200, door: true });
    await estado('GES-B-1', B, b1.id, 80, true, { rfTemperature1: 5 });
    const r = await userA.get('/api/gestao/frota');
    expect(r.status).toBe(200);
    const rows = (await json(r)).payload as any[];
    const [{ n }] = await q('SELECT count(*)::int AS n FROM ativo WHERE empresa_id = $1', [A]);
    expect(rows.length).toBe(n);
    expect(rows.some((x) => x.ativoId === b1.id || x.serial === 'GES-B-1')).toBe(false);
    expect(rows.find((x) => x.ativoId === a1.id)).toMatchObject({
      id: a1.id, ativo: a1.descricao, placa: a1.placa, serial: 'GES-A-1', velocidade: 54, ignicao: true,
      temperatura: 36.5, umidade: 72, co2: 1200, porta: true,
    });
    expect(rows.find((x) => x.ativoId === a2.id)).toMatchObject({ serial: null, ultimaComunicacao: null, temperatura: null });
  });

  it("pushes a written state to the company's sockets holding the key, never to another company's", async () => {
    const listener = async (api: Api, empresa: number) => {
      return (await sockets.join<LiveMessage>(api.token, empresa, 'gestao_estado')).got;
    };
    const gotA = await listener(userA, A);
    const gotB = await listener(userB, B);
    const gotSem = await listener(semChave, A);
    await estado('GES-A-1', A, a1.id, 0, true, { bleTemperature1: 30 });
    await expect.poll(() => gotA.flatMap((m) => m.rows).find((r) => r.serial === 'GES-A-1' && r.velocidade === 0), { timeout: 15_000 })
      .toMatchObject({ id: a1.id, ativo: a1.descricao, ignicao: true, temperatura: 30 });
    await sleep(LIVE_WINDOW_MS * 3);
    expect(gotB.flatMap((m) => m.rows).some((r) => r.serial === 'GES-A-1')).toBe(false);
    expect(gotSem).toEqual([]);
  });
});

describe('painel (each user their own)', () => {
  let id: number;
  it('creates, reorders and keeps the widgets; refuses unknown kinds and periods', async () => {
    const r = await userA.post('/api/painel', { nome: 'Manhã', widgets: [{ tipo: 'situacao' }, { tipo: 'distancia_diaria', periodo: 'ultimos_7_dias' }] });
    expect(r.status).toBe(201);
    id = (await json(r)).id;
    const put = await userA.put(`/api/painel/${id}`, { nome: 'Manhã', widgets: [{ tipo: 'distancia_diaria', periodo: 'mes_atual' }, { tipo: 'situacao' }, { tipo: 'marcha_lenta', periodo: 'hoje' }] });
    expect(put.status).toBe(200);
    const row = await json(await userA.get(`/api/painel/${id}`));
    expect(row.widgets).toEqual([{ tipo: 'distancia_diaria', periodo: 'mes_atual' }, { tipo: 'situacao' }, { tipo: 'marcha_lenta', periodo: 'hoje' }]);
    expect(row.usuario).toBe(userA.user.id);
    for (const [widgets, msg] of [
      [[{ tipo: 'pizza' }], 'Widget 1: tipo desconhecido pizza'],
      [[{ tipo: 'situacao' }, { tipo: 'indicadores', periodo: 'sempre' }], 'Widget 2: período desconhecido sempre'],
      [[{ tipo: 'grafana', periodo: 'hoje' }], 'Widget 1: informe o identificador (uid) do painel Grafana'],
      [{ tipo: 'situacao' }, 'Os widgets devem ser uma lista'],
      [Array.from({ length: 25 }, () => ({ tipo: 'situacao' })), 'Um painel tem no máximo 24 widgets'],
    ] as const) {
      const bad = await userA.put(`/api/painel/${id}`, { nome: 'Manhã', widgets });
      expect(bad.status).toBe(400);
      expect((await json(bad)).msg).toBe(msg);
    }
  });

  it("another user's and another company's painel is never seen nor changed; no key 403", async () => {
    expect((await userA2.get(`/api/painel/${id}`)).status).toBe(404);
    expect((await userA2.put(`/api/painel/${id}`, { nome: 'X', widgets: [] })).status).toBe(404);
    expect((await userA2.del(`/api/painel/${id}`)).status).toBe(404);
    expect((await json(await userA2.get('/api/painel?range=[0,99]'))).length).toBe(0);
    expect((await userB.get(`/api/painel/${id}`)).status).toBe(404);
    expect((await userB.del(`/api/painel/${id}`)).status).toBe(404);
    expect((await semChave.get('/api/painel?range=[0,99]')).status).toBe(403);
    expect((await semChave.post('/api/painel', { nome: 'X', widgets: [] })).status).toBe(403);
    const [row] = await q('SELECT nome, widgets FROM painel WHERE id = $1', [id]);
    expect(row.nome).toBe('Manhã');
    expect(row.widgets).toHaveLength(3);
  });
});

describe('Grafana proxy', () => {
  let double: http.Server;
  const pedidos: { url: string; auth?: string; empresa?: string }[] = [];
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
  beforeAll(async () => {
    double = http.createServer((req, res) => {
      pedidos.push({ url: req.url!, auth: req.headers.authorization, empresa: req.headers['x-rastro-empresa'] as string });
      if (req.headers.authorization !== 'Bearer glsa_segredo') { res.writeHead(401); res.end(); return; }
      if (req.url!.startsWith('/api/search')) { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify([{ uid: 'frota', title: 'Frota' }])); return; }
      if (req.url!.startsWith('/render/d-solo/frota')) { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG); return; }
      res.writeHead(404); res.end();
    });
    await new Promise<void>((r) => double.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    delete process.env.GRAFANA_URL; delete process.env.GRAFANA_TOKEN;
    await new Promise((r) => double.close(r));
  });

  it('is 404 while GRAFANA_URL is not set (config says ativo: false)', async () => {
    delete process.env.GRAFANA_URL;
    expect((await json(await userA.get('/api/wkd/grafana/config'))).payload).toEqual({ ativo: false });
    expect((await userA.get('/api/wkd/grafana/render/frota/2')).status).toBe(404);
    expect((await userA.get('/api/wkd/grafana/paineis')).status).toBe(404);
  });

  it('renders panels with the service token and the caller\'s company forced; the token never reaches the browser', async () => {
    process.env.GRAFANA_URL = `http://127.0.0.1:${(double.address() as AddressInfo).port}/`;
    process.env.GRAFANA_TOKEN = 'glsa_segredo';
    const cfg = await userA.get('/api/wkd/grafana/config');
    expect(cfg.status).toBe(200);
    expect((await json(cfg)).payload).toEqual({ ativo: true });
    const lista = await userA.get('/api/wkd/grafana/paineis');
    expect((await json(lista)).payload).toEqual([{ uid: 'frota', titulo: 'Frota' }]);
    // the query tries to name company B: the proxy replaces it with the caller's
    pedidos.length = 0;
    const r = await userA.get(`/api/wkd/grafana/render/frota/2?from=now-7d&to=now&var-empresa=${B}&width=640`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await r.arrayBuffer())).toEqual(PNG);
    expect(pedidos).toHaveLength(1);
    const u = new URL(pedidos[0]!.url, 'http://x');
    expect(u.pathname).toBe('/render/d-solo/frota');
    expect(u.searchParams.getAll('var-empresa')).toEqual([String(A)]);
    expect(Object.fromEntries([...u.searchParams].filter(([k]) => ['panelId', 'from', 'to', 'width', 'height'].includes(k))))
      .toEqual({ panelId: '2', from: 'now-7d', to: 'now', width: '640', height: '300' });
    expect(pedidos[0]).toMatchObject({ auth: 'Bearer glsa_segredo', empresa: String(A) });
    // company B's user gets B
    pedidos.length = 0;
    expect((await userB.get('/api/wkd/grafana/render/frota/2')).status).toBe(200);
    expect(new URL(pedidos[0]!.url, 'http://x').searchParams.get('var-empresa')).toBe(String(B));
    // an <img> sends the cookie only
    const img = await ts.fetch('/api/wkd/grafana/render/frota/2', { headers: { Cookie: `rastro_token=${userA.token}` } });
    expect(img.status).toBe(200);
    // no token in any answer
    expect(JSON.stringify(await json(await userA.get('/api/wkd/grafana/paineis')))).not.toContain('glsa');
  });

  it('refuses bad input (400 pt-BR), a missing panel (404), no key (403), no session (401)', async () => {
    process.env.GRAFANA_URL = `http://127.0.0.1:${(double.address() as AddressInfo).port}`;
    process.env.GRAFANA_TOKEN = 'glsa_segredo';
    pedidos.length = 0;
    for (const [p, msg] of [
      ['/api/wkd/grafana/render/fr%2E%2E%2Fota/2', 'Identificador do painel inválido'],
      ['/api/wkd/grafana/render/frota/x', 'Número do gráfico inválido'],
      ['/api/wkd/grafana/render/frota/2?from=1;drop', 'Período inválido: use now, now-7d ou um instante em milissegundos'],
      ['/api/wkd/grafana/render/frota/2?width=99999', 'Largura inválida: use um número de 100 a 2000'],
    ] as const) {
      const r = await userA.get(p);
      expect(r.status).toBe(400);
      expect((await json(r)).msg).toBe(msg);
    }
    expect(pedidos).toEqual([]);
    const r404 = await userA.get('/api/wkd/grafana/render/outro/1');
    expect(r404.status).toBe(404);
    expect((await json(r404)).msg).toBe('Painel Grafana não encontrado');
    expect((await semChave.get('/api/wkd/grafana/render/frota/2')).status).toBe(403);
    expect((await semChave.get('/api/wkd/grafana/config')).status).toBe(403);
    expect((await ts.fetch('/api/wkd/grafana/render/frota/2')).status).toBe(401);
    expect(pedidos.map((x) => new URL(x.url, 'http://x').pathname)).toEqual(['/render/d-solo/outro']);
  });
});
