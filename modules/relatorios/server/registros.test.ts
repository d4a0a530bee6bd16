// Relatórios de registros (/rel/rel/relatorios_registros) over real HTTP: latest states, positions, fence stays,
// tracking options, itineraries and trips inserted in this test's database as the gateway, modules/cercas and the
// trip detector write them, with values known by construction; the other company never sees them; a user without
// the screen's key gets 403; another company's itinerary is 404.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { reportUsers } from './users.kit.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
type Ativo = { id: number; descricao: string; placa: string };
let a1: Ativo, a2: Ativo, b1: Ativo;
let m1: { id: number; nome: string };
let itA: number, itB: number;
let userA: Api, userB: Api, semChave: Api;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
const list = async (api: Api, path: string, filter: object = {}, sort?: [string, string]) => {
  const r = await api.get(`/api${path}?filter=${enc(filter)}&range=[0,99]${sort ? `&sort=${enc(sort)}` : ''}`);
  expect(r.status, JSON.stringify(await r.clone().json())).toBe(200);
  return (await r.json()) as Record<string, any>[];
};
async function posicao(empresa: number, ativo: number, motorista: number | null, serial: string, at: string, speed: number, valid = true, attrs: object = {}) {
  await q(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, motorista_id, lat, lon, speed, valid, attributes)
    VALUES ($1, $2, 'pos', $3, $4, $5, -23.5, -46.6, $6, $7, $8)`, [serial, at, empresa, ativo, motorista, speed, valid, JSON.stringify(attrs)]);
}
const opcao = async (empresa: number, vmax: number) => {
  await q('UPDATE opcao_rastreamento SET padrao = false WHERE empresa_id = $1', [empresa]);
  await q(`INSERT INTO opcao_rastreamento (empresa_id, descricao, padrao, tempo_sem_comunicacao, intervalo_atualizacao, exibir_rastro, tamanho_rastro, agrupar_marcadores, seguir_veiculo, velocidade_maxima, created_at, updated_at)
    VALUES ($1, 'Padrão velocidade', true, 30, 10, true, 10, true, false, $2, now(), now())`, [empresa, vmax]);
};

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [a1, a2] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [b1] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  [m1] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]);

  // latest states
  for (const [emp, at, serial, speed, ign] of [[A, a1, 'ur-a1', 42.26, true], [B, b1, 'ur-b1', 10, false]] as const) {
    await q(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, motorista_id, modelo, fix_time, lat, lon, speed, ignition, ultimo_evento, ultima_comunicacao)
      VALUES ($1, $2, $3, $4, 'GV350', '2026-11-20T08:00:00-03:00', -23.5, -46.6, $5, $6, 'Ignição ligada', '2026-11-20T08:01:00-03:00')
      ON CONFLICT (serial) DO UPDATE SET empresa_id = excluded.empresa_id, ativo_id = excluded.ativo_id`, [serial, emp, at.id, emp === A ? m1.id : null, speed, ign]);
  }

  // speed: A's default limit 80 km/h, 30 km/h inside Cerca Escola (a1 inside it from 120 to 60 min ago); B's 100
  await opcao(A, 80);
  await opcao(B, 100);
  const escola = (await q(`INSERT INTO cerca (empresa_id, descricao, tipo, velocidade_maxima, created_at, updated_at) VALUES ($1, 'Escola', 'circulo', 30, now(), now()) RETURNING id`, [A]))[0].id;
  await q(`INSERT INTO telemetria.cerca_permanencia (serial, cerca_id, entrada, saida, duracao, empresa_id, ativo_id, motorista_id) VALUES ('vel-a1', $1, $2, $3, 3600, $4, $5, NULL)`, [escola, ago(120), ago(60), A, a1.id]);
  // a fence with limit 0 (no limit) around the 85 km/h fix: the default option's limit still applies there
  const semLimite = (await q(`INSERT INTO cerca (empresa_id, descricao, tipo, velocidade_maxima, created_at, updated_at) VALUES ($1, 'Sem limite', 'circulo', 0, now(), now()) RETURNING id`, [A]))[0].id;
  await q(`INSERT INTO telemetria.cerca_permanencia (serial, cerca_id, entrada, saida, duracao, empresa_id, ativo_id, motorista_id) VALUES ('vel-a1', $1, $2, $3, 900, $4, $5, NULL)`, [semLimite, ago(40), ago(25), A, a1.id]);
  await posicao(A, a1.id, m1.id, 'vel-a1', ago(90), 50);             // in the school: 20 over
  await posicao(A, a1.id, m1.id, 'vel-a1', ago(30), 85);             // outside: 5 over
  await posicao(A, a1.id, m1.id, 'vel-a1', ago(20), 70);             // under the limit
  await posicao(A, a2.id, null, 'vel-a2', ago(10), 120, true, { engine_speed_can: '2500' }); // 40 over
  await posicao(A, a2.id, null, 'vel-a2', ago(5), 200, false);       // invalid fix
  await posicao(B, b1.id, null, 'vel-b1', ago(10), 150);             // B: 50 over its 100

  // itineraries: A's covers a1 (two trips, one of a2 outside it); B's covers b1
  const linhaA = (await q(`INSERT INTO linha (empresa_id, descricao, created_at, updated_at) VALUES ($1, 'Linha 10', now(), now()) RETURNING id`, [A]))[0].id;
  const linhaB = (await q(`INSERT INTO linha (empresa_id, descricao, created_at, updated_at) VALUES ($1, 'Linha B', now(), now()) RETURNING id`, [B]))[0].id;
  const prest = (await q(`INSERT INTO prestadora (empresa_id, nome, created_at, updated_at) VALUES ($1, 'Via Sul', now(), now()) RETURNING id`, [A]))[0].id;
  itA = (await q(`INSERT INTO itinerario (empresa_id, descricao, linha, prestadora, dias_semana, inicio_ida, fim_ida, ativos, created_at, updated_at)
    VALUES ($1, 'Centro–Bairro', $2, $3, '["seg","sex"]', '06:00', '07:30', $4, now(), now()) RETURNING id`, [A, linhaA, prest, [a1.id]]))[0].id;
  itB = (await q(`INSERT INTO itinerario (empresa_id, descricao, linha, ativos, created_at, updated_at) VALUES ($1, 'Itinerário B', $2, $3, now(), now()) RETURNING id`, [B, linhaB, [b1.id]]))[0].id;
  const trip = (emp: number, at: number, mot: number | null, ini: number, fim: number, dist: number) =>
    q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, motorista_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
      VALUES ($1, $2, $3, $4, $5, $6, -23.5, -46.6, -23.6, -46.7, $7, $8, 80, 40, 0)`, [`it-${at}`, ago(ini), ago(fim), emp, at, mot, dist, (ini - fim) * 60]);
  await trip(A, a1.id, m1.id, 300, 240, 12345);
  await trip(A, a1.id, null, 200, 170, 5000);
  await trip(A, a2.id, null, 100, 90, 1000);
  await trip(B, b1.id, null, 100, 90, 1000);

  // risk events (the library's risk: panic and collision alto, jamming médio; a key without risk is not counted)
  const ev = (emp: number, at: number, mot: number | null, quando: string, key: string) =>
    q(`INSERT INTO telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, motorista_id, lat, lon) VALUES ($1, $2, $3, $3, '', $4, $5, $6, -23.5, -46.6)`,
      [`rs-${at}`, quando, key, emp, at, mot]);
  await ev(A, a1.id, m1.id, '2026-11-20T10:00:00-03:00', 'panic');
  await ev(A, a1.id, m1.id, '2026-11-20T22:30:00-03:00', 'panic');   // 01:30 UTC on the 21st: still the 20th locally
  await ev(A, a1.id, m1.id, '2026-11-21T09:00:00-03:00', 'jamming');
  await ev(A, a2.id, null, '2026-11-21T09:00:00-03:00', 'collision');
  await ev(A, a2.id, null, '2026-11-21T09:30:00-03:00', 'eventoSemRisco');
  await ev(B, b1.id, null, '2026-11-20T10:00:00-03:00', 'panic');

  // camera alarms (modules/video writes them: attributes.origem cmsv6, the library's vdo key by code) on the 25th: a2
  // drove with m1 10:00–11:00 (a trip), so its alarms then are m1's; after it, no driver; an unknown code has no risk;
  // a tracker event without a driver in that trip stays without one (only a camera takes the trip's driver)
  await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, motorista_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
    VALUES ('cam-a2', '2026-11-25T10:00:00-03:00', '2026-11-25T11:00:00-03:00', $1, $2, $3, -23.5, -46.6, -23.6, -46.7, 1000, 3600, 80, 40, 0)`, [A, a2.id, m1.id]);
  const cam = (emp: number, at: number, quando: string, code: number, key: string) =>
    q(`INSERT INTO telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, lat, lon, attributes) VALUES ($1, $2, $3, $4, '', $5, $6, -23.5, -46.6, '{"origem":"cmsv6"}')`,
      [`cam-${at}`, quando, String(code), key, emp, at]);
  await cam(A, a2.id, '2026-11-25T10:15:00-03:00', 619, 'fatigue_l2');           // alto, m1
  await cam(A, a2.id, '2026-11-25T10:20:00-03:00', 600, 'frontal_collision_l1'); // baixo, m1
  await cam(A, a2.id, '2026-11-25T12:00:00-03:00', 711, 'no_seatbelt_l2');       // médio, no driver
  await cam(A, a2.id, '2026-11-25T10:30:00-03:00', 650, 'camera_alarme_650');    // unknown: no risk
  await ev(A, a2.id, null, '2026-11-25T10:40:00-03:00', 'panic');
  await cam(B, b1.id, '2026-11-25T10:15:00-03:00', 603, 'lane_change_l2');

  ({ userA, userB, semChave } = await reportUsers(ts, { prefix: 'reg', empresas: [A, B], keys: ['rel.rel.relatorios_registros', ...['ultimos_registros', 'analise_de_velocidade', 'itinerarios', 'itinerarios.viagens'].map((f) => `rel.rel.relatorios_registros.${f}`), 'tlm.evt.analise_de_risco'], semKeys: ['rel.rel.relatorios_registros'] }));
});

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('relatorios_registros', () => {
  it('without the screen’s key every list is 403', async () => {
    for (const path of ['/relatorios_registros/ultimos_registros', '/relatorios_registros/analise_de_velocidade', '/relatorios_registros/itinerarios', `/relatorios_registros/itinerarios/${itA}`]) {
      const r = await semChave.get(`/api${path}`);
      expect(r.status, path).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
  });

  it('últimos registros: the latest state of each device with vehicle, driver and map link; the other company’s not', async () => {
    const [r] = await list(userA, '/relatorios_registros/ultimos_registros', { ativoId: a1.id });
    expect(r).toMatchObject({
      id: 'ur-a1', ativo: a1.descricao, placa: a1.placa, motorista: m1.nome, serial: 'ur-a1', velocidade: 42.3, ignicao: true,
      ultimoEvento: 'Ignição ligada', dataHora: '2026-11-20T11:00:00.000Z', mapa: `/tlm/ras/mapa_do_ativo?ativo=${a1.id}&lat=-23.5&lon=-46.6`,
    });
    expect(await list(userB, '/relatorios_registros/ultimos_registros', { ativoId: a1.id })).toEqual([]);
    expect((await list(userB, '/relatorios_registros/ultimos_registros', { q: 'ur-' })).map((x) => x.serial)).toEqual(['ur-b1']);
  });

  it('análise de velocidade: valid fixes over the fence’s or the default option’s limit, with driver and rpm', async () => {
    const rows = await list(userA, '/relatorios_registros/analise_de_velocidade', {}, ['dateTime', 'ASC']);
    expect(rows.map(({ ativo, driver, speed, limite, excesso, local, rpm }) => ({ ativo, driver, speed, limite, excesso, local, rpm }))).toEqual([
      { ativo: a1.descricao, driver: m1.nome, speed: 50, limite: 30, excesso: 20, local: 'Cerca Escola', rpm: null },
      { ativo: a1.descricao, driver: m1.nome, speed: 85, limite: 80, excesso: 5, local: 'Opção de rastreamento', rpm: null },
      { ativo: a2.descricao, driver: null, speed: 120, limite: 80, excesso: 40, local: 'Opção de rastreamento', rpm: 2500 },
    ]);
    expect(rows[2].map).toMatch(new RegExp(`^/tlm/ras/mapa_do_ativo\\?ativo=${a2.id}&lat=-23\\.5&lon=-46\\.6&quando=`));
    expect((await list(userA, '/relatorios_registros/analise_de_velocidade', { ativoId: a2.id })).map((x) => x.speed)).toEqual([120]);
    expect((await list(userB, '/relatorios_registros/analise_de_velocidade')).map(({ ativo, speed, limite }) => ({ ativo, speed, limite }))).toEqual([
      { ativo: b1.descricao, speed: 150, limite: 100 },
    ]);
  });

  it('itinerários: line, provider, days, hours, assets and trips; the trips of one itinerary; another company’s is 404', async () => {
    const its = await list(userA, '/relatorios_registros/itinerarios', { q: 'Bairro' });
    expect(its).toEqual([{
      id: itA, descricao: 'Centro–Bairro', linha: 'Linha 10', prestadora: 'Via Sul', diasSemana: 'Seg, Sex', inicioIda: '06:00', fimIda: '07:30',
      inicioVolta: null, fimVolta: null, ativos: 1, viagens: 2, abrir: `/rel/rel/relatorios_registros/itinerarios/${itA}`,
    }]);
    expect((await list(userB, '/relatorios_registros/itinerarios')).map((x) => x.descricao)).toEqual(['Itinerário B']);
    const trips = await list(userA, `/relatorios_registros/itinerarios/${itA}`);
    expect(trips.map(({ idItinerario, ativo, motorista, duracao, distancia, idPrestadora }) => ({ idItinerario, ativo, motorista, duracao, distancia, idPrestadora }))).toEqual([
      { idItinerario: 'Centro–Bairro', ativo: a1.descricao, motorista: null, duracao: 1800, distancia: 5, idPrestadora: 'Via Sul' },
      { idItinerario: 'Centro–Bairro', ativo: a1.descricao, motorista: m1.nome, duracao: 3600, distancia: 12.35, idPrestadora: 'Via Sul' },
    ]);
    const r = await userB.get(`/api/relatorios_registros/itinerarios/${itA}`);
    expect(r.status).toBe(404);
    expect((await json(r)).msg).toBe('Itinerário não encontrado');
    expect((await list(userB, `/relatorios_registros/itinerarios/${itB}`)).length).toBe(1);
  });
});

describe('analise_de_risco', () => {
  it('risk events counted per local day, asset, driver and level; the other company’s apart; no key 403', async () => {
    const rows = await list(userA, '/analise_de_risco/eventos', { data_gte: '2026-11-20', data_lte: '2026-11-21' }, ['dia', 'ASC']);
    expect(rows.map(({ dia, ativo, motorista, nivel, eventos }) => ({ dia, ativo, motorista, nivel, eventos }))).toEqual([
      { dia: '2026-11-20', ativo: a1.descricao, motorista: m1.nome, nivel: 'alto', eventos: 2 },
      { dia: '2026-11-21', ativo: a1.descricao, motorista: m1.nome, nivel: 'médio', eventos: 1 },
      { dia: '2026-11-21', ativo: a2.descricao, motorista: null, nivel: 'alto', eventos: 1 },
    ]);
    expect((await list(userA, '/analise_de_risco/eventos', { data_gte: '2026-11-21', data_lte: '2026-11-21', motoristaId: m1.id })).map((r) => r.nivel)).toEqual(['médio']);
    expect((await list(userB, '/analise_de_risco/eventos', { data_gte: '2026-11-20', data_lte: '2026-11-21' })).map(({ ativo, eventos }) => ({ ativo, eventos }))).toEqual([
      { ativo: b1.descricao, eventos: 1 },
    ]);
    expect((await semChave.get('/api/analise_de_risco/eventos')).status).toBe(403);
  });

  it('camera alarms weighted by their risk (alto 3, médio 2, baixo 1), the trip\'s driver, apart by origin', async () => {
    const dia = { data_gte: '2026-11-25', data_lte: '2026-11-25' };
    const pick = (rs: any[]) => rs.map(({ ativo, motorista, origem, nivel, eventos, pontos }) => ({ ativo, motorista, origem, nivel, eventos, pontos }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(pick(await list(userA, '/analise_de_risco/eventos', dia))).toEqual(pick([
      { ativo: a2.descricao, motorista: m1.nome, origem: 'camera', nivel: 'alto', eventos: 1, pontos: 3 },
      { ativo: a2.descricao, motorista: m1.nome, origem: 'camera', nivel: 'baixo', eventos: 1, pontos: 1 },
      { ativo: a2.descricao, motorista: null, origem: 'camera', nivel: 'médio', eventos: 1, pontos: 2 },
      { ativo: a2.descricao, motorista: null, origem: 'rastreador', nivel: 'alto', eventos: 1, pontos: 3 },
    ]));
    const cams = await list(userA, '/analise_de_risco/eventos', { ...dia, origem: 'camera' });
    expect([cams.length, cams.reduce((s, r) => s + r.eventos, 0), cams.reduce((s, r) => s + r.pontos, 0)]).toEqual([3, 3, 6]);
    expect((await list(userA, '/analise_de_risco/eventos', { ...dia, motoristaId: m1.id })).reduce((s, r) => s + r.pontos, 0)).toBe(4);
    expect(pick(await list(userB, '/analise_de_risco/eventos', dia))).toEqual([{ ativo: b1.descricao, motorista: null, origem: 'camera', nivel: 'alto', eventos: 1, pontos: 3 }]);
  });
});
