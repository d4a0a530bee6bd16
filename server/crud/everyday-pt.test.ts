// Issue 20 (8, 12e): what a pt-BR operator reads and what a state may do, over real HTTP.
// - a state field (set by an action) changes only through its action: PUT/POST trying to change it is 409 pt-BR;
// - the change history names the rows behind references (labels, not ids), only among the caller's company's rows;
// - the semicolon CSV writes decimals with a comma (pt-BR Excel), XLSX keeps numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, type Api, type TestServer, startTestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
let A: number, B: number;
const ok = async (res: Response, status = 201) => { const b = await json(res); expect(res.status, JSON.stringify(b)).toBe(status); return b; };

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = (await ts.em().getConnection().execute('SELECT id FROM empresa ORDER BY id')).map((r: any) => r.id);
});
afterAll(async () => { await ts?.stop(); });

async function grain() {
  const prop = await ok(await admin.post('/api/propriedade', { nome: `Fazenda ${Math.random()}` }));
  const cultura = await ok(await admin.post('/api/cultura', { descricao: `Milho ${Math.random()}` }));
  const produto = await ok(await admin.post('/api/produto', { descricao: `Milho em grão ${Math.random()}`, cultura: cultura.id }));
  const silo = await ok(await admin.post('/api/armazem', { descricao: `Silo ${Math.random()}`, propriedade: prop.id }));
  return { produto, silo };
}

describe('states change only through their actions (spec section 4)', () => {
  it('a closed batch is not reopened by PUT { situacao: aberto }: 409 pt-BR, the row stays closed', async () => {
    const { produto, silo } = await grain();
    const lote = await ok(await admin.post('/api/lote', { codigo: 'PT-1', armazem: silo.id, produto: produto.id, dataInicio: '2026-03-01', quantidade: 10 }));
    // created closed: refused too (a batch starts open)
    const fechado = await admin.post('/api/lote', { codigo: 'PT-2', armazem: silo.id, produto: produto.id, dataInicio: '2026-03-01', situacao: 'encerrado' });
    expect([fechado.status, (await json(fechado)).msg]).toEqual([409, "O campo Situação só muda pela ação 'Encerrar'"]);
    const closed = await ok(await admin.post(`/api/lote/${lote.id}/encerra`), 200);
    expect(closed.situacao).toBe('encerrado');
    const put = await admin.put(`/api/lote/${lote.id}`, { ...closed, situacao: 'aberto' });
    expect(put.status).toBe(409);
    expect((await json(put)).msg).toBe("O campo Situação só muda pela ação 'Encerrar'");
    expect((await json(await admin.get(`/api/lote/${lote.id}`))).situacao).toBe('encerrado');
    // the whole record sent back unchanged (react-admin's edit) is fine
    const same = await ok(await admin.put(`/api/lote/${lote.id}`, { ...closed, observacao: 'conferido' }), 200);
    expect([same.situacao, same.observacao]).toEqual(['encerrado', 'conferido']);
  });

  it('every state field of the model is marked, with the actions that change it', () => {
    const setBy = Object.fromEntries(ts.model.entities.flatMap((e) => e.fields.filter((f) => f.setBy).map((f) => [`${e.key}.${f.name}`, [f.readOnly, f.setBy]])));
    expect(setBy['lote.situacao']).toEqual([true, ['Encerrar']]);
    expect(setBy['armazem.status']).toEqual([true, ['Definir status']]);
    expect(setBy['empresa.status']).toEqual([true, ['Desativar', 'Suspender', 'Cancelar suspensão']]);
    expect(setBy['linha.ativo']).toEqual([true, ['Ativar', 'Desativar']]);
    // every field an action `set`s is one of them
    for (const e of ts.model.entities) for (const a of e.actions) for (const k of Object.keys(a.set ?? {})) expect(setBy[`${e.key}.${k}`], `${e.key}.${k}`).toBeDefined();
  });

  it('a warehouse status is set by its action, not by PUT', async () => {
    const { silo } = await grain();
    const put = await admin.put(`/api/armazem/${silo.id}`, { ...silo, status: 'manutencao' });
    expect([put.status, (await json(put)).msg]).toEqual([409, "O campo Status só muda pela ação 'Definir status'"]);
    expect((await ok(await admin.post(`/api/armazem/${silo.id}/define_status`, { status: 'manutencao' }), 200)).status).toBe('manutencao');
  });
});

describe('change history as the list shows it', () => {
  it('references by their labels; an id of another company is not resolved', async () => {
    const g1 = await ok(await admin.post('/api/garagem', { nome: 'Garagem Norte' }));
    const g2 = await ok(await admin.post('/api/garagem', { nome: 'Garagem Sul' }));
    const gB = Number((await ts.insert('garagem', { empresaId: B, nome: 'Garagem Secreta de B' })).id);
    const ativo = await ok(await admin.post('/api/ativo', { descricao: 'Caminhão histórico', placa: 'HIS1A23', idGaragem: g1.id }));
    await ok(await admin.put(`/api/ativo/${ativo.id}`, { ...ativo, idGaragem: g2.id }), 200);
    // a change recorded with another company's id (e.g. an old row): the label of B's garage never leaves the server
    await ts.em().getConnection().execute(
      `insert into historico_alteracao (data, usuario_id, login, empresa_id, ambiente_id, entidade, registro_id, operacao, alteracoes)
       values (now() + interval '1 minute', null, 'importador', ?, ?, 'ativo', ?, 'update', ?::jsonb)`,
      [A, admin.user.ambienteId, ativo.id, JSON.stringify({ idGaragem: { antes: g2.id, depois: gB } })]);
    const h = await json(await admin.get(`/api/ativo/${ativo.id}/historico`));
    expect(h[0].alteracoes.idGaragem).toEqual({ antes: g2.id, depois: gB, antesTexto: 'Garagem Sul', depoisTexto: `nº ${gB} (indisponível)` });
    expect(h[1].alteracoes.idGaragem).toEqual({ antes: g1.id, depois: g2.id, antesTexto: 'Garagem Norte', depoisTexto: 'Garagem Sul' });
    expect(JSON.stringify(h)).not.toContain('Secreta');
  });
});

describe('semicolon CSV for pt-BR spreadsheets', () => {
  it('decimals with a comma, not quoted; negatives not taken for formulas', async () => {
    const { produto, silo } = await grain();
    await ok(await admin.post('/api/lote', { codigo: 'CSV-1', armazem: silo.id, produto: produto.id, dataInicio: '2026-03-01', quantidade: 1234.5 }));
    const q = new URLSearchParams({ format: 'csv', filter: JSON.stringify({ q: 'CSV-1' }), columns: '["codigo","quantidade"]' });
    const res = await admin.get(`/api/lote/export?${q}`);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toBe('\uFEFFCódigo;Quantidade\r\nCSV-1;1234,5\r\n');
  });
});
