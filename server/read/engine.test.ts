// The read engine answers exactly what the ORM gives for the same rows (serialization byte for byte), for every
// entity of the model, runs as the company role and prepares its statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityMeta } from '../../shared/model.ts';
import type { Session } from '../app/env.ts';
import { ADMIN, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { entityByKey, getModel, ormName } from '../core/registry.ts';
import { LABELS, readOne, readPage, visibleFields } from './engine.ts';
import { computedColumns } from './computed.ts';
import { withCompany } from '../db/rls.ts';
import { readRows } from '../db/read-pool.ts';
import { scopeWhere } from '../tenancy/scope.ts';
import { serialize, type Row } from '../crud/query.ts';
import { engineSession } from './testing/session.ts';

let ts: TestServer;
let admin: Api;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await ts?.stop(); });

/** A session of the admin's company that administers every company (no `companies` narrowing). */
const sessionOf = (empresa: number) => engineSession(admin.user, empresa);
const page = (e: EntityMeta, s: Session, offset = 0, limit = 1000) => readPage(ts.orm.em.fork(), e, s, { sort: ['id', 'ASC'], offset, limit });

describe('read engine', () => {
  it('gives the ORM serialization byte for byte on every entity', async () => {
    let served = 0, rowsSeen = 0;
    const s = sessionOf(admin.empresaAtiva);
    for (const e of getModel().entities) {
      const em = ts.orm.em.fork();
      const got = await readPage(em, e, s, { sort: ['id', 'DESC'], offset: 0, limit: 200 });
      served++;
      const orm = await em.find(ormName(em, e), scopeWhere(e, s) as never, { orderBy: { id: 'DESC' } as never, limit: 200 });
      const total = await em.count(ormName(em, e), scopeWhere(e, s) as never);
      const expected = orm.map((r) => serialize(e, r as Row));
      // Computed columns: the same expressions, run apart.
      const cols = computedColumns(e);
      for (const r of expected) for (const c of computedColumns(e)) r[c.source] = null;
      if (cols.length && expected.length) {
        const vals = await em.getConnection().execute(`SELECT t.id, ${cols.map((c) => `${c.sql.replaceAll('{this}', 't')} AS "${c.source}"`).join(', ')} FROM "${e.table}" t WHERE t.id = ANY(?::bigint[])`, [`{${expected.map((r) => r.id).join(',')}}`]) as Row[];
        for (const r of expected) { const v = vals.find((x) => Number(x.id) === r.id)!; for (const c of cols) r[c.source] = v[c.source] ?? null; }
      }
      // Reference labels: the referenced rows the session sees, by the ORM.
      const refs = visibleFields(e).filter((f) => !f.system && (f.type === 'reference' || f.type === 'referenceList') && f.reference);
      if (refs.length) {
        for (const r of expected) r[LABELS] = {};
        for (const f of refs) {
          const t = entityByKey(f.reference!)!;
          const ids = [...new Set(expected.flatMap((r) => (f.type === 'reference' ? [r[f.name]] : r[f.name] ?? [])).filter((x) => x != null))];
          const found = ids.length ? await em.find(ormName(em, t), { $and: [{ id: { $in: ids } }, scopeWhere(t, s)] } as never) as Row[] : [];
          const label = (id: unknown) => { const x = found.find((y) => Number(y.id) === Number(id)); return x ? String(x[t.recordRepresentation]) : null; };
          for (const r of expected) {
            const v = r[f.name];
            r[LABELS][f.name] = f.type === 'reference' ? (v == null ? null : label(v)) : (Array.isArray(v) && v.length ? v.map(label) : null);
          }
        }
      }
      expect(JSON.stringify(got.rows), e.key).toBe(JSON.stringify(expected));
      expect(got.total, e.key).toBe(total);
      rowsSeen += got.rows.length;
      if (got.rows.length) {
        const one = await readOne(em, e, s, got.rows[0].id);
        expect(JSON.stringify(one), e.key).toBe(JSON.stringify(got.rows[0]));
      }
    }
    expect(served).toBe(getModel().entities.length);
    expect(rowsSeen).toBeGreaterThan(100);
  });

  it('runs as the company role: without the WHERE, row-level security alone still hides other companies', async () => {
    const ativo = getModel().entities.find((x) => x.key === 'ativo')!;
    // A scope without a company condition (a hand-made entity copy as global): only row-level security narrows.
    const global = { ...ativo, scope: 'global' } as EntityMeta;
    const all = await page(global, sessionOf(admin.empresaAtiva));
    const companies = new Set(all!.rows.map((r) => r.empresaId));
    expect(companies.size).toBeGreaterThan(1);
    const scoped = await withCompany(admin.empresaAtiva, () => page(global, sessionOf(admin.empresaAtiva)));
    expect(scoped!.rows.length).toBeGreaterThan(0);
    expect(scoped!.rows.every((r) => r.empresaId === admin.empresaAtiva)).toBe(true);
    expect(scoped!.total).toBe(all!.rows.filter((r) => r.empresaId === admin.empresaAtiva).length);
  });

  it('prepared statements (generic plans included) follow the role and the company of each execution', async () => {
    const ativo = getModel().entities.find((x) => x.key === 'ativo')!;
    const companies = admin.user.empresas.map((e: { id: number }) => e.id) as number[];
    expect(companies.length).toBeGreaterThan(1);
    const all = (await page({ ...ativo, scope: 'global' } as EntityMeta, sessionOf(admin.empresaAtiva))).rows;
    // Sequential calls reuse one pooled connection: the statement is prepared once and, after five runs, planned
    // generically; each company still sees only its rows (the policy reads the company setting at execution).
    for (let i = 0; i < 8; i++) {
      for (const e of companies) {
        const got = await withCompany(e, () => page(ativo, sessionOf(e)));
        expect(got.rows.map((r) => r.id)).toEqual(all.filter((r) => r.empresaId === e).map((r) => r.id));
        expect(got.total).toBe(all.filter((r) => r.empresaId === e).length);
      }
    }
    // On the read pool's connection (server/db/read-pool.ts; sequential reads take the same idle connection).
    const prepared = await readRows<{ runs: number }>(ts.orm.em, `select name, generic_plans + custom_plans as runs from pg_prepared_statements where name like 'rastro_read_%'`);
    expect(prepared.length).toBeGreaterThan(0);
    expect(Math.max(...prepared.map((x) => Number(x.runs)))).toBeGreaterThanOrEqual(8);
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
