// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   tabela nova: telemetria.endereco
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127063852_telemetria extends Migration {

  override name = 'Migration20261127063852_telemetria';

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
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.endereco (
  empresa_id integer NOT NULL,
  lat_key integer NOT NULL,
  lon_key integer NOT NULL,
  endereco text NOT NULL,
  fonte text NOT NULL,
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (empresa_id, lat_key, lon_key)
)`);
    this.addSql(`GRANT SELECT ON telemetria.endereco TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.endereco TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.endereco ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS endereco_empresa ON telemetria.endereco`);
    this.addSql(`CREATE POLICY endereco_empresa ON telemetria.endereco TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS endereco_ingest ON telemetria.endereco`);
    this.addSql(`CREATE POLICY endereco_ingest ON telemetria.endereco TO rastro_ingest USING (true) WITH CHECK (true)`);
  }

}
