-- Ingest tables (schema telemetria, hand-written; the ORM schema diff ignores this schema).

-- Positions: partitioned by month on fix_time; the PK makes writes idempotent (device + fix time + type).
CREATE TABLE telemetria.posicao (
  serial       text             NOT NULL,
  fix_time     timestamptz      NOT NULL,
  tipo         text             NOT NULL,
  received_at  timestamptz      NOT NULL DEFAULT now(),
  empresa_id   integer,
  ativo_id     integer,
  motorista_id integer,
  lat          double precision NOT NULL,
  lon          double precision NOT NULL,
  speed        real,
  course       real,
  altitude     real,
  valid        boolean          NOT NULL,
  satellites   smallint,
  hdop         real,
  ignition     boolean,
  buffered     boolean          NOT NULL DEFAULT false,
  attributes   jsonb,
  PRIMARY KEY (serial, fix_time, tipo)
) PARTITION BY RANGE (fix_time);

-- History by asset (the PK already serves device + time).
CREATE INDEX posicao_ativo_fix_time ON telemetria.posicao (ativo_id, fix_time);

-- Events with the catalogue key and the asset/driver/company at that moment.
CREATE TABLE telemetria.evento (
  serial       text             NOT NULL,
  fix_time     timestamptz      NOT NULL,
  code         text             NOT NULL,
  key          text             NOT NULL,
  description  text             NOT NULL DEFAULT '',
  received_at  timestamptz      NOT NULL DEFAULT now(),
  empresa_id   integer,
  ativo_id     integer,
  motorista_id integer,
  lat          double precision,
  lon          double precision,
  speed        real,
  attributes   jsonb,
  PRIMARY KEY (serial, fix_time, code)
);
CREATE INDEX evento_empresa_fix_time ON telemetria.evento (empresa_id, fix_time);
CREATE INDEX evento_ativo_fix_time ON telemetria.evento (ativo_id, fix_time);

-- Latest state per device, updated in the same transaction as the positions.
CREATE TABLE telemetria.ultimo_estado (
  serial             text PRIMARY KEY,
  empresa_id         integer,
  ativo_id           integer,
  motorista_id       integer,
  protocolo          text,
  modelo             text,
  fix_time           timestamptz,
  lat                double precision,
  lon                double precision,
  speed              real,
  course             real,
  altitude           real,
  valid              boolean,
  ignition           boolean,
  battery            real,
  power              real,
  ultimo_tipo        text,
  ultimo_evento      text,
  ultima_comunicacao timestamptz NOT NULL,
  attributes         jsonb
) WITH (fillfactor = 70);
CREATE INDEX ultimo_estado_empresa ON telemetria.ultimo_estado (empresa_id);

-- Raw messages of unknown devices (the summary lives in public.equipamento_pendente).
CREATE TABLE telemetria.mensagem_pendente (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  serial      text        NOT NULL,
  protocolo   text        NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  tipo        text,
  raw         text        NOT NULL
);
CREATE INDEX mensagem_pendente_serial ON telemetria.mensagem_pendente (serial, received_at);

-- Creates the monthly partition of posicao holding ts (idempotent).
CREATE FUNCTION telemetria.garante_particao(ts timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  inicio timestamptz := date_trunc('month', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  fim    timestamptz := (date_trunc('month', ts AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  nome   text := 'posicao_' || to_char(ts AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass('telemetria.' || nome) IS NULL THEN
    EXECUTE format('CREATE TABLE IF NOT EXISTS telemetria.%I PARTITION OF telemetria.posicao FOR VALUES FROM (%L) TO (%L)',
                   nome, inicio, fim);
  END IF;
  RETURN nome;
END $$;
