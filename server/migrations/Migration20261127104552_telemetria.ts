// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   tabela nova: telemetria.parada
//   tabela nova: telemetria.viagem
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127104552_telemetria extends Migration {

  override name = 'Migration20261127104552_telemetria';

  override up(): void | Promise<void> {
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.parada (
  serial text NOT NULL,
  inicio timestamptz NOT NULL,
  fim timestamptz NOT NULL,
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  duracao integer NOT NULL,
  ignicao boolean,
  tempo_ligado integer NOT NULL,
  calculado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (serial, inicio)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS parada_ativo_inicio ON telemetria.parada (ativo_id, inicio)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS parada_empresa_inicio ON telemetria.parada (empresa_id, inicio)`);
    this.addSql(`GRANT SELECT ON telemetria.parada TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.parada TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.parada ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS parada_empresa ON telemetria.parada`);
    this.addSql(`CREATE POLICY parada_empresa ON telemetria.parada TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS parada_ingest ON telemetria.parada`);
    this.addSql(`CREATE POLICY parada_ingest ON telemetria.parada TO rastro_ingest USING (true) WITH CHECK (true)`);
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.viagem (
  serial text NOT NULL,
  inicio timestamptz NOT NULL,
  fim timestamptz NOT NULL,
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  lat_inicio double precision NOT NULL,
  lon_inicio double precision NOT NULL,
  lat_fim double precision NOT NULL,
  lon_fim double precision NOT NULL,
  distancia double precision NOT NULL,
  duracao integer NOT NULL,
  velocidade_maxima real NOT NULL,
  velocidade_media real NOT NULL,
  tempo_ocioso integer NOT NULL,
  hodometro_inicio double precision,
  hodometro_fim double precision,
  calculado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (serial, inicio)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS viagem_ativo_inicio ON telemetria.viagem (ativo_id, inicio)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS viagem_empresa_inicio ON telemetria.viagem (empresa_id, inicio)`);
    this.addSql(`GRANT SELECT ON telemetria.viagem TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.viagem TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.viagem ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS viagem_empresa ON telemetria.viagem`);
    this.addSql(`CREATE POLICY viagem_empresa ON telemetria.viagem TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS viagem_ingest ON telemetria.viagem`);
    this.addSql(`CREATE POLICY viagem_ingest ON telemetria.viagem TO rastro_ingest USING (true) WITH CHECK (true)`);
  }

}
