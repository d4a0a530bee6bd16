// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   tabela nova: telemetria.embarque
//   tabela nova: telemetria.viagem_passageiro
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127172945_telemetria extends Migration {

  override name = 'Migration20261127172945_telemetria';

  override up(): void | Promise<void> {
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.embarque (
  serial text NOT NULL,
  tag text NOT NULL,
  entrada timestamptz NOT NULL,
  saida timestamptz,
  viagem_inicio timestamptz NOT NULL,
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  passageiro_id integer,
  itinerario_id integer,
  lat_entrada double precision,
  lon_entrada double precision,
  lat_saida double precision,
  lon_saida double precision,
  inconsistencia text,
  calculado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (serial, tag, entrada)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS embarque_empresa_entrada ON telemetria.embarque (empresa_id, entrada)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS embarque_passageiro_entrada ON telemetria.embarque (passageiro_id, entrada)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS embarque_serial_viagem ON telemetria.embarque (serial, viagem_inicio)`);
    this.addSql(`GRANT SELECT ON telemetria.embarque TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.embarque TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.embarque ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS embarque_empresa ON telemetria.embarque`);
    this.addSql(`CREATE POLICY embarque_empresa ON telemetria.embarque TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS embarque_ingest ON telemetria.embarque`);
    this.addSql(`CREATE POLICY embarque_ingest ON telemetria.embarque TO rastro_ingest USING (true) WITH CHECK (true)`);
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.viagem_passageiro (
  serial text NOT NULL,
  inicio timestamptz NOT NULL,
  fim timestamptz,
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  itinerario_id integer,
  direcao text,
  qtd_passageiros integer NOT NULL DEFAULT 0,
  lotacao integer NOT NULL DEFAULT 0,
  a_bordo integer NOT NULL DEFAULT 0,
  hodometro_inicio double precision,
  hodometro_fim double precision,
  lat_inicio double precision,
  lon_inicio double precision,
  calculado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (serial, inicio)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS viagem_passageiro_ativo_inicio ON telemetria.viagem_passageiro (ativo_id, inicio)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS viagem_passageiro_empresa_inicio ON telemetria.viagem_passageiro (empresa_id, inicio)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS viagem_passageiro_itinerario_inicio ON telemetria.viagem_passageiro (itinerario_id, inicio)`);
    this.addSql(`GRANT SELECT ON telemetria.viagem_passageiro TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.viagem_passageiro TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.viagem_passageiro ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS viagem_passageiro_empresa ON telemetria.viagem_passageiro`);
    this.addSql(`CREATE POLICY viagem_passageiro_empresa ON telemetria.viagem_passageiro TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS viagem_passageiro_ingest ON telemetria.viagem_passageiro`);
    this.addSql(`CREATE POLICY viagem_passageiro_ingest ON telemetria.viagem_passageiro TO rastro_ingest USING (true) WITH CHECK (true)`);
  }

}
