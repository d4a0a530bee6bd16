import { Migration } from '@mikro-orm/migrations';

export class Migration20261127211117 extends Migration {

  override name = 'Migration20261127211117';

  override up(): void | Promise<void> {
    this.addSql(`alter table "relatorio_gerado" add "comentario" text null, add "link_token" varchar(64) null, add "link_valido_ate" timestamptz null, add "pedido" jsonb null;`);
    this.addSql(`alter table "relatorio_gerado" add constraint "relatorio_gerado_link_token_unique" unique ("link_token");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "relatorio_gerado" drop constraint "relatorio_gerado_link_token_unique";`);
  }

}
