// Schema telemetria (metadata/telemetria), written by `npm run migration:create` with .snapshot-telemetria.json:
//   coluna nova: telemetria.viagem.peso_eixo1
//   coluna nova: telemetria.viagem.peso_eixo2
//   coluna nova: telemetria.viagem.carga
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129084533_viagem_pesos extends Migration {

  override name = 'Migration20261129084533_viagem_pesos';

  override up(): void | Promise<void> {
    this.addSql(`ALTER TABLE telemetria.viagem ADD COLUMN IF NOT EXISTS peso_eixo1 real`);
    this.addSql(`ALTER TABLE telemetria.viagem ADD COLUMN IF NOT EXISTS peso_eixo2 real`);
    this.addSql(`ALTER TABLE telemetria.viagem ADD COLUMN IF NOT EXISTS carga real`);
  }

}
