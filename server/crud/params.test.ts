// Route parameters (metadata params) over HTTP: configuration models at /api/modelo_de_configuracao/:tecnology/:model —
// filtered by the parameters in SQL, creates carry them (the body cannot override), a row outside them is 404,
// unknown technology/model 404 with a pt-BR message, company and permission boundaries, the device rules' messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
let q1: number, q2: number, l1: number, bRow: number;

const BASE = '/api/modelo_de_configuracao';
const Q = `${BASE}/queclink/gv50cg`;
const q = (o: Record<string, unknown>) => `?${new URLSearchParams(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)])))}`;
const names = async (res: Response) => { expect(res.status).toBe(200); return (await res.json()).map((r: any) => r.descricao); };
/** The pt-BR message of a refused body, for one field. */
const refusal = async (res: Response, field: string) => {
  expect(res.status).toBe(400);
  const body = await res.json();
  const errors = body.payload as { field: string; message: string }[];
  // the envelope's msg carries the same messages
  for (const e of errors) expect(body.msg).toContain(e.message);
  return errors.find((e) => e.field === field)?.message;
};

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  const empresas = await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id');
  [A, B] = empresas.map((r: any) => r.id);
  q1 = (await json(await admin.post(Q, { descricao: 'Frota urbana' }))).id;
  q2 = (await json(await admin.post(Q, { descricao: 'Frota rodoviária', tempoAntifurto: 30 }))).id;
  await json(await admin.post(`${BASE}/queclink/gv58cg`, { descricao: 'GV58 padrão' }));
  l1 = (await json(await admin.post(`${BASE}/legacy/legacy`, { descricao: 'Legado padrão' }))).id;
  bRow = Number((await ts.insert('modelo_de_configuracao', { empresaId: B, descricao: 'De outra empresa', tecnologia: 'queclink', modelo: 'gv50cg' })).id);
});
afterAll(async () => { await ts?.stop(); });

describe('configuration models by technology and model', () => {
  it('lists only the rows of the technology and model, with the total, sorted and searched within them', async () => {
    const res = await admin.get(`${Q}${q({ range: [0, 24], sort: ['descricao', 'ASC'] })}`);
    expect(res.headers.get('content-range')).toBe('modelo_de_configuracao 0-1/2');
    expect((await res.json()).map((r: any) => [r.descricao, r.tecnologia, r.modelo])).toEqual([
      ['Frota rodoviária', 'queclink', 'gv50cg'], ['Frota urbana', 'queclink', 'gv50cg'],
    ]);
    expect(await names(await admin.get(`${BASE}/queclink/gv58cg`))).toEqual(['GV58 padrão']);
    expect(await names(await admin.get(`${BASE}/legacy/legacy`))).toEqual(['Legado padrão']);
    expect(await names(await admin.get(`${Q}${q({ filter: { q: 'urbana' } })}`))).toEqual(['Frota urbana']);
    // a filter on the bound fields cannot widen the list
    expect(await names(await admin.get(`${Q}${q({ filter: { modelo: 'gv58cg' } })}`))).toEqual([]);
  });

  it('creates carry the parameters, whatever the body says; defaults of the device parameters apply', async () => {
    const res = await admin.post(Q, { descricao: 'Tentou mudar', tecnologia: 'legacy', modelo: 'legacy' });
    expect(res.status).toBe(201);
    const row = await res.json();
    expect([row.tecnologia, row.modelo]).toEqual(['queclink', 'gv50cg']);
    const db = await ts.em().getConnection().execute(`SELECT tecnologia, modelo, tempo_antifurto, dop_maximo FROM modelo_de_configuracao WHERE id = ${row.id}`);
    expect(db[0]).toEqual({ tecnologia: 'queclink', modelo: 'gv50cg', tempo_antifurto: 0, dop_maximo: 15 });
    expect((await admin.del(`${Q}/${row.id}`)).status).toBe(200);
  });

  it('a row outside the parameters is 404 for show, edit, delete and history; an edit cannot move it', async () => {
    expect((await json(await admin.get(`${Q}/${q1}`))).descricao).toBe('Frota urbana');
    expect((await admin.get(`${BASE}/legacy/legacy/${q1}`)).status).toBe(404);
    expect((await admin.get(`${Q}/${l1}`)).status).toBe(404);
    expect((await admin.put(`${Q}/${l1}`, { descricao: 'Invadido' })).status).toBe(404);
    expect((await admin.del(`${Q}/${l1}`)).status).toBe(404);
    expect((await admin.get(`${Q}/${l1}/historico`)).status).toBe(404);
    expect((await admin.get(`${BASE}/legacy/legacy/${l1}/historico`)).status).toBe(200);
    const put = await admin.put(`${Q}/${q2}`, { descricao: 'Frota rodoviária 2', modelo: 'gv58cg', tecnologia: 'legacy' });
    expect(put.status).toBe(200);
    expect((await put.json()).modelo).toBe('gv50cg');
    const db = await ts.em().getConnection().execute(`SELECT descricao, tecnologia, modelo FROM modelo_de_configuracao WHERE id = ${q2}`);
    expect(db[0]).toEqual({ descricao: 'Frota rodoviária 2', tecnologia: 'queclink', modelo: 'gv50cg' });
    const legacy = await ts.em().getConnection().execute(`SELECT descricao FROM modelo_de_configuracao WHERE id = ${l1}`);
    expect(legacy[0].descricao).toBe('Legado padrão');
  });

  it('an unknown technology or model is 404 with a pt-BR message, and nothing is written', async () => {
    const t = await admin.get(`${BASE}/nokia/gv50cg`);
    expect(t.status).toBe(404);
    expect((await t.json()).msg).toBe('Tecnologia desconhecida: nokia. Use queclink, legacy, vdo.');
    const m = await admin.post(`${BASE}/queclink/gv999`, { descricao: 'Modelo inexistente' });
    expect(m.status).toBe(404);
    expect((await m.json()).msg).toBe('Modelo desconhecido para a tecnologia Queclink @Track: gv999. Use gv50cg, gv58cg, gv350ceu, gv300, gv310lau, gv350m, gv55, gv55w, gv56, gv600m, gl300, gl300m, cv100lg.');
    // a model of another technology is unknown here
    expect((await admin.get(`${BASE}/legacy/gv50cg`)).status).toBe(404);
    const n = await ts.em().getConnection().execute(`SELECT count(*)::int AS n FROM modelo_de_configuracao WHERE descricao = 'Modelo inexistente'`);
    expect(n[0].n).toBe(0);
    // the entity has no route without its parameters
    expect((await admin.get(BASE)).status).toBe(404);
  });

  it('a model registered in /cfg/cfg/hardware/modelo is a route value at once, listed by GET /api/tecnologias', async () => {
    expect((await admin.get(`${BASE}/queclink/gv75w`)).status).toBe(404);
    const [{ id: queclink }] = await ts.em().getConnection().execute(`SELECT id FROM protocolo WHERE codigo = 'queclink'`);
    const created = await admin.post('/api/modelo', { codigo: 'gv75w', descricao: 'GV75W', protocolo: queclink });
    expect(created.status).toBe(201);
    const res = await admin.post(`${BASE}/queclink/gv75w`, { descricao: 'Frota GV75W' });
    expect(res.status).toBe(201);
    expect(await names(await admin.get(`${BASE}/queclink/gv75w`))).toEqual(['Frota GV75W']);
    // not under another technology
    expect((await admin.get(`${BASE}/legacy/gv75w`)).status).toBe(404);
    const tecs = await json(await admin.get('/api/tecnologias'));
    expect(tecs.map((t: any) => t.id)).toEqual(['queclink', 'legacy', 'vdo']);
    expect(tecs[0].modelos.at(-1)).toEqual({ id: 'gv75w', label: 'GV75W' });
    expect(tecs[0].modelos.slice(0, 3).map((m: any) => m.id)).toEqual(['gv50cg', 'gv58cg', 'gv350ceu']);
    // whoever may open a screen navigating by technology may read them; others may not
    await ts.createUser({ login: 'so_ativos', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
    expect((await (await ts.login('so_ativos', 'senha-teste-123')).get('/api/tecnologias')).status).toBe(403);
    await ts.createUser({ login: 'so_configuracoes', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['adm.bib.modelos_de_configuracao.lista'] });
    expect((await (await ts.login('so_configuracoes', 'senha-teste-123')).get('/api/tecnologias')).status).toBe(200);
    // the register's row is in use while a configuration model names it; deleted afterwards, it is no route value
    const modeloId = (await created.json()).id;
    expect((await admin.del(`/api/modelo/${modeloId}`)).status).toBe(409);
    await admin.del(`${BASE}/queclink/gv75w/${(await res.json()).id}`);
    expect((await admin.del(`/api/modelo/${modeloId}`)).status).toBe(200);
    expect((await admin.get(`${BASE}/queclink/gv75w`)).status).toBe(404);
  });

  it("another company's row is refused (list, show, edit, delete) and stays as it was", async () => {
    expect(await names(await admin.get(Q))).not.toContain('De outra empresa');
    expect((await admin.get(`${Q}/${bRow}`)).status).toBe(404);
    expect((await admin.put(`${Q}/${bRow}`, { descricao: 'Alterado' })).status).toBe(404);
    expect((await admin.del(`${Q}/${bRow}`)).status).toBe(404);
    // the company header must match the session's active company
    expect((await admin.post(Q, { descricao: 'Para B' }, { companyId: String(B) })).status).toBe(403);
    const db = await ts.em().getConnection().execute(`SELECT descricao, empresa_id FROM modelo_de_configuracao WHERE id = ${bRow}`);
    expect(db[0]).toEqual({ descricao: 'De outra empresa', empresa_id: B });
  });

  it('each operation needs its key of adm.bib.modelos_de_configuracao', async () => {
    const ambienteId = admin.user.ambienteId;
    await ts.createUser({ login: 'somente_lista', ambienteId, empresas: [A], permissoes: ['adm.bib.modelos_de_configuracao.lista'] });
    await ts.createUser({ login: 'sem_chave', ambienteId, empresas: [A], permissoes: ['tlm.fro.ativo.lista'] });
    const lista = await ts.login('somente_lista', 'senha-teste-123');
    const nada = await ts.login('sem_chave', 'senha-teste-123');
    expect((await lista.get(Q)).status).toBe(200);
    expect((await lista.post(Q, { descricao: 'Sem chave de adicionar' })).status).toBe(403);
    expect((await lista.put(`${Q}/${q1}`, { descricao: 'Sem chave de editar' })).status).toBe(403);
    expect((await lista.del(`${Q}/${q1}`)).status).toBe(403);
    const res = await nada.get(Q);
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('Você não tem permissão para fazer isso');
    expect((await ts.fetch(Q)).status).toBe(401);
  });
});

describe('device rules of the configuration model (pt-BR messages)', () => {
  const post = (body: Record<string, unknown>) => admin.post(Q, { descricao: 'Regra', ...body });

  it('anti-theft time: 0 disables, otherwise at least 20 s', async () => {
    expect(await refusal(await post({ tempoAntifurto: 10 }), 'tempoAntifurto')).toBe('O tempo do antifurto não pode ser menor que 20 segundos (0 desativa; máximo 3600)');
    expect(await refusal(await post({ tempoAntifurto: 3601 }), 'tempoAntifurto')).toBe('O tempo do antifurto não pode ser menor que 20 segundos (0 desativa; máximo 3600)');
    expect((await post({ descricao: 'Antifurto 0', tempoAntifurto: 0 })).status).toBe(201);
    expect((await post({ descricao: 'Antifurto 20', tempoAntifurto: 20 })).status).toBe(201);
  });

  it('snapshot interval 1–250 s (0 disables) and samples per record 1–60', async () => {
    expect(await refusal(await post({ intervaloSnapshot: 251 }), 'intervaloSnapshot')).toBe('O intervalo de amostragem do snapshot deve ser de 1 a 250 segundos (0 não envia)');
    expect(await refusal(await post({ intervaloSnapshot: -1 }), 'intervaloSnapshot')).toBe('O intervalo de amostragem do snapshot deve ser de 1 a 250 segundos (0 não envia)');
    expect((await post({ descricao: 'Snapshot 0', intervaloSnapshot: 0 })).status).toBe(201);
    expect(await refusal(await post({ amostrasPorRegistro: 0 }), 'amostrasPorRegistro')).toBe('As amostras por registro devem ser de 1 a 60');
    expect(await refusal(await post({ amostrasPorRegistro: 61 }), 'amostrasPorRegistro')).toBe('As amostras por registro devem ser de 1 a 60');
  });

  it('direction-change alarm: angle not 0 and speed at least 20 km/h when it is on', async () => {
    expect(await refusal(await post({ alarmeMudancaDirecao: true, anguloMudancaDirecao: 0 }), 'anguloMudancaDirecao'))
      .toBe('Com o alarme de mudança de direção ligado, o ângulo não pode ser 0 (o alarme não seria enviado)');
    expect(await refusal(await post({ alarmeMudancaDirecao: true, anguloMudancaDirecao: 30, velocidadeMudancaDirecao: 10 }), 'velocidadeMudancaDirecao'))
      .toBe('Com o alarme de mudança de direção ligado, a velocidade mínima deve ser de ao menos 20 km/h (abaixo dela a direção não é confiável)');
    expect(await refusal(await post({ alarmeMudancaDirecao: true, anguloMudancaDirecao: null, velocidadeMudancaDirecao: 30 }), 'anguloMudancaDirecao'))
      .toBe('Com o alarme de mudança de direção ligado, o ângulo não pode ser 0 (o alarme não seria enviado)');
    // the alarm off: the same values are accepted
    expect((await post({ descricao: 'Direção desligada', alarmeMudancaDirecao: false, anguloMudancaDirecao: 0, velocidadeMudancaDirecao: 0 })).status).toBe(201);
    expect((await post({ descricao: 'Direção ligada', alarmeMudancaDirecao: true, anguloMudancaDirecao: 15, velocidadeMudancaDirecao: 20 })).status).toBe(201);
  });

  it('sleep period 30 min – 8 days, gateway message up to 227 bytes, DOP up to 15', async () => {
    expect(await refusal(await post({ periodoSono: 29 }), 'periodoSono')).toBe('O período de sono deve ser de 30 minutos a 8 dias (11520 minutos)');
    expect(await refusal(await post({ periodoSono: 11521 }), 'periodoSono')).toBe('O período de sono deve ser de 30 minutos a 8 dias (11520 minutos)');
    expect((await post({ descricao: 'Sono 8 dias', periodoSono: 11520 })).status).toBe(201);
    expect(await refusal(await post({ mensagemGateway: 'x'.repeat(228) }), 'mensagemGateway')).toBe('O campo Mensagem do gateway deve ter no máximo 227 caracteres');
    expect(await refusal(await post({ mensagemGateway: 'ação' }), 'mensagemGateway')).toBe('A mensagem do gateway aceita só caracteres ASCII sem acento (até 227 bytes)');
    expect((await post({ descricao: 'Gateway 227', mensagemGateway: 'x'.repeat(227) })).status).toBe(201);
    expect(await refusal(await post({ dopMaximo: 16 }), 'dopMaximo')).toBe('O nível máximo de DOP deve ser de 1 a 15');
    // every refused field answers its own message at once
    const res = await post({ dopMaximo: 16, periodoSono: 5 });
    expect((await res.json()).payload.map((e: any) => e.field).sort()).toEqual(['dopMaximo', 'periodoSono']);
  });
});
