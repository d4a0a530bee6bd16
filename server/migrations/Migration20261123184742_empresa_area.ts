import { Migration } from '@mikro-orm/migrations';

export class Migration20261123184742_empresa_area extends Migration {

  override name = 'Migration20261123184742_empresa_area';

  override up(): void | Promise<void> {
    this.addSql(`create table "conexao_integracao" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "plataforma" text not null default 'mix', "url" varchar(300) null, "usuario" varchar(120) null, "ativa" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "conexao_integracao_empresa_id_index" on "conexao_integracao" ("empresa_id");`);
    this.addSql(`create index "conexao_integracao_descricao_trgm_index" on "conexao_integracao" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "conexao_integracao_empresa_id_descricao_id_sort_index" on "conexao_integracao" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "conexao_integracao" add constraint "conexao_integracao_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "chave_de_api" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "limite_conexao_minutos" int not null default 60, "limite_conexao_horas" int not null default 1000, "limite" int not null default 100000, "permissoes" jsonb null, "chave" varchar(64) null, "prefixo" varchar(16) null, "usos" int not null default 0, "ultimo_uso" timestamptz null, "ativa" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "chave_de_api_empresa_id_index" on "chave_de_api" ("empresa_id");`);
    this.addSql(`create index "chave_de_api_descricao_trgm_index" on "chave_de_api" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "chave_de_api_prefixo_trgm_index" on "chave_de_api" using gin ("prefixo" gin_trgm_ops);`);
    this.addSql(`create index "chave_de_api_empresa_id_descricao_id_sort_index" on "chave_de_api" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "chave_de_api" add constraint "chave_de_api_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);
    this.addSql(`alter table "chave_de_api" add constraint "chave_de_api_chave_unique" unique ("chave");`);

    this.addSql(`create table "link_publico" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "ativos" integer[] not null, "valido_ate" timestamptz not null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "link_publico_empresa_id_index" on "link_publico" ("empresa_id");`);
    this.addSql(`create index "link_publico_descricao_trgm_index" on "link_publico" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "link_publico_empresa_id_descricao_id_sort_index" on "link_publico" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "link_publico" add constraint "link_publico_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "novidade" ("id" serial primary key, "titulo" varchar(160) not null, "versao" varchar(20) null, "data_publicacao" date not null, "descricao" text not null, "publicada" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "novidade_titulo_trgm_index" on "novidade" using gin ("titulo" gin_trgm_ops);`);
    this.addSql(`create index "novidade_versao_trgm_index" on "novidade" using gin ("versao" gin_trgm_ops);`);
    this.addSql(`create index "novidade_data_publicacao_id_sort_index" on "novidade" ("data_publicacao", "id");`);

    this.addSql(`create table "sim_card" ("id" serial primary key, "empresa_id" int not null, "iccid" varchar(22) not null, "cod_operadora" varchar(10) null, "operadora" varchar(60) null, "imsi" varchar(15) null, "msisdn" varchar(20) null, "imei" varchar(15) null, "modelo_imei" varchar(60) null, "tecnologia_imei" varchar(60) null, "rede" varchar(20) null, "plano" varchar(60) null, "data_ativacao" date null, "data_ultima_conexao" timestamptz null, "consumo_mes" double precision null, "situacao" text not null default 'ativo', "placa" varchar(10) null, "razao_social" varchar(160) null, "cnpj" varchar(18) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "sim_card_empresa_id_index" on "sim_card" ("empresa_id");`);
    this.addSql(`create index "sim_card_iccid_trgm_index" on "sim_card" using gin ("iccid" gin_trgm_ops);`);
    this.addSql(`create index "sim_card_msisdn_trgm_index" on "sim_card" using gin ("msisdn" gin_trgm_ops);`);
    this.addSql(`create index "sim_card_imei_trgm_index" on "sim_card" using gin ("imei" gin_trgm_ops);`);
    this.addSql(`create index "sim_card_placa_trgm_index" on "sim_card" using gin ("placa" gin_trgm_ops);`);
    this.addSql(`create index "sim_card_operadora_trgm_index" on "sim_card" using gin ("operadora" gin_trgm_ops);`);
    this.addSql(`create index "sim_card_empresa_id_iccid_id_sort_index" on "sim_card" ("empresa_id", "iccid", "id");`);
    this.addSql(`alter table "sim_card" add constraint "sim_card_empresa_id_iccid_unique" unique ("empresa_id", "iccid");`);

    this.addSql(`create table "notificacao" ("id" serial primary key, "empresa_id" int not null, "usuario" int null, "data_notificacao" timestamptz not null, "notificacao" text not null, "tipo" text not null default 'informacao', "lido" boolean not null default false, "payload" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "notificacao_empresa_id_index" on "notificacao" ("empresa_id");`);
    this.addSql(`create index "notificacao_usuario_index" on "notificacao" ("usuario");`);
    this.addSql(`create index "notificacao_notificacao_trgm_index" on "notificacao" using gin ("notificacao" gin_trgm_ops);`);
    this.addSql(`create index "notificacao_empresa_id_data_notificacao_id_sort_index" on "notificacao" ("empresa_id", "data_notificacao", "id");`);

    this.addSql(`alter table "conexao_integracao" add constraint "conexao_integracao_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "conexao_integracao" add constraint "conexao_integracao_plataforma_check" check ("plataforma" in ('mix', 'outra'));`);
    this.addSql(`alter table "conexao_integracao" enable row level security;`);
    this.addSql(`create policy "conexao_integracao_empresa" on "conexao_integracao" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "conexao_integracao_ingest" on "conexao_integracao" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "chave_de_api" add constraint "chave_de_api_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "chave_de_api" enable row level security;`);
    this.addSql(`create policy "chave_de_api_empresa" on "chave_de_api" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "chave_de_api_ingest" on "chave_de_api" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "link_publico" add constraint "link_publico_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "link_publico" enable row level security;`);
    this.addSql(`create policy "link_publico_empresa" on "link_publico" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "link_publico_ingest" on "link_publico" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "sim_card" add constraint "sim_card_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "sim_card" add constraint "sim_card_situacao_check" check ("situacao" in ('ativo', 'suspenso', 'cancelado'));`);
    this.addSql(`alter table "sim_card" enable row level security;`);
    this.addSql(`create policy "sim_card_empresa" on "sim_card" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "sim_card_ingest" on "sim_card" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "notificacao" add constraint "notificacao_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "notificacao" add constraint "notificacao_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete cascade;`);
    this.addSql(`alter table "notificacao" add constraint "notificacao_tipo_check" check ("tipo" in ('informacao', 'alerta', 'erro', 'sistema'));`);
    this.addSql(`alter table "notificacao" enable row level security;`);
    this.addSql(`create policy "notificacao_empresa" on "notificacao" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "notificacao_ingest" on "notificacao" to "rastro_ingest" using (true) with check (true);`);
  }

}
