import { Migration } from '@mikro-orm/migrations';

export class Migration20261125234019_modelo_comandos_configuracao extends Migration {

  override name = 'Migration20261125234019_modelo_comandos_configuracao';

  override up(): void | Promise<void> {
    this.addSql(`alter table "modelo" add "comandos_configuracao" text null;`);
  }

}
