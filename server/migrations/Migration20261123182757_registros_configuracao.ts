import { Migration } from '@mikro-orm/migrations';

export class Migration20261123182757_registros_configuracao extends Migration {

  override name = 'Migration20261123182757_registros_configuracao';

  override up(): void | Promise<void> {
    this.addSql(`create table "acessorio" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "fabricante_ativo" int null, "tipo_ativo" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "acessorio_empresa_id_index" on "acessorio" ("empresa_id");`);
    this.addSql(`create index "acessorio_fabricante_ativo_index" on "acessorio" ("fabricante_ativo");`);
    this.addSql(`create index "acessorio_tipo_ativo_index" on "acessorio" ("tipo_ativo");`);
    this.addSql(`create index "acessorio_descricao_trgm_index" on "acessorio" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "acessorio_empresa_id_descricao_id_sort_index" on "acessorio" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "acessorio" add constraint "acessorio_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "firmware" ("id" serial primary key, "tecnologia" varchar(40) not null, "modelo" varchar(40) not null, "fabricante" int not null, "versao" varchar(60) not null, "padrao" boolean not null default false, "arquivo" varchar(500) null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "firmware_fabricante_index" on "firmware" ("fabricante");`);
    this.addSql(`create index "firmware_versao_trgm_index" on "firmware" using gin ("versao" gin_trgm_ops);`);
    this.addSql(`create index "firmware_tecnologia_modelo_versao_id_sort_index" on "firmware" ("tecnologia", "modelo", "versao", "id");`);

    this.addSql(`create table "notificacao_sistema" ("id" serial primary key, "titulo" varchar(120) not null, "mensagem" text not null, "tipo" text not null default 'informacao', "inicio" timestamptz null, "fim" timestamptz null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "notificacao_sistema_titulo_trgm_index" on "notificacao_sistema" using gin ("titulo" gin_trgm_ops);`);
    this.addSql(`create index "notificacao_sistema_titulo_id_sort_index" on "notificacao_sistema" ("titulo", "id");`);

    this.addSql(`create table "imei" ("id" serial primary key, "tac" varchar(8) not null, "modelo" int not null, "tecnologia" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "imei_modelo_index" on "imei" ("modelo");`);
    this.addSql(`create index "imei_tecnologia_index" on "imei" ("tecnologia");`);
    this.addSql(`create index "imei_tac_trgm_index" on "imei" using gin ("tac" gin_trgm_ops);`);
    this.addSql(`create index "imei_tac_id_sort_index" on "imei" ("tac", "id");`);
    this.addSql(`alter table "imei" add constraint "imei_tac_unique" unique ("tac");`);

    this.addSql(`create table "grupo_de_eventos" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "tecnologia" int null, "eventos" jsonb null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "grupo_de_eventos_empresa_id_index" on "grupo_de_eventos" ("empresa_id");`);
    this.addSql(`create index "grupo_de_eventos_tecnologia_index" on "grupo_de_eventos" ("tecnologia");`);
    this.addSql(`create index "grupo_de_eventos_descricao_trgm_index" on "grupo_de_eventos" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "grupo_de_eventos_empresa_id_descricao_id_sort_index" on "grupo_de_eventos" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "grupo_de_eventos" add constraint "grupo_de_eventos_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`alter table "acessorio" add constraint "acessorio_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "acessorio" add constraint "acessorio_fabricante_ativo_foreign" foreign key ("fabricante_ativo") references "fabricante_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "acessorio" add constraint "acessorio_tipo_ativo_foreign" foreign key ("tipo_ativo") references "categoria_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "acessorio" enable row level security;`);
    this.addSql(`create policy "acessorio_empresa" on "acessorio" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "acessorio_ingest" on "acessorio" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "firmware" add constraint "firmware_fabricante_foreign" foreign key ("fabricante") references "fabricante" ("id") on delete no action;`);

    this.addSql(`alter table "notificacao_sistema" add constraint "notificacao_sistema_tipo_check" check ("tipo" in ('informacao', 'alerta', 'manutencao'));`);

    this.addSql(`alter table "imei" add constraint "imei_modelo_foreign" foreign key ("modelo") references "modelo" ("id") on delete no action;`);
    this.addSql(`alter table "imei" add constraint "imei_tecnologia_foreign" foreign key ("tecnologia") references "protocolo" ("id") on delete no action;`);

    this.addSql(`alter table "grupo_de_eventos" add constraint "grupo_de_eventos_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "grupo_de_eventos" add constraint "grupo_de_eventos_tecnologia_foreign" foreign key ("tecnologia") references "protocolo" ("id") on delete set null;`);
    this.addSql(`alter table "grupo_de_eventos" enable row level security;`);
    this.addSql(`create policy "grupo_de_eventos_empresa" on "grupo_de_eventos" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "grupo_de_eventos_ingest" on "grupo_de_eventos" to "rastro_ingest" using (true) with check (true);`);
  }

}
