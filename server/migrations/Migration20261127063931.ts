import { Migration } from '@mikro-orm/migrations';

export class Migration20261127063931 extends Migration {

  override name = 'Migration20261127063931';

  override up(): void | Promise<void> {
    this.addSql(`alter table "fila_processamento" add "usuario" int null;`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`create index "fila_processamento_usuario_index" on "fila_processamento" ("usuario");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_usuario_foreign";`);

    this.addSql(`drop index "fila_processamento_usuario_index";`);
  }

}
