// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   coluna nova: telemetria.viagem.em_andamento
//   coluna nova: telemetria.viagem.atributos
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127141153_telemetria extends Migration {

  override name = 'Migration20261127141153_telemetria';

  override up(): void | Promise<void> {
    this.addSql(`ALTER TABLE telemetria.viagem ADD COLUMN IF NOT EXISTS em_andamento boolean NOT NULL DEFAULT false`);
    this.addSql(`ALTER TABLE telemetria.viagem ADD COLUMN IF NOT EXISTS atributos jsonb`);
  }

}
