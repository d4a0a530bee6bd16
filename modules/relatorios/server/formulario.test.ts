// Report family formulario (catalogues.md 3.9 "Form report") over real HTTP: a form of company A created through the
// API (the hook keeps the respondents' names), answers by two drivers and a user dated by construction in March, a form
// of company B; the four kinds' numbers; company B never sees A's rows; a user without the family's key gets 403.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';
import { reportUsers } from './users.kit.ts';

let ts: TestServer;
let pool: pg.Pool;
let A: number, B: number;
let m1: { id: number; nome: string }, m2: { id: number; nome: string }, mb: { id: number; nome: string };
let userA: Api, userB: Api, semChave: Api;
let uA: number;
let fA: number, fB: number;

const q = async <T = any>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
const P = { inicio: '2026-03-10T00:00:00-03:00', fim: '2026-03-11T23:59:59.999-03:00' };
const enc = (o: unknown) => encodeURIComponent(JSON.stringify(o));
const get = (api: Api, tipo: string, params: unknown, extra = '') =>
  api.get(`/api/relatorios/formulario/${tipo}?params=${enc(params)}&fuso=America/Sao_Paulo${extra}`);
const rows = async (api: Api, tipo: string, params: unknown, extra = '') => {
  const r = await get(api, tipo, params, extra);
  expect(r.status, JSON.stringify(await r.clone().json())).toBe(200);
  return ((await r.json()) as Record<string, any>[]).map(({ id, ...x }) => x);
};
const cols = (c: string[]) => `&colunas=${enc(c)}`;

const QUESTOES = [
  { id: 'pneus', tipo: 'YES_OR_NO', pergunta: 'Pneus em bom estado?', obrigatoria: true },
  { id: 'itens', tipo: 'MULTIPLE_CHOICE', pergunta: 'Itens verificados', opcoes: ['Óleo', 'Luzes', 'Freios'], multipla: true },
  { id: 'obs', tipo: 'TEXT', pergunta: 'Observações' },
];

async function answer(api: Api, form: number, motorista: number | null, quando: string, respostas: unknown[]) {
  const r = await api.post('/api/resposta_formulario', { formulario: form, ...(motorista ? { motorista } : {}), respostas });
  const j = await json(r);
  expect(r.status, JSON.stringify(j)).toBe(201);
  await q('UPDATE resposta_formulario SET data_resposta = $2 WHERE id = $1', [j.id, quando]);
  return j;
}

beforeAll(async () => {
  ts = await startTestServer();
  pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 3 });
  [A, B] = (await q('SELECT id FROM empresa ORDER BY id LIMIT 2')).map((r) => r.id);
  [m1, m2] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 2', [A]);
  [mb] = await q('SELECT id, nome FROM motorista WHERE empresa_id = $1 ORDER BY id LIMIT 1', [B]);
  const forms = ['lista', 'visualizar', 'adicionar', 'editar'].flatMap((k) => [`rel.for.formularios.${k}`, `rel.for.formularios.respostas.${k}`]);
  ({ userA, userB, semChave } = await reportUsers(ts, {
    prefix: 'form', empresas: [A, B], keys: ['rel.rel.relatorios', 'rel.rel.relatorios.formulario', ...forms],
    semKeys: ['rel.rel.relatorios', 'rel.rel.relatorios.viagem', ...forms],
  }));
  uA = (await q(`SELECT id FROM usuario WHERE login = 'form_a'`))[0].id;

  // company A: a daily checklist of March for the user form_a and drivers m1, m2
  let r = await userA.post('/api/formulario', {
    titulo: 'Checklist março', descricao: 'Saída do pátio', dataInicio: '2026-03-01', dataFim: '2026-03-31', questoes: QUESTOES,
    frequencia: 1, unidadeDeFreq: 'dia', usuarios: [uA], motoristas: [m2.id, m1.id],
  });
  expect(r.status, JSON.stringify(await r.clone().json())).toBe(201);
  fA = (await json(r)).id;
  // m1 answered on the 10th and the 11th, m2 on the 10th only, the user on the 11th only
  await answer(userA, fA, m1.id, '2026-03-10T08:00:00-03:00', [{ questao: 'pneus', valor: true }, { questao: 'itens', valor: ['Óleo', 'Luzes'] }]);
  await answer(userA, fA, m1.id, '2026-03-11T08:00:00-03:00', [{ questao: 'pneus', valor: false }, { questao: 'itens', valor: ['Óleo'] }, { questao: 'obs', valor: 'Pneu gasto' }]);
  await answer(userA, fA, m2.id, '2026-03-10T09:00:00-03:00', [{ questao: 'pneus', valor: true }, { questao: 'itens', valor: ['Luzes'] }]);
  await answer(userA, fA, null, '2026-03-11T10:00:00-03:00', [{ questao: 'pneus', valor: true }]);
  // before the period (the 9th, 23:59 local): counts nowhere
  await answer(userA, fA, m2.id, '2026-03-09T23:59:00-03:00', [{ questao: 'pneus', valor: false }]);

  // company B: its own form and answer, same period
  r = await userB.post('/api/formulario', { titulo: 'Checklist B', dataInicio: '2026-03-01', questoes: QUESTOES, motoristas: [mb.id] });
  expect(r.status).toBe(201);
  fB = (await json(r)).id;
  await answer(userB, fB, mb.id, '2026-03-10T08:00:00-03:00', [{ questao: 'pneus', valor: false }]);
});

afterAll(async () => {
  await pool?.end();
  await ts?.stop();
});

describe('formulario', () => {
  it('the index lists the four kinds; without the family’s key each kind is 403', async () => {
    const fams = (await json(await userA.get('/api/relatorios'))).payload;
    const f = fams.find((x: any) => x.key === 'formulario');
    expect(f.tipos.map((t: any) => t.label)).toEqual(['Detalhado por formulário', 'Detalhado por resposta', 'Sem resposta', 'Resumido por resposta']);
    expect(f.route).toBe('/rel/rel/relatorios/formulario');
    for (const tipo of ['detalhado_por_formulario', 'detalhado_por_resposta', 'sem_resposta', 'resumido_por_resposta']) {
      const r = await get(semChave, tipo, { periodo: P });
      expect(r.status, tipo).toBe(403);
      expect((await json(r)).msg).toBe('Você não tem permissão para fazer isso');
    }
    expect((await json(await semChave.get('/api/relatorios'))).payload.some((x: any) => x.key === 'formulario')).toBe(false);
  });

  it('detalhado por formulário: the form, its respondents (names kept by the hook) and the period’s answers', async () => {
    const all = await rows(userA, 'detalhado_por_formulario', { periodo: P, formularios: [fA] }, cols(['titulo', 'descricao', 'frequencia', 'unidadeDeFreq', 'perguntas', 'tipoPerguntas', 'idsUsuario', 'idsMotorista', 'dataInicio', 'dataFim', 'criadoPor', 'quantidade']));
    expect(all).toEqual([{
      titulo: 'Checklist março', descricao: 'Saída do pátio', frequencia: 1, unidadeDeFreq: 'Dia(s)', perguntas: 3,
      tipoPerguntas: expect.any(String), idsUsuario: 'form_a', idsMotorista: [m1.nome, m2.nome].sort().join(', '),
      dataInicio: '2026-03-01', dataFim: '2026-03-31', criadoPor: 'form_a', quantidade: 4,
    }]);
    expect(all[0].tipoPerguntas.split(', ').sort()).toEqual(['Múltipla escolha', 'Sim ou não', 'Texto']);
    // company B sees only its form (1 answer), never A's, even when naming A's form
    expect(await rows(userB, 'detalhado_por_formulario', { periodo: P }, cols(['titulo', 'quantidade', 'idsMotorista']))).toEqual([
      { titulo: 'Checklist B', quantidade: 1, idsMotorista: mb.nome },
    ]);
    expect(await rows(userB, 'detalhado_por_formulario', { periodo: P, formularios: [fA] })).toEqual([]);
    // a period before the form's dates: no row
    expect(await rows(userA, 'detalhado_por_formulario', { periodo: { inicio: '2026-02-01T00:00:00-03:00', fim: '2026-02-28T23:59:59-03:00' }, formularios: [fA] })).toEqual([]);
  });

  it('detalhado por resposta: one row per answer of the period, the answers as text', async () => {
    const all = await rows(userA, 'detalhado_por_resposta', { periodo: P, formularios: [fA] }, cols(['dataResposta', 'titulo', 'quemRespondeu', 'respostas', 'quantidade', 'perguntas']));
    expect(all).toEqual([
      { dataResposta: '2026-03-10T11:00:00.000Z', titulo: 'Checklist março', quemRespondeu: m1.nome, respostas: 'Pneus em bom estado?: Sim | Itens verificados: Óleo, Luzes', quantidade: 2, perguntas: 3 },
      { dataResposta: '2026-03-10T12:00:00.000Z', titulo: 'Checklist março', quemRespondeu: m2.nome, respostas: 'Pneus em bom estado?: Sim | Itens verificados: Luzes', quantidade: 2, perguntas: 3 },
      { dataResposta: '2026-03-11T11:00:00.000Z', titulo: 'Checklist março', quemRespondeu: m1.nome, respostas: 'Pneus em bom estado?: Não | Itens verificados: Óleo | Observações: Pneu gasto', quantidade: 3, perguntas: 3 },
      { dataResposta: '2026-03-11T13:00:00.000Z', titulo: 'Checklist março', quemRespondeu: 'form_a', respostas: 'Pneus em bom estado?: Sim', quantidade: 1, perguntas: 3 },
    ]);
    expect((await rows(userA, 'detalhado_por_resposta', { periodo: P, motoristas: [m2.id] }, cols(['quemRespondeu']))).map((x) => x.quemRespondeu)).toEqual([m2.nome]);
    expect(await rows(userB, 'detalhado_por_resposta', { periodo: P }, cols(['titulo', 'quemRespondeu']))).toEqual([{ titulo: 'Checklist B', quemRespondeu: mb.nome }]);
  });

  it('sem resposta: each respondent’s days without an answer', async () => {
    expect(await rows(userA, 'sem_resposta', { periodo: P, formularios: [fA] }, cols(['titulo', 'quemRespondeu', 'dataInicio', 'dataFim', 'frequencia', 'unidadeDeFreq']))).toEqual([
      { titulo: 'Checklist março', quemRespondeu: 'form_a', dataInicio: '2026-03-10', dataFim: '2026-03-10', frequencia: 1, unidadeDeFreq: 'Dia(s)' },
      { titulo: 'Checklist março', quemRespondeu: m2.nome, dataInicio: '2026-03-11', dataFim: '2026-03-11', frequencia: 1, unidadeDeFreq: 'Dia(s)' },
    ]);
    // only the chosen driver (users are left out when drivers are chosen)
    expect(await rows(userA, 'sem_resposta', { periodo: P, formularios: [fA], motoristas: [m1.id] })).toEqual([]);
    // B's form has no frequency: one window, the whole period; its driver answered
    expect(await rows(userB, 'sem_resposta', { periodo: P })).toEqual([]);
    expect(await rows(userB, 'sem_resposta', { periodo: { inicio: '2026-03-12T00:00:00-03:00', fim: '2026-03-15T23:59:59-03:00' } }, cols(['titulo', 'quemRespondeu', 'dataInicio', 'dataFim']))).toEqual([
      { titulo: 'Checklist B', quemRespondeu: mb.nome, dataInicio: '2026-03-12', dataFim: '2026-03-15' },
    ]);
  });

  it('resumido por resposta: how often each answer was given and its share of the question’s answers', async () => {
    const all = await rows(userA, 'resumido_por_resposta', { periodo: P, formularios: [fA] }, cols(['perguntas', 'tipoPerguntas', 'respostas', 'quantidade', 'representacao']));
    const key = (x: any) => `${x.perguntas}|${x.respostas}`;
    expect(all.sort((x, y) => key(x).localeCompare(key(y)))).toEqual([
      { perguntas: 'Itens verificados', tipoPerguntas: 'Múltipla escolha', respostas: 'Luzes', quantidade: 2, representacao: 50 },
      { perguntas: 'Itens verificados', tipoPerguntas: 'Múltipla escolha', respostas: 'Óleo', quantidade: 2, representacao: 50 },
      { perguntas: 'Observações', tipoPerguntas: 'Texto', respostas: 'Respondida', quantidade: 1, representacao: 100 },
      { perguntas: 'Pneus em bom estado?', tipoPerguntas: 'Sim ou não', respostas: 'Não', quantidade: 1, representacao: 25 },
      { perguntas: 'Pneus em bom estado?', tipoPerguntas: 'Sim ou não', respostas: 'Sim', quantidade: 3, representacao: 75 },
    ].sort((x, y) => key(x).localeCompare(key(y))));
    expect(await rows(userB, 'resumido_por_resposta', { periodo: P }, cols(['titulo', 'respostas', 'quantidade', 'representacao']))).toEqual([
      { titulo: 'Checklist B', respostas: 'Não', quantidade: 1, representacao: 100 },
    ]);
  });

  it('the export holds the same numbers (CSV)', async () => {
    const r = await userA.get(`/api/relatorios/formulario/resumido_por_resposta/exporta?formato=csv&params=${enc({ periodo: P, formularios: [fA] })}&fuso=America/Sao_Paulo`);
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).toContain('Pneus em bom estado?');
    expect(text).toMatch(/Sim[";,]+3[";,]+75/);
  });
});
