// Test/bench databases: a fresh database per test file with the real schema — the committed migrations applied
// by the gateway's migrator (public tables from the entities' metadata, schema telemetria from metadata/telemetria),
// plus one environment and the companies 1..9 the ingest tests and the bench register devices under.
import pg from 'pg';
import { migrateTelemetria } from '../migrate.ts';

const COMPANIES = 9;

export function defaultDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** Creates database `name` on the server of baseUrl; answers its URL and a drop function. */
export async function createDatabase(baseUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally { await admin.end(); }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await migrateTelemetria(pool);
    await pool.query(`INSERT INTO ambiente (id, descricao, created_at, updated_at) VALUES (1, 'Testes', now(), now())`);
    await pool.query(`INSERT INTO empresa (id, ambiente_id, fantasia, created_at, updated_at)
      SELECT g, 1, 'Empresa ' || g, now(), now() FROM generate_series(1, ${COMPANIES}) g`);
    await pool.query(`SELECT setval(pg_get_serial_sequence('ambiente', 'id'), 1), setval(pg_get_serial_sequence('empresa', 'id'), ${COMPANIES})`);
  } finally { await pool.end(); }
  return {
    url,
    drop: async () => {
      const a = new pg.Client({ connectionString: baseUrl });
      await a.connect();
      try { await dropDatabase(a, name); } finally { await a.end(); }
    },
  };
}

/**
 * Drops database `name` through admin (connected to another database of the server). pg's Pool.end() resolves
 * before its connections have said goodbye: a FORCE drop at once would terminate them mid-goodbye, and their pool
 * would emit 'terminating connection due to administrator command' as an error nobody handles. So the sessions get
 * up to `waitMs` to leave on their own; whatever is still there then (a leak) is terminated.
 */
export async function dropDatabase(admin: pg.Client, name: string, waitMs = 10_000): Promise<void> {
  const until = Date.now() + waitMs;
  const sessions = async () => Number((await admin.query('SELECT count(*) n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n);
  while (Date.now() < until && await sessions() > 0) await new Promise((r) => setTimeout(r, 20));
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/** Registers a device of company empresaId linked to ativoId (when given). */
export async function registerDevice(pool: pg.Pool, serial: string, empresaId: number, ativoId?: number, modelo = 'gv50cg', tecnologia = 'queclink'): Promise<number> {
  const { rows } = await pool.query(
    `INSERT INTO equipamento (empresa_id, serial, tecnologia, modelo, ativado, created_at, updated_at)
     VALUES ($1, $2, $3, $4, true, now(), now()) RETURNING id`, [empresaId, serial, tecnologia, modelo]);
  if (ativoId !== undefined) {
    await pool.query(`INSERT INTO ativo (id, empresa_id, descricao, placa, created_at, updated_at)
      SELECT $1, $2, 'Ativo ' || $1::int, 'TST' || $1::int, now(), now() WHERE NOT EXISTS (SELECT 1 FROM ativo WHERE id = $1)`, [ativoId, empresaId]);
    await pool.query(
      `INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at)
       VALUES ($1, $2, $3, now() - interval '1 day', now(), now())`, [empresaId, serial, ativoId]);
  }
  return rows[0].id;
}
