import { Migration } from '@mikro-orm/migrations';

export class Migration20261127140858 extends Migration {

  override name = 'Migration20261127140858';

  override up(): void | Promise<void> {
    this.addSql(`create table "relatorio_favorito" ("id" serial primary key, "empresa_id" int not null, "usuario" int null, "nome" varchar(120) not null, "familia" varchar(60) not null, "tipo" varchar(60) not null, "parametros" jsonb not null, "colunas" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "relatorio_favorito_empresa_id_index" on "relatorio_favorito" ("empresa_id");`);
    this.addSql(`create index "relatorio_favorito_usuario_index" on "relatorio_favorito" ("usuario");`);
    this.addSql(`create index "relatorio_favorito_nome_trgm_index" on "relatorio_favorito" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "relatorio_favorito_empresa_id_nome_id_sort_index" on "relatorio_favorito" ("empresa_id", "nome", "id");`);

    this.addSql(`alter table "relatorio_favorito" add constraint "relatorio_favorito_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "relatorio_favorito" add constraint "relatorio_favorito_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete cascade;`);
    this.addSql(`alter table "relatorio_favorito" enable row level security;`);
    this.addSql(`create policy "relatorio_favorito_empresa" on "relatorio_favorito" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "relatorio_favorito_ingest" on "relatorio_favorito" to "rastro_ingest" using (true) with check (true);`);
  }

}
