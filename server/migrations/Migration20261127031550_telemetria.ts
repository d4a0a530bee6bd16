// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   tabela nova: telemetria.evento
//   tabela nova: telemetria.mensagem_pendente
//   tabela nova: telemetria.posicao
//   tabela nova: telemetria.ultimo_estado
//
// Transition (issue 19): the schema used to come from the gateway's own migrator (server/ingest/migrations
// 001–003, table telemetria.schema_migrations). Every statement above the last two is idempotent, so a database
// made by it (its tables, rows and partitions kept) and an empty one end in the same state; the last two
// statements, added by hand, remove what only the old migrator had: its journal and the one-table partition function.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127031550_telemetria extends Migration {

  override name = 'Migration20261127031550_telemetria';

  override up(): void | Promise<void> {
    this.addSql(`CREATE SCHEMA IF NOT EXISTS telemetria`);
    this.addSql(`DO $$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['rastro_app', 'rastro_ingest'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT', r);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END;
    END IF;
    IF NOT pg_has_role(current_user, r, 'member') THEN
      EXECUTE format('GRANT %I TO %I', r, current_user);
    END IF;
  END LOOP;
END $$`);
    this.addSql(`GRANT USAGE ON SCHEMA telemetria TO rastro_app, rastro_ingest`);
    this.addSql(`CREATE OR REPLACE FUNCTION telemetria.garante_particao(tabela text, ts timestamptz) RETURNS text LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  inicio timestamptz := date_trunc('month', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  fim    timestamptz := (date_trunc('month', ts AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  nome   text := tabela || '_' || to_char(ts AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(format('telemetria.%I', nome)) IS NULL THEN
    BEGIN
      EXECUTE format('CREATE TABLE IF NOT EXISTS telemetria.%I PARTITION OF telemetria.%I FOR VALUES FROM (%L) TO (%L)',
                     nome, tabela, inicio, fim);
    EXCEPTION WHEN duplicate_table OR unique_violation THEN
      NULL; -- created meanwhile by another session
    END;
  END IF;
  RETURN nome;
END $$`);
    this.addSql(`REVOKE EXECUTE ON FUNCTION telemetria.garante_particao(text, timestamptz) FROM PUBLIC`);
    this.addSql(`GRANT EXECUTE ON FUNCTION telemetria.garante_particao(text, timestamptz) TO rastro_ingest`);
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.evento (
  serial text NOT NULL,
  fix_time timestamptz NOT NULL,
  code text NOT NULL,
  key text NOT NULL,
  description text NOT NULL DEFAULT '',
  received_at timestamptz NOT NULL DEFAULT now(),
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  lat double precision,
  lon double precision,
  speed real,
  attributes jsonb,
  PRIMARY KEY (serial, fix_time, code)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS evento_ativo_fix_time ON telemetria.evento (ativo_id, fix_time)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS evento_empresa_fix_time ON telemetria.evento (empresa_id, fix_time)`);
    this.addSql(`GRANT SELECT ON telemetria.evento TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.evento TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.evento ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS evento_empresa ON telemetria.evento`);
    this.addSql(`CREATE POLICY evento_empresa ON telemetria.evento TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS evento_ingest ON telemetria.evento`);
    this.addSql(`CREATE POLICY evento_ingest ON telemetria.evento TO rastro_ingest USING (true) WITH CHECK (true)`);
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.mensagem_pendente (
  id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  serial text NOT NULL,
  protocolo text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  tipo text,
  raw text NOT NULL,
  PRIMARY KEY (id)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS mensagem_pendente_serial ON telemetria.mensagem_pendente (serial, received_at)`);
    this.addSql(`REVOKE ALL ON telemetria.mensagem_pendente FROM rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.mensagem_pendente TO rastro_ingest`);
    this.addSql(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA telemetria TO rastro_ingest`);
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.posicao (
  serial text NOT NULL,
  fix_time timestamptz NOT NULL,
  tipo text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  speed real,
  course real,
  altitude real,
  valid boolean NOT NULL,
  satellites smallint,
  hdop real,
  ignition boolean,
  buffered boolean NOT NULL DEFAULT false,
  attributes jsonb,
  PRIMARY KEY (serial, fix_time, tipo)
) PARTITION BY RANGE (fix_time)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS posicao_ativo_fix_time ON telemetria.posicao (ativo_id, fix_time)`);
    this.addSql(`GRANT SELECT ON telemetria.posicao TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.posicao TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.posicao ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS posicao_empresa ON telemetria.posicao`);
    this.addSql(`CREATE POLICY posicao_empresa ON telemetria.posicao TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS posicao_ingest ON telemetria.posicao`);
    this.addSql(`CREATE POLICY posicao_ingest ON telemetria.posicao TO rastro_ingest USING (true) WITH CHECK (true)`);
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.ultimo_estado (
  serial text NOT NULL,
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  protocolo text,
  modelo text,
  fix_time timestamptz,
  lat double precision,
  lon double precision,
  speed real,
  course real,
  altitude real,
  valid boolean,
  ignition boolean,
  battery real,
  power real,
  ultimo_tipo text,
  ultimo_evento text,
  ultima_comunicacao timestamptz NOT NULL,
  attributes jsonb,
  PRIMARY KEY (serial)
) WITH (fillfactor = 70)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS ultimo_estado_empresa ON telemetria.ultimo_estado (empresa_id)`);
    this.addSql(`GRANT SELECT ON telemetria.ultimo_estado TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.ultimo_estado TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.ultimo_estado ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS ultimo_estado_empresa ON telemetria.ultimo_estado`);
    this.addSql(`CREATE POLICY ultimo_estado_empresa ON telemetria.ultimo_estado TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS ultimo_estado_ingest ON telemetria.ultimo_estado`);
    this.addSql(`CREATE POLICY ultimo_estado_ingest ON telemetria.ultimo_estado TO rastro_ingest USING (true) WITH CHECK (true)`);
    this.addSql(`DROP FUNCTION IF EXISTS telemetria.garante_particao(timestamptz)`);
    this.addSql(`DROP TABLE IF EXISTS telemetria.schema_migrations`);
  }

}
