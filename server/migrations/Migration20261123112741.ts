import { Migration } from '@mikro-orm/migrations';

export class Migration20261123112741 extends Migration {

  override name = 'Migration20261123112741';

  override up(): void | Promise<void> {
    this.addSql(`create table "ambiente" ("id" serial primary key, "descricao" varchar(120) not null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "ambiente" add constraint "ambiente_descricao_unique" unique ("descricao");`);

    this.addSql(`create table "cargo" ("id" serial primary key, "ambiente_id" int not null, "descricao" varchar(120) not null, "permissoes" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "cargo_ambiente_id_index" on "cargo" ("ambiente_id");`);
    this.addSql(`alter table "cargo" add constraint "cargo_ambiente_id_descricao_unique" unique ("ambiente_id", "descricao");`);

    this.addSql(`create table "empresa" ("id" serial primary key, "ambiente_id" int not null, "fantasia" varchar(120) not null, "razao_social" varchar(160) null, "cnpj" varchar(18) null, "email" varchar(160) null, "telefone" varchar(20) null, "status" text not null default 'ativa', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "empresa_ambiente_id_index" on "empresa" ("ambiente_id");`);
    this.addSql(`alter table "empresa" add constraint "empresa_ambiente_id_cnpj_unique" unique ("ambiente_id", "cnpj");`);

    this.addSql(`create table "categoria_de_ativo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "categoria_de_ativo_empresa_id_index" on "categoria_de_ativo" ("empresa_id");`);
    this.addSql(`alter table "categoria_de_ativo" add constraint "categoria_de_ativo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "equipamento" ("id" serial primary key, "empresa_id" int not null, "serial" varchar(20) not null, "tecnologia" text not null default 'queclink', "modelo" text not null default 'gv50cg', "firmware" varchar(60) null, "simcard" varchar(30) null, "ativado" boolean not null default true, "ultima_comunicacao" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "equipamento_empresa_id_index" on "equipamento" ("empresa_id");`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_empresa_id_serial_unique" unique ("empresa_id", "serial");`);

    this.addSql(`create table "equipamento_pendente" ("id" serial primary key, "serial" varchar(40) not null, "protocolo" varchar(20) not null, "primeira_mensagem" timestamptz not null, "ultima_mensagem" timestamptz not null, "quantidade" int not null default 0, "ultima_mensagem_bruta" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "equipamento_pendente" add constraint "equipamento_pendente_serial_unique" unique ("serial");`);

    this.addSql(`create table "fabricante_de_ativo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "fabricante_de_ativo_empresa_id_index" on "fabricante_de_ativo" ("empresa_id");`);
    this.addSql(`alter table "fabricante_de_ativo" add constraint "fabricante_de_ativo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "fila_processamento" ("id" serial primary key, "empresa_id" int not null, "serial" varchar(20) not null, "event" text not null, "value" jsonb null, "processing" boolean null default false, "status" text not null default 'pendente', "tentativas" int null default 0, "enviado_em" timestamptz null, "concluido_em" timestamptz null, "resposta" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "fila_processamento_empresa_id_index" on "fila_processamento" ("empresa_id");`);

    this.addSql(`create table "garagem" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(120) not null, "descricao" varchar(255) null, "grupo_superior" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "garagem_empresa_id_index" on "garagem" ("empresa_id");`);
    this.addSql(`create index "garagem_grupo_superior_index" on "garagem" ("grupo_superior");`);
    this.addSql(`alter table "garagem" add constraint "garagem_empresa_id_nome_unique" unique ("empresa_id", "nome");`);

    this.addSql(`create table "historico_alteracao" ("id" serial primary key, "data" timestamptz not null, "usuario_id" int null, "login" varchar(120) null, "empresa_id" int null, "ambiente_id" int null, "entidade" varchar(80) not null, "registro_id" int not null, "operacao" varchar(40) not null, "alteracoes" jsonb not null);`);
    this.addSql(`create index "historico_alteracao_entidade_registro_id_index" on "historico_alteracao" ("entidade", "registro_id");`);

    this.addSql(`create table "modelo_de_ativo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "modelo_de_ativo_empresa_id_index" on "modelo_de_ativo" ("empresa_id");`);
    this.addSql(`alter table "modelo_de_ativo" add constraint "modelo_de_ativo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "motorista" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(120) not null, "documento" varchar(14) not null, "cnh" varchar(11) null, "categoria_cnh" text null, "validade_cnh" date null, "matricula" varchar(30) null, "tag" varchar(40) null, "email" varchar(160) null, "telefone" varchar(20) null, "id_garagem" int null, "situacao" text not null default 'ativo', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "motorista_empresa_id_index" on "motorista" ("empresa_id");`);
    this.addSql(`create index "motorista_id_garagem_index" on "motorista" ("id_garagem");`);
    this.addSql(`alter table "motorista" add constraint "motorista_empresa_id_documento_unique" unique ("empresa_id", "documento");`);

    this.addSql(`create table "permissao" ("id" serial primary key, "ambiente_id" int not null, "descricao" varchar(120) not null, "permissoes" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "permissao_ambiente_id_index" on "permissao" ("ambiente_id");`);
    this.addSql(`alter table "permissao" add constraint "permissao_ambiente_id_descricao_unique" unique ("ambiente_id", "descricao");`);

    this.addSql(`create table "recuperacao_senha" ("id" serial primary key, "token_hash" varchar(128) not null, "usuario_id" int not null, "criada_em" timestamptz not null, "expira_em" timestamptz not null, "usada_em" timestamptz null);`);
    this.addSql(`alter table "recuperacao_senha" add constraint "recuperacao_senha_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "situacao_do_ativo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "situacao_do_ativo_empresa_id_index" on "situacao_do_ativo" ("empresa_id");`);
    this.addSql(`alter table "situacao_do_ativo" add constraint "situacao_do_ativo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "ativo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "placa" varchar(8) not null, "id_garagem" int null, "numero_frota" varchar(30) null, "ano" int null, "cor" varchar(30) null, "categoria" int null, "fabricante" int null, "modelo" int null, "situacao" int null, "firmware" varchar(60) null, "odometro" double precision null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "ativo_empresa_id_index" on "ativo" ("empresa_id");`);
    this.addSql(`create index "ativo_id_garagem_index" on "ativo" ("id_garagem");`);
    this.addSql(`create index "ativo_categoria_index" on "ativo" ("categoria");`);
    this.addSql(`create index "ativo_fabricante_index" on "ativo" ("fabricante");`);
    this.addSql(`create index "ativo_modelo_index" on "ativo" ("modelo");`);
    this.addSql(`create index "ativo_situacao_index" on "ativo" ("situacao");`);
    this.addSql(`alter table "ativo" add constraint "ativo_empresa_id_placa_unique" unique ("empresa_id", "placa");`);

    this.addSql(`create table "equipamento_ativo" ("id" serial primary key, "empresa_id" int not null, "serial" varchar(20) not null, "ativo_id" int not null, "data_inicio" timestamptz not null, "data_fim" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "equipamento_ativo_empresa_id_index" on "equipamento_ativo" ("empresa_id");`);
    this.addSql(`create index "equipamento_ativo_ativo_id_index" on "equipamento_ativo" ("ativo_id");`);

    this.addSql(`create table "usuario" ("id" serial primary key, "ambiente_id" int not null, "nome" varchar(120) not null, "login" varchar(60) not null, "email" varchar(160) null, "senha" varchar(128) null, "empresas" integer[] null, "empresa_ativa" int null, "cargos" integer[] null, "permissoes_extras" jsonb null, "roles" jsonb null, "ui" jsonb null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "usuario_ambiente_id_index" on "usuario" ("ambiente_id");`);
    this.addSql(`create index "usuario_empresa_ativa_index" on "usuario" ("empresa_ativa");`);
    this.addSql(`alter table "usuario" add constraint "usuario_login_unique" unique ("login");`);

    this.addSql(`create table "sessao" ("id" serial primary key, "ambiente_id" int not null, "usuario" int not null, "login" varchar(60) not null, "empresa_ativa" int null, "ip" varchar(64) null, "user_agent" varchar(400) null, "data_inicio" timestamptz not null, "data_ultimo_acesso" timestamptz null, "data_valido_ate" timestamptz not null, "ativa" boolean not null default true, "data_fim" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "sessao_ambiente_id_index" on "sessao" ("ambiente_id");`);
    this.addSql(`create index "sessao_usuario_index" on "sessao" ("usuario");`);
    this.addSql(`create index "sessao_empresa_ativa_index" on "sessao" ("empresa_ativa");`);

    this.addSql(`create table "historico_de_login" ("id" serial primary key, "ambiente_id" int not null, "usuario" int null, "nome" varchar(120) not null, "data_login" timestamptz not null, "data_valido_ate" timestamptz null, "esta_logado" boolean not null default false, "ip" varchar(64) null, "sucesso" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "historico_de_login_ambiente_id_index" on "historico_de_login" ("ambiente_id");`);
    this.addSql(`create index "historico_de_login_usuario_index" on "historico_de_login" ("usuario");`);

    this.addSql(`alter table "cargo" add constraint "cargo_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);

    this.addSql(`alter table "empresa" add constraint "empresa_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);
    this.addSql(`alter table "empresa" add constraint "empresa_status_check" check ("status" in ('ativa', 'suspensa', 'desativada'));`);

    this.addSql(`alter table "categoria_de_ativo" add constraint "categoria_de_ativo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);

    this.addSql(`alter table "equipamento" add constraint "equipamento_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_tecnologia_check" check ("tecnologia" in ('queclink', 'legacy', 'osmand'));`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_modelo_check" check ("modelo" in ('gv50cg', 'gv58cg', 'gv350ceu', 'legacy', 'osmand'));`);

    this.addSql(`alter table "fabricante_de_ativo" add constraint "fabricante_de_ativo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);

    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_event_check" check ("event" in ('reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock'));`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_status_check" check ("status" in ('pendente', 'enviado', 'concluido', 'erro', 'cancelado'));`);

    this.addSql(`alter table "garagem" add constraint "garagem_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);
    this.addSql(`alter table "garagem" add constraint "garagem_grupo_superior_foreign" foreign key ("grupo_superior") references "garagem" ("id") on delete set null;`);

    this.addSql(`alter table "modelo_de_ativo" add constraint "modelo_de_ativo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);

    this.addSql(`alter table "motorista" add constraint "motorista_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);
    this.addSql(`alter table "motorista" add constraint "motorista_id_garagem_foreign" foreign key ("id_garagem") references "garagem" ("id") on delete set null;`);
    this.addSql(`alter table "motorista" add constraint "motorista_categoria_cnh_check" check ("categoria_cnh" in ('A', 'B', 'AB', 'C', 'D', 'E', 'AC', 'AD', 'AE'));`);
    this.addSql(`alter table "motorista" add constraint "motorista_situacao_check" check ("situacao" in ('ativo', 'inativo', 'afastado'));`);

    this.addSql(`alter table "permissao" add constraint "permissao_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);

    this.addSql(`alter table "situacao_do_ativo" add constraint "situacao_do_ativo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);

    this.addSql(`alter table "ativo" add constraint "ativo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);
    this.addSql(`alter table "ativo" add constraint "ativo_id_garagem_foreign" foreign key ("id_garagem") references "garagem" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_categoria_foreign" foreign key ("categoria") references "categoria_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_fabricante_foreign" foreign key ("fabricante") references "fabricante_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_modelo_foreign" foreign key ("modelo") references "modelo_de_ativo" ("id") on delete set null;`);
    this.addSql(`alter table "ativo" add constraint "ativo_situacao_foreign" foreign key ("situacao") references "situacao_do_ativo" ("id") on delete set null;`);

    this.addSql(`alter table "equipamento_ativo" add constraint "equipamento_ativo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id");`);
    this.addSql(`alter table "equipamento_ativo" add constraint "equipamento_ativo_ativo_id_foreign" foreign key ("ativo_id") references "ativo" ("id");`);

    this.addSql(`alter table "usuario" add constraint "usuario_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);
    this.addSql(`alter table "usuario" add constraint "usuario_empresa_ativa_foreign" foreign key ("empresa_ativa") references "empresa" ("id") on delete set null;`);

    this.addSql(`alter table "sessao" add constraint "sessao_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);
    this.addSql(`alter table "sessao" add constraint "sessao_usuario_foreign" foreign key ("usuario") references "usuario" ("id");`);
    this.addSql(`alter table "sessao" add constraint "sessao_empresa_ativa_foreign" foreign key ("empresa_ativa") references "empresa" ("id") on delete set null;`);

    this.addSql(`alter table "historico_de_login" add constraint "historico_de_login_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);
    this.addSql(`alter table "historico_de_login" add constraint "historico_de_login_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "cargo" drop constraint "cargo_ambiente_id_foreign";`);
    this.addSql(`alter table "empresa" drop constraint "empresa_ambiente_id_foreign";`);
    this.addSql(`alter table "permissao" drop constraint "permissao_ambiente_id_foreign";`);
    this.addSql(`alter table "usuario" drop constraint "usuario_ambiente_id_foreign";`);
    this.addSql(`alter table "sessao" drop constraint "sessao_ambiente_id_foreign";`);
    this.addSql(`alter table "historico_de_login" drop constraint "historico_de_login_ambiente_id_foreign";`);
    this.addSql(`alter table "categoria_de_ativo" drop constraint "categoria_de_ativo_empresa_id_foreign";`);
    this.addSql(`alter table "equipamento" drop constraint "equipamento_empresa_id_foreign";`);
    this.addSql(`alter table "fabricante_de_ativo" drop constraint "fabricante_de_ativo_empresa_id_foreign";`);
    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_empresa_id_foreign";`);
    this.addSql(`alter table "garagem" drop constraint "garagem_empresa_id_foreign";`);
    this.addSql(`alter table "modelo_de_ativo" drop constraint "modelo_de_ativo_empresa_id_foreign";`);
    this.addSql(`alter table "motorista" drop constraint "motorista_empresa_id_foreign";`);
    this.addSql(`alter table "situacao_do_ativo" drop constraint "situacao_do_ativo_empresa_id_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_empresa_id_foreign";`);
    this.addSql(`alter table "equipamento_ativo" drop constraint "equipamento_ativo_empresa_id_foreign";`);
    this.addSql(`alter table "usuario" drop constraint "usuario_empresa_ativa_foreign";`);
    this.addSql(`alter table "sessao" drop constraint "sessao_empresa_ativa_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_categoria_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_fabricante_foreign";`);
    this.addSql(`alter table "garagem" drop constraint "garagem_grupo_superior_foreign";`);
    this.addSql(`alter table "motorista" drop constraint "motorista_id_garagem_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_id_garagem_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_modelo_foreign";`);
    this.addSql(`alter table "ativo" drop constraint "ativo_situacao_foreign";`);
    this.addSql(`alter table "equipamento_ativo" drop constraint "equipamento_ativo_ativo_id_foreign";`);
    this.addSql(`alter table "sessao" drop constraint "sessao_usuario_foreign";`);
    this.addSql(`alter table "historico_de_login" drop constraint "historico_de_login_usuario_foreign";`);

    this.addSql(`drop table if exists "ambiente" cascade;`);
    this.addSql(`drop table if exists "cargo" cascade;`);
    this.addSql(`drop table if exists "empresa" cascade;`);
    this.addSql(`drop table if exists "categoria_de_ativo" cascade;`);
    this.addSql(`drop table if exists "equipamento" cascade;`);
    this.addSql(`drop table if exists "equipamento_pendente" cascade;`);
    this.addSql(`drop table if exists "fabricante_de_ativo" cascade;`);
    this.addSql(`drop table if exists "fila_processamento" cascade;`);
    this.addSql(`drop table if exists "garagem" cascade;`);
    this.addSql(`drop table if exists "historico_alteracao" cascade;`);
    this.addSql(`drop table if exists "modelo_de_ativo" cascade;`);
    this.addSql(`drop table if exists "motorista" cascade;`);
    this.addSql(`drop table if exists "permissao" cascade;`);
    this.addSql(`drop table if exists "recuperacao_senha" cascade;`);
    this.addSql(`drop table if exists "situacao_do_ativo" cascade;`);
    this.addSql(`drop table if exists "ativo" cascade;`);
    this.addSql(`drop table if exists "equipamento_ativo" cascade;`);
    this.addSql(`drop table if exists "usuario" cascade;`);
    this.addSql(`drop table if exists "sessao" cascade;`);
    this.addSql(`drop table if exists "historico_de_login" cascade;`);
  }

}
