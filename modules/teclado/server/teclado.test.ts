// Keyboard command console /esp/tcl/comandos/:serial (record of dispositivo_teclado at record.path, by serial):
// Mensagens (comando_teclado nested by the device's serial while referencing it by id), Macros (enviar_macro queues
// a library macro as a pending message), Logs (provider logs_teclado over the change history). Refusals over HTTP:
// another company's serial is 404, a user without the tab's key is 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
let dev: number, macro: number;
const serial = 'TCL0001';
const serialB = 'TCLB001';
const R = `range=${encodeURIComponent('[0,49]')}`;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
  dev = (await json(await admin.post('/api/dispositivo_teclado', { descricao: 'Teclado cabine', serial, deviceModel: 'TK-10', ativado: true }))).id;
  macro = (await json(await admin.post('/api/macro_teclado', { descricao: 'Início de jornada', codigo: 7, texto: 'Iniciar jornada?', exigeResposta: true }))).id;
  await ts.insert('dispositivo_teclado', { empresaId: B, descricao: 'Teclado de B', serial: serialB, deviceModel: 'TK-10', ativado: true });
});
afterAll(async () => { await ts?.stop(); });

describe('Mensagens: messages of the keyboard named by its serial', () => {
  it('creates a message under the serial: the device is the one of the route, whatever the body says', async () => {
    const other = (await json(await admin.post('/api/dispositivo_teclado', { descricao: 'Outro', serial: 'TCL0002', deviceModel: 'TK-10', ativado: true }))).id;
    const res = await admin.post(`/api/dispositivo_teclado/${serial}/comando_teclado`, { mensagem: 'Retorne à base', dispositivo: other, direcao: 'enviada', situacao: 'pendente' });
    expect(res.status).toBe(201);
    expect((await res.json()).dispositivo).toBe(dev);
    const rows = await json(await admin.get(`/api/dispositivo_teclado/${serial}/comando_teclado?${R}`));
    expect(rows.map((r: any) => [r.mensagem, r.dispositivo])).toEqual([['Retorne à base', dev]]);
    expect(await json(await admin.get(`/api/dispositivo_teclado/TCL0002/comando_teclado?${R}`))).toEqual([]);
  });

  it("answers 404 for another company's serial and for an unknown one", async () => {
    expect((await admin.get(`/api/dispositivo_teclado/${serialB}/comando_teclado`)).status).toBe(404);
    expect((await admin.post(`/api/dispositivo_teclado/${serialB}/comando_teclado`, { mensagem: 'x', direcao: 'enviada', situacao: 'pendente' })).status).toBe(404);
    expect((await admin.get('/api/dispositivo_teclado/NAOEXISTE/comando_teclado')).status).toBe(404);
  });
});

describe('Macros: enviar_macro', () => {
  it("queues the macro's text as a pending message of the keyboard", async () => {
    const res = await admin.post(`/api/dispositivo_teclado/${dev}/enviar_macro`, { macro });
    expect(res.status).toBe(201);
    expect((await res.json()).map((r: any) => [r.mensagem, r.macro, r.dispositivo, r.direcao, r.situacao])).toEqual([['Iniciar jornada?', macro, dev, 'enviada', 'pendente']]);
    const rows = await json(await admin.get(`/api/dispositivo_teclado/${serial}/comando_teclado?${R}&sort=${encodeURIComponent('["id","ASC"]')}`));
    expect(rows.map((r: any) => r.mensagem)).toEqual(['Retorne à base', 'Iniciar jornada?']);
  });

  it("refuses a macro of another company (422), a missing macro (400) and another company's keyboard (404)", async () => {
    const macroB = Number((await ts.insert('macro_teclado', { empresaId: B, descricao: 'Macro B', codigo: 9, texto: 'B', exigeResposta: false })).id);
    const r1 = await admin.post(`/api/dispositivo_teclado/${dev}/enviar_macro`, { macro: macroB });
    expect(r1.status).toBe(422);
    expect((await r1.json()).msg).toBe('Macro não encontrada na empresa');
    expect((await admin.post(`/api/dispositivo_teclado/${dev}/enviar_macro`, {})).status).toBe(400);
    const devB = (await ts.em().getConnection().execute('SELECT id FROM dispositivo_teclado WHERE serial = ?', [serialB]))[0].id;
    expect((await admin.post(`/api/dispositivo_teclado/${devB}/enviar_macro`, { macro })).status).toBe(404);
  });

  it('needs esp.tcl.dispositivos.enviar_macro', async () => {
    await ts.createUser({ login: 'semmacro', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['esp.tcl.dispositivos.visualizar', 'esp.tcl.dispositivos.lista', 'esp.tcl.comandos.lista'] });
    const u = await ts.login('semmacro', 'senha-teste-123');
    expect((await u.post(`/api/dispositivo_teclado/${dev}/enviar_macro`, { macro })).status).toBe(403);
    expect((await u.get(`/api/dispositivo_teclado/${serial}/comando_teclado`)).status).toBe(200);
  });
});

describe('Logs: provider logs_teclado', () => {
  it("lists the keyboard's history: the device, its messages and their changes, newest first", async () => {
    const msg = (await json(await admin.get(`/api/dispositivo_teclado/${serial}/comando_teclado?${R}&sort=${encodeURIComponent('["id","ASC"]')}`)))[0];
    expect((await admin.put(`/api/comando_teclado/${msg.id}`, { ...msg, situacao: 'entregue' })).status).toBe(200);
    const res = await admin.get(`/api/logs_teclado/${serial}?${R}`);
    expect(res.status).toBe(200);
    const rows = await res.json();
    expect(rows.map((r: any) => [r.registro, r.operacao, r.detalhe])).toEqual([
      [`Mensagem ${msg.id}`, 'Alteração', 'situacao: pendente → entregue'],
      [expect.stringMatching(/^Mensagem \d+$/), 'Inclusão', 'Iniciar jornada?'],
      [`Mensagem ${msg.id}`, 'Inclusão', 'Retorne à base'],
      ['Dispositivo', 'Inclusão', expect.stringContaining('serial: — → TCL0001')],
    ]);
    expect(rows.every((r: any) => r.usuario === ADMIN.login)).toBe(true);
    expect(Number(res.headers.get('content-range')?.split('/')[1])).toBe(4);
  });

  it("keeps a deleted message's lines, answers 404 for another company's serial and 403 without the key", async () => {
    const msg = (await json(await admin.get(`/api/dispositivo_teclado/${serial}/comando_teclado?${R}&sort=${encodeURIComponent('["id","ASC"]')}`)))[0];
    expect((await admin.del(`/api/comando_teclado/${msg.id}`)).status).toBe(200);
    const rows = await json(await admin.get(`/api/logs_teclado/${serial}?${R}`));
    expect(rows.filter((r: any) => r.registro === `Mensagem ${msg.id}`).map((r: any) => r.operacao)).toEqual(['Exclusão', 'Alteração', 'Inclusão']);
    expect((await admin.get(`/api/logs_teclado/${serialB}`)).status).toBe(404);
    await ts.createUser({ login: 'semlogs', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['esp.tcl.dispositivos.visualizar'] });
    const u = await ts.login('semlogs', 'senha-teste-123');
    expect((await u.get(`/api/logs_teclado/${serial}`)).status).toBe(403);
  });
});
