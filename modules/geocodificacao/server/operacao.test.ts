// Operational columns over real HTTP: the asset list's connection/last communication/position and the device list's
// vehicle are the caller's company's only (another company's newer state and cached address at the same point never
// show); the address call answers the company's cache, refuses bad coordinates (400) and callers without a key (403);
// Registros describes the message and gives the address and the map link.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTelemetria } from '../../../server/ingest/migrate.ts';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { createGeocoder } from './adapter.ts';
import { Resolver } from './resolver.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api;
let ativo: number, alheio: number, empresas: number[];
const SERIAL = '867000000000001';
const LAT = -23.5614, LON = -46.6559; // Av. Paulista

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 2 });
  await migrateTelemetria(pool);
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  empresas = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  ativo = (await json(await admin.post('/api/ativo', { descricao: 'Caminhão operacional', placa: 'OPR1A23' }))).id;
  expect((await admin.post('/api/equipamento', { serial: SERIAL, tecnologia: 'queclink', modelo: 'gv50cg', ativado: true })).status).toBe(201);
  expect((await admin.post('/api/equipamento_ativo', { serial: SERIAL, ativoId: ativo, dataInicio: '2024-01-01T00:00:00Z' })).status).toBe(201);
  await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, lat, lon, fix_time, ultima_comunicacao) VALUES ($1, $2, $3, $4, $5, now(), now() - interval '2 minutes')`,
    [SERIAL, empresas[0], ativo, LAT, LON]);
  await pool.query(`INSERT INTO telemetria.endereco (empresa_id, lat_key, lon_key, endereco, fonte) VALUES ($1, round($2::float8 * 1000)::int, round($3::float8 * 1000)::int, 'Avenida Paulista, 1000 - Bela Vista, São Paulo/SP', 'provedor')`,
    [empresas[0], LAT, LON]);
  // another company: its asset, a newer state naming our asset id and its own cached address at the same point
  alheio = (await pool.query(`INSERT INTO ativo (descricao, placa, empresa_id, created_at, updated_at) VALUES ('Alheio', 'ALH1A11', $1, now(), now()) RETURNING id`, [empresas[1]])).rows[0].id;
  await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, lat, lon, fix_time, ultima_comunicacao) VALUES ('868000000000001', $1, $2, -3.1, -60.0, now(), now() + interval '1 minute')`,
    [empresas[1], ativo]);
  await pool.query(`INSERT INTO telemetria.endereco (empresa_id, lat_key, lon_key, endereco, fonte) VALUES ($1, round($2::float8 * 1000)::int, round($3::float8 * 1000)::int, 'Endereço alheio', 'provedor')`,
    [empresas[1], LAT, LON]);
  await pool.query(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, speed, valid) VALUES ($1, now() - interval '1 minute', 'GTFRI', $2, $3, $4, $5, 40, true)`,
    [SERIAL, empresas[0], ativo, LAT, LON]);
});
afterAll(async () => { await pool?.end(); await ts?.close(); });

describe('operational columns per company', () => {
  it("the asset list shows its own company's state and address only", async () => {
    const rows = await json(await admin.get(`/api/ativo?${new URLSearchParams({ filter: JSON.stringify({ id: [ativo] }), range: '[0,9]' })}`));
    const r = rows[0];
    expect(r.ultimaPosicao).toBe('Avenida Paulista, 1000 - Bela Vista, São Paulo/SP');
    // our device's communication (2 min ago), not the other company's newer one
    const ago = Date.now() - new Date(String(r.ultimaComunicacao).replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')).getTime();
    expect(ago).toBeGreaterThan(60_000);
    expect(ago).toBeLessThan(5 * 60_000);
    expect(r.online).toBe(r.ultimaComunicacao);
    expect((await admin.get(`/api/ativo/${alheio}`)).status).toBe(404);
  });

  it("the device list names the vehicle it is in", async () => {
    const rows = await json(await admin.get(`/api/equipamento?${new URLSearchParams({ filter: JSON.stringify({ q: SERIAL }), range: '[0,9]' })}`));
    expect(rows.map((x: any) => [x.serial, x.ativoAtual])).toEqual([[SERIAL, 'Caminhão operacional (OPR1A23)']]);
  });

  it('the address call answers the company cache, 400 for bad coordinates, 403 without a key', async () => {
    const ok = await json(await admin.get(`/api/geocodificacao/endereco?lat=${LAT}&lon=${LON}`));
    expect(ok.payload).toEqual({ endereco: 'Avenida Paulista, 1000 - Bela Vista, São Paulo/SP', fonte: 'provedor' });
    // a point without an address: the nearest municipality (no provider configured)
    expect((await json(await admin.get('/api/geocodificacao/endereco?lat=-22.9068&lon=-43.1729'))).payload).toEqual({ endereco: 'Rio de Janeiro/RJ', fonte: 'municipio' });
    const bad = await admin.get('/api/geocodificacao/endereco?lat=abc&lon=1');
    expect(bad.status).toBe(400);
    expect((await bad.json()).msg).toBe('Coordenadas inválidas');
    const amb = (await pool.query('SELECT ambiente_id FROM empresa WHERE id = $1', [empresas[0]])).rows[0].ambiente_id;
    await ts.createUser({ login: 'sem.mapa', senha: 'senha-teste-123', ambienteId: amb, empresas: [empresas[0]], permissoes: ['adm.sis.usuario.lista'] });
    const sem = await ts.login('sem.mapa', 'senha-teste-123');
    expect((await sem.get(`/api/geocodificacao/endereco?lat=${LAT}&lon=${LON}`)).status).toBe(403);
  });

  it('registros: the event description, the cached address and the map link', async () => {
    const rows = await json(await admin.get(`/api/rastreamento/registros?${new URLSearchParams({ filter: JSON.stringify({ serial: [SERIAL] }), range: '[0,9]' })}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tipo: 'Relatório periódico de posição', codigo: 'GTFRI', latitude: LAT, longitude: LON,
      endereco: 'Avenida Paulista, 1000 - Bela Vista, São Paulo/SP',
    });
    expect(rows[0].mapa).toMatch(new RegExp(`^/tlm/ras/mapa_do_ativo\\?ativo=${ativo}&lat=-23\\.5614&lon=-46\\.6559&quando=`));
  });

  it('two API processes share the work: a written position is resolved by one of them only', async () => {
    const exec = (sql: string, params: unknown[]) => ts.em().getConnection().execute(sql, params) as Promise<Record<string, unknown>[]>;
    const asked: string[] = [];
    const geocoder = (name: string) => {
      const g = createGeocoder({});
      return { ...g, online: true, reverse: async (lat: number, lon: number) => { asked.push(name); return { endereco: `Rua de ${name}, ${lat}, ${lon}`, fonte: 'provedor' as const }; } };
    };
    const p1 = new Resolver(exec, geocoder('p1')), p2 = new Resolver(exec, geocoder('p2'));
    await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, lat, lon, fix_time, ultima_comunicacao) VALUES ('867000000000099', $1, -22.9056, -47.0608, now(), now())`, [empresas[0]]);
    // both hear the same bus message
    await Promise.all([p1.tick(['867000000000099']), p2.tick(['867000000000099'])]);
    expect(asked).toHaveLength(1);
    const rows = (await pool.query(`SELECT endereco, fonte FROM telemetria.endereco WHERE empresa_id = $1 AND lat_key = -22906 AND lon_key = -47061`, [empresas[0]])).rows;
    expect(rows).toEqual([{ endereco: `Rua de ${asked[0]}, -22.9056, -47.0608`, fonte: 'provedor' }]);
  });
});
