// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   tabela nova: telemetria.total_diario
//   tabela nova: telemetria.total_diario_estado
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127143036_telemetria extends Migration {

  override name = 'Migration20261127143036_telemetria';

  override up(): void | Promise<void> {
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.total_diario (
  ativo_id integer NOT NULL,
  data text NOT NULL,
  motorista_id integer NOT NULL,
  empresa_id integer,
  serial text,
  primeira_posicao timestamptz,
  ultima_posicao timestamptz,
  posicoes integer NOT NULL,
  distancia double precision NOT NULL,
  tempo_conducao integer NOT NULL,
  tempo_parado integer NOT NULL,
  tempo_marcha_lenta integer NOT NULL,
  tempo_estacionado integer NOT NULL,
  viagens integer NOT NULL,
  velocidade_maxima real NOT NULL,
  hodometro_inicial double precision,
  hodometro_final double precision,
  horimetro double precision,
  combustivel_utilizado double precision,
  combustivel_abastecido double precision,
  eventos jsonb NOT NULL DEFAULT '{}',
  qtd_eventos integer NOT NULL,
  pontuacao double precision NOT NULL,
  cerca_entradas integer,
  cerca_saidas integer,
  tempo_em_cerca integer,
  calculado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (ativo_id, data, motorista_id)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS total_diario_empresa_data ON telemetria.total_diario (empresa_id, data)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS total_diario_motorista_data ON telemetria.total_diario (motorista_id, data)`);
    this.addSql(`GRANT SELECT ON telemetria.total_diario TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.total_diario TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.total_diario ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS total_diario_empresa ON telemetria.total_diario`);
    this.addSql(`CREATE POLICY total_diario_empresa ON telemetria.total_diario TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS total_diario_ingest ON telemetria.total_diario`);
    this.addSql(`CREATE POLICY total_diario_ingest ON telemetria.total_diario TO rastro_ingest USING (true) WITH CHECK (true)`);
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.total_diario_estado (
  ativo_id integer NOT NULL,
  data text NOT NULL,
  empresa_id integer,
  serial text NOT NULL,
  ate timestamptz NOT NULL,
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  speed double precision NOT NULL,
  ignition boolean,
  motorista_id integer NOT NULL,
  odo double precision,
  horas double precision,
  horas_em timestamptz,
  comb double precision,
  comb_em timestamptz,
  nivel double precision,
  nivel_em timestamptz,
  PRIMARY KEY (ativo_id, data)
)`);
    this.addSql(`REVOKE ALL ON telemetria.total_diario_estado FROM rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.total_diario_estado TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.total_diario_estado ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS total_diario_estado_empresa ON telemetria.total_diario_estado`);
    this.addSql(`CREATE POLICY total_diario_estado_empresa ON telemetria.total_diario_estado TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS total_diario_estado_ingest ON telemetria.total_diario_estado`);
    this.addSql(`CREATE POLICY total_diario_estado_ingest ON telemetria.total_diario_estado TO rastro_ingest USING (true) WITH CHECK (true)`);
  }

}
