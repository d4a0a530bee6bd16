import { Migration } from '@mikro-orm/migrations';

export class Migration20261128011540 extends Migration {

  override name = 'Migration20261128011540';

  override up(): void | Promise<void> {
    this.addSql(`alter table "relatorio_gerado" add "formatos" jsonb null;`);
  }

}
