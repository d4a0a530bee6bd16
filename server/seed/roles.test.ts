// Every role the seed writes (both companies of the demo data) holds only keys of the generated permission list, so
// its form saves it back unchanged: the read-only role once held 'perfil' (a screen every user opens, no key) and
// answered 400 on an unchanged save.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, json, startTestServer, type Api, type TestServer } from '../test/harness.ts';

let ts: TestServer;
let admin: Api;
const catalogue = new Set((JSON.parse(readFileSync(new URL('../generated/permissions.json', import.meta.url), 'utf8')) as { key: string }[]).map((p) => p.key));

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await ts?.stop(); });

describe('seeded roles', () => {
  it('hold only keys of the permission list', async () => {
    const cargos = (await ts.em().getConnection().execute('select id, descricao, permissoes from cargo order by id')) as { id: number; descricao: string; permissoes: string[] }[];
    expect(cargos.map((c) => c.descricao)).toEqual(['Administrador', 'Somente leitura', 'Administrador', 'Somente leitura']);
    expect(catalogue.size).toBeGreaterThan(100);
    for (const c of cargos) {
      expect(c.permissoes.length).toBeGreaterThan(10);
      expect([c.descricao, c.permissoes.filter((k) => !catalogue.has(k))]).toEqual([c.descricao, []]);
    }
  });

  it('the read-only role saves unchanged through its form (PUT of what GET answered: 200)', async () => {
    const id = ts.seed!.ids!.cargo[1];
    const got = await json(await admin.get(`/api/cargo/${id}`));
    const row = got.payload ?? got;
    expect(row.descricao).toBe('Somente leitura');
    const r = await admin.put(`/api/cargo/${id}`, row);
    const body = await json(r);
    expect(r.status, JSON.stringify(body)).toBe(200);
    const after = await json(await admin.get(`/api/cargo/${id}`));
    expect([...(after.payload ?? after).permissoes].sort()).toEqual([...row.permissoes].sort());
  });
});
