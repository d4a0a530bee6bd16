import { Migration } from '@mikro-orm/migrations';

export class Migration20261123183114_telemetria_aparelhos_modelos extends Migration {

  override name = 'Migration20261123183114_telemetria_aparelhos_modelos';

  override up(): void | Promise<void> {
    this.addSql(`create table "modelo_de_dispositivo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "modelo" int not null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "modelo_de_dispositivo_empresa_id_index" on "modelo_de_dispositivo" ("empresa_id");`);
    this.addSql(`create index "modelo_de_dispositivo_modelo_index" on "modelo_de_dispositivo" ("modelo");`);
    this.addSql(`create index "modelo_de_dispositivo_descricao_trgm_index" on "modelo_de_dispositivo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "modelo_de_dispositivo_empresa_id_descricao_id_sort_index" on "modelo_de_dispositivo" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "modelo_de_dispositivo" add constraint "modelo_de_dispositivo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "modelo_de_eventos" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "modelo_dispositivo" int not null, "eventos" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "modelo_de_eventos_empresa_id_index" on "modelo_de_eventos" ("empresa_id");`);
    this.addSql(`create index "modelo_de_eventos_modelo_dispositivo_index" on "modelo_de_eventos" ("modelo_dispositivo");`);
    this.addSql(`create index "modelo_de_eventos_descricao_trgm_index" on "modelo_de_eventos" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "modelo_de_eventos_empresa_id_descricao_id_sort_index" on "modelo_de_eventos" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "modelo_de_eventos" add constraint "modelo_de_eventos_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "firmware_aparelho" ("id" serial primary key, "empresa_id" int not null, "versao" varchar(60) not null, "modelo_dispositivo" int not null, "arquivo" varchar(500) null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "firmware_aparelho_empresa_id_index" on "firmware_aparelho" ("empresa_id");`);
    this.addSql(`create index "firmware_aparelho_modelo_dispositivo_index" on "firmware_aparelho" ("modelo_dispositivo");`);
    this.addSql(`create index "firmware_aparelho_versao_trgm_index" on "firmware_aparelho" using gin ("versao" gin_trgm_ops);`);
    this.addSql(`create index "firmware_aparelho_empresa_id_versao_id_sort_index" on "firmware_aparelho" ("empresa_id", "versao", "id");`);
    this.addSql(`alter table "firmware_aparelho" add constraint "firmware_aparelho_empresa_id_versao_unique" unique ("empresa_id", "versao");`);

    this.addSql(`create table "aparelho" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "serial" varchar(20) not null, "modelo_dispositivo" int not null, "firmware" int null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "aparelho_empresa_id_index" on "aparelho" ("empresa_id");`);
    this.addSql(`create index "aparelho_modelo_dispositivo_index" on "aparelho" ("modelo_dispositivo");`);
    this.addSql(`create index "aparelho_firmware_index" on "aparelho" ("firmware");`);
    this.addSql(`create index "aparelho_descricao_trgm_index" on "aparelho" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "aparelho_serial_trgm_index" on "aparelho" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "aparelho_empresa_id_descricao_id_sort_index" on "aparelho" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "aparelho" add constraint "aparelho_empresa_id_serial_unique" unique ("empresa_id", "serial");`);

    this.addSql(`alter table "modelo_de_dispositivo" add constraint "modelo_de_dispositivo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "modelo_de_dispositivo" add constraint "modelo_de_dispositivo_modelo_foreign" foreign key ("modelo") references "modelo" ("id") on delete no action;`);
    this.addSql(`alter table "modelo_de_dispositivo" enable row level security;`);
    this.addSql(`create policy "modelo_de_dispositivo_empresa" on "modelo_de_dispositivo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "modelo_de_dispositivo_ingest" on "modelo_de_dispositivo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "modelo_de_eventos" add constraint "modelo_de_eventos_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "modelo_de_eventos" add constraint "modelo_de_eventos_modelo_dispositivo_foreign" foreign key ("modelo_dispositivo") references "modelo_de_dispositivo" ("id") on delete no action;`);
    this.addSql(`alter table "modelo_de_eventos" enable row level security;`);
    this.addSql(`create policy "modelo_de_eventos_empresa" on "modelo_de_eventos" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "modelo_de_eventos_ingest" on "modelo_de_eventos" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "firmware_aparelho" add constraint "firmware_aparelho_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "firmware_aparelho" add constraint "firmware_aparelho_modelo_dispositivo_foreign" foreign key ("modelo_dispositivo") references "modelo_de_dispositivo" ("id") on delete no action;`);
    this.addSql(`alter table "firmware_aparelho" enable row level security;`);
    this.addSql(`create policy "firmware_aparelho_empresa" on "firmware_aparelho" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "firmware_aparelho_ingest" on "firmware_aparelho" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "aparelho" add constraint "aparelho_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "aparelho" add constraint "aparelho_modelo_dispositivo_foreign" foreign key ("modelo_dispositivo") references "modelo_de_dispositivo" ("id") on delete no action;`);
    this.addSql(`alter table "aparelho" add constraint "aparelho_firmware_foreign" foreign key ("firmware") references "firmware_aparelho" ("id") on delete set null;`);
    this.addSql(`alter table "aparelho" enable row level security;`);
    this.addSql(`create policy "aparelho_empresa" on "aparelho" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "aparelho_ingest" on "aparelho" to "rastro_ingest" using (true) with check (true);`);
  }

}
