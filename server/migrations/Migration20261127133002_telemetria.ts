// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   tabela nova: telemetria.cerca_permanencia
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127133002_telemetria extends Migration {

  override name = 'Migration20261127133002_telemetria';

  override up(): void | Promise<void> {
    this.addSql(`CREATE TABLE IF NOT EXISTS telemetria.cerca_permanencia (
  serial text NOT NULL,
  cerca_id integer NOT NULL,
  entrada timestamptz NOT NULL,
  saida timestamptz,
  duracao integer,
  empresa_id integer,
  ativo_id integer,
  motorista_id integer,
  calculado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (serial, cerca_id, entrada)
)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS cerca_permanencia_ativo_entrada ON telemetria.cerca_permanencia (ativo_id, entrada)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS cerca_permanencia_cerca_entrada ON telemetria.cerca_permanencia (cerca_id, entrada)`);
    this.addSql(`CREATE INDEX IF NOT EXISTS cerca_permanencia_empresa_entrada ON telemetria.cerca_permanencia (empresa_id, entrada)`);
    this.addSql(`GRANT SELECT ON telemetria.cerca_permanencia TO rastro_app`);
    this.addSql(`GRANT SELECT, INSERT, UPDATE, DELETE ON telemetria.cerca_permanencia TO rastro_ingest`);
    this.addSql(`ALTER TABLE telemetria.cerca_permanencia ENABLE ROW LEVEL SECURITY`);
    this.addSql(`DROP POLICY IF EXISTS cerca_permanencia_empresa ON telemetria.cerca_permanencia`);
    this.addSql(`CREATE POLICY cerca_permanencia_empresa ON telemetria.cerca_permanencia TO rastro_app USING (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer)`);
    this.addSql(`DROP POLICY IF EXISTS cerca_permanencia_ingest ON telemetria.cerca_permanencia`);
    this.addSql(`CREATE POLICY cerca_permanencia_ingest ON telemetria.cerca_permanencia TO rastro_ingest USING (true) WITH CHECK (true)`);
  }

}
