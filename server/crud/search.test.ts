// Quick search (q) at scale: trigram GIN indexes on every entity's search fields, and the list's
// ILIKE query is one PostgreSQL can answer from them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../app/env.ts';
import { ADMIN, startTestServer, type Api, type TestServer } from '../test/harness.ts';
import { planPage } from '../read/index.ts';

let ts: TestServer;
let admin: Api;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await ts.login(ADMIN.login, ADMIN.senha);
});
afterAll(async () => { await ts?.stop(); });

const sql = (q: string, p: unknown[] = []) => ts.orm.em.getConnection().execute(q, p);

it('declares a pg_trgm GIN index on each text search field of every entity', async () => {
  expect(await sql(`select extname from pg_extension where extname = 'pg_trgm'`)).toHaveLength(1);
  const rows = await sql(`select tablename, indexdef from pg_indexes where schemaname = 'public' and indexdef like '%gin_trgm_ops%'`);
  const have = new Set(rows.map((r: any) => `${r.tablename}.${/\((\w+) gin_trgm_ops\)/.exec(r.indexdef)![1]}`));
  const want = ts.model.entities.flatMap((e) => e.search
    .map((n) => e.fields.find((f) => f.name === n)!)
    .filter((f) => f.type === 'string' || f.type === 'text')
    .map((f) => `${e.table}.${f.column}`));
  expect(want.length).toBeGreaterThan(10);
  expect([...have].sort()).toEqual([...new Set(want)].sort());
});

it('answers q through the trigram indexes (bitmap index scans, no sequential scan of ativo)', async () => {
  const e = ts.model.entities.find((x) => x.key === 'ativo')!;
  const s = { empresaAtiva: admin.empresaAtiva, ambienteId: admin.user.ambienteId } as Session;
  // The read engine's statement (bind parameters inlined for EXPLAIN).
  const page = planPage(e, s, { filter: { q: 'amc-12' }, offset: 0, limit: 25 });
  const query = page.sql.replace(/\$(\d+)/g, (_, i) => { const v = page.params[Number(i) - 1]; return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`; });
  expect(query.toLowerCase()).toContain('"placa" ilike');
  expect(query.toLowerCase()).not.toContain('"placa"::text');
  // 30k rows in the company, like a real fleet register: the planner picks the trigram indexes.
  await sql(`insert into ativo (empresa_id, descricao, placa, numero_frota, created_at, updated_at)
    select ?, 'Veículo carga ' || i, chr(65 + (i / 10000) % 26) || chr(65 + (i / 100) % 26) || chr(65 + i % 26) || '-' || lpad((i % 10000)::text, 4, '0'),
      (100000 + i)::text, now(), now() from generate_series(1, 30000) as i on conflict do nothing`, [admin.empresaAtiva]);
  await sql('vacuum analyze ativo'); // flushes the GIN pending lists
  const plan = (await sql(`explain ${query}`)).map((r: any) => r['QUERY PLAN']).join('\n');
  for (const ix of ['ativo_descricao_trgm_index', 'ativo_placa_trgm_index', 'ativo_numero_frota_trgm_index']) expect(plan, query + '\n' + plan).toContain(ix);
  // (the computed columns' subselects on small tables may scan them: the planner's choice, not the q search's)
  expect(plan, plan).not.toMatch(/Seq Scan on ativo\b/);
  // And the API answers it, case-insensitively.
  const res = await admin.get(`/api/ativo?filter=${encodeURIComponent(JSON.stringify({ q: 'amc-12' }))}&range=[0,99]`);
  expect(res.status).toBe(200);
  const rows = await res.json();
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r: any) => /AMC-12/.test(r.placa))).toBe(true);
});
