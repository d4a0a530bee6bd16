// Report families cadastro, pontuacao_de_eventos, rag and gestao_de_risco over real HTTP: registers dated by
// construction, daily totals (telemetria.total_diario, as modules/totais keeps them) and trips (telemetria.viagem, as
// the trip detector stores them) inserted in this test's database with known values; the other company's rows never
// appear; a user without a family's key gets 403.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { cols, enc, get, reportUsers, rows } from './users.kit.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
type Ativo = { id: number; descricao: string; placa: string };
let a1: Ativo, a2: Ativo, b1: Ativo;
let m1: { id: number; nome: string }, m2: { id: number; nome: string }, mb: { id: number; nome: string };
let g1: number, gb: number;
let userA: Api, userB: Api, semChave: Api;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const MARCO = { inicio: '2026-03-10T00:00:00-03:00', fim: '2026-03-11T23:59:59.999-03:00' };
const MES = { inicio: '2026-03-01T00:00:00-03:00', fim: '2026-03-31T23:59:59.999-03:00' };

async function total(empresa: number, ativo: number, data: string, motorista: number, distancia: number, eventos: Record<string, number>, pontuacao: number) {
  const qtd = Object.values(eventos).reduce((s, n) => s + n, 0);
  await q(`INSERT INTO telemetria.total_diario (ativo_id, data, motorista_id, empresa_id, posicoes, distancia, tempo_conducao, tempo_parado,
      tempo_marcha_lenta, tempo_estacionado, viagens, velocidade_maxima, eventos, qtd_eventos, pontuacao)
    VALUES ($1, $2, $3, $4, 10, $5, 3600, 0, 0, 0, 1, 80, $6, $7, $8)`, [ativo, data, motorista, empresa, distancia, JSON.stringify(eventos), qtd, pontuacao]);
}
async function viagem(empresa: number, ativo: number, motorista: number, inicio: string, fim: string) {
  const dur = Math.round((Date.parse(fim) - Date.parse(inicio)) / 1000);
  await q(`INSERT INTO telemetria.viagem (serial, inicio, fim, empresa_id, ativo_id, motorista_id, lat_inicio, lon_inicio, lat_fim, lon_fim, distancia, duracao, velocidade_maxima, velocidade_media, tempo_ocioso)
    VALUES ($1, $2, $3, $4, $5, $6, -23.5, -46.6, -23.6, -46.7, 10000, $7, 80, 40, 0)`, [`rk-${ativo}`, inicio, fim, empresa, ativo, motorista, dur]);
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [a1, a2] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [b1] = await q('SELECT id, descricao, placa FROM ativo WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  [m1, m2] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [mb] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  g1 = (await q(`INSERT INTO garagem (empresa_id, nome, descricao, created_at, updated_at) VALUES ($1, 'Garagem Relatório', 'Teste', '2026-01-01T12:00:00Z', '2026-01-01T12:00:00Z') RETURNING id`, [A]))[0].id;
  gb = (await q(`INSERT INTO garagem (empresa_id, nome, descricao, created_at, updated_at) VALUES ($1, 'Garagem B', 'Teste', '2026-01-01T12:00:00Z', '2026-01-01T12:00:00Z') RETURNING id`, [B]))[0].id;

  // registers as they stood in March: a1 created in January, changed in March; a2 created and left in January;
  // m1 created in March with a badge; m2 created in January; b1 (company B) created in January
  await q(`UPDATE ativo SET created_at = '2026-01-01T12:00:00Z', updated_at = '2026-03-15T12:00:00Z', id_garagem = $2, odometro = 1234.56 WHERE id = $1`, [a1.id, g1]);
  await q(`UPDATE ativo SET created_at = '2026-01-01T12:00:00Z', updated_at = '2026-01-02T12:00:00Z', id_garagem = NULL WHERE id = $1`, [a2.id]);
  await q(`UPDATE ativo SET created_at = '2026-01-01T12:00:00Z', updated_at = '2026-01-02T12:00:00Z', id_garagem = $2 WHERE id = $1`, [b1.id, gb]);
  await q(`UPDATE motorista SET created_at = '2026-03-05T12:00:00Z', updated_at = '2026-03-05T12:00:00Z', id_garagem = $2, matricula = 'M-1', badges = '["ABC123","DEF456"]' WHERE id = $1`, [m1.id, g1]);
  await q(`UPDATE motorista SET created_at = '2026-01-01T12:00:00Z', updated_at = '2026-01-01T12:00:00Z', id_garagem = NULL, matricula = 'M-2', badges = '[]' WHERE id = $1`, [m2.id]);
  await q(`UPDATE motorista SET created_at = '2026-01-01T12:00:00Z', updated_at = '2026-01-01T12:00:00Z', id_garagem = $2 WHERE id = $1`, [mb.id, gb]);
  await q(`INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at) VALUES ($1, 'cad-a1', $2, '2026-01-01T00:00:00Z', now(), now())`, [A, a1.id]);

  // scoring weights and RAG patterns of company A
  await q('DELETE FROM pontuacao_de_eventos WHERE empresa_id = $1', [A]);
  await q(`INSERT INTO pontuacao_de_eventos (empresa_id, evento, descricao, pontos, ativo, created_at, updated_at) VALUES
    ($1, 'harshBraking', 'Frenagem brusca', 10, true, now(), now()), ($1, 'overspeed', '', 5, true, now(), now()), ($1, 'harshTurn', 'Curva brusca', 3, true, now(), now())`, [A]);
  await q('DELETE FROM pontuacao_rag WHERE empresa_id IN ($1, $2)', [A, B]);
  await q(`INSERT INTO pontuacao_rag (empresa_id, descricao, verde_ate, ambar_ate, padrao, created_at, updated_at) VALUES
    ($1, 'Padrão A', 10, 20, true, now(), now()), ($1, 'Rigoroso', 0, 5, false, now(), now()), ($2, 'Padrão B', 1000, 2000, true, now(), now())`, [A, B]);

  // daily totals: m1 scores 20 (a1) + 5 (a2) on the 10th, m2 0 on the 11th, m1 40 on the 8th (the previous period);
  // a day without a driver; company B's driver 99
  await total(A, a1.id, '2026-03-10', m1.id, 50000, { harshBraking: 2 }, 20);
  await total(A, a2.id, '2026-03-10', m1.id, 10000, { overspeed: 1 }, 5);
  await total(A, a1.id, '2026-03-11', m2.id, 30000, {}, 0);
  await total(A, a1.id, '2026-03-11', 0, 7000, { harshBraking: 1 }, 10);
  await total(A, a1.id, '2026-03-08', m1.id, 20000, { harshBraking: 4 }, 40);
  await total(B, b1.id, '2026-03-10', mb.id, 99000, { harshBraking: 9 }, 99);

  // risk: 22h–5h counts double; m1 drove 21:30–23:15 on the 10th (0.5 h ×1, 1 h ×2, 0.25 h ×2); B's driver too
  await q('DELETE FROM analise_de_risco WHERE empresa_id = $1', [A]);
  await q(`INSERT INTO analise_de_risco (empresa_id, descricao, hora_inicio, hora_fim, fator_risco, ativo, created_at, updated_at) VALUES
    ($1, 'Noite', 22, 5, 2, true, now(), now()), ($1, 'Inativa', 0, 24, 9, false, now(), now())`, [A]);
  await viagem(A, a1.id, m1.id, '2026-03-10T21:30:00-03:00', '2026-03-10T23:15:00-03:00');
  await viagem(B, b1.id, mb.id, '2026-03-10T21:00:00-03:00', '2026-03-10T22:00:00-03:00');

  // camera alarms (modules/video: attributes.origem cmsv6; the risk is the vdo library's entry of the code): m1's trip
  // on a1 holds 21:45 alto (×1), 22:10 alto (×2), 22:20 baixo (×2), 23:00 médio (×2); 22:50 names m2 itself (baixo ×2);
  // a2 on the 11th, no trip (médio ×1); a tracker event and an unknown code are not counted; B's alarm in mb's trip
  const cam = (emp: number, at: number, quando: string, code: number, key: string, motorista: number | null = null, origem = 'cmsv6') =>
    q(`INSERT INTO telemetria.evento (serial, fix_time, code, key, description, empresa_id, ativo_id, motorista_id, lat, lon, attributes) VALUES ($1, $2, $3, $4, '', $5, $6, $7, -23.5, -46.6, $8)`,
      [`cam-${at}`, quando, String(code), key, emp, at, motorista, JSON.stringify({ origem })]);
  await cam(A, a1.id, '2026-03-10T21:45:00-03:00', 619, 'fatigue_l2');
  await cam(A, a1.id, '2026-03-10T22:10:00-03:00', 603, 'lane_change_l2');
  await cam(A, a1.id, '2026-03-10T22:20:00-03:00', 620, 'phone_call_l1');
  await cam(A, a1.id, '2026-03-10T23:00:00-03:00', 711, 'no_seatbelt_l2');
  await cam(A, a1.id, '2026-03-10T22:50:00-03:00', 622, 'smoking_l1', m2.id);
  await cam(A, a2.id, '2026-03-11T09:00:00-03:00', 601, 'frontal_collision_l2');
  await cam(A, a1.id, '2026-03-10T22:30:00-03:00', 619, 'fatigue_l2', null, 'queclink');
  await cam(A, a1.id, '2026-03-10T22:40:00-03:00', 650, 'camera_alarme_650');
  await cam(B, b1.id, '2026-03-10T21:30:00-03:00', 619, 'fatigue_l2');

  ({ userA, userB, semChave } = await reportUsers(ts, { prefix: 'famm', empresas: [A, B], keys: ['rel.rel.relatorios', ...['cadastro', 'pontuacao_de_eventos', 'rag', 'gestao_de_risco'].map((f) => `rel.rel.relatorios.${f}`)], semKeys: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem'] }));
});

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('keys', () => {
  it('the index lists the new families of the caller’s keys; without a family’s key its kinds are 403', async () => {
    const fams = (await json(await userA.get('/api/relatorios'))).payload;
    expect(fams.map((f: any) => [f.key, f.tipos.map((t: any) => t.key)])).toEqual([
      ['pontuacao_de_eventos', ['diario', 'detalhado', 'mensal', 'resumido_motorista', 'resumido_padrao', 'tendencia', 'erro_conducao', 'ranking_motorista', 'diario_por_garagem']],
      ['rag', ['motorista', 'diario']],
      ['gestao_de_risco', ['detalhado_por_hora', 'diario_por_garagem', 'alarmes_de_camera']],
      ['cadastro', ['ativo', 'motorista', 'garagem', 'cerca', 'equipamento']],
    ]);
    for (const [fam, tipo] of [['cadastro', 'ativo'], ['pontuacao_de_eventos', 'diario'], ['rag', 'motorista'], ['gestao_de_risco', 'detalhado_por_hora']] as const) {
      const r = await get(semChave, fam, tipo, { periodo: MARCO });
      expect(r.status, `${fam}/${tipo}`).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
  });
});

describe('cadastro', () => {
  it('ativo: the assets registered by the period’s end, their garage, linked device and what changed in the period', async () => {
    expect(await rows(userA, 'cadastro', 'ativo', { periodo: MES }, cols(['ativo', 'placa', 'garagemAtivo', 'serial', 'hodometroFinal', 'data', 'condicao']))).toEqual([
      { ativo: a1.descricao, placa: a1.placa, garagemAtivo: 'Garagem Relatório', serial: 'cad-a1', hodometroFinal: 1234.6, data: '2026-01-01', condicao: 'Alterado no período' },
      { ativo: a2.descricao, placa: a2.placa, garagemAtivo: null, serial: null, hodometroFinal: expect.anything(), data: '2026-01-01', condicao: 'Sem alteração' },
    ].sort((x, y) => x.ativo.localeCompare(y.ativo)));
    // only the chosen garage
    expect((await rows(userA, 'cadastro', 'ativo', { periodo: MES, garagens: [g1] }, cols(['ativo']))).map((r) => r.ativo)).toEqual([a1.descricao]);
  });

  it('motorista and garagem: badges, registration number, counts of the garage', async () => {
    expect(await rows(userA, 'cadastro', 'motorista', { periodo: MES }, cols(['motorista', 'matricula', 'tagMotorista', 'garagemMotorista', 'condicao']))).toEqual([
      { motorista: m1.nome, matricula: 'M-1', tagMotorista: 'ABC123, DEF456', garagemMotorista: 'Garagem Relatório', condicao: 'Novo no período' },
      { motorista: m2.nome, matricula: 'M-2', tagMotorista: null, garagemMotorista: null, condicao: 'Sem alteração' },
    ].sort((x, y) => x.motorista.localeCompare(y.motorista)));
    expect(await rows(userA, 'cadastro', 'garagem', { periodo: MES })).toEqual([
      { garagemNome: 'Garagem Relatório', descricao: 'Teste', ativos: 1, quantidade: 1, condicao: 'Sem alteração' },
    ]);
  });

  it('the other company sees its own registers only', async () => {
    expect((await rows(userB, 'cadastro', 'ativo', { periodo: MES, ativos: [a1.id, b1.id] }, cols(['ativo']))).map((r) => r.ativo)).toEqual([b1.descricao]);
    expect(await rows(userB, 'cadastro', 'garagem', { periodo: MES, garagens: [g1, gb] }, cols(['garagemNome', 'ativos']))).toEqual([{ garagemNome: 'Garagem B', ativos: 1 }]);
  });
});

describe('pontuacao_de_eventos', () => {
  it('diario, detalhado, resumido: points of the daily totals with the RAG class of the padrão pattern', async () => {
    expect(await rows(userA, 'pontuacao_de_eventos', 'diario', { periodo: MARCO }, cols(['data', 'motorista', 'distancia', 'eventos', 'pontuacao', 'condicao']))).toEqual([
      { data: '2026-03-10', motorista: m1.nome, distancia: 60, eventos: 3, pontuacao: 25, condicao: 'Vermelho' },
      { data: '2026-03-11', motorista: m2.nome, distancia: 30, eventos: 0, pontuacao: 0, condicao: 'Verde' },
    ]);
    expect(await rows(userA, 'pontuacao_de_eventos', 'detalhado', { periodo: MARCO }, cols(['data', 'motorista', 'ativo', 'pontuacao', 'condicao']) + `&sort=${enc(['pontuacao', 'DESC'])}`)).toEqual([
      { data: '2026-03-10', motorista: m1.nome, ativo: a1.descricao, pontuacao: 20, condicao: 'Âmbar' },
      { data: '2026-03-10', motorista: m1.nome, ativo: a2.descricao, pontuacao: 5, condicao: 'Verde' },
      { data: '2026-03-11', motorista: m2.nome, ativo: a1.descricao, pontuacao: 0, condicao: 'Verde' },
    ]);
    expect(await rows(userA, 'pontuacao_de_eventos', 'mensal', { periodo: MES, motoristas: [m1.id] }, cols(['data', 'totalDias', 'eventos', 'pontuacao', 'condicao']))).toEqual([
      { data: '2026-03', totalDias: 2, eventos: 7, pontuacao: 65, condicao: 'Vermelho' },
    ]);
    expect(await rows(userA, 'pontuacao_de_eventos', 'resumido_motorista', { periodo: MARCO, garagens: [g1] }, cols(['motorista', 'garagemMotorista', 'distancia', 'pontuacao', 'condicao']))).toEqual([
      { motorista: m1.nome, garagemMotorista: 'Garagem Relatório', distancia: 60, pontuacao: 25, condicao: 'Vermelho' },
    ]);
  });

  it('padrão, tendência, erro de condução, ranking, diário por garagem', async () => {
    expect(await rows(userA, 'pontuacao_de_eventos', 'resumido_padrao', { periodo: MARCO }, cols(['descricao', 'condicao', 'quantidade', 'pontuacao']))).toEqual([
      { descricao: 'Padrão A', condicao: 'Verde', quantidade: 1, pontuacao: 0 },
      { descricao: 'Padrão A', condicao: 'Âmbar', quantidade: 0, pontuacao: 0 },
      { descricao: 'Padrão A', condicao: 'Vermelho', quantidade: 1, pontuacao: 25 },
      { descricao: 'Rigoroso', condicao: 'Verde', quantidade: 1, pontuacao: 0 },
      { descricao: 'Rigoroso', condicao: 'Âmbar', quantidade: 0, pontuacao: 0 },
      { descricao: 'Rigoroso', condicao: 'Vermelho', quantidade: 1, pontuacao: 25 },
    ]);
    expect(await rows(userA, 'pontuacao_de_eventos', 'tendencia', { periodo: MARCO }, cols(['motorista', 'pontuacao', 'valor', 'diferencaPercentual', 'tipoDiferenca']))).toEqual([
      { motorista: m1.nome, pontuacao: 25, valor: 40, diferencaPercentual: -37.5, tipoDiferenca: 'Melhorou' },
      { motorista: m2.nome, pontuacao: 0, valor: 0, diferencaPercentual: null, tipoDiferenca: 'Estável' },
    ].sort((x, y) => x.motorista.localeCompare(y.motorista)));
    expect(await rows(userA, 'pontuacao_de_eventos', 'erro_conducao', { periodo: MARCO })).toEqual([
      { eventoNome: 'Frenagem brusca', eventos: 2, quantidade: 1, valor: 10, pontuacao: 20 },
      { eventoNome: 'overspeed', eventos: 1, quantidade: 1, valor: 5, pontuacao: 5 },
    ]);
    expect(await rows(userA, 'pontuacao_de_eventos', 'ranking_motorista', { periodo: MARCO }, cols(['ranking', 'motorista', 'pontuacao']))).toEqual([
      { ranking: 1, motorista: m2.nome, pontuacao: 0 },
      { ranking: 2, motorista: m1.nome, pontuacao: 25 },
    ]);
    expect(await rows(userA, 'pontuacao_de_eventos', 'diario_por_garagem', { periodo: MARCO })).toEqual([
      { data: '2026-03-10', garagemMotorista: 'Garagem Relatório', quantidade: 1, distancia: 60, eventos: 3, pontuacao: 25 },
    ]);
  });

  it('the other company sees its own driver only', async () => {
    expect(await rows(userB, 'pontuacao_de_eventos', 'resumido_motorista', { periodo: MARCO, motoristas: [m1.id, mb.id] }, cols(['motorista', 'pontuacao', 'condicao']))).toEqual([
      { motorista: mb.nome, pontuacao: 99, condicao: 'Verde' },
    ]);
    expect((await rows(userB, 'pontuacao_de_eventos', 'erro_conducao', { periodo: MARCO }))).toEqual([]);
  });
});

describe('rag', () => {
  it('by driver in every pattern, and the drivers per band and day', async () => {
    expect(await rows(userA, 'rag', 'motorista', { periodo: MARCO }, cols(['motorista', 'descricao', 'pontuacao', 'condicao']) + `&sort=${enc(['pontuacao', 'DESC'])}`)).toEqual([
      { motorista: m1.nome, descricao: 'Padrão A', pontuacao: 25, condicao: 'Vermelho' },
      { motorista: m1.nome, descricao: 'Rigoroso', pontuacao: 25, condicao: 'Vermelho' },
      { motorista: m2.nome, descricao: 'Padrão A', pontuacao: 0, condicao: 'Verde' },
      { motorista: m2.nome, descricao: 'Rigoroso', pontuacao: 0, condicao: 'Verde' },
    ]);
    expect(await rows(userA, 'rag', 'diario', { periodo: MARCO })).toEqual([
      { data: '2026-03-10', condicao: 'Vermelho', quantidade: 1, eventos: 3, pontuacao: 25 },
      { data: '2026-03-11', condicao: 'Verde', quantidade: 1, eventos: 0, pontuacao: 0 },
    ]);
    expect(await rows(userB, 'rag', 'motorista', { periodo: MARCO }, cols(['motorista', 'descricao', 'condicao']))).toEqual([
      { motorista: mb.nome, descricao: 'Padrão B', condicao: 'Verde' },
    ]);
  });
});

describe('gestao_de_risco', () => {
  it('detalhado por hora: the hours driven in each local hour with its risk factor', async () => {
    expect(await rows(userA, 'gestao_de_risco', 'detalhado_por_hora', { periodo: MARCO })).toEqual([
      { data: '2026-03-10', horaInicial: '21:00:00', motorista: m1.nome, garagemMotorista: 'Garagem Relatório', totalHoras: 0.5, risco: 1 },
      { data: '2026-03-10', horaInicial: '22:00:00', motorista: m1.nome, garagemMotorista: 'Garagem Relatório', totalHoras: 1, risco: 2 },
      { data: '2026-03-10', horaInicial: '23:00:00', motorista: m1.nome, garagemMotorista: 'Garagem Relatório', totalHoras: 0.25, risco: 2 },
    ]);
  });

  it('diário por garagem: hours and hours weighted by the risk; the other company sees its own', async () => {
    expect(await rows(userA, 'gestao_de_risco', 'diario_por_garagem', { periodo: MARCO })).toEqual([
      { data: '2026-03-10', garagemMotorista: 'Garagem Relatório', quantidade: 1, totalHoras: 1.75, risco: 3 },
    ]);
    expect(await rows(userB, 'gestao_de_risco', 'diario_por_garagem', { periodo: MARCO })).toEqual([
      { data: '2026-03-10', garagemMotorista: 'Garagem B', quantidade: 1, totalHoras: 1, risco: 1 },
    ]);
  });

  it('alarmes de câmera: per day, driver and level, weighted by the risk (alto 3, médio 2, baixo 1) × the hour\'s factor', async () => {
    const ord = (rs: any[]) => [...rs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const g = 'Garagem Relatório';
    expect(ord(await rows(userA, 'gestao_de_risco', 'alarmes_de_camera', { periodo: MARCO }))).toEqual(ord([
      { data: '2026-03-10', motorista: m1.nome, garagemMotorista: g, condicao: 'Alto', eventos: 2, risco: 9 },
      { data: '2026-03-10', motorista: m1.nome, garagemMotorista: g, condicao: 'Baixo', eventos: 1, risco: 2 },
      { data: '2026-03-10', motorista: m1.nome, garagemMotorista: g, condicao: 'Médio', eventos: 1, risco: 4 },
      { data: '2026-03-10', motorista: m2.nome, garagemMotorista: null, condicao: 'Baixo', eventos: 1, risco: 2 },
      { data: '2026-03-11', motorista: 'Sem motorista identificado', garagemMotorista: null, condicao: 'Médio', eventos: 1, risco: 2 },
    ]));
    expect((await rows(userA, 'gestao_de_risco', 'alarmes_de_camera', { periodo: MARCO, garagens: [g1] })).map((r) => [r.motorista, r.condicao, r.risco]).sort())
      .toEqual([[m1.nome, 'Alto', 9], [m1.nome, 'Baixo', 2], [m1.nome, 'Médio', 4]].sort());
    expect(await rows(userA, 'gestao_de_risco', 'alarmes_de_camera', { periodo: MARCO, motoristas: [m2.id] })).toEqual([
      { data: '2026-03-10', motorista: m2.nome, garagemMotorista: null, condicao: 'Baixo', eventos: 1, risco: 2 },
    ]);
    expect(await rows(userB, 'gestao_de_risco', 'alarmes_de_camera', { periodo: MARCO })).toEqual([
      { data: '2026-03-10', motorista: mb.nome, garagemMotorista: 'Garagem B', condicao: 'Alto', eventos: 1, risco: 3 },
    ]);
    expect((await get(semChave, 'gestao_de_risco', 'alarmes_de_camera', { periodo: MARCO })).status).toBe(403);
  });
});
