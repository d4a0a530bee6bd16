// Removes motorista.tag (created with --allow-drop): its value moves into the new badges list first (and back on down).
import { Migration } from '@mikro-orm/migrations';

export class Migration20261123171407_frota_registros extends Migration {

  override name = 'Migration20261123171407_frota_registros';

  override up(): void | Promise<void> {
    this.addSql(`create table "grupo_generico_ativo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "ativos" integer[] null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "grupo_generico_ativo_empresa_id_index" on "grupo_generico_ativo" ("empresa_id");`);
    this.addSql(`create index "grupo_generico_ativo_descricao_trgm_index" on "grupo_generico_ativo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "grupo_generico_ativo_empresa_id_descricao_id_sort_index" on "grupo_generico_ativo" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "grupo_generico_ativo" add constraint "grupo_generico_ativo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "grupo_generico_motorista" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "motoristas" integer[] null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "grupo_generico_motorista_empresa_id_index" on "grupo_generico_motorista" ("empresa_id");`);
    this.addSql(`create index "grupo_generico_motorista_descricao_trgm_index" on "grupo_generico_motorista" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "grupo_generico_motorista_empresa_id_descricao_id_sort_index" on "grupo_generico_motorista" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "grupo_generico_motorista" add constraint "grupo_generico_motorista_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "manutencao" ("id" serial primary key, "empresa_id" int not null, "tipo" text not null default 'preventiva', "descricao" varchar(160) not null, "realizado" boolean null default false, "hodometro" double precision null, "data" date null, "data_limite" date null, "ativos" integer[] null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "manutencao_empresa_id_index" on "manutencao" ("empresa_id");`);
    this.addSql(`create index "manutencao_descricao_trgm_index" on "manutencao" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "manutencao_empresa_id_data_id_sort_index" on "manutencao" ("empresa_id", "data", "id");`);

    this.addSql(`create table "passageiro" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(120) not null, "matricula" varchar(30) null, "email" varchar(160) null, "telefone" varchar(20) null, "tags" jsonb null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "passageiro_empresa_id_index" on "passageiro" ("empresa_id");`);
    this.addSql(`create index "passageiro_nome_trgm_index" on "passageiro" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "passageiro_matricula_trgm_index" on "passageiro" using gin ("matricula" gin_trgm_ops);`);
    this.addSql(`create index "passageiro_email_trgm_index" on "passageiro" using gin ("email" gin_trgm_ops);`);
    this.addSql(`create index "passageiro_empresa_id_nome_id_sort_index" on "passageiro" ("empresa_id", "nome", "id");`);
    this.addSql(`alter table "passageiro" add constraint "passageiro_empresa_id_matricula_unique" unique ("empresa_id", "matricula");`);

    this.addSql(`create table "servico" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "quilometragem" double precision null, "minimo" double precision null, "maximo" double precision null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "servico_empresa_id_index" on "servico" ("empresa_id");`);
    this.addSql(`create index "servico_descricao_trgm_index" on "servico" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "servico_empresa_id_descricao_id_sort_index" on "servico" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "servico" add constraint "servico_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "manutencao_servicos" ("id" serial primary key, "empresa_id" int not null, "manutencao" int not null, "servico" int not null, "valor_previsto" double precision null, "realizado" boolean null default false, "data_realizacao" date null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "manutencao_servicos_empresa_id_index" on "manutencao_servicos" ("empresa_id");`);
    this.addSql(`create index "manutencao_servicos_manutencao_index" on "manutencao_servicos" ("manutencao");`);
    this.addSql(`create index "manutencao_servicos_servico_index" on "manutencao_servicos" ("servico");`);

    this.addSql(`create table "manutencao_historico" ("id" serial primary key, "empresa_id" int not null, "maintenance_id" int not null, "ativo_id" int not null, "service_id" int not null, "valor_gasto" double precision null, "hodometro" double precision null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "manutencao_historico_empresa_id_index" on "manutencao_historico" ("empresa_id");`);
    this.addSql(`create index "manutencao_historico_maintenance_id_index" on "manutencao_historico" ("maintenance_id");`);
    this.addSql(`create index "manutencao_historico_ativo_id_index" on "manutencao_historico" ("ativo_id");`);
    this.addSql(`create index "manutencao_historico_service_id_index" on "manutencao_historico" ("service_id");`);
    this.addSql(`create index "manutencao_historico_empresa_id_updated_at_id_sort_index" on "manutencao_historico" ("empresa_id", "updated_at", "id");`);

    this.addSql(`create table "entrada_combustivel" ("id" serial primary key, "empresa_id" int not null, "ativo" int not null, "data" timestamptz not null, "hodometro" double precision null, "unidade_hodometro" text null default 'km', "horimetro" double precision null, "litros" double precision not null, "valor" double precision null, "local" varchar(160) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "entrada_combustivel_empresa_id_index" on "entrada_combustivel" ("empresa_id");`);
    this.addSql(`create index "entrada_combustivel_ativo_index" on "entrada_combustivel" ("ativo");`);
    this.addSql(`create index "entrada_combustivel_local_trgm_index" on "entrada_combustivel" using gin ("local" gin_trgm_ops);`);
    this.addSql(`create index "entrada_combustivel_empresa_id_data_id_sort_index" on "entrada_combustivel" ("empresa_id", "data", "id");`);

    this.addSql(`alter table "motorista" add "badges" jsonb null;`);
    this.addSql(`update "motorista" set "badges" = jsonb_build_array("tag") where "tag" is not null and "tag" <> '';`);
    this.addSql(`drop index "motorista_tag_trgm_index";`);
    this.addSql(`alter table "motorista" drop column "tag";`);

    this.addSql(`alter table "grupo_generico_ativo" add constraint "grupo_generico_ativo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "grupo_generico_ativo" enable row level security;`);
    this.addSql(`create policy "grupo_generico_ativo_empresa" on "grupo_generico_ativo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "grupo_generico_ativo_ingest" on "grupo_generico_ativo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "grupo_generico_motorista" add constraint "grupo_generico_motorista_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "grupo_generico_motorista" enable row level security;`);
    this.addSql(`create policy "grupo_generico_motorista_empresa" on "grupo_generico_motorista" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "grupo_generico_motorista_ingest" on "grupo_generico_motorista" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "manutencao" add constraint "manutencao_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "manutencao" add constraint "manutencao_tipo_check" check ("tipo" in ('preventiva', 'corretiva', 'preditiva'));`);
    this.addSql(`alter table "manutencao" enable row level security;`);
    this.addSql(`create policy "manutencao_empresa" on "manutencao" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "manutencao_ingest" on "manutencao" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "passageiro" add constraint "passageiro_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "passageiro" enable row level security;`);
    this.addSql(`create policy "passageiro_empresa" on "passageiro" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "passageiro_ingest" on "passageiro" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "servico" add constraint "servico_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "servico" enable row level security;`);
    this.addSql(`create policy "servico_empresa" on "servico" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "servico_ingest" on "servico" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "manutencao_servicos" add constraint "manutencao_servicos_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "manutencao_servicos" add constraint "manutencao_servicos_manutencao_foreign" foreign key ("manutencao") references "manutencao" ("id") on delete cascade;`);
    this.addSql(`alter table "manutencao_servicos" add constraint "manutencao_servicos_servico_foreign" foreign key ("servico") references "servico" ("id") on delete no action;`);
    this.addSql(`alter table "manutencao_servicos" enable row level security;`);
    this.addSql(`create policy "manutencao_servicos_empresa" on "manutencao_servicos" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "manutencao_servicos_ingest" on "manutencao_servicos" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "manutencao_historico" add constraint "manutencao_historico_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "manutencao_historico" add constraint "manutencao_historico_maintenance_id_foreign" foreign key ("maintenance_id") references "manutencao" ("id") on delete no action;`);
    this.addSql(`alter table "manutencao_historico" add constraint "manutencao_historico_ativo_id_foreign" foreign key ("ativo_id") references "ativo" ("id") on delete no action;`);
    this.addSql(`alter table "manutencao_historico" add constraint "manutencao_historico_service_id_foreign" foreign key ("service_id") references "servico" ("id") on delete no action;`);
    this.addSql(`alter table "manutencao_historico" enable row level security;`);
    this.addSql(`create policy "manutencao_historico_empresa" on "manutencao_historico" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "manutencao_historico_ingest" on "manutencao_historico" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "entrada_combustivel" add constraint "entrada_combustivel_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "entrada_combustivel" add constraint "entrada_combustivel_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete no action;`);
    this.addSql(`alter table "entrada_combustivel" add constraint "entrada_combustivel_unidade_hodometro_check" check ("unidade_hodometro" in ('km', 'mi'));`);
    this.addSql(`alter table "entrada_combustivel" enable row level security;`);
    this.addSql(`create policy "entrada_combustivel_empresa" on "entrada_combustivel" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "entrada_combustivel_ingest" on "entrada_combustivel" to "rastro_ingest" using (true) with check (true);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "manutencao_servicos" drop constraint "manutencao_servicos_manutencao_foreign";`);
    this.addSql(`alter table "manutencao_historico" drop constraint "manutencao_historico_maintenance_id_foreign";`);
    this.addSql(`alter table "manutencao_servicos" drop constraint "manutencao_servicos_servico_foreign";`);
    this.addSql(`alter table "manutencao_historico" drop constraint "manutencao_historico_service_id_foreign";`);

    this.addSql(`drop table if exists "grupo_generico_ativo" cascade;`);
    this.addSql(`drop table if exists "grupo_generico_motorista" cascade;`);
    this.addSql(`drop table if exists "manutencao" cascade;`);
    this.addSql(`drop table if exists "passageiro" cascade;`);
    this.addSql(`drop table if exists "servico" cascade;`);
    this.addSql(`drop table if exists "manutencao_servicos" cascade;`);
    this.addSql(`drop table if exists "manutencao_historico" cascade;`);
    this.addSql(`drop table if exists "entrada_combustivel" cascade;`);

    this.addSql(`alter table "motorista" add "tag" varchar(40) null;`);
    this.addSql(`update "motorista" set "tag" = left("badges"->>0, 40) where jsonb_typeof("badges") = 'array' and jsonb_array_length("badges") > 0;`);
    this.addSql(`alter table "motorista" drop column "badges";`);
    this.addSql(`create index "motorista_tag_trgm_index" on "motorista" using gin ("tag" gin_trgm_ops);`);
  }

}
