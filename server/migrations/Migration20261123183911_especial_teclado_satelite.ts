import { Migration } from '@mikro-orm/migrations';

export class Migration20261123183911_especial_teclado_satelite extends Migration {

  override name = 'Migration20261123183911_especial_teclado_satelite';

  override up(): void | Promise<void> {
    this.addSql(`create table "macro_teclado" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "codigo" int not null, "texto" text not null, "exige_resposta" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "macro_teclado_empresa_id_index" on "macro_teclado" ("empresa_id");`);
    this.addSql(`create index "macro_teclado_descricao_trgm_index" on "macro_teclado" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "macro_teclado_empresa_id_codigo_id_sort_index" on "macro_teclado" ("empresa_id", "codigo", "id");`);
    this.addSql(`alter table "macro_teclado" add constraint "macro_teclado_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);
    this.addSql(`alter table "macro_teclado" add constraint "macro_teclado_empresa_id_codigo_unique" unique ("empresa_id", "codigo");`);

    this.addSql(`create table "mensagem_satelite" ("id" serial primary key, "empresa_id" int not null, "mensagem" text not null, "serial" varchar(20) not null, "direcao" text not null default 'enviada', "situacao" text not null default 'pendente', "data_hora" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "mensagem_satelite_empresa_id_index" on "mensagem_satelite" ("empresa_id");`);
    this.addSql(`create index "mensagem_satelite_mensagem_trgm_index" on "mensagem_satelite" using gin ("mensagem" gin_trgm_ops);`);
    this.addSql(`create index "mensagem_satelite_serial_trgm_index" on "mensagem_satelite" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "mensagem_satelite_empresa_id_data_hora_id_sort_index" on "mensagem_satelite" ("empresa_id", "data_hora", "id");`);

    this.addSql(`create table "modelo_configuracao_teclado" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "macros" integer[] null, "tempo_tela_segundos" int not null default 30, "bip_mensagem" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "modelo_configuracao_teclado_empresa_id_index" on "modelo_configuracao_teclado" ("empresa_id");`);
    this.addSql(`create index "modelo_configuracao_teclado_descricao_trgm_index" on "modelo_configuracao_teclado" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "modelo_configuracao_teclado_empresa_id_descricao_id_sort_index" on "modelo_configuracao_teclado" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "modelo_configuracao_teclado" add constraint "modelo_configuracao_teclado_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "dispositivo_teclado" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "serial" varchar(20) not null, "placa" varchar(8) null, "device_model" varchar(60) not null, "configuracao" int null, "ativado" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "dispositivo_teclado_empresa_id_index" on "dispositivo_teclado" ("empresa_id");`);
    this.addSql(`create index "dispositivo_teclado_configuracao_index" on "dispositivo_teclado" ("configuracao");`);
    this.addSql(`create index "dispositivo_teclado_descricao_trgm_index" on "dispositivo_teclado" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "dispositivo_teclado_serial_trgm_index" on "dispositivo_teclado" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "dispositivo_teclado_placa_trgm_index" on "dispositivo_teclado" using gin ("placa" gin_trgm_ops);`);
    this.addSql(`create index "dispositivo_teclado_empresa_id_descricao_id_sort_index" on "dispositivo_teclado" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "dispositivo_teclado" add constraint "dispositivo_teclado_empresa_id_serial_unique" unique ("empresa_id", "serial");`);

    this.addSql(`create table "comando_teclado" ("id" serial primary key, "empresa_id" int not null, "mensagem" text not null, "dispositivo" int not null, "macro" int null, "direcao" text not null default 'enviada', "situacao" text not null default 'pendente', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "comando_teclado_empresa_id_index" on "comando_teclado" ("empresa_id");`);
    this.addSql(`create index "comando_teclado_dispositivo_index" on "comando_teclado" ("dispositivo");`);
    this.addSql(`create index "comando_teclado_macro_index" on "comando_teclado" ("macro");`);
    this.addSql(`create index "comando_teclado_mensagem_trgm_index" on "comando_teclado" using gin ("mensagem" gin_trgm_ops);`);
    this.addSql(`create index "comando_teclado_empresa_id_created_at_id_sort_index" on "comando_teclado" ("empresa_id", "created_at", "id");`);

    this.addSql(`alter table "macro_teclado" add constraint "macro_teclado_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "macro_teclado" enable row level security;`);
    this.addSql(`create policy "macro_teclado_empresa" on "macro_teclado" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "macro_teclado_ingest" on "macro_teclado" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "mensagem_satelite" add constraint "mensagem_satelite_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "mensagem_satelite" add constraint "mensagem_satelite_direcao_check" check ("direcao" in ('enviada', 'recebida'));`);
    this.addSql(`alter table "mensagem_satelite" add constraint "mensagem_satelite_situacao_check" check ("situacao" in ('pendente', 'entregue', 'erro'));`);
    this.addSql(`alter table "mensagem_satelite" enable row level security;`);
    this.addSql(`create policy "mensagem_satelite_empresa" on "mensagem_satelite" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "mensagem_satelite_ingest" on "mensagem_satelite" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "modelo_configuracao_teclado" add constraint "modelo_configuracao_teclado_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "modelo_configuracao_teclado" enable row level security;`);
    this.addSql(`create policy "modelo_configuracao_teclado_empresa" on "modelo_configuracao_teclado" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "modelo_configuracao_teclado_ingest" on "modelo_configuracao_teclado" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "dispositivo_teclado" add constraint "dispositivo_teclado_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "dispositivo_teclado" add constraint "dispositivo_teclado_configuracao_foreign" foreign key ("configuracao") references "modelo_configuracao_teclado" ("id") on delete set null;`);
    this.addSql(`alter table "dispositivo_teclado" enable row level security;`);
    this.addSql(`create policy "dispositivo_teclado_empresa" on "dispositivo_teclado" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "dispositivo_teclado_ingest" on "dispositivo_teclado" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "comando_teclado" add constraint "comando_teclado_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "comando_teclado" add constraint "comando_teclado_dispositivo_foreign" foreign key ("dispositivo") references "dispositivo_teclado" ("id") on delete no action;`);
    this.addSql(`alter table "comando_teclado" add constraint "comando_teclado_macro_foreign" foreign key ("macro") references "macro_teclado" ("id") on delete set null;`);
    this.addSql(`alter table "comando_teclado" add constraint "comando_teclado_direcao_check" check ("direcao" in ('enviada', 'recebida'));`);
    this.addSql(`alter table "comando_teclado" add constraint "comando_teclado_situacao_check" check ("situacao" in ('pendente', 'entregue', 'lida', 'erro'));`);
    this.addSql(`alter table "comando_teclado" enable row level security;`);
    this.addSql(`create policy "comando_teclado_empresa" on "comando_teclado" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "comando_teclado_ingest" on "comando_teclado" to "rastro_ingest" using (true) with check (true);`);
  }

}
