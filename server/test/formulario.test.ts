// Formulários (widget: questionnaire) and their answers (resposta_formulario, hook) over real HTTP: question lists
// checked per type, answers checked against their questions (pt-BR), photo/signature only from the company's own
// uploads, criadoPor/usuario set by the server, other company 404, missing key 403.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestServer, type Api, type TestServer } from './harness.ts';

let ts: TestServer;
let ana: Api, beto: Api, semResposta: Api;
let anaId: number, A: number, B: number;
const FORM = ['lista', 'visualizar', 'adicionar', 'editar', 'excluir'].map((k) => `rel.for.formularios.${k}`);
const RESP = ['lista', 'visualizar', 'adicionar', 'editar', 'excluir'].map((k) => `rel.for.formularios.respostas.${k}`);

const QUESTOES = [
  { id: 'q1', tipo: 'YES_OR_NO', pergunta: 'O veículo está limpo?', obrigatoria: true },
  { id: 'q2', tipo: 'MULTIPLE_CHOICE', pergunta: 'Turno', opcoes: ['Manhã', 'Tarde', 'Noite'] },
  { id: 'q3', tipo: 'MULTIPLE_CHOICE', pergunta: 'Itens verificados', opcoes: ['Pneus', 'Óleo', 'Luzes'], multipla: true },
  { id: 'q4', tipo: 'OPINION_SCALE', pergunta: 'Nota da viagem', escalaMin: 1, escalaMax: 5, rotuloMin: 'Ruim', rotuloMax: 'Ótima' },
  { id: 'q5', tipo: 'TEXT', pergunta: 'Observações', maxCaracteres: 20 },
  { id: 'q6', tipo: 'DATE_TIME', pergunta: 'Início da inspeção' },
  { id: 'q7', tipo: 'LOCATION', pergunta: 'Onde?' },
  { id: 'q8', tipo: 'NUMBER', pergunta: 'Odômetro', min: 0, max: 999999 },
  { id: 'q9', tipo: 'PICTURE', pergunta: 'Foto do painel' },
  { id: 'q10', tipo: 'SIGNATURE', pergunta: 'Assinatura do motorista', obrigatoria: true },
];

async function uploadPng(api: Api, company: number): Promise<string> {
  const body = await sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 10, g: 10, b: 10 } } }).png().toBuffer();
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(body)], { type: 'image/png' }), 'assinatura.png');
  const res = await ts.fetch(`/api/upload/single/${company}`, { method: 'POST', headers: api.headers(), body: f });
  const j = await json(res);
  expect(res.status, JSON.stringify(j)).toBe(201);
  return j.payload.file as string;
}

beforeAll(async () => {
  ts = await startTestServer();
  const empresas = (await ts.em().getConnection().execute('select id, ambiente_id from empresa order by id limit 2')) as { id: number; ambiente_id: number }[];
  [A, B] = [empresas[0].id, empresas[1].id];
  expect(empresas[1].ambiente_id).toBe(empresas[0].ambiente_id);
  anaId = await ts.createUser({ login: 'ana.form', ambienteId: empresas[0].ambiente_id, empresas: [A], permissoes: [...FORM, ...RESP, 'adm.sis.arquivo.envia'] });
  await ts.createUser({ login: 'beto.form', ambienteId: empresas[0].ambiente_id, empresas: [B], permissoes: [...FORM, ...RESP, 'adm.sis.arquivo.envia'] });
  await ts.createUser({ login: 'sem.resp', ambienteId: empresas[0].ambiente_id, empresas: [A], permissoes: FORM });
  ana = await ts.login('ana.form', 'senha-teste-123');
  beto = await ts.login('beto.form', 'senha-teste-123');
  semResposta = await ts.login('sem.resp', 'senha-teste-123');
});
afterAll(async () => { await ts?.stop(); });

describe('questionnaire', () => {
  let formId: number;

  it('creates a form with the nine question types; criadoPor is the caller', async () => {
    const res = await ana.post('/api/formulario', { titulo: 'Checklist diário', descricao: 'Antes da saída', dataInicio: '2026-01-01', dataFim: '2026-12-31', questoes: QUESTOES, criadoPor: 999 });
    expect(res.status).toBe(201);
    const row = await json(res);
    formId = row.id;
    expect(row.criadoPor).toBe(anaId);
    expect(row.questoes).toEqual(QUESTOES);
    const list = (await json(await ana.get(`/api/formulario?sort=${encodeURIComponent('["titulo","ASC"]')}`))) as { titulo: string; qtdQuestoes: number }[];
    // the demo data's checklist (4 questions) is in this company too
    expect(list.map((r) => [r.titulo, r.qtdQuestoes])).toEqual([['Checklist de saída do veículo', 4], ['Checklist diário', 10]]);
  });

  it('refuses invalid questions with pt-BR messages', async () => {
    const bad = async (questoes: unknown, message: string) => {
      const res = await ana.post('/api/formulario', { titulo: 'Inválido', questoes });
      expect(res.status).toBe(400);
      const body = await json(res);
      expect([body.status, body.errorMsg]).toEqual([400, 'Erro de validação']);
      expect(JSON.stringify(body)).toContain(message);
    };
    await bad([], 'O campo Questões é obrigatório');
    await bad([{ id: 'a', tipo: 'RATING', pergunta: 'x' }], 'Questão 1: tipo inválido');
    await bad([{ id: 'a', tipo: 'TEXT', pergunta: '  ' }], 'Questão 1: o texto da pergunta é obrigatório');
    await bad([{ id: 'a', tipo: 'MULTIPLE_CHOICE', pergunta: 'Cor', opcoes: ['Azul'] }], 'Questão 1: informe ao menos 2 opções');
    await bad([{ id: 'a', tipo: 'MULTIPLE_CHOICE', pergunta: 'Cor', opcoes: ['Azul', 'azul'] }], 'Questão 1: opções repetidas');
    await bad([{ id: 'a', tipo: 'OPINION_SCALE', pergunta: 'Nota', escalaMin: 1, escalaMax: 2 }], 'Questão 1: a escala deve terminar entre início + 2 e 10');
    await bad([{ id: 'a', tipo: 'NUMBER', pergunta: 'Km', min: 10, max: 5 }], 'Questão 1: o mínimo deve ser menor ou igual ao máximo');
    await bad([{ id: 'a', tipo: 'YES_OR_NO', pergunta: 'Ok?', opcoes: ['a', 'b'] }], 'Questão 1: opcoes não se aplica ao tipo Sim ou não');
    await bad([{ id: 'a', tipo: 'TEXT', pergunta: 'A' }, { id: 'a', tipo: 'TEXT', pergunta: 'B' }], 'Questão 2: identificador repetido');
    const ordered = await ana.post('/api/formulario', { titulo: 'Datas', dataInicio: '2026-05-01', dataFim: '2026-04-01', questoes: QUESTOES.slice(0, 1) });
    expect(ordered.status).toBe(400);
    expect(JSON.stringify(await json(ordered))).toContain('A data fim deve ser igual ou posterior à data início');
  });

  it('stores answers checked against the question types; usuario is the caller', async () => {
    const assinatura = await uploadPng(ana, A);
    const foto = await uploadPng(ana, A);
    const respostas = [
      { questao: 'q1', valor: true }, { questao: 'q2', valor: 'Tarde' }, { questao: 'q3', valor: ['Pneus', 'Luzes'] },
      { questao: 'q4', valor: 5 }, { questao: 'q5', valor: 'Tudo certo' }, { questao: 'q6', valor: '2026-11-23T08:30:00.000Z' },
      { questao: 'q7', valor: { latitude: -23.55, longitude: -46.63 } }, { questao: 'q8', valor: 123456 },
      { questao: 'q9', valor: foto }, { questao: 'q10', valor: assinatura },
    ];
    const res = await ana.post('/api/resposta_formulario', { formulario: formId, respostas, usuario: 999 });
    expect(res.status).toBe(201);
    const row = await json(res);
    expect(row.usuario).toBe(anaId);
    expect(row.respostas).toEqual(respostas);
    expect(typeof row.dataResposta).toBe('string');
    // the form's answers, nested below it
    const nested = (await json(await ana.get(`/api/formulario/${formId}/resposta_formulario`))) as { id: number }[];
    expect(nested.map((r) => r.id)).toEqual([row.id]);
  });

  it('refuses answers that do not fit their questions, in pt-BR', async () => {
    const assinatura = await uploadPng(ana, A);
    const bad = async (respostas: unknown[], message: string) => {
      const res = await ana.post('/api/resposta_formulario', { formulario: formId, respostas });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await json(res))).toContain(message);
    };
    const sig = { questao: 'q10', valor: assinatura };
    await bad([sig], 'Questão 1 (O veículo está limpo?): resposta obrigatória');
    await bad([{ questao: 'q1', valor: 'sim' }, sig], 'Questão 1 (O veículo está limpo?): responda sim ou não');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q2', valor: 'Madrugada' }, sig], 'Questão 2 (Turno): escolha entre: Manhã, Tarde, Noite');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q3', valor: 'Pneus' }, sig], 'Questão 3 (Itens verificados): escolha entre');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q4', valor: 6 }, sig], 'Questão 4 (Nota da viagem): escolha um valor de 1 a 5');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q5', valor: 'x'.repeat(21) }, sig], 'Questão 5 (Observações): a resposta deve ter no máximo 20 caracteres');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q6', valor: 'ontem' }, sig], 'Questão 6 (Início da inspeção): informe uma data e hora válidas');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q7', valor: { latitude: 91, longitude: 0 } }, sig], 'Questão 7 (Onde?): latitude deve estar entre -90 e 90');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q8', valor: -1 }, sig], 'Questão 8 (Odômetro): o valor deve ser no mínimo 0');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q8', valor: 1.5 }, sig], 'Questão 8 (Odômetro): informe um número inteiro');
    await bad([{ questao: 'q1', valor: true }, { questao: 'q9', valor: 'https://exemplo.com/x.png' }, sig], 'Questão 9 (Foto do painel): envie a foto pelo botão Selecionar imagem');
    await bad([{ questao: 'q1', valor: true }], 'Questão 10 (Assinatura do motorista): resposta obrigatória');
    await bad([{ questao: 'q1', valor: true }, { questao: 'qX', valor: 1 }, sig], 'Questão desconhecida: qX');
    // a signature uploaded by another company is not this company's file
    const deOutra = await uploadPng(beto, B);
    await bad([{ questao: 'q1', valor: true }, { questao: 'q10', valor: deOutra }], 'Imagem não encontrada: envie a foto ou a assinatura novamente');
    // nothing written: the one answer stored above (the demo checklist's answers are of another form)
    const count = await ts.em().getConnection().execute('select count(*)::int as n from resposta_formulario where formulario = ?', [formId]);
    expect(count).toEqual([{ n: 1 }]);
  });

  it('another company of the same ambiente sees nothing (404); a user without the key gets 403', async () => {
    expect((await beto.get(`/api/formulario/${formId}`)).status).toBe(404);
    expect((await beto.put(`/api/formulario/${formId}`, { titulo: 'Tomado' })).status).toBe(404);
    expect((await beto.get(`/api/formulario/${formId}/resposta_formulario`)).status).toBe(404);
    const other = await beto.post('/api/resposta_formulario', { formulario: formId, respostas: [{ questao: 'q1', valor: true }] });
    expect([400, 404]).toContain(other.status);
    expect(((await json(await beto.get('/api/formulario'))) as unknown[]).length).toBe(0);
    const denied = await semResposta.post('/api/resposta_formulario', { formulario: formId, respostas: [{ questao: 'q1', valor: true }] });
    expect(denied.status).toBe(403);
    expect((await semResposta.get('/api/resposta_formulario')).status).toBe(403);
  });
});
