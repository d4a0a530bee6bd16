// The operator's overview over real HTTP: GET /api/home/frota answers the numbers an independent SQL count gives for
// the active company (two companies with known states; the other company's vehicles never count), the monitoring
// list's tabs hold the same vehicles, a missing key is 403, commands pending / devices pending count, the register
// counters go to administrators only, and a write to telemetria.ultimo_estado notifies rastro_estado (company:serials).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTelemetria } from '../../../server/ingest/migrate.ts';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let pool: pg.Pool;
let admin: Api, adminB: Api;
let A: number, B: number;

const min = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
async function estado(serial: string, empresa: number, ativo: number, o: { ignition: boolean | null; speed: number; ago: number }) {
  await pool.query(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, ignition, speed, ultima_comunicacao) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (serial) DO UPDATE SET empresa_id = excluded.empresa_id, ativo_id = excluded.ativo_id, ignition = excluded.ignition, speed = excluded.speed, ultima_comunicacao = excluded.ultima_comunicacao`,
  [serial, empresa, ativo, o.ignition, o.speed, min(o.ago)]);
}

/** The expected numbers, counted here without the module's SQL. */
async function expected(empresa: number) {
  const { rows } = await pool.query(`SELECT a.id, u.ignition, u.speed, u.ultima_comunicacao FROM ativo a
    LEFT JOIN LATERAL (SELECT * FROM telemetria.ultimo_estado x WHERE x.ativo_id = a.id ORDER BY x.ultima_comunicacao DESC LIMIT 1) u ON true
    WHERE a.empresa_id = $1`, [empresa]);
  const n = { emMovimento: 0, parado: 0, desligado: 0, semComunicacao: 0, total: rows.length };
  for (const r of rows) {
    if (!r.ultima_comunicacao || Date.now() - new Date(r.ultima_comunicacao).getTime() > 10 * 60_000) n.semComunicacao++;
    else if (Number(r.speed) > 0 && r.ignition !== false) n.emMovimento++;
    else if (r.ignition) n.parado++;
    else n.desligado++;
  }
  return n;
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  await migrateTelemetria(pool);
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await pool.query('SELECT id FROM empresa ORDER BY id')).rows.map((r) => r.id);
  await ts.createUser({ ambienteId: admin.user.ambienteId, empresas: [B], login: 'frotaB', roles: ['dev'] });
  adminB = await ts.login('frotaB', 'senha-teste-123');
  expect(adminB.empresaAtiva).toBe(B);
  // Company B gets 3 vehicles of its own.
  const idsB: number[] = [];
  for (let i = 0; i < 3; i++) {
    idsB.push((await pool.query(`INSERT INTO ativo (empresa_id, descricao, placa, created_at, updated_at) VALUES ($1, $2, $3, now(), now()) RETURNING id`, [B, `Frota B ${i}`, `BBB${i}A00`])).rows[0].id);
  }
  const idsA = (await pool.query('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 6', [A])).rows.map((r) => r.id);
  await pool.query('DELETE FROM telemetria.ultimo_estado');
  // A: 2 moving, 1 stopped with ignition on, 1 off, 1 silent for 30 min; the 6th has a device silent since 20 min
  // and a second one reporting now (the latest report wins: moving).
  await estado('A-MOV-1', A, idsA[0], { ignition: true, speed: 62, ago: 1 });
  await estado('A-MOV-2', A, idsA[1], { ignition: null, speed: 15, ago: 2 });
  await estado('A-PAR-1', A, idsA[2], { ignition: true, speed: 0, ago: 1 });
  await estado('A-DES-1', A, idsA[3], { ignition: false, speed: 0, ago: 3 });
  await estado('A-SIL-1', A, idsA[4], { ignition: true, speed: 80, ago: 30 });
  await estado('A-OLD-6', A, idsA[5], { ignition: false, speed: 0, ago: 20 });
  await estado('A-NEW-6', A, idsA[5], { ignition: true, speed: 40, ago: 0 });
  // B: every vehicle moving (a leak into A would move A's numbers).
  for (const [i, id] of idsB.entries()) await estado(`B-MOV-${i}`, B, id, { ignition: true, speed: 50, ago: 1 });
});
afterAll(async () => { await pool?.end(); await ts?.stop(); });

describe('home: fleet numbers', () => {
  it('match an independent SQL count for each company; the other company never counts', async () => {
    const a = (await json(await admin.get('/api/home/frota'))).payload;
    const eA = await expected(A);
    expect(eA.emMovimento).toBe(3);
    expect(eA.parado).toBe(1);
    expect(eA.desligado).toBe(1);
    expect(a).toMatchObject(eA);
    expect(a.semComunicacaoMin).toBe(10);
    // The next vehicle to fall silent is the one that reported 3 min ago: in about 7 min.
    expect(Math.round((Date.parse(a.proximaMudanca) - Date.now()) / 60_000)).toBe(7);
    const b = (await json(await adminB.get('/api/home/frota'))).payload;
    // B's own demo vehicles have no device state: without communication.
    const eB = await expected(B);
    expect(eB).toMatchObject({ emMovimento: 3, parado: 0, desligado: 0, semComunicacao: eB.total - 3 });
    expect(b).toMatchObject(eB);
    expect(a.total + b.total).toBe((await pool.query('SELECT count(*)::int AS n FROM ativo WHERE empresa_id IN ($1, $2)', [A, B])).rows[0].n);
  });

  it('the monitoring list tabs hold the same vehicles', async () => {
    const list = async (api: Api, tab: string) => (await json(await api.get(`/api/situacao_frota/${tab}?range=[0,99]`))) as any[];
    const moving = await list(admin, 'em_movimento');
    expect(moving.length).toBe(3);
    expect(new Set(moving.map((r) => r.estado))).toEqual(new Set(['Em movimento']));
    expect((await list(admin, 'parado')).length).toBe(1);
    expect((await list(admin, 'todos')).length).toBe((await expected(A)).total);
    expect((await list(adminB, 'em_movimento')).map((r) => r.descricao).sort()).toEqual(['Frota B 0', 'Frota B 1', 'Frota B 2']);
    const idsB = (await pool.query('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id', [B])).rows.map((r) => r.id);
    expect((await list(adminB, 'todos')).map((r) => r.id).sort((x, y) => x - y)).toEqual(idsB);
  });

  it('a day of positions gives the distance; events scored in Pontuação de eventos are the alarms', async () => {
    const [id] = (await pool.query(`SELECT ativo_id FROM telemetria.ultimo_estado WHERE serial = 'A-MOV-1'`)).rows.map((r) => r.ativo_id);
    // 0.01° of latitude ≈ 1.112 km; three steps north.
    for (let i = 0; i < 4; i++) {
      await pool.query(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, valid) VALUES ('A-MOV-1', now() - make_interval(secs => $1), 'p', $2, $3, $4, -46.6, true)`,
        [40 - i * 10, A, id, -23.5 + i * 0.01]);
    }
    // Company B's positions never count for A.
    await pool.query(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, valid) VALUES ('B-MOV-0', now() - interval '20 s', 'p', $1, NULL, -23, -46, true), ('B-MOV-0', now() - interval '10 s', 'p', $1, NULL, -22, -46, true)`, [B]);
    await pool.query(`INSERT INTO pontuacao_de_eventos (empresa_id, evento, descricao, pontos, ativo, created_at, updated_at) VALUES ($1, 'teste_alarme', 'Alarme de teste', 5, true, now(), now())`, [A]);
    await pool.query(`INSERT INTO telemetria.evento (serial, fix_time, code, key, empresa_id, ativo_id) VALUES ('A-MOV-1', now() - interval '5 s', 'T1', 'teste_alarme', $1, $2), ('A-MOV-1', now() - interval '6 s', 'T2', 'nao_pontuado', $1, $2)`, [A, id]);
    const a = (await json(await admin.get('/api/home/frota'))).payload;
    expect(a.distanciaHoje).toBeCloseTo(3.3, 1);
    expect(a.alarmesHoje).toBe(1);
    const alarmed = (await json(await admin.get('/api/situacao_frota/com_alarme'))) as any[];
    expect(alarmed.map((r) => [r.id, r.alarmesHoje])).toEqual([[id, 1]]);
  });

  it('commands pending and devices pending registration', async () => {
    const before = (await json(await admin.get('/api/home/comandos'))).payload.pendentes;
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM fila_processamento WHERE empresa_id = $1 AND status IN ('pendente', 'enviado')`, [A]);
    expect(before).toBe(rows[0].n);
    await pool.query(`INSERT INTO fila_processamento (empresa_id, serial, event, status, processing, tentativas, created_at, updated_at) VALUES ($1, 'X1', 'reboot', 'pendente', false, 0, now(), now()), ($2, 'X2', 'reboot', 'pendente', false, 0, now(), now())`, [A, B]);
    expect((await json(await admin.get('/api/home/comandos'))).payload.pendentes).toBe(before + 1);
    const pend = (await pool.query('SELECT count(*)::int AS n FROM equipamento_pendente')).rows[0].n;
    expect((await json(await admin.get('/api/home/pendentes'))).payload.equipamentos).toBe(pend);
  });

  it('a missing key is 403; register counters are for administrators only', async () => {
    const base = { ambienteId: admin.user.ambienteId, empresas: [A] };
    await ts.createUser({ ...base, login: 'semfrota', permissoes: ['tlm.fro.ativo.lista'] });
    const sem = await ts.login('semfrota', 'senha-teste-123');
    const r = await sem.get('/api/home/frota');
    expect(r.status).toBe(403);
    expect((await r.json()).msg).toMatch(/permissão/);
    expect((await sem.get('/api/situacao_frota/todos')).status).toBe(403);
    expect((await sem.get('/api/home/comandos')).status).toBe(403);
    const leitor = await ts.login(LEITOR.login, LEITOR.senha);
    expect((await leitor.get('/api/home/frota')).status).toBe(200);
    expect((await json(await leitor.get('/api/home/resumo'))).payload.contagens).toEqual([]);
    const resumo = (await json(await admin.get('/api/home/resumo'))).payload.contagens as { key: string; label: string; secao: string; total: number }[];
    expect(resumo.find((c) => c.key === 'ativo')).toMatchObject({ secao: 'Telemetria › Frota', total: (await pool.query('SELECT count(*)::int AS n FROM ativo WHERE empresa_id = $1', [A])).rows[0].n });
    // No label twice within a section.
    const seen = resumo.map((c) => `${c.secao}/${c.label}`);
    expect(seen.length).toBe(new Set(seen).size);
  });

  it('a write to telemetria.ultimo_estado notifies rastro_estado with the company and its serials', async () => {
    const c = new pg.Client({ connectionString: ts.databaseUrl });
    await c.connect();
    try {
      const got: string[] = [];
      c.on('notification', (m) => got.push(String(m.payload)));
      await c.query('LISTEN rastro_estado');
      await pool.query(`UPDATE telemetria.ultimo_estado SET speed = 0 WHERE serial IN ('A-MOV-1', 'B-MOV-0')`);
      await expect.poll(() => got.sort(), { timeout: 5000 }).toEqual([`${A}:A-MOV-1`, `${B}:B-MOV-0`].sort());
    } finally { await c.end(); }
  });
});
