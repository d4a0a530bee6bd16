// /api/atalhos over real HTTP: a user pins screens with their filters, renames, orders and removes them; another
// user's or company's shortcut is 404, an API key may not pin, bad input 400 in pt-BR, no session 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, LEITOR, json, startTestServer, type Api, type TestServer } from '../../../server/test/harness.ts';

let ts: TestServer;
let admin: Api;
let leitor: Api;
let outra: Api;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  leitor = await ts.login(LEITOR.login, LEITOR.senha);
  const other = admin.user.empresas.map((e: any) => e.id).find((id: number) => id !== admin.empresaAtiva);
  await ts.createUser({ login: 'atalho.outra', senha: 'atalho-outra-123', ambienteId: admin.user.ambienteId, empresas: [other], roles: ['dev'] });
  outra = await ts.login('atalho.outra', 'atalho-outra-123');
});
afterAll(async () => { await ts?.stop(); });

const ATIVOS = '/tlm/fro/ativo?filter=%7B%22q%22%3A%22ABC%22%7D';

describe('/api/atalhos', () => {
  const ids: number[] = [];
  it('pins screens with their filters in order; the same screen twice is 409', async () => {
    const a = await admin.post('/api/atalhos/adiciona', { titulo: 'Ativos ABC', rota: ATIVOS });
    expect(a.status).toBe(201);
    expect(await json(a)).toMatchObject({ msg: 'Atalho adicionado', payload: { titulo: 'Ativos ABC', rota: ATIVOS, ordem: 0 } });
    ids.push((await json(await admin.post('/api/atalhos/adiciona', { titulo: 'Motoristas', rota: '/tlm/fro/motorista' }))).payload.id);
    ids.unshift((await json(await admin.get('/api/atalhos/lista'))).payload[0].id);
    const dup = await admin.post('/api/atalhos/adiciona', { titulo: 'De novo', rota: ATIVOS });
    expect(dup.status).toBe(409);
    expect((await json(dup)).msg).toBe('Esta tela já está nos seus atalhos');
    expect((await json(await admin.get('/api/atalhos/lista'))).payload.map((x: any) => [x.titulo, x.ordem])).toEqual([['Ativos ABC', 0], ['Motoristas', 1]]);
    // the read-only role has its own (none yet)
    expect((await json(await leitor.get('/api/atalhos/lista'))).payload).toEqual([]);
  });

  it('orders, renames and removes only the caller\'s own', async () => {
    const ord = await json(await admin.put('/api/atalhos/ordena', { ids: [ids[1], ids[0]] }));
    expect(ord.payload.map((x: any) => x.titulo)).toEqual(['Motoristas', 'Ativos ABC']);
    expect((await json(await admin.get('/api/atalhos/lista'))).payload.map((x: any) => x.titulo)).toEqual(['Motoristas', 'Ativos ABC']);
    expect((await json(await admin.put(`/api/atalhos/${ids[1]}`, { titulo: 'Condutores' }))).payload.titulo).toBe('Condutores');

    // another user of the same company and a user of another company: 404, nothing changed
    for (const u of [leitor, outra]) {
      expect((await u.put(`/api/atalhos/${ids[0]}`, { titulo: 'X' })).status).toBe(404);
      expect((await u.del(`/api/atalhos/${ids[0]}`)).status).toBe(404);
      expect((await u.put('/api/atalhos/ordena', { ids })).status).toBe(400);
      expect((await json(await u.get('/api/atalhos/lista'))).payload).toEqual([]);
    }
    expect((await json(await admin.get('/api/atalhos/lista'))).payload.map((x: any) => x.titulo)).toEqual(['Condutores', 'Ativos ABC']);
    const del = await json(await admin.del(`/api/atalhos/${ids[1]}`));
    expect(del).toMatchObject({ msg: 'Atalho removido', payload: { id: ids[1] } });
    expect((await json(await admin.get('/api/atalhos/lista'))).payload.map((x: any) => x.rota)).toEqual([ATIVOS]);
  });

  it('bad input 400 in pt-BR; no session 401', async () => {
    const cases: [unknown, string][] = [
      [{ titulo: 'Fora', rota: 'https://exemplo.com/x' }, 'Endereço inválido: informe uma tela do sistema (ex.: /tlm/fro/ativo?filter=...)'],
      [{ titulo: 'Fora', rota: '//exemplo.com' }, 'Endereço inválido: informe uma tela do sistema (ex.: /tlm/fro/ativo?filter=...)'],
      [{ titulo: '', rota: '/tlm/fro/ativo' }, 'O campo Título é obrigatório'],
      [{ titulo: 'x'.repeat(81), rota: '/tlm/fro/ativo' }, 'O campo Título deve ter no máximo 80 caracteres'],
      [{ titulo: 'Sem rota' }, 'O campo Endereço é obrigatório'],
      [[1], 'Requisição inválida: envie um objeto JSON'],
    ];
    for (const [b, msg] of cases) {
      const res = await admin.post('/api/atalhos/adiciona', b);
      expect(res.status).toBe(400);
      expect((await json(res)).msg).toBe(msg);
    }
    expect((await json(await admin.put('/api/atalhos/ordena', { ids: ['a'] }))).msg).toBe('Informe a nova ordem dos atalhos (ids)');
    expect((await admin.del('/api/atalhos/abc')).status).toBe(404);
    expect((await ts.fetch('/api/atalhos/lista')).status).toBe(401);
    expect((await ts.fetch('/api/atalhos/adiciona', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
  });
});
