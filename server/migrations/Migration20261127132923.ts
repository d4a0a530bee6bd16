import { Migration } from '@mikro-orm/migrations';

export class Migration20261127132923 extends Migration {

  override name = 'Migration20261127132923';

  override up(): void | Promise<void> {
    this.addSql(`alter table "link_publico" add "token" varchar(64) null;`);
    this.addSql(`alter table "link_publico" add constraint "link_publico_token_unique" unique ("token");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "link_publico" drop constraint "link_publico_token_unique";`);
  }

}
