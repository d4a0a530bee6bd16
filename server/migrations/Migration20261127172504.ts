import { Migration } from '@mikro-orm/migrations';

export class Migration20261127172504 extends Migration {

  override name = 'Migration20261127172504';

  override up(): void | Promise<void> {
    this.addSql(`create table "painel" ("id" serial primary key, "empresa_id" int not null, "usuario" int null, "nome" varchar(80) not null, "widgets" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "painel_empresa_id_index" on "painel" ("empresa_id");`);
    this.addSql(`create index "painel_usuario_index" on "painel" ("usuario");`);
    this.addSql(`create index "painel_nome_trgm_index" on "painel" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "painel_empresa_id_nome_id_sort_index" on "painel" ("empresa_id", "nome", "id");`);

    this.addSql(`alter table "painel" add constraint "painel_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "painel" add constraint "painel_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete cascade;`);
    this.addSql(`alter table "painel" enable row level security;`);
    this.addSql(`create policy "painel_empresa" on "painel" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "painel_ingest" on "painel" to "rastro_ingest" using (true) with check (true);`);
  }

}
