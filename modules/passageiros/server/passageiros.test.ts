// Passengers by RFID over the real gateway (Queclink TCP, GTIDA card reads and GTIGF) and the real API: the first
// read boards, the next alights, a repeat within a minute is ignored, a read with no trip open opens one on the
// vehicle's itinerary, the ignition off closes it (whoever is on board alights, 'Desembarque não registrado'); an
// unknown card and a passenger off the itinerary are inconsistencies (the latter added to the itinerary, criadoAuto).
// Another company sees nothing of it (and its reader does not know this company's cards); the keys are required.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { startGateway, type Gateway } from '../../../server/ingest/index.ts';
import { registerDevice } from '../../../server/ingest/testing/db.ts';
import { qTime } from '../../../server/ingest/simulator.ts';

let ts: TestServer;
let gw: Gateway;
let pool: pg.Pool;
let A: number, B: number, ativoA: number, ativoB: number, itinerario: number;
let ana: number, bruno: number, carla: number;
let userA: Api, userB: Api, semChave: Api;
const BUS = '861000000000101', BUS_B = '861000000000201';
const T0 = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 3600_000;
const at = (s: number) => new Date(T0 + s * 1000);
let count = 0;
const cnt = () => (++count).toString(16).toUpperCase().padStart(4, '0');
const block = (d: Date) => `1,0.0,0,750.0,-46.650000,-23.550000,${qTime(d)},0724,0005,1A2B,00C3F1D2,00`;
const ida = (imei: string, tag: string, s: number, km = 1000) =>
  `+RESP:GTIDA,8020030100,${imei},,,${tag},1,1,${block(at(s))},${km.toFixed(1)},,,,,,${qTime(at(s))},${cnt()}$`;
const igf = (imei: string, s: number) => `+RESP:GTIGF,8020030100,${imei},,600,${block(at(s))},00010:00:00,1012.5,${qTime(at(s))},${cnt()}$`;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
async function send(...frames: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const sock = net.connect(gw.ports.queclinkTcp!, '127.0.0.1', () => sock.end(frames.join(''), () => resolve()));
    sock.on('error', reject);
  });
  // the gateway reads, commits and hands the positions over; drain waits for the ingest modules
  await expect.poll(async () => (await q('SELECT count(*)::int AS n FROM telemetria.posicao WHERE serial = ANY($1)', [[BUS, BUS_B]]))[0].n, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(sent += frames.length);
  await gw.drain();
}
let sent = 0;
const boards = (serial = BUS) => q(`SELECT tag, passageiro_id, entrada, saida, inconsistencia, itinerario_id FROM telemetria.embarque WHERE serial = $1 ORDER BY entrada, tag`, [serial]);
const trips = (serial = BUS) => q(`SELECT inicio, fim, itinerario_id, direcao, qtd_passageiros, lotacao, a_bordo, empresa_id, ativo_id FROM telemetria.viagem_passageiro WHERE serial = $1 ORDER BY inicio`, [serial]);
const aBordo = async (api: Api) => json(await api.get(`/api/passageiros/a_bordo?range=${encodeURIComponent('[0,99]')}`));
const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const periodo = { inicio: new Date(T0 - 3600_000).toISOString(), fim: new Date(T0 + 3 * 3600_000).toISOString() };
const report = (api: Api, tipo: string) => api.get(`/api/relatorios/passageiro/${tipo}?params=${enc({ periodo })}&fuso=America/Sao_Paulo`);

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  gw = await startGateway({ databaseUrl: ts.databaseUrl, host: '127.0.0.1', ports: { queclinkTcp: 0 }, writer: { lingerMs: 5 }, migrate: false });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  ativoA = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]))[0].id;
  ativoB = (await q('SELECT id FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]))[0].id;
  await registerDevice(pool, BUS, A, ativoA, 'gv58cg');
  await registerDevice(pool, BUS_B, B, ativoB, 'gv58cg');
  const pas = async (nome: string, matricula: string, tags: string[]) => (await q(
    `INSERT INTO passageiro (empresa_id, nome, matricula, tags, created_at, updated_at) VALUES ($1, $2, $3, $4, now(), now()) RETURNING id`, [A, nome, matricula, JSON.stringify(tags)]))[0].id as number;
  ana = await pas('Ana Souza', 'M-001', ['a1b2c3d4']);
  bruno = await pas('Bruno Lima', 'M-002', ['B2C3D4E5', '00FF00FF']);
  carla = await pas('Carla Dias', 'M-003', ['C3D4E5F6']);
  const linha = (await q(`INSERT INTO linha (empresa_id, descricao, ativo, largura, created_at, updated_at) VALUES ($1, 'Linha Centro', true, 100, now(), now()) RETURNING id`, [A]))[0].id;
  itinerario = (await q(`INSERT INTO itinerario (empresa_id, descricao, linha, inicio_ida, fim_ida, ativos, created_at, updated_at)
    VALUES ($1, 'Centro — manhã', $2, '00:00', '23:59', $3, now(), now()) RETURNING id`, [A, linha, [ativoA]]))[0].id;
  for (const p of [ana, bruno]) {
    await q(`INSERT INTO itinerario_passageiro (empresa_id, itinerario, passageiro, horario, direcao, criado_auto, created_at, updated_at)
      VALUES ($1, $2, $3, '07:00', 'ida', false, now(), now())`, [A, itinerario, p]);
  }
  const ambiente = (await q('SELECT ambiente_id FROM empresa WHERE id = $1', [A]))[0].ambiente_id;
  const keys = ['esp.pas.passageiros_ao_vivo', 'esp.pas.historico_de_passageiros', 'rel.ges.passageiros', 'rel.rel.relatorios', 'rel.rel.relatorios.passageiro'];
  await ts.createUser({ login: 'pas_a', ambienteId: ambiente, empresas: [A], permissoes: keys });
  await ts.createUser({ login: 'pas_b', ambienteId: ambiente, empresas: [B], permissoes: keys });
  await ts.createUser({ login: 'pas_sem', ambienteId: ambiente, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
  userA = await ts.login('pas_a', 'senha-teste-123');
  userB = await ts.login('pas_b', 'senha-teste-123');
  semChave = await ts.login('pas_sem', 'senha-teste-123');
});

afterAll(async () => {
  await gw?.stop();
  await pool?.end();
  await ts?.stop();
});

describe('boarding and alighting from RFID reads at ingest', () => {
  it('a read with no trip open opens one on the itinerary the vehicle is on, and boards', async () => {
    await send(ida(BUS, 'A1B2C3D4', 0, 1000));
    const [t] = await trips();
    expect(t).toMatchObject({ inicio: at(0), fim: null, itinerario_id: itinerario, direcao: 'ida', qtd_passageiros: 1, lotacao: 1, a_bordo: 1, empresa_id: A, ativo_id: ativoA });
    expect(await boards()).toEqual([{ tag: 'A1B2C3D4', passageiro_id: ana, entrada: at(0), saida: null, inconsistencia: null, itinerario_id: itinerario }]);
    const [v] = await aBordo(userA);
    expect(v).toMatchObject({ serial: BUS, ativoId: ativoA, itinerario: 'Centro — manhã', direcao: 'Ida', aBordo: 1, qtdPassageiros: 1, lotacao: 1, fim: null });
    expect(v.passageiros).toEqual([{ tag: 'A1B2C3D4', nome: 'Ana Souza', matricula: 'M-001', entrada: expect.any(String) }]);
    expect(Date.parse(v.passageiros[0].entrada)).toBe(T0);
  });

  it('a repeat of the same card within a minute is ignored; another card boards', async () => {
    await send(ida(BUS, 'A1B2C3D4', 30, 1000.5), ida(BUS, 'B2C3D4E5', 45, 1000.6));
    expect((await boards()).map((b) => [b.tag, b.saida])).toEqual([['A1B2C3D4', null], ['B2C3D4E5', null]]);
    expect((await trips())[0]).toMatchObject({ qtd_passageiros: 2, lotacao: 2, a_bordo: 2 });
  });

  it('the next read of a card alights its passenger', async () => {
    await send(ida(BUS, 'A1B2C3D4', 300, 1004));
    const ana1 = (await boards()).find((b) => b.tag === 'A1B2C3D4');
    expect(ana1).toMatchObject({ entrada: at(0), saida: at(300), inconsistencia: null });
    expect((await trips())[0]).toMatchObject({ qtd_passageiros: 2, lotacao: 2, a_bordo: 1 });
    const [v] = await aBordo(userA);
    expect(v.aBordo).toBe(1);
    expect(v.passageiros.map((p: any) => p.nome)).toEqual(['Bruno Lima']);
  });

  it('an unknown card and a passenger off the itinerary board as inconsistencies (the passenger added to the itinerary)', async () => {
    await send(ida(BUS, 'FFFF0001', 400, 1005), ida(BUS, 'C3D4E5F6', 420, 1005.2));
    const b = await boards();
    expect(b.find((x) => x.tag === 'FFFF0001')).toMatchObject({ passageiro_id: null, inconsistencia: 'Cartão não cadastrado', saida: null });
    expect(b.find((x) => x.tag === 'C3D4E5F6')).toMatchObject({ passageiro_id: carla, inconsistencia: 'Passageiro fora do itinerário' });
    expect(await q('SELECT passageiro, direcao, criado_auto FROM itinerario_passageiro WHERE itinerario = $1 ORDER BY passageiro', [itinerario]))
      .toEqual([{ passageiro: ana, direcao: 'ida', criado_auto: false }, { passageiro: bruno, direcao: 'ida', criado_auto: false }, { passageiro: carla, direcao: 'ida', criado_auto: true }]);
    expect((await trips())[0]).toMatchObject({ qtd_passageiros: 4, lotacao: 3, a_bordo: 3 });
  });

  it('the ignition off closes the trip: whoever is on board alights then', async () => {
    await send(igf(BUS, 1200));
    const [t] = await trips();
    expect(t).toMatchObject({ fim: at(1200), a_bordo: 0, lotacao: 3, qtd_passageiros: 4 });
    const b = await boards();
    expect(b.filter((x) => x.saida === null)).toEqual([]);
    expect(b.find((x) => x.tag === 'B2C3D4E5')).toMatchObject({ saida: at(1200), inconsistencia: 'Desembarque não registrado' });
    expect(b.find((x) => x.tag === 'FFFF0001')).toMatchObject({ saida: at(1200), inconsistencia: 'Cartão não cadastrado' });
    const [v] = await aBordo(userA);
    expect(v).toMatchObject({ aBordo: 0, passageiros: [] });
    expect(v.fim).not.toBeNull();
  });

  it('a read after the close opens a new trip (the first read boards again, within a minute of the previous trip too)', async () => {
    await send(ida(BUS, 'A1B2C3D4', 1230, 1013));
    const t = await trips();
    expect(t).toHaveLength(2);
    expect(t[1]).toMatchObject({ inicio: at(1230), fim: null, itinerario_id: itinerario, qtd_passageiros: 1, a_bordo: 1 });
  });

  it('the history, the dashboard and the reports show the boardings', async () => {
    const h = await json(await userA.get(`/api/passageiros/historico?range=${encodeURIComponent('[0,49]')}&sort=${enc(['entrada', 'ASC'])}&filter=${enc({ entrada_gte: periodo.inicio, entrada_lte: periodo.fim })}`));
    expect(h.map((x: any) => [x.nome, x.tag, x.inconsistencia])).toEqual([
      ['Ana Souza', 'A1B2C3D4', null], ['Bruno Lima', 'B2C3D4E5', 'Desembarque não registrado'], [null, 'FFFF0001', 'Cartão não cadastrado'],
      ['Carla Dias', 'C3D4E5F6', 'Passageiro fora do itinerário'], ['Ana Souza', 'A1B2C3D4', null],
    ]);
    const so = await json(await userA.get(`/api/passageiros/historico?range=${encodeURIComponent('[0,49]')}&filter=${enc({ inconsistente: true, entrada_gte: periodo.inicio })}`));
    expect(so).toHaveLength(3);
    const linhas = await json(await userA.get(`/api/passageiros/ocupacao_linha?filter=${enc(periodo)}`));
    expect(linhas).toEqual([expect.objectContaining({ id: itinerario, itinerario: 'Centro — manhã', linha: 'Linha Centro', qtdViagens: 2, qtdPassageiros: 5, lotacao: 3, cadastrados: 3, percLotacao: 100 })]);
    const dias = await json(await userA.get(`/api/passageiros/painel?filter=${enc(periodo)}`));
    expect(dias.reduce((n: number, d: any) => n + d.embarques, 0)).toBe(5);
    expect(dias.reduce((n: number, d: any) => n + d.inconsistencias, 0)).toBe(3);

    const r = await report(userA, 'viagem_ativo');
    expect(r.status).toBe(200);
    const viagens = await r.json();
    expect(viagens.map((v: any) => [v.qtdPassageiros, v.lotacao, v.itinerario, v.percLotacao, v.distancia])).toEqual([[4, 3, 'Centro — manhã', 100, 12.5], [1, 1, 'Centro — manhã', 33.3, 0]]);
    const porPassageiro = await (await report(userA, 'viagem_passageiro')).json();
    expect(porPassageiro.map((x: any) => x.nome)).toEqual(['Ana Souza', 'Bruno Lima', 'Carla Dias', 'Ana Souza']);
    const acesso = await (await report(userA, 'acesso_viagem')).json();
    expect(acesso.map((x: any) => x.razao).sort()).toEqual(['Cartão não cadastrado', 'Desembarque não registrado', 'Passageiro fora do itinerário']);
    for (const tipo of ['viagem_ativo_resumido', 'ocupacao_linha', 'viagem_motorista', 'viagem_itinerario']) {
      const x = await report(userA, tipo);
      expect(x.status, tipo).toBe(200);
      expect((await x.json()).length, tipo).toBeGreaterThan(0);
    }
  });
});

describe('company scope and keys', () => {
  it('another company sees none of it, and its reader does not know this company’s cards', async () => {
    expect(await aBordo(userB)).toEqual([]);
    expect(await json(await userB.get('/api/passageiros/historico'))).toEqual([]);
    expect(await json(await userB.get(`/api/passageiros/ocupacao_linha?filter=${enc(periodo)}`))).toEqual([]);
    expect(await json(await userB.get(`/api/passageiros/painel?filter=${enc(periodo)}`))).toEqual([]);
    for (const tipo of ['viagem_ativo', 'viagem_passageiro', 'acesso_viagem', 'ocupacao_linha']) expect(await (await report(userB, tipo)).json(), tipo).toEqual([]);
    await send(ida(BUS_B, 'A1B2C3D4', 100));
    expect(await boards(BUS_B)).toEqual([expect.objectContaining({ passageiro_id: null, inconsistencia: 'Cartão não cadastrado', itinerario_id: null })]);
    const [vb] = await aBordo(userB);
    expect(vb).toMatchObject({ serial: BUS_B, aBordo: 1, itinerario: null });
    expect((await aBordo(userA)).map((v: any) => v.serial)).toEqual([BUS]);
  });

  it('a user without the keys gets 403; a bad period 400 in pt-BR', async () => {
    for (const path of ['/api/passageiros/a_bordo', '/api/passageiros/historico', '/api/passageiros/painel', '/api/passageiros/ocupacao_linha']) {
      expect((await semChave.get(path)).status, path).toBe(403);
    }
    expect((await report(semChave, 'viagem_ativo')).status).toBe(403);
    const r = await userA.get(`/api/passageiros/painel?filter=${enc({ inicio: periodo.fim, fim: periodo.inicio })}`);
    expect(r.status).toBe(400);
    expect((await r.json()).msg).toBe('O início do período deve ser anterior ao fim');
  });
});
