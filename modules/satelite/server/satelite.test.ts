// Satellite panel /esp/sat/painel (provider painel_satelite): one row per terminal of the company from its messages;
// another company's terminals are not listed; a user without the key is 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
const R = `range=${encodeURIComponent('[0,49]')}`;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
});
afterAll(async () => { await ts?.stop(); });

describe('Painel satelital: provider painel_satelite', () => {
  it('one row per terminal of the company: last received/sent, pending, failed, situation', async () => {
    const add = (empresaId: number, serial: string, direcao: string, situacao: string, dataHora: string, mensagem = 'm') =>
      ts.insert('mensagem_satelite', { empresaId, serial, direcao, situacao, dataHora: new Date(dataHora), mensagem });
    await add(A, 'SAT001', 'recebida', 'entregue', '2026-11-01T10:00:00Z', 'Posição');
    await add(A, 'SAT001', 'enviada', 'pendente', '2026-11-01T11:00:00Z', 'Retornar');
    await add(A, 'SAT002', 'enviada', 'entregue', '2026-11-01T09:00:00Z');
    await add(A, 'SAT002', 'enviada', 'erro', '2026-11-01T12:00:00Z', 'Falhou');
    await add(A, 'SAT003', 'recebida', 'entregue', '2026-11-02T08:00:00Z');
    await add(B, 'SATB01', 'recebida', 'entregue', '2026-11-03T08:00:00Z');
    const res = await admin.get(`/api/painel_satelite?${R}&sort=${encodeURIComponent('["serial","ASC"]')}`);
    expect(res.status).toBe(200);
    const rows = await res.json();
    expect(rows.map((r: any) => [r.serial, r.situacao, r.pendentes, r.erros, r.total, r.ultimaMensagem])).toEqual([
      ['SAT001', 'Aguardando entrega', 1, 0, 2, 'Retornar'],
      ['SAT002', 'Com erro', 0, 1, 2, 'Falhou'],
      ['SAT003', 'Em dia', 0, 0, 1, 'm'],
    ]);
    expect(new Date(rows[0].ultimaRecebida).toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(new Date(rows[0].ultimaEnviada).toISOString()).toBe('2026-11-01T11:00:00.000Z');
    const only = await json(await admin.get(`/api/painel_satelite?${R}&filter=${encodeURIComponent('{"pendencias":true}')}&sort=${encodeURIComponent('["serial","ASC"]')}`));
    expect(only.map((r: any) => r.serial)).toEqual(['SAT001', 'SAT002']);
    await ts.createUser({ login: 'sempainel', ambienteId: admin.user.ambienteId, empresas: [A], permissoes: ['esp.sat.historico_de_mensagens.lista'] });
    expect((await (await ts.login('sempainel', 'senha-teste-123')).get('/api/painel_satelite')).status).toBe(403);
  });
});
