import { Migration } from '@mikro-orm/migrations';

export class Migration20261123180137_motorista_temporario extends Migration {

  override name = 'Migration20261123180137_motorista_temporario';

  override up(): void | Promise<void> {
    this.addSql(`create table "motorista_temporario" ("id" serial primary key, "empresa_id" int not null, "ativo_id" int not null, "motorista_id" int not null, "data_inicio" timestamptz not null, "data_fim" timestamptz not null, "observacao" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "motorista_temporario_empresa_id_index" on "motorista_temporario" ("empresa_id");`);
    this.addSql(`create index "motorista_temporario_ativo_id_index" on "motorista_temporario" ("ativo_id");`);
    this.addSql(`create index "motorista_temporario_motorista_id_index" on "motorista_temporario" ("motorista_id");`);
    this.addSql(`create index "motorista_temporario_empresa_id_data_inicio_id_sort_index" on "motorista_temporario" ("empresa_id", "data_inicio", "id");`);

    this.addSql(`alter table "motorista_temporario" add constraint "motorista_temporario_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "motorista_temporario" add constraint "motorista_temporario_ativo_id_foreign" foreign key ("ativo_id") references "ativo" ("id") on delete cascade;`);
    this.addSql(`alter table "motorista_temporario" add constraint "motorista_temporario_motorista_id_foreign" foreign key ("motorista_id") references "motorista" ("id") on delete cascade;`);
    this.addSql(`alter table "motorista_temporario" enable row level security;`);
    this.addSql(`create policy "motorista_temporario_empresa" on "motorista_temporario" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "motorista_temporario_ingest" on "motorista_temporario" to "rastro_ingest" using (true) with check (true);`);
  }

}
