import { Migration } from '@mikro-orm/migrations';

export class Migration20261127173422 extends Migration {

  override name = 'Migration20261127173422';

  override up(): void | Promise<void> {
    this.addSql(`alter table "empresa" add "redes_permitidas" text null;`);
  }

}
