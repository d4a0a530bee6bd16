// Satellite panel /esp/sat/painel (provider painel_satelite): one row per satellite terminal of the company — its
// vehicle, last communication and messages sent through the command queue, pending and answered; POST
// /api/satelite/mensagem queues a message (fila_processamento, mensagemSatelite) for a terminal of the company only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
const R = `range=${encodeURIComponent('[0,49]')}`;
const BY_SERIAL = `sort=${encodeURIComponent('["serial","ASC"]')}`;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
});
afterAll(async () => { await ts?.stop(); });

describe('Painel satelital', () => {
  it('terminals with vehicle and last communication; messages go through the command queue', async () => {
    const visto = new Date('2026-11-26T14:03:12Z');
    await ts.insert('equipamento', { empresaId: A, serial: '300434060000001', tecnologia: 'queclink', modelo: 'gv58cg', ativado: true, ultimaComunicacao: visto });
    await ts.insert('equipamento', { empresaId: A, serial: '300434060000002', tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
    await ts.insert('equipamento', { empresaId: B, serial: '300434060000099', tecnologia: 'queclink', modelo: 'gv58cg', ativado: true });
    const ativo = Number((await ts.insert('ativo', { empresaId: A, descricao: 'Bitrem Satélite', placa: 'SAT1B23' })).id);
    await ts.insert('equipamento_ativo', { empresaId: A, serial: '300434060000001', ativoId: ativo, dataInicio: new Date(Date.now() - 3600_000) });
    await ts.insert('mensagem_satelite', { empresaId: A, serial: '300434060000001', direcao: 'recebida', situacao: 'entregue', dataHora: new Date('2026-11-26T14:00:00Z'), mensagem: 'Chegando na base' });
    await ts.insert('mensagem_satelite', { empresaId: A, serial: '300434060000002', direcao: 'recebida', situacao: 'entregue', dataHora: new Date('2026-11-25T08:00:00Z'), mensagem: 'ok' });
    await ts.insert('mensagem_satelite', { empresaId: B, serial: '300434060000099', direcao: 'recebida', situacao: 'entregue', dataHora: new Date('2026-11-25T08:00:00Z'), mensagem: 'de B' });

    // sending queues a command for the terminal
    const sent = await admin.post('/api/satelite/mensagem', { serial: '300434060000001', mensagem: 'Retorne à base' });
    expect(sent.status).toBe(201);
    const cmd = await json(sent);
    expect([cmd.serial, cmd.event, cmd.value, cmd.status]).toEqual(['300434060000001', 'mensagemSatelite', { mensagem: 'Retorne à base' }, 'pendente']);
    const fila = await json(await admin.get(`/api/equipamento/300434060000001/fila_processamento?${R}`));
    expect(fila.map((r: any) => [r.event, r.status])).toEqual([['mensagemSatelite', 'pendente']]);

    const rows = await json(await admin.get(`/api/painel_satelite?${R}&${BY_SERIAL}`));
    expect(rows.map((r: any) => [r.serial, r.veiculo, r.situacao, r.enviadas, r.pendentes, r.respondidas, r.ultimaMensagem])).toEqual([
      ['300434060000001', 'Bitrem Satélite (SAT1B23)', 'Aguardando envio', 1, 1, 1, 'Chegando na base'],
      ['300434060000002', null, 'Em dia', 0, 0, 1, 'ok'],
    ]);
    expect(new Date(rows[0].ultimaComunicacao).toISOString()).toBe(visto.toISOString());
    const only = await json(await admin.get(`/api/painel_satelite?${R}&${BY_SERIAL}&filter=${encodeURIComponent('{"pendencias":true}')}`));
    expect(only.map((r: any) => r.serial)).toEqual(['300434060000001']);

    // another company's terminal, an empty or too long message: refused in pt-BR, nothing queued
    const alheio = await admin.post('/api/satelite/mensagem', { serial: '300434060000099', mensagem: 'oi' });
    expect([alheio.status, (await json(alheio)).msg]).toEqual([422, 'O equipamento 300434060000099 não está cadastrado nesta empresa: o comando não foi enfileirado']);
    const vazia = await admin.post('/api/satelite/mensagem', { serial: '300434060000001', mensagem: ' ' });
    expect([vazia.status, (await json(vazia)).msg]).toEqual([400, 'O campo Mensagem é obrigatório']);
    const longa = await admin.post('/api/satelite/mensagem', { serial: '300434060000001', mensagem: 'ç'.repeat(114) });
    expect([longa.status, (await json(longa)).msg]).toEqual([400, 'A mensagem excede o limite de 227 bytes do enlace satelital']);
    const n = await ts.em().getConnection().execute(`select count(*)::int as n from fila_processamento where event = 'mensagemSatelite'`);
    expect(n[0].n).toBe(1);
  });

  it('keys: the panel needs esp.sat.painel, sending needs esp.sat.painel.enviar', async () => {
    await ts.createUser({ login: 'sempainel', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['esp.sat.historico_de_mensagens.lista'] });
    expect((await (await ts.login('sempainel', 'senha-teste-123')).get('/api/painel_satelite')).status).toBe(403);
    await ts.createUser({ login: 'soleitura', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['esp.sat.painel'] });
    const leitor = await ts.login('soleitura', 'senha-teste-123');
    expect((await leitor.get(`/api/painel_satelite?${R}`)).status).toBe(200);
    expect((await leitor.post('/api/satelite/mensagem', { serial: '300434060000001', mensagem: 'x' })).status).toBe(403);
  });
});
