-- Row-level security on the telemetria tables carrying empresa_id (issue 7; design in server/db/rls.ts).
-- rastro_app (the API inside a company's request) sees and writes only the rows of the company in the setting
-- rastro.empresa (unset: none); rastro_ingest (the gateway writer) every row. The owner/superuser that runs the
-- migrations and the gateway today bypasses RLS (tables not FORCEd). Roles are cluster-wide: created when missing
-- (the public migration *_rls does the same; whichever runs first creates them).
DO $$
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
END $$;

GRANT USAGE ON SCHEMA telemetria TO rastro_app, rastro_ingest;
-- Partitions are never granted to rastro_app: it reads positions only through telemetria.posicao (and its policy).
GRANT SELECT ON telemetria.posicao, telemetria.evento, telemetria.ultimo_estado TO rastro_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA telemetria TO rastro_ingest;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA telemetria TO rastro_ingest;

ALTER TABLE telemetria.posicao ENABLE ROW LEVEL SECURITY;
ALTER TABLE telemetria.evento ENABLE ROW LEVEL SECURITY;
ALTER TABLE telemetria.ultimo_estado ENABLE ROW LEVEL SECURITY;

CREATE POLICY posicao_empresa ON telemetria.posicao TO rastro_app
  USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);
CREATE POLICY evento_empresa ON telemetria.evento TO rastro_app
  USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);
CREATE POLICY ultimo_estado_empresa ON telemetria.ultimo_estado TO rastro_app
  USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);
CREATE POLICY posicao_ingest ON telemetria.posicao TO rastro_ingest USING (true) WITH CHECK (true);
CREATE POLICY evento_ingest ON telemetria.evento TO rastro_ingest USING (true) WITH CHECK (true);
CREATE POLICY ultimo_estado_ingest ON telemetria.ultimo_estado TO rastro_ingest USING (true) WITH CHECK (true);

-- A gateway running as rastro_ingest still creates the monthly partitions: with the owner's rights.
ALTER FUNCTION telemetria.garante_particao(timestamptz) SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
REVOKE EXECUTE ON FUNCTION telemetria.garante_particao(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION telemetria.garante_particao(timestamptz) TO rastro_ingest;
