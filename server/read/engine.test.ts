// The SQL read path (fast.ts) answers exactly what the ORM path answers, for every entity it serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { getModel, ormName } from '../core/registry.ts';
import { fastOne, fastPage } from './fast.ts';
import { addComputed } from './computed.ts';
import { withCompany } from '../db/rls.ts';
import { relationFields, serialize, type Row } from './query.ts';

let ts: TestServer;
let admin: Api;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await ts?.stop(); });

describe('fast read path', () => {
  it('gives the ORM serialization byte for byte on every entity it serves', async () => {
    let served = 0, rowsSeen = 0;
    for (const e of getModel().entities) {
      const em = ts.orm.em.fork();
      const fast = await fastPage(em, e, {}, [{ id: 'DESC' }], 0, 200);
      if (!fast) continue;
      served++;
      const orm = await em.find(ormName(em, e), {} as never, { orderBy: { id: 'DESC' } as never, limit: 200, filters: false, populate: relationFields(em, e) as never[] });
      const total = await em.count(ormName(em, e), {} as never, { filters: false });
      const expected = orm.map((r) => serialize(e, r as Row));
      await addComputed(em, e, expected);
      expect(JSON.stringify(fast.rows), e.key).toBe(JSON.stringify(expected));
      expect(fast.total, e.key).toBe(total);
      rowsSeen += fast.rows.length;
      if (fast.rows.length) {
        const one = await fastOne(em, e, { $and: [{ id: fast.rows[0].id }] });
        expect(JSON.stringify(one), e.key).toBe(JSON.stringify(fast.rows[0]));
      }
    }
    expect(served).toBeGreaterThan(10);
    expect(rowsSeen).toBeGreaterThan(100);
  });

  it('runs as the company role: without the WHERE, row-level security alone still hides other companies', async () => {
    const ativo = getModel().entities.find((x) => x.key === 'ativo')!;
    const all = await fastPage(ts.orm.em.fork(), ativo, {}, [{ id: 'ASC' }], 0, 1000);
    const companies = new Set(all!.rows.map((r) => r.empresaId));
    expect(companies.size).toBeGreaterThan(1);
    const scoped = await withCompany(admin.empresaAtiva, () => fastPage(ts.orm.em.fork(), ativo, {}, [{ id: 'ASC' }], 0, 1000));
    expect(scoped!.rows.length).toBeGreaterThan(0);
    expect(scoped!.rows.every((r) => r.empresaId === admin.empresaAtiva)).toBe(true);
    expect(scoped!.total).toBe(all!.rows.filter((r) => r.empresaId === admin.empresaAtiva).length);
  });

  it('prepared statements (generic plans included) follow the role and the company of each execution', async () => {
    const ativo = getModel().entities.find((x) => x.key === 'ativo')!;
    const companies = admin.user.empresas.map((e: { id: number }) => e.id) as number[];
    expect(companies.length).toBeGreaterThan(1);
    const all = (await fastPage(ts.orm.em.fork(), ativo, {}, [{ id: 'ASC' }], 0, 1000))!.rows;
    // Sequential calls reuse one pooled connection: the statement is prepared once and, after five runs, planned
    // generically; each company still sees only its rows (the policy reads the company setting at execution).
    for (let i = 0; i < 8; i++) {
      for (const e of companies) {
        const page = await withCompany(e, () => fastPage(ts.orm.em.fork(), ativo, {}, [{ id: 'ASC' }], 0, 1000));
        expect(page!.rows.map((r) => r.id)).toEqual(all.filter((r) => r.empresaId === e).map((r) => r.id));
        expect(page!.total).toBe(all.filter((r) => r.empresaId === e).length);
      }
    }
    const prepared = await ts.orm.em.getConnection().execute(`select name, generic_plans + custom_plans as runs from pg_prepared_statements where name like 'rastro_fast_%'`) as { runs: number }[];
    expect(prepared.length).toBeGreaterThan(0);
    expect(Math.max(...prepared.map((x) => Number(x.runs)))).toBeGreaterThanOrEqual(8);
  });

  it('leaves to the ORM what it does not know (m:n lists)', async () => {
    const usuario = getModel().entities.find((x) => x.key === 'usuario')!;
    expect(await fastPage(ts.orm.em.fork(), usuario, {}, [{ id: 'ASC' }], 0, 10)).toBeUndefined();
  });

  it('keeps the company check: another company\'s id is 404, filters and sort as before', async () => {
    const own = await (await admin.get('/api/ativo?sort=["placa","ASC"]&range=[0,4]')).json();
    expect(own).toHaveLength(5);
    const [other] = await ts.orm.em.getConnection().execute('select id from ativo where empresa_id <> ? order by id limit 1', [admin.empresaAtiva]) as { id: number }[];
    expect(other).toBeDefined();
    expect((await admin.get(`/api/ativo/${other.id}`)).status).toBe(404);
    const mine = await admin.get(`/api/ativo/${own[0].id}`);
    expect(mine.status).toBe(200);
    expect((await mine.json()).placa).toBe(own[0].placa);
    const byIds = await admin.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ id: [own[1].id, other.id] }))}`);
    expect((await byIds.json()).map((r: Row) => r.id)).toEqual([own[1].id]);
    expect(byIds.headers.get('content-range')).toBe('ativo 0-0/1');
    const beyond = await admin.get('/api/ativo?range=[5000,5009]');
    expect(await beyond.json()).toEqual([]);
    expect(beyond.headers.get('content-range')).toBe(`ativo 5000-5000/${Number((await admin.get('/api/ativo?range=[0,0]')).headers.get('content-range')!.split('/')[1])}`);
  });
});
