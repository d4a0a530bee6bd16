// Issue 18: react-admin's own ra-data-simple-rest, unmodified, against the real app over HTTP. Edit and clone send
// the whole record back (computed columns, read-only and system fields included): the server ignores what the
// model knows as not writable, never writes it, and still refuses fields the entity does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'ra-core';
import { ADMIN, startTestServer, type Api, type TestServer } from './harness.ts';

let ts: TestServer;
let admin: Api;
let dp: DataProvider;
let A: number, B: number;

const row = async (table: string, id: number) => (await ts.em().getConnection().execute(`select * from ${table} where id = ?`, [id]))[0];
/** The pt-BR message and status of a refused data-provider call. */
const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('aceito'); }, (e: { status: number; body: { msg: string } }) => ({ status: e.status, msg: e.body?.msg }));

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  [A, B] = admin.user.empresas.map((e: { id: number }) => e.id);
  // As runtime/src/api/http.ts: the bearer token (ra's fetchJson puts user.token in Authorization).
  const httpClient = (url: string, options: fetchUtils.Options = {}) =>
    fetchUtils.fetchJson(url, { ...options, user: { authenticated: true, token: `Bearer ${admin.token}` } });
  dp = simpleRestProvider(`${ts.url.replace('localhost', '127.0.0.1')}/api`, httpClient);
  // A device linked to every asset of A (next to the demo seed's own tracker): equipamentosList (computed) is filled in each answer.
  const ativos = (await ts.em().getConnection().execute('select id from ativo where empresa_id = ?', [A])) as { id: number }[];
  for (const [i, a] of ativos.entries()) await ts.insert('equipamento_ativo', { empresaId: A, serial: `86558504000${String(i).padStart(4, '0')}`, ativoId: a.id, dataInicio: new Date(Date.now() - 60_000) });
});
afterAll(async () => { await ts?.stop(); });

// resource, a filter that finds seeded rows, the field edit changes, fields a clone must change (unique), extra clone data
const cases: [string, Record<string, unknown>, string, (n: number) => Record<string, unknown>][] = [
  ['ativo', { q: 'Veículo' }, 'descricao', (n) => ({ placa: `CLN${n % 10}A${10 + (n % 90)}` })],
  ['motorista', {}, 'nome', (n) => ({ documento: `111.222.333-${String(10 + n)}` })],
  ['garagem', {}, 'descricao', (n) => ({ nome: `Garagem clonada ${n}` })],
  ['usuario', {}, 'nome', (n) => ({ login: `clone.${n}`, email: `clone.${n}@teste.local`, senha: 'senha-clone-123' })],
];

describe("ra-data-simple-rest, unmodified: the whole record on edit and clone", () => {
  it.each(cases)('%s: getList (sort, filter, range), getOne, getMany, update with the whole record, create from a clone, delete', async (resource, filter, field, unique) => {
    const list = await dp.getList(resource, { pagination: { page: 1, perPage: 2 }, sort: { field: 'id', order: 'DESC' }, filter });
    expect(list.data).toHaveLength(2);
    expect(list.total).toBeGreaterThanOrEqual(2);
    expect(Number(list.data[0].id)).toBeGreaterThan(Number(list.data[1].id));
    const id = list.data[1].id;
    const one = (await dp.getOne(resource, { id })).data;
    expect(one.id).toBe(id);
    if (resource === 'ativo') expect(one.equipamentosList).toMatch(/\b86558504000\d{4}$/);
    const many = await dp.getMany(resource, { ids: [list.data[0].id, id] });
    expect(many.data.map((r) => r.id).sort()).toEqual([list.data[0].id, id].sort());

    // Edit: react-admin sends getOne's answer back with one field changed.
    const edited = await dp.update(resource, { id, data: { ...one, [field]: `Alterado ${resource}` }, previousData: one });
    expect(edited.data[field]).toBe(`Alterado ${resource}`);
    expect((await dp.getOne(resource, { id })).data[field]).toBe(`Alterado ${resource}`);

    // Clone (of the newest row: the admin's roles include another company's): CloneButton opens the create form
    // with the record minus its id; the user changes the unique fields.
    const { id: _id, ...clone } = (await dp.getOne(resource, { id: list.data[0].id })).data;
    const created = await dp.create(resource, { data: { ...clone, ...unique(Number(id)) } });
    expect(Number(created.data.id)).toBeGreaterThan(Number(list.data[0].id));
    expect((await row(resource, Number(created.data.id))).empresa_id ?? A).toBe(A);
    await dp.delete(resource, { id: created.data.id, previousData: created.data });
    expect(await row(resource, Number(created.data.id))).toBeUndefined();
  });

  it('ativo: equipamentosList and motorista (computed) come back on edit and are ignored', async () => {
    const one = (await dp.getOne('ativo', { id: (await dp.getList('ativo', { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).data[0].id })).data;
    expect(one).toHaveProperty('equipamentosList');
    expect(one).toHaveProperty('motorista');
    const res = await admin.put(`/api/ativo/${one.id}`, { ...one, equipamentosList: '999', motorista: 'Outro', cor: 'Verde' });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.cor).toBe('Verde');
  });

  it('system and read-only fields sent in the body are never written', async () => {
    const ativo = (await dp.getList('ativo', { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).data[0];
    const before = await row('ativo', Number(ativo.id));
    await dp.update('ativo', { id: ativo.id, data: { ...ativo, id: 999999, empresaId: B, createdAt: '2000-01-01T00:00:00.000Z' }, previousData: ativo });
    const after = await row('ativo', Number(ativo.id));
    expect(after.empresa_id).toBe(A);
    expect(after.created_at).toEqual(before.created_at);
    expect(await row('ativo', 999999)).toBeUndefined();

    // A new API key: prefixo, usos and ativa are the server's, on create and on update.
    const key = await dp.create('chave_de_api', { data: { descricao: 'Chave padrão', prefixo: 'HACK', usos: 77, ativa: true, empresaId: B } });
    const k = await row('chave_de_api', Number(key.data.id));
    expect(k.prefixo).not.toBe('HACK');
    expect(k.usos).toBe(0);
    expect(k.ativa).toBe(true);
    expect(k.empresa_id).toBe(A);
    await dp.update('chave_de_api', { id: key.data.id, data: { ...key.data, prefixo: 'HACK', usos: 5 }, previousData: key.data });
    expect(await row('chave_de_api', Number(key.data.id))).toMatchObject({ prefixo: k.prefixo, usos: 0, ativa: true });

    // usuario.ativo and chave_de_api.ativa are changed only by their actions: sent back unchanged they are ignored,
    // a change is refused (409 pt-BR) rather than silently dropped.
    expect(await refusal(dp.update('chave_de_api', { id: key.data.id, data: { ...key.data, ativa: false }, previousData: key.data })))
      .toEqual({ status: 409, msg: "O campo Ativa só muda pela ação 'Revogar'" });
    const u = (await dp.getList('usuario', { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'DESC' }, filter: {} })).data[0];
    expect(await refusal(dp.update('usuario', { id: u.id, data: { ...u, ativo: false }, previousData: u })))
      .toEqual({ status: 409, msg: "O campo Ativo só muda pelas ações 'Desativar' e 'Ativar'" });
    const up = await dp.update('usuario', { id: u.id, data: { ...u, ui: { x: 1 } }, previousData: u });
    expect(up.data.ativo).toBe(true);
    expect((await row('usuario', Number(u.id))).ativo).toBe(true);
  });

  it('a field the entity does not have is still refused (400, pt-BR)', async () => {
    const one = (await dp.getList('garagem', { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter: {} })).data[0];
    expect(await refusal(dp.update('garagem', { id: one.id, data: { ...one, naoExiste: 1 }, previousData: one }))).toEqual({ status: 400, msg: 'Campo desconhecido: naoExiste' });
    expect(await refusal(dp.create('garagem', { data: { nome: 'Garagem X', naoExiste: 1 } }))).toEqual({ status: 400, msg: 'Campo desconhecido: naoExiste' });
  });
});
