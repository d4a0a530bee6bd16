// Report families evento, movimento, comunicacao and analise over real HTTP: events, fence stays, trips, positions,
// the change history and the command queue inserted in this test's database as the ingest, modules/cercas and the
// CRUD write them, with values known by construction; a user of the other company never sees these rows; a user
// without a family's key gets 403.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { cols, enc, get, reportUsers, rows } from './users.kit.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
type Ativo = { id: number; descricao: string; placa: string };
let a1: Ativo, a2: Ativo, b1: Ativo;
let m1: { id: number; nome: string };
let c1: number, c2: number;
let userA: Api, userB: Api, semChave: Api;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const MARCO = { inicio: '2026-03-10T00:00:00-03:00', fim: '2026-03-11T23:59:59.999-03:00' };
const NOV = { inicio: '2026-11-20T00:00:00-03:00', fim: '2026-11-20T23:59:59-03:00' };
const byName = <T extends { descricao: string }>(...xs: T[]) => [...xs].sort((x, y) => x.descricao.localeCompare(y.descricao));

async function evento(empresa: number, ativo: number, motorista: number | null, at: string, key: string, description: string, serial = `ev-${ativo}`) {
  await q(`INSERT INTO telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, motorista_id, lat, lon)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, -23.5, -46.6)`, [serial, at, key, key, description, empresa, ativo, motorista]);
}
async function estadia(empresa: number, ativo: number, motorista: number | null, cerca: number, entrada: string, saida: string | null) {
  const dur = saida ? Math.round((Date.parse(saida) - Date.parse(entrada)) / 1000) : null;
  await q(`INSERT INTO telemetria.cerca_permanencia (serial, cerca_id, entrada, saida, duracao, empresa_id, ativo_id, motorista_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [`mv-${ativo}`, cerca, entrada, saida, dur, empresa, ativo, motorista]);
}
async function posicao(empresa: number, ativo: number, serial: string, at: string) {
  await q(`INSERT INTO telemetria.posicao (serial, fix_time, tipo, empresa_id, ativo_id, lat, lon, valid) VALUES ($1, $2, 'pos', $3, $4, -23.5, -46.6, true)`,
    [serial, at, empresa, ativo]);
}
const cerca = async (empresa: number, nome: string) =>
  (await q(`INSERT INTO cerca (empresa_id, descricao, tipo, created_at, updated_at) VALUES ($1, $2, 'circulo', now(), now()) RETURNING id`, [empresa, nome]))[0].id as number;

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [a1, a2] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [b1] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  [m1] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [A]);

  // events (March): geofenceEnter ×3 on two assets, geofenceExit ×1, a key the library does not know ×1
  await evento(A, a1.id, null, '2026-03-10T07:00:00-03:00', 'geofenceEnter', 'desc própria');
  await evento(A, a1.id, m1.id, '2026-03-10T08:00:00-03:00', 'geofenceExit', 'desc própria');
  await evento(A, a1.id, m1.id, '2026-03-10T09:00:00-03:00', 'geofenceEnter', 'desc própria');
  await evento(A, a2.id, m1.id, '2026-03-11T10:00:00-03:00', 'geofenceEnter', '');
  await evento(A, a2.id, null, '2026-03-11T11:00:00-03:00', 'eventoXyz', '');
  await evento(A, a2.id, null, '2026-03-12T11:00:00-03:00', 'eventoXyz', ''); // after the period
  await evento(B, b1.id, null, '2026-03-10T09:00:00-03:00', 'geofenceEnter', '');

  // fences (March): a1 leaves Pátio at 08:00, drives to Cliente (trip 08:00–09:00), is back in Pátio on the 11th
  // (still inside); a2 was in Pátio across the period's start
  c1 = await cerca(A, 'Cerca Pátio');
  c2 = await cerca(A, 'Cerca Cliente');
  const cb = await cerca(B, 'Cerca B');
  await estadia(A, a1.id, null, c1, '2026-03-10T07:00:00-03:00', '2026-03-10T08:00:00-03:00');
  await estadia(A, a1.id, m1.id, c2, '2026-03-10T09:00:00-03:00', '2026-03-10T10:30:00-03:00');
  await estadia(A, a1.id, null, c1, '2026-03-11T20:00:00-03:00', null);
  await estadia(A, a2.id, null, c1, '2026-03-09T22:00:00-03:00', '2026-03-10T02:00:00-03:00');
  await estadia(B, b1.id, null, cb, '2026-03-10T10:00:00-03:00', '2026-03-10T11:00:00-03:00');
  await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, motorista_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
    VALUES ('mv-${a1.id}', '2026-03-10T08:00:00-03:00', '2026-03-10T09:00:00-03:00', $1, $2, $3, -23.5, -46.6, -23.6, -46.7, 42000, 3600, 80, 42, 0),
           ('mv-${b1.id}', '2026-03-10T09:00:00-03:00', '2026-03-10T10:00:00-03:00', $4, $5, NULL, -23.5, -46.6, -23.6, -46.7, 9000, 3600, 80, 9, 0)`, [A, a1.id, m1.id, B, b1.id]);

  // communication (November, this month's partition): a1 reports at 08:00, 08:05, 10:00, 12:00; a2 not at all.
  // The company's default tracking option: without communication after 30 min.
  await q('UPDATE opcao_rastreamento SET padrao = false WHERE empresa_id = $1', [A]);
  await q(`INSERT INTO opcao_rastreamento (empresa_id, descricao, padrao, tempo_sem_comunicacao, intervalo_atualizacao, exibir_rastro, tamanho_rastro, agrupar_marcadores, seguir_veiculo, created_at, updated_at)
    VALUES ($1, 'Padrão relatório', true, 30, 10, true, 10, true, false, now(), now())`, [A]);
  for (const [emp, at, serial, ult] of [[A, a1, 'com-a1', '2026-11-21T08:00:00-03:00'], [A, a2, 'com-a2', '2026-11-01T08:00:00-03:00'], [B, b1, 'com-b1', '2026-11-20T09:00:00-03:00']] as const) {
    await q(`INSERT INTO telemetria.ultimo_estado (serial, empresa_id, ativo_id, modelo, ultima_comunicacao) VALUES ($1, $2, $3, 'GV350', $4)
      ON CONFLICT (serial) DO UPDATE SET empresa_id = excluded.empresa_id, ativo_id = excluded.ativo_id, ultima_comunicacao = excluded.ultima_comunicacao`, [serial, emp, at.id, ult]);
  }
  for (const h of ['08:00', '08:05', '10:00', '12:00']) await posicao(A, a1.id, 'com-a1', `2026-11-20T${h}:00-03:00`);
  await posicao(B, b1.id, 'com-b1', '2026-11-20T09:00:00-03:00');

  // audit (March): two changes of company A in the period, one outside, one of company B; commands
  const hist = (emp: number, data: string, login: string, entidade: string, id: number, op: string, alt: object) =>
    q(`INSERT INTO historico_alteracao (data, login, empresa_id, entidade, registro_id, operacao, alteracoes) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [data, login, emp, entidade, id, op, JSON.stringify(alt)]);
  await hist(A, '2026-03-10T09:00:00-03:00', 'joao', 'ativo', a1.id, 'update', { placa: { antes: 'AAA1A11', depois: 'BBB2B22' }, cor: { antes: null, depois: 'Azul' } });
  await hist(A, '2026-03-11T15:00:00-03:00', 'maria', 'motorista', m1.id, 'create', { nome: { antes: null, depois: m1.nome } });
  await hist(A, '2026-03-20T15:00:00-03:00', 'maria', 'motorista', m1.id, 'delete', {});
  await hist(B, '2026-03-10T10:00:00-03:00', 'outro', 'ativo', b1.id, 'update', { cor: { antes: null, depois: 'Verde' } });
  await q(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at) VALUES ($1, 'cmd-a1', $2, '2026-01-01T00:00:00Z', now(), now())`, [A, a1.id]);
  await q(`INSERT INTO fila_processamento (empresa_id, serial, event, status, value, resposta, created_at, enviado_em, concluido_em, updated_at) VALUES
    ($1, 'cmd-a1', 'engineBlock', 'concluido', '{}', 'OK', '2026-03-10T10:00:00-03:00', '2026-03-10T10:00:30-03:00', '2026-03-10T10:01:00-03:00', now()),
    ($1, 'cmd-x9', 'reboot', 'cancelado', '{"reset": false}', NULL, '2026-03-11T10:00:00-03:00', NULL, NULL, now()),
    ($2, 'cmd-b1', 'reboot', 'concluido', '{}', 'OK B', '2026-03-10T10:00:00-03:00', NULL, NULL, now())`, [A, B]);

  ({ userA, userB, semChave } = await reportUsers(ts, { prefix: 'fam', empresas: [A, B], keys: ['rel.rel.relatorios', ...['evento', 'movimento', 'comunicacao', 'analise'].map((f) => `rel.rel.relatorios.${f}`)], semKeys: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem'] }));
});

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('keys', () => {
  it('the index lists the families of the caller’s keys; without a family’s key its kinds are 403', async () => {
    const fams = (await json(await userA.get('/api/relatorios'))).payload;
    expect(fams.map((f: any) => [f.key, f.tipos.map((t: any) => t.key)])).toEqual([
      ['evento', ['detalhado', 'resumido_tipo', 'resumido_ativo', 'resumido_motorista']],
      ['movimento', ['detalhado', 'resumido_cerca', 'resumido_ativo', 'partida_chegada']],
      ['comunicacao', ['ultima_comunicacao', 'sem_comunicacao']],
      ['analise', ['alteracoes', 'comandos']],
    ]);
    expect((await json(await semChave.get('/api/relatorios'))).payload.map((f: any) => f.key)).toEqual(['viagem']);
    for (const [fam, tipo, p] of [['evento', 'detalhado', MARCO], ['movimento', 'resumido_cerca', MARCO], ['comunicacao', 'sem_comunicacao', NOV], ['analise', 'alteracoes', MARCO]] as const) {
      const r = await get(semChave, fam, tipo, { periodo: p });
      expect(r.status, `${fam}/${tipo}`).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
  });
});

describe('evento', () => {
  it('detalhado: one row per event with the event library’s description (else the event’s, else its key)', async () => {
    const r = await rows(userA, 'evento', 'detalhado', { periodo: MARCO }, cols(['data', 'ativo', 'motorista', 'eventoNome', 'tipo']));
    expect(r).toEqual([
      { data: '2026-03-10T10:00:00.000Z', ativo: a1.descricao, motorista: null, eventoNome: 'Entrada em cerca eletrônica', tipo: 'geofenceEnter' },
      { data: '2026-03-10T11:00:00.000Z', ativo: a1.descricao, motorista: m1.nome, eventoNome: 'Saída de cerca eletrônica', tipo: 'geofenceExit' },
      { data: '2026-03-10T12:00:00.000Z', ativo: a1.descricao, motorista: m1.nome, eventoNome: 'Entrada em cerca eletrônica', tipo: 'geofenceEnter' },
      { data: '2026-03-11T13:00:00.000Z', ativo: a2.descricao, motorista: m1.nome, eventoNome: 'Entrada em cerca eletrônica', tipo: 'geofenceEnter' },
      { data: '2026-03-11T14:00:00.000Z', ativo: a2.descricao, motorista: null, eventoNome: 'eventoXyz', tipo: 'eventoXyz' },
    ]);
    expect((await rows(userA, 'evento', 'detalhado', { periodo: MARCO, motoristas: [m1.id] })).map((x) => x.eventoNome)).toHaveLength(3);
  });

  it('resumido: counts by type, by asset, by driver', async () => {
    expect(await rows(userA, 'evento', 'resumido_tipo', { periodo: MARCO }, cols(['eventoNome', 'tipo', 'eventos', 'ativos', 'dataInicial', 'dataFinal']))).toEqual([
      { eventoNome: 'Entrada em cerca eletrônica', tipo: 'geofenceEnter', eventos: 3, ativos: 2, dataInicial: '2026-03-10', dataFinal: '2026-03-11' },
      { eventoNome: 'eventoXyz', tipo: 'eventoXyz', eventos: 1, ativos: 1, dataInicial: '2026-03-11', dataFinal: '2026-03-11' },
      { eventoNome: 'Saída de cerca eletrônica', tipo: 'geofenceExit', eventos: 1, ativos: 1, dataInicial: '2026-03-10', dataFinal: '2026-03-10' },
    ]);
    const porAtivo = await rows(userA, 'evento', 'resumido_ativo', { periodo: MARCO }, cols(['ativo', 'tipo', 'eventos']));
    const esperado = byName(a1, a2).flatMap((a) => (a.id === a1.id
      ? [{ ativo: a.descricao, tipo: 'geofenceEnter', eventos: 2 }, { ativo: a.descricao, tipo: 'geofenceExit', eventos: 1 }]
      : [{ ativo: a.descricao, tipo: 'eventoXyz', eventos: 1 }, { ativo: a.descricao, tipo: 'geofenceEnter', eventos: 1 }]));
    expect(porAtivo).toEqual(esperado);
    expect(await rows(userA, 'evento', 'resumido_motorista', { periodo: MARCO }, cols(['motorista', 'tipo', 'eventos', 'ativos']))).toEqual([
      { motorista: m1.nome, tipo: 'geofenceEnter', eventos: 2, ativos: 2 },
      { motorista: m1.nome, tipo: 'geofenceExit', eventos: 1, ativos: 1 },
    ]);
  });

  it('the other company sees its event only, even naming this company’s assets', async () => {
    expect((await rows(userB, 'evento', 'detalhado', { periodo: MARCO })).map((x) => x.ativo)).toEqual([b1.descricao]);
    expect(await rows(userB, 'evento', 'detalhado', { periodo: MARCO, ativos: [a1.id] })).toEqual([]);
    expect((await rows(userB, 'evento', 'resumido_tipo', { periodo: MARCO }, cols(['tipo', 'eventos'])))).toEqual([{ tipo: 'geofenceEnter', eventos: 1 }]);
    expect(await rows(userB, 'evento', 'resumido_motorista', { periodo: MARCO })).toEqual([]);
  });
});

describe('movimento', () => {
  it('detalhado: each stay overlapping the period, entry and exit in local time, time inside', async () => {
    const r = await rows(userA, 'movimento', 'detalhado', { periodo: MARCO }, cols(['cercaNome', 'ativo', 'motorista', 'dataChegada', 'horaChegada', 'dataSaida', 'horaSaida', 'tempoLocal']));
    const aberta = r.pop()!;
    expect(r).toEqual([
      { cercaNome: 'Cerca Pátio', ativo: a2.descricao, motorista: null, dataChegada: '2026-03-09', horaChegada: '22:00:00', dataSaida: '2026-03-10', horaSaida: '02:00:00', tempoLocal: 14400 },
      { cercaNome: 'Cerca Pátio', ativo: a1.descricao, motorista: null, dataChegada: '2026-03-10', horaChegada: '07:00:00', dataSaida: '2026-03-10', horaSaida: '08:00:00', tempoLocal: 3600 },
      { cercaNome: 'Cerca Cliente', ativo: a1.descricao, motorista: m1.nome, dataChegada: '2026-03-10', horaChegada: '09:00:00', dataSaida: '2026-03-10', horaSaida: '10:30:00', tempoLocal: 5400 },
    ]);
    // still inside: no exit, the time up to now
    expect(aberta).toMatchObject({ cercaNome: 'Cerca Pátio', ativo: a1.descricao, dataChegada: '2026-03-11', horaChegada: '20:00:00', dataSaida: null, horaSaida: null });
    expect(Math.abs(aberta.tempoLocal - (Date.now() - Date.parse('2026-03-11T20:00:00-03:00')) / 1000)).toBeLessThan(120);
  });

  it('resumido: entries and exits in the period, time inside clipped to it — by fence and by asset', async () => {
    expect(await rows(userA, 'movimento', 'resumido_cerca', { periodo: MARCO })).toEqual([
      { cercaNome: 'Cerca Cliente', qtdeEntradas: 1, qtdeSaidas: 1, ativos: 1, tempoLocal: 5400 },
      // a1 07:00–08:00 (3600) + a1 20:00–23:59:59.999 (14400) + a2 00:00–02:00 (7200)
      { cercaNome: 'Cerca Pátio', qtdeEntradas: 2, qtdeSaidas: 2, ativos: 2, tempoLocal: 25200 },
    ]);
    expect(await rows(userA, 'movimento', 'resumido_cerca', { periodo: MARCO, ativos: [a2.id] })).toEqual([
      { cercaNome: 'Cerca Pátio', qtdeEntradas: 0, qtdeSaidas: 1, ativos: 1, tempoLocal: 7200 },
    ]);
    const porAtivo = await rows(userA, 'movimento', 'resumido_ativo', { periodo: MARCO }, cols(['ativo', 'cercaNome', 'qtdeEntradas', 'qtdeSaidas', 'tempoLocal']));
    expect(porAtivo).toEqual(byName(a1, a2).flatMap((a) => (a.id === a1.id
      ? [{ ativo: a.descricao, cercaNome: 'Cerca Cliente', qtdeEntradas: 1, qtdeSaidas: 1, tempoLocal: 5400 }, { ativo: a.descricao, cercaNome: 'Cerca Pátio', qtdeEntradas: 2, qtdeSaidas: 1, tempoLocal: 18000 }]
      : [{ ativo: a.descricao, cercaNome: 'Cerca Pátio', qtdeEntradas: 0, qtdeSaidas: 1, tempoLocal: 7200 }])));
  });

  it('partida e chegada: the fence each trip left from and arrived in', async () => {
    expect(await rows(userA, 'movimento', 'partida_chegada', { periodo: MARCO }, cols(['ativo', 'horaSaida', 'cercaSaida', 'horaChegada', 'cercaChegada', 'distancia']))).toEqual([
      { ativo: a1.descricao, horaSaida: '08:00:00', cercaSaida: 'Cerca Pátio', horaChegada: '09:00:00', cercaChegada: 'Cerca Cliente', distancia: 42 },
    ]);
  });

  it('the other company sees its own fence and trip only', async () => {
    expect(await rows(userB, 'movimento', 'resumido_cerca', { periodo: MARCO })).toEqual([{ cercaNome: 'Cerca B', qtdeEntradas: 1, qtdeSaidas: 1, ativos: 1, tempoLocal: 3600 }]);
    expect((await rows(userB, 'movimento', 'detalhado', { periodo: MARCO })).map((x) => x.cercaNome)).toEqual(['Cerca B']);
    expect((await rows(userB, 'movimento', 'partida_chegada', { periodo: MARCO })).map((x) => [x.ativo, x.cercaSaida])).toEqual([[b1.descricao, null]]);
    expect(await rows(userB, 'movimento', 'resumido_ativo', { periodo: MARCO, ativos: [a1.id, a2.id] })).toEqual([]);
  });
});

describe('comunicacao', () => {
  it('última comunicação: the last position of the period, the last ever, hours without communication', async () => {
    const r = await rows(userA, 'comunicacao', 'ultima_comunicacao', { periodo: NOV, ativos: [a1.id, a2.id] }, cols(['ativo', 'serial', 'data', 'dataFinal', 'horasFora', 'modeloConfiguracao']));
    expect(r).toEqual([
      { ativo: a2.descricao, serial: 'com-a2', data: null, dataFinal: '2026-11-01T11:00:00.000Z', horasFora: 24, modeloConfiguracao: 'GV350' },
      { ativo: a1.descricao, serial: 'com-a1', data: '2026-11-20T15:00:00.000Z', dataFinal: '2026-11-21T11:00:00.000Z', horasFora: 12, modeloConfiguracao: 'GV350' },
    ]);
  });

  it('sem comunicação: gaps longer than the default tracking option’s 30 min, start and end of the period included', async () => {
    const r = await rows(userA, 'comunicacao', 'sem_comunicacao', { periodo: NOV, ativos: [a1.id, a2.id] }, cols(['serial', 'dataInicial', 'horaInicial', 'horaFinal', 'duracao']) + `&sort=${enc(['duracao', 'DESC'])}`);
    expect(r).toEqual([
      { serial: 'com-a2', dataInicial: '2026-11-20', horaInicial: '00:00:00', horaFinal: '23:59:59', duracao: 86399 },
      { serial: 'com-a1', dataInicial: '2026-11-20', horaInicial: '12:00:00', horaFinal: '23:59:59', duracao: 43199 },
      { serial: 'com-a1', dataInicial: '2026-11-20', horaInicial: '00:00:00', horaFinal: '08:00:00', duracao: 28800 },
      { serial: 'com-a1', dataInicial: '2026-11-20', horaInicial: '10:00:00', horaFinal: '12:00:00', duracao: 7200 },
      { serial: 'com-a1', dataInicial: '2026-11-20', horaInicial: '08:05:00', horaFinal: '10:00:00', duracao: 6900 },
    ]);
  });

  it('the other company sees its device only', async () => {
    expect((await rows(userB, 'comunicacao', 'ultima_comunicacao', { periodo: NOV })).map((x) => x.serial)).toEqual(['com-b1']);
    expect((await rows(userB, 'comunicacao', 'sem_comunicacao', { periodo: NOV })).every((x) => x.serial === 'com-b1')).toBe(true);
    expect(await rows(userB, 'comunicacao', 'sem_comunicacao', { periodo: NOV, ativos: [a1.id] })).toEqual([]);
  });
});

describe('analise', () => {
  it('alterações: the company’s changes of the period, newest first, with the fields changed', async () => {
    expect(await rows(userA, 'analise', 'alteracoes', { periodo: MARCO }, cols(['usuario', 'operacao', 'tabela', 'valor', 'parametro']))).toEqual([
      { usuario: 'maria', operacao: 'Inclusão', tabela: 'motorista', valor: m1.id, parametro: 'nome' },
      { usuario: 'joao', operacao: 'Alteração', tabela: 'ativo', valor: a1.id, parametro: 'cor, placa' },
    ]);
    expect((await rows(userB, 'analise', 'alteracoes', { periodo: MARCO })).map((x) => x.usuario)).toEqual(['outro']);
  });

  it('comandos: command, state, answer, delay and the vehicle at that moment', async () => {
    expect(await rows(userA, 'analise', 'comandos', { periodo: MARCO }, cols(['ativo', 'serial', 'tipo', 'condicao', 'vlrRetorno', 'atraso', 'dataFinal']))).toEqual([
      { ativo: null, serial: 'cmd-x9', tipo: 'Reiniciar/Reset', condicao: 'Cancelado', vlrRetorno: null, atraso: null, dataFinal: null },
      { ativo: a1.descricao, serial: 'cmd-a1', tipo: 'Bloquear motor', condicao: 'Concluído', vlrRetorno: 'OK', atraso: 30, dataFinal: '2026-03-10T13:01:00.000Z' },
    ]);
    expect((await rows(userA, 'analise', 'comandos', { periodo: MARCO, ativos: [a1.id] })).map((x) => x.serial)).toEqual(['cmd-a1']);
    expect((await rows(userB, 'analise', 'comandos', { periodo: MARCO })).map((x) => x.vlrRetorno)).toEqual(['OK B']);
    expect(await rows(userB, 'analise', 'comandos', { periodo: MARCO, ativos: [a1.id] })).toEqual([]);
  });
});
