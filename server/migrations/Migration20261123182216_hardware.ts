import { Migration } from '@mikro-orm/migrations';

export class Migration20261123182216_hardware extends Migration {

  override name = 'Migration20261123182216_hardware';

  override up(): void | Promise<void> {
    this.addSql(`create table "fabricante" ("id" serial primary key, "nome" varchar(120) not null, "site" varchar(200) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "fabricante_nome_trgm_index" on "fabricante" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "fabricante_nome_id_sort_index" on "fabricante" ("nome", "id");`);
    this.addSql(`create unique index "fabricante_nome_lower_unique" on "fabricante" (lower("nome"));`);

    this.addSql(`create table "healthcheck" ("id" serial primary key, "descricao" varchar(120) not null, "url" varchar(300) not null, "status_esperado" int not null default 200, "intervalo_segundos" int not null default 60, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "healthcheck_descricao_trgm_index" on "healthcheck" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "healthcheck_url_trgm_index" on "healthcheck" using gin ("url" gin_trgm_ops);`);
    this.addSql(`create index "healthcheck_descricao_id_sort_index" on "healthcheck" ("descricao", "id");`);
    this.addSql(`alter table "healthcheck" add constraint "healthcheck_descricao_unique" unique ("descricao");`);

    this.addSql(`create table "protocolo" ("id" serial primary key, "codigo" varchar(40) not null, "descricao" varchar(120) not null, "porta" int null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "protocolo_codigo_trgm_index" on "protocolo" using gin ("codigo" gin_trgm_ops);`);
    this.addSql(`create index "protocolo_descricao_trgm_index" on "protocolo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "protocolo_codigo_id_sort_index" on "protocolo" ("codigo", "id");`);
    this.addSql(`alter table "protocolo" add constraint "protocolo_codigo_unique" unique ("codigo");`);

    this.addSql(`create table "modelo" ("id" serial primary key, "codigo" varchar(40) not null, "descricao" varchar(120) not null, "protocolo" int not null, "fabricante" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "modelo_protocolo_index" on "modelo" ("protocolo");`);
    this.addSql(`create index "modelo_fabricante_index" on "modelo" ("fabricante");`);
    this.addSql(`create index "modelo_codigo_trgm_index" on "modelo" using gin ("codigo" gin_trgm_ops);`);
    this.addSql(`create index "modelo_descricao_trgm_index" on "modelo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "modelo_codigo_id_sort_index" on "modelo" ("codigo", "id");`);
    this.addSql(`alter table "modelo" add constraint "modelo_codigo_unique" unique ("codigo");`);

    this.addSql(`create table "firmware_hardware" ("id" serial primary key, "fabricante" int not null, "modelo" int not null, "versao" varchar(60) not null, "padrao" boolean not null default false, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "firmware_hardware_fabricante_index" on "firmware_hardware" ("fabricante");`);
    this.addSql(`create index "firmware_hardware_modelo_index" on "firmware_hardware" ("modelo");`);
    this.addSql(`create index "firmware_hardware_versao_trgm_index" on "firmware_hardware" using gin ("versao" gin_trgm_ops);`);
    this.addSql(`create index "firmware_hardware_versao_id_sort_index" on "firmware_hardware" ("versao", "id");`);
    this.addSql(`alter table "firmware_hardware" add constraint "firmware_hardware_versao_unique" unique ("versao");`);

    this.addSql(`create table "hardware_equipamento" ("id" serial primary key, "descricao" varchar(120) not null, "modelo" int not null, "revisao" varchar(40) null, "firmware_padrao" int null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "hardware_equipamento_modelo_index" on "hardware_equipamento" ("modelo");`);
    this.addSql(`create index "hardware_equipamento_firmware_padrao_index" on "hardware_equipamento" ("firmware_padrao");`);
    this.addSql(`create index "hardware_equipamento_descricao_trgm_index" on "hardware_equipamento" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "hardware_equipamento_revisao_trgm_index" on "hardware_equipamento" using gin ("revisao" gin_trgm_ops);`);
    this.addSql(`create index "hardware_equipamento_descricao_id_sort_index" on "hardware_equipamento" ("descricao", "id");`);
    this.addSql(`alter table "hardware_equipamento" add constraint "hardware_equipamento_descricao_unique" unique ("descricao");`);

    this.addSql(`alter table "modelo" add constraint "modelo_protocolo_foreign" foreign key ("protocolo") references "protocolo" ("id") on delete no action;`);
    this.addSql(`alter table "modelo" add constraint "modelo_fabricante_foreign" foreign key ("fabricante") references "fabricante" ("id") on delete set null;`);

    this.addSql(`alter table "firmware_hardware" add constraint "firmware_hardware_fabricante_foreign" foreign key ("fabricante") references "fabricante" ("id") on delete no action;`);
    this.addSql(`alter table "firmware_hardware" add constraint "firmware_hardware_modelo_foreign" foreign key ("modelo") references "modelo" ("id") on delete no action;`);

    this.addSql(`alter table "hardware_equipamento" add constraint "hardware_equipamento_modelo_foreign" foreign key ("modelo") references "modelo" ("id") on delete no action;`);
    this.addSql(`alter table "hardware_equipamento" add constraint "hardware_equipamento_firmware_padrao_foreign" foreign key ("firmware_padrao") references "firmware_hardware" ("id") on delete set null;`);
  }

}
