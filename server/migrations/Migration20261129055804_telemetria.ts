// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   índice novo: ultimo_estado_ativo
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129055804_telemetria extends Migration {

  override name = 'Migration20261129055804_telemetria';

  override up(): void | Promise<void> {
    this.addSql(`CREATE INDEX IF NOT EXISTS ultimo_estado_ativo ON telemetria.ultimo_estado (ativo_id, empresa_id, ultima_comunicacao)`);
  }

}
