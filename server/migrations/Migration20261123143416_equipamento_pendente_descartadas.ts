import { Migration } from '@mikro-orm/migrations';

export class Migration20261123143416_equipamento_pendente_descartadas extends Migration {

  override name = 'Migration20261123143416_equipamento_pendente_descartadas';

  override up(): void | Promise<void> {
    this.addSql(`alter table "equipamento_pendente" add "descartadas" int not null default 0;`);
  }

}
