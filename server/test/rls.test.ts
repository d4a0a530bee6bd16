// Company scope in the database (issue 7): row-level security holds for raw SQL with no WHERE inside a request,
// the app role cannot bypass it, and every company-scoped table (metadata scope empresa) carries the policies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import fs from 'node:fs';
import pg from 'pg';
import { EntitySchema } from '@mikro-orm/core';
import type { AppEnv } from '../app/env.ts';
import { HttpError } from '../http/envelope.ts';
import { requireSession, tenant } from '../auth/middleware.ts';
import { migrateTelemetria } from '../ingest/migrate.ts';
import { APP_ROLE, INGEST_ROLE, scopeTransaction, withCompany } from '../db/rls.ts';
import { createMigration } from '../db/migration-tools.ts';
import { ADMIN, migrationsCopy, startTestServer, type Api, type TestServer } from './harness.ts';
import { requestEm } from '../db/context.ts';

let ts: TestServer;
let admin: Api;
let empresaA: number;
let empresaB: number;
const sql = (q: string, p: unknown[] = []) => ts.em().getConnection().execute(q, p) as Promise<any[]>;

const app = new Hono<AppEnv>();
app.onError((err, c) => c.json({ msg: err.message }, err instanceof HttpError ? err.status : 500));
app.use('*', async (c, next) => { c.set('em', ts.orm.em.fork()); await next(); });
// Raw SQL with no WHERE, through the request's EntityManager, inside the company pipeline.
app.get('/raw', requireSession(), tenant(), async (c) => {
  const conn = requestEm(c).getConnection();
  const [who] = (await conn.execute(`select current_user as "user", current_setting('rastro.empresa', true) as empresa`)) as any[];
  const ativos = (await conn.execute('select empresa_id, count(*)::int as n from ativo group by empresa_id order by 1')) as any[];
  const posicoes = (await conn.execute('select empresa_id, count(*)::int as n from telemetria.posicao group by empresa_id order by 1')) as any[];
  const ultimo = (await conn.execute('select serial from telemetria.ultimo_estado order by 1')) as any[];
  // An ORM read without any condition: the database still scopes.
  const semFiltro = (await requestEm(c).find('Ativo' as never, {}, { limit: 1000 })) as any[];
  const updated = (await conn.execute(`update ativo set cor = cor`, [], 'run')) as { affectedRows: number };
  return c.json({
    who, ativos, posicoes, ultimo: ultimo.map((r) => r.serial), updated: updated.affectedRows,
    semFiltro: [...new Set(semFiltro.map((r) => Number(r.empresaId?.id ?? r.empresaId)))],
  });
});
// A write naming another company is refused by the database (WITH CHECK), whatever the handler does.
app.post('/raw-insert', requireSession(), tenant(), async (c) => {
  const b = await c.req.json();
  try {
    await requestEm(c).getConnection().execute(`insert into ativo (empresa_id, descricao, placa, created_at, updated_at) values (?, 'Intruso', 'RLS0001', now(), now())`, [b.empresa], 'run');
    return c.json({ ok: true });
  } catch (e) {
    return c.json({ ok: false, code: (e as { code?: string }).code, msg: (e as Error).message });
  }
});

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
  const empresas = await sql('select id from empresa order by id');
  empresaA = admin.empresaAtiva;
  empresaB = empresas.map((r) => Number(r.id)).find((id) => id !== empresaA)!;
  expect(empresaB).toBeGreaterThan(0);
  // Rows of company B (the seed's demo rows are company A's), written as the system role.
  for (let i = 0; i < 3; i++) {
    await sql(`insert into ativo (empresa_id, descricao, placa, created_at, updated_at) values (?, ?, ?, now(), now())`, [empresaB, `B ${i}`, `BBB${i}000`]);
  }
  const pool = new pg.Pool({ connectionString: ts.databaseUrl, max: 1 });
  try { await migrateTelemetria(pool); } finally { await pool.end(); }
  await sql(`insert into telemetria.posicao (serial, fix_time, tipo, empresa_id, lat, lon, valid) values
    ('A1', now(), 'p', ?, 1, 1, true), ('B1', now(), 'p', ?, 2, 2, true), ('B2', now(), 'p', ?, 2, 2, true), ('X1', now(), 'p', null, 3, 3, true)`, [empresaA, empresaB, empresaB]);
  await sql(`insert into telemetria.ultimo_estado (serial, empresa_id, ultima_comunicacao) values ('A1', ?, now()), ('B1', ?, now()), ('X1', null, now())`, [empresaA, empresaB]);
});
afterAll(async () => { await ts?.stop(); });

describe('row-level security', () => {
  it('raw SQL with no WHERE inside a request sees only the active company rows, as the app role', async () => {
    const all = await sql('select empresa_id, count(*)::int as n from ativo group by empresa_id order by 1');
    expect(all.map((r) => Number(r.empresa_id)).sort()).toEqual([empresaA, empresaB].sort());
    const ownCount = Number(all.find((r) => Number(r.empresa_id) === empresaA).n);

    const res = await app.request('/raw', { headers: admin.headers() });
    expect(res.status).toBe(200);
    const j = await res.json();
    expect(j.who).toEqual({ user: APP_ROLE, empresa: String(empresaA) });
    expect(j.ativos).toEqual([{ empresa_id: empresaA, n: ownCount }]);
    expect(j.posicoes).toEqual([{ empresa_id: empresaA, n: 1 }]);
    expect(j.ultimo).toEqual(['A1']);
    expect(j.semFiltro).toEqual([empresaA]);
    expect(j.updated).toBe(ownCount);
  });

  it('the same connection pool answers the system role again outside a request', async () => {
    const [who] = await sql(`select current_user as "user", current_setting('rastro.empresa', true) as empresa`);
    expect(who.user).not.toBe(APP_ROLE);
    expect(who.empresa ?? '').toBe('');
    const [n] = await sql('select count(distinct empresa_id)::int as n from ativo');
    expect(n.n).toBe(2);
  });

  it('a row for another company is refused by the database', async () => {
    const r = await (await app.request('/raw-insert', { method: 'POST', headers: { ...admin.headers(), 'content-type': 'application/json' }, body: JSON.stringify({ empresa: empresaB }) })).json();
    expect(r.ok).toBe(false);
    expect(r.code).toBe('42501'); // new row violates row-level security policy
    const own = await (await app.request('/raw-insert', { method: 'POST', headers: { ...admin.headers(), 'content-type': 'application/json' }, body: JSON.stringify({ empresa: empresaA }) })).json();
    expect(own).toEqual({ ok: true });
  });

  it('withCompany scopes each company in turn on the shared pool', async () => {
    const seen = await Promise.all([empresaA, empresaB, empresaA, empresaB].map((e) => withCompany(e, async () => {
      const rows = await sql('select distinct empresa_id from ativo');
      return rows.map((r) => Number(r.empresa_id));
    })));
    expect(seen).toEqual([[empresaA], [empresaB], [empresaA], [empresaB]]);
  });

  it('a transaction of another pool (exports) is scoped for that transaction only', async () => {
    const c = new pg.Client({ connectionString: ts.databaseUrl });
    await c.connect();
    try {
      const inside = await withCompany(empresaB, async () => {
        await c.query('begin read only');
        await scopeTransaction(c);
        const r = (await c.query('select current_user as u, array_agg(distinct empresa_id) as e from ativo')).rows[0];
        await c.query('commit');
        return r;
      });
      expect(inside).toEqual({ u: APP_ROLE, e: [empresaB] });
      const after = (await c.query('select current_user as u, count(distinct empresa_id)::int as n from ativo')).rows[0];
      expect(after.u).not.toBe(APP_ROLE);
      expect(after.n).toBe(2);
    } finally { await c.end(); }
  });

  it('the ingest role writes and reads every company; the app role cannot reach a partition directly', async () => {
    const c = new pg.Client({ connectionString: ts.databaseUrl });
    await c.connect();
    try {
      await c.query(`set role ${INGEST_ROLE}`);
      const n = (await c.query('select count(distinct empresa_id)::int as n from ativo')).rows[0].n;
      expect(n).toBe(2);
      const part = (await c.query(`select telemetria.garante_particao('posicao', '2031-05-10T00:00:00Z') as p`)).rows[0].p;
      expect(part).toBe('posicao_2031_05');
      await c.query(`insert into telemetria.posicao (serial, fix_time, tipo, empresa_id, lat, lon, valid) values ('B9', '2031-05-10T00:00:00Z', 'p', $1, 1, 1, true)`, [empresaB]);
      await c.query(`reset role`);
      await c.query(`select set_config('rastro.empresa', $1, false), set_config('role', '${APP_ROLE}', false)`, [String(empresaA)]);
      await expect(c.query('select count(*) from telemetria.posicao_2031_05')).rejects.toMatchObject({ code: '42501' });
      await expect(c.query(`select telemetria.garante_particao('posicao', '2031-06-10T00:00:00Z')`)).rejects.toMatchObject({ code: '42501' });
    } finally { await c.end(); }
  });

  it('a new company-scoped register gets RLS and its policies from npm run migration:create', async () => {
    const Empresa = ts.bundle.entities.find((e) => e.meta.className === 'Empresa')!;
    const Novo = new EntitySchema<any>({
      name: 'TesteRls', tableName: 'teste_rls',
      properties: {
        id: { type: 'integer', primary: true, autoincrement: true },
        empresaId: { kind: 'm:1', entity: () => Empresa, fieldName: 'empresa_id' },
        nome: { type: 'string', length: 40 },
      },
    });
    const dir = migrationsCopy();
    try {
      const res = await createMigration({ entities: [...ts.bundle.entities, Novo], migrationsPath: dir, name: 'teste_rls' });
      expect(res.sql).toContain('alter table "teste_rls" enable row level security;');
      expect(res.sql).toContain(`create policy "teste_rls_empresa" on "teste_rls" to "${APP_ROLE}" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
      expect(res.sql).toContain(`create policy "teste_rls_ingest" on "teste_rls" to "${INGEST_ROLE}" using (true) with check (true);`);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });

  it('the app and ingest roles cannot bypass RLS', async () => {
    const roles = await sql('select rolname, rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname in (?, ?) order by 1', [APP_ROLE, INGEST_ROLE]);
    expect(roles).toEqual([
      { rolname: APP_ROLE, rolsuper: false, rolbypassrls: false, rolcanlogin: false },
      { rolname: INGEST_ROLE, rolsuper: false, rolbypassrls: false, rolcanlogin: false },
    ]);
    // Tables are owned by the system role, not the app role (else FORCE would be needed).
    const owned = await sql(`select count(*)::int as n from pg_tables where tableowner = ?`, [APP_ROLE]);
    expect(owned[0].n).toBe(0);
  });

  it('every company-scoped table (metadata scope empresa) and telemetria table with empresa_id has RLS and its policy', async () => {
    const tables = ts.model.entities.filter((e) => e.scope === 'empresa').map((e) => `public.${e.table}`);
    expect(tables.length).toBeGreaterThanOrEqual(10);
    tables.push('telemetria.posicao', 'telemetria.evento', 'telemetria.ultimo_estado');
    const rows = await sql(`select n.nspname || '.' || c.relname as t, c.relrowsecurity as rls,
        (select count(*)::int from pg_policies p where p.schemaname = n.nspname and p.tablename = c.relname and ? = any(p.roles)) as app
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p') and n.nspname || '.' || c.relname in (?)`, [APP_ROLE, tables]);
    const got = Object.fromEntries(rows.map((r) => [r.t, { rls: r.rls, app: r.app }]));
    expect(got).toEqual(Object.fromEntries(tables.map((t) => [t, { rls: true, app: 1 }])));
  });
});
