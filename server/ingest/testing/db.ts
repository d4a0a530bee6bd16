// Test/bench databases: a fresh database per test file. Uses the server harness schema when present;
// otherwise creates the public tables the gateway reads (same shape as the generated entities).
import pg from 'pg';

export const HDW_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS ativo (id serial PRIMARY KEY, empresa_id int NOT NULL);
CREATE TABLE IF NOT EXISTS equipamento (id serial PRIMARY KEY, empresa_id int NOT NULL, serial varchar(20) NOT NULL,
  tecnologia varchar(20) NOT NULL DEFAULT 'queclink', modelo varchar(20) NOT NULL DEFAULT 'gv50cg', firmware varchar(60),
  simcard varchar(30), ativado boolean NOT NULL DEFAULT true, ultima_comunicacao timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS equipamento_ativo (id serial PRIMARY KEY, empresa_id int NOT NULL, serial varchar(20) NOT NULL,
  ativo_id int NOT NULL, data_inicio timestamptz NOT NULL, data_fim timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS fila_processamento (id serial PRIMARY KEY, empresa_id int NOT NULL, serial varchar(20) NOT NULL,
  event varchar(30) NOT NULL, value jsonb, processing boolean NOT NULL DEFAULT false, status varchar(20) NOT NULL DEFAULT 'pendente',
  tentativas int NOT NULL DEFAULT 0, enviado_em timestamptz, concluido_em timestamptz, resposta text,
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS equipamento_pendente (id serial PRIMARY KEY, serial varchar(40) NOT NULL UNIQUE, protocolo varchar(20) NOT NULL,
  primeira_mensagem timestamptz NOT NULL, ultima_mensagem timestamptz NOT NULL, quantidade int NOT NULL DEFAULT 0,
  descartadas int NOT NULL DEFAULT 0,
  ultima_mensagem_bruta text, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());`;

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
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { await c.query(HDW_TABLES_SQL); } finally { await c.end(); }
  return {
    url,
    drop: async () => {
      const a = new pg.Client({ connectionString: baseUrl });
      await a.connect();
      try { await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`); } finally { await a.end(); }
    },
  };
}

/** Registers a device of company empresaId linked to ativoId (when given). */
export async function registerDevice(pool: pg.Pool, serial: string, empresaId: number, ativoId?: number, modelo = 'gv50cg', tecnologia = 'queclink'): Promise<number> {
  const { rows } = await pool.query(
    `INSERT INTO equipamento (empresa_id, serial, tecnologia, modelo, ativado, created_at, updated_at)
     VALUES ($1, $2, $3, $4, true, now(), now()) RETURNING id`, [empresaId, serial, tecnologia, modelo]);
  if (ativoId !== undefined) {
    // The minimal test schema has a bare ativo table; with the real schema the asset already exists.
    await pool.query(`INSERT INTO ativo (id, empresa_id) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM ativo WHERE id = $1)`, [ativoId, empresaId]);
    await pool.query(
      `INSERT INTO equipamento_ativo (empresa_id, serial, ativo_id, data_inicio, created_at, updated_at)
       VALUES ($1, $2, $3, now() - interval '1 day', now(), now())`, [empresaId, serial, ativoId]);
  }
  return rows[0].id;
}
