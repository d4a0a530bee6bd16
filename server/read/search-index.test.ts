// The search box under row-level security (Migration20261127041500_busca_trigram_rls): as the company role, with a
// policy on the table, the `q` search of a list (ILIKE over the entity's search fields) must be answered by the trigram
// indexes, not by reading every row of the company. PostgreSQL allows that only for a LEAKPROOF condition.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE } from '../db/rls.ts';
import { createMigratedDatabase } from '../test/harness.ts';

let c: pg.Client;
beforeAll(async () => {
  const { url, seed } = await createMigratedDatabase();
  c = new pg.Client({ connectionString: url });
  await c.connect();
  const empresa = Number((await c.query('select id from empresa order by id limit 1')).rows[0].id);
  expect(seed).toBeTruthy();
  await c.query(`select set_config('rastro.empresa', $1, false)`, [String(empresa)]);
  // A fleet big enough for the planner to prefer a selective index over the company's rows.
  await c.query(`insert into ativo (empresa_id, descricao, placa, numero_frota, created_at, updated_at)
    select $1, 'Veículo ' || i, 'PLC' || lpad(i::text, 5, '0'), 'F' || i, now(), now() from generate_series(1, 20000) i`, [empresa]);
  await c.query('vacuum analyze ativo'); // flushes the GIN pending lists, as autovacuum would
  expect((await c.query(`select proleakproof from pg_proc where oid = 'pg_catalog.texticlike(text, text)'::regprocedure`)).rows[0].proleakproof).toBe(true);
  // The planner would read a small table whole anyway: forbid that, so the plan shows which index it may use.
  await c.query('set enable_seqscan = off');
});
afterAll(async () => { await c?.end(); });

async function plan(): Promise<string> {
  await c.query(`set role ${APP_ROLE}`);
  try {
    const q = `explain (format text) select id from ativo where placa ilike $1 or descricao ilike $1 or numero_frota ilike $1`;
    return (await c.query(q, ['%ABC1%'])).rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally { await c.query('reset role'); }
}

describe('q search under row-level security', () => {
  it('uses the trigram indexes as the company role', async () => {
    const p = await plan();
    for (const index of ['ativo_placa_trgm_index', 'ativo_descricao_trgm_index', 'ativo_numero_frota_trgm_index']) expect(p).toContain(index);
    expect(p).toMatch(/Index Cond: \(\(placa\)::text ~~\* /);
  });

  it('does not without the migration (the condition would then be a filter over every company row)', async () => {
    await c.query('alter function pg_catalog.texticlike(text, text) not leakproof');
    try {
      const p = await plan();
      expect(p).not.toContain('ativo_placa_trgm_index');
      expect(p).toMatch(/Filter: .*~~\*/);
    } finally { await c.query('alter function pg_catalog.texticlike(text, text) leakproof'); }
  });
});
