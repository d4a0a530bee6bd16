// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   coluna nova: telemetria.posicao.rpm
//   índice alterado: posicao_ativo_fix_time
// By hand: the positions stored before the column get their rpm from their attributes (shared/rpm.ts's SQL as of
// this migration), before the covering index is built over them.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129131334_posicao_rpm extends Migration {

  override name = 'Migration20261129131334_posicao_rpm';

  override up(): void | Promise<void> {
    this.addSql(`ALTER TABLE telemetria.posicao ADD COLUMN IF NOT EXISTS rpm real`);
    this.addSql(`UPDATE telemetria.posicao SET rpm = CASE WHEN coalesce(attributes->>'engine_speed_can', attributes->>'engine_speed_sensor', attributes->>'rpm') ~ '^[0-9]+(\\.[0-9]+)?$'
      THEN coalesce(attributes->>'engine_speed_can', attributes->>'engine_speed_sensor', attributes->>'rpm')::float8 END
      WHERE rpm IS NULL AND jsonb_exists_any(attributes, array['engine_speed_can', 'engine_speed_sensor', 'rpm'])`);
    this.addSql(`DROP INDEX IF EXISTS telemetria.posicao_ativo_fix_time`);
    this.addSql(`CREATE INDEX IF NOT EXISTS posicao_ativo_fix_time ON telemetria.posicao (ativo_id, fix_time, serial, tipo) INCLUDE (empresa_id, lat, lon, speed, course, ignition, rpm)`);
  }

}
