import { Migration } from '@mikro-orm/migrations';

export class Migration20261127173518 extends Migration {

  override name = 'Migration20261127173518';

  override up(): void | Promise<void> {
    this.addSql(`create table "atalho" ("id" serial primary key, "empresa_id" int not null, "usuario" int null, "titulo" varchar(80) not null, "rota" varchar(500) not null, "ordem" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "atalho_empresa_id_index" on "atalho" ("empresa_id");`);
    this.addSql(`create index "atalho_usuario_index" on "atalho" ("usuario");`);
    this.addSql(`create index "atalho_titulo_trgm_index" on "atalho" using gin ("titulo" gin_trgm_ops);`);
    this.addSql(`create index "atalho_empresa_id_ordem_id_sort_index" on "atalho" ("empresa_id", "ordem", "id");`);

    this.addSql(`alter table "atalho" add constraint "atalho_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "atalho" add constraint "atalho_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete cascade;`);
    this.addSql(`alter table "atalho" enable row level security;`);
    this.addSql(`create policy "atalho_empresa" on "atalho" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "atalho_ingest" on "atalho" to "rastro_ingest" using (true) with check (true);`);
  }

}
