-- Partition creation safe under concurrency (several gateway processes creating the same month).
CREATE OR REPLACE FUNCTION telemetria.garante_particao(ts timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  inicio timestamptz := date_trunc('month', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  fim    timestamptz := (date_trunc('month', ts AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  nome   text := 'posicao_' || to_char(ts AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass('telemetria.' || nome) IS NULL THEN
    BEGIN
      EXECUTE format('CREATE TABLE IF NOT EXISTS telemetria.%I PARTITION OF telemetria.posicao FOR VALUES FROM (%L) TO (%L)',
                     nome, inicio, fim);
    EXCEPTION WHEN duplicate_table OR unique_violation THEN
      NULL; -- created meanwhile by another session
    END;
  END IF;
  RETURN nome;
END $$;
