import { Migration } from '@mikro-orm/migrations';

export class Migration20261123173058_cadastros_sistema extends Migration {

  override name = 'Migration20261123173058_cadastros_sistema';

  override up(): void | Promise<void> {
    this.addSql(`create table "aplicacao" ("id" serial primary key, "descricao" varchar(120) not null, "sigla" varchar(20) null, "url" varchar(255) null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "aplicacao_descricao_trgm_index" on "aplicacao" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "aplicacao_descricao_id_sort_index" on "aplicacao" ("descricao", "id");`);
    this.addSql(`alter table "aplicacao" add constraint "aplicacao_descricao_unique" unique ("descricao");`);

    this.addSql(`create table "categoria_unidade_medida" ("id" serial primary key, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "categoria_unidade_medida_descricao_trgm_index" on "categoria_unidade_medida" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "categoria_unidade_medida_descricao_id_sort_index" on "categoria_unidade_medida" ("descricao", "id");`);
    this.addSql(`alter table "categoria_unidade_medida" add constraint "categoria_unidade_medida_descricao_unique" unique ("descricao");`);

    this.addSql(`create table "centro_custo" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "codigo" varchar(30) null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "centro_custo_empresa_id_index" on "centro_custo" ("empresa_id");`);
    this.addSql(`create index "centro_custo_descricao_trgm_index" on "centro_custo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "centro_custo_empresa_id_descricao_id_sort_index" on "centro_custo" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "centro_custo" add constraint "centro_custo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "celular" ("id" serial primary key, "empresa_id" int not null, "celular" varchar(20) not null, "descricao" varchar(120) null, "aplicativo_habilitado" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "celular_empresa_id_index" on "celular" ("empresa_id");`);
    this.addSql(`create index "celular_celular_trgm_index" on "celular" using gin ("celular" gin_trgm_ops);`);
    this.addSql(`create index "celular_descricao_trgm_index" on "celular" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "celular_empresa_id_celular_id_sort_index" on "celular" ("empresa_id", "celular", "id");`);
    this.addSql(`alter table "celular" add constraint "celular_empresa_id_celular_unique" unique ("empresa_id", "celular");`);

    this.addSql(`create table "categoria_de_cerca" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "cor" varchar(7) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "categoria_de_cerca_empresa_id_index" on "categoria_de_cerca" ("empresa_id");`);
    this.addSql(`create index "categoria_de_cerca_descricao_trgm_index" on "categoria_de_cerca" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "categoria_de_cerca_empresa_id_descricao_id_sort_index" on "categoria_de_cerca" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "categoria_de_cerca" add constraint "categoria_de_cerca_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "calendario" ("id" serial primary key, "empresa_id" int not null, "data" date not null, "descricao" varchar(120) not null, "tipo" text not null default 'feriado_nacional', "recorrente" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "calendario_empresa_id_index" on "calendario" ("empresa_id");`);
    this.addSql(`create index "calendario_descricao_trgm_index" on "calendario" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "calendario_empresa_id_data_id_sort_index" on "calendario" ("empresa_id", "data", "id");`);
    this.addSql(`alter table "calendario" add constraint "calendario_empresa_id_data_unique" unique ("empresa_id", "data");`);

    this.addSql(`create table "fornecedor" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(120) not null, "cnpj" varchar(18) null, "contato" varchar(120) null, "telefone" varchar(20) null, "email" varchar(160) null, "endereco" text null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "fornecedor_empresa_id_index" on "fornecedor" ("empresa_id");`);
    this.addSql(`create index "fornecedor_nome_trgm_index" on "fornecedor" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "fornecedor_cnpj_trgm_index" on "fornecedor" using gin ("cnpj" gin_trgm_ops);`);
    this.addSql(`create index "fornecedor_contato_trgm_index" on "fornecedor" using gin ("contato" gin_trgm_ops);`);
    this.addSql(`create index "fornecedor_empresa_id_nome_id_sort_index" on "fornecedor" ("empresa_id", "nome", "id");`);
    this.addSql(`alter table "fornecedor" add constraint "fornecedor_empresa_id_nome_unique" unique ("empresa_id", "nome");`);

    this.addSql(`create table "grupo_alerta" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "contatos" integer[] null, "emails" text null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "grupo_alerta_empresa_id_index" on "grupo_alerta" ("empresa_id");`);
    this.addSql(`create index "grupo_alerta_descricao_trgm_index" on "grupo_alerta" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "grupo_alerta_empresa_id_descricao_id_sort_index" on "grupo_alerta" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "grupo_alerta" add constraint "grupo_alerta_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "grupo_programa" ("id" serial primary key, "descricao" varchar(120) not null, "ordem" int null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "grupo_programa_descricao_trgm_index" on "grupo_programa" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "grupo_programa_descricao_id_sort_index" on "grupo_programa" ("descricao", "id");`);
    this.addSql(`alter table "grupo_programa" add constraint "grupo_programa_descricao_unique" unique ("descricao");`);

    this.addSql(`create table "modulo" ("id" serial primary key, "descricao" varchar(120) not null, "sigla" varchar(10) not null, "aplicacao" int not null, "ordem" int null default 0, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "modulo_aplicacao_index" on "modulo" ("aplicacao");`);
    this.addSql(`create index "modulo_descricao_trgm_index" on "modulo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "modulo_sigla_trgm_index" on "modulo" using gin ("sigla" gin_trgm_ops);`);
    this.addSql(`create index "modulo_descricao_id_sort_index" on "modulo" ("descricao", "id");`);
    this.addSql(`alter table "modulo" add constraint "modulo_descricao_unique" unique ("descricao");`);
    this.addSql(`alter table "modulo" add constraint "modulo_sigla_unique" unique ("sigla");`);

    this.addSql(`create table "pais" ("id" serial primary key, "nome" varchar(80) not null, "sigla" varchar(2) not null, "codigo_bacen" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "pais_nome_trgm_index" on "pais" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "pais_sigla_trgm_index" on "pais" using gin ("sigla" gin_trgm_ops);`);
    this.addSql(`create index "pais_nome_id_sort_index" on "pais" ("nome", "id");`);
    this.addSql(`alter table "pais" add constraint "pais_nome_unique" unique ("nome");`);
    this.addSql(`alter table "pais" add constraint "pais_sigla_unique" unique ("sigla");`);

    this.addSql(`create table "estado" ("id" serial primary key, "nome" varchar(80) not null, "sigla" varchar(2) not null, "pais" int not null, "codigo_ibge" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "estado_pais_index" on "estado" ("pais");`);
    this.addSql(`create index "estado_nome_trgm_index" on "estado" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "estado_sigla_trgm_index" on "estado" using gin ("sigla" gin_trgm_ops);`);
    this.addSql(`create index "estado_nome_id_sort_index" on "estado" ("nome", "id");`);
    this.addSql(`alter table "estado" add constraint "estado_codigo_ibge_unique" unique ("codigo_ibge");`);

    this.addSql(`create table "municipio" ("id" serial primary key, "nome" varchar(120) not null, "estado" int not null, "codigo_ibge" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "municipio_estado_index" on "municipio" ("estado");`);
    this.addSql(`create index "municipio_nome_trgm_index" on "municipio" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "municipio_nome_id_sort_index" on "municipio" ("nome", "id");`);
    this.addSql(`alter table "municipio" add constraint "municipio_codigo_ibge_unique" unique ("codigo_ibge");`);

    this.addSql(`create table "parametro" ("id" serial primary key, "empresa_id" int not null, "chave" varchar(60) not null, "valor" text null, "descricao" varchar(200) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "parametro_empresa_id_index" on "parametro" ("empresa_id");`);
    this.addSql(`create index "parametro_chave_trgm_index" on "parametro" using gin ("chave" gin_trgm_ops);`);
    this.addSql(`create index "parametro_descricao_trgm_index" on "parametro" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "parametro_empresa_id_chave_id_sort_index" on "parametro" ("empresa_id", "chave", "id");`);
    this.addSql(`alter table "parametro" add constraint "parametro_empresa_id_chave_unique" unique ("empresa_id", "chave");`);

    this.addSql(`create table "periodo_padrao" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "hora_inicio" varchar(5) not null, "hora_fim" varchar(5) not null, "dias_semana" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "periodo_padrao_empresa_id_index" on "periodo_padrao" ("empresa_id");`);
    this.addSql(`create index "periodo_padrao_descricao_trgm_index" on "periodo_padrao" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "periodo_padrao_empresa_id_descricao_id_sort_index" on "periodo_padrao" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "periodo_padrao" add constraint "periodo_padrao_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "permissao_operacao" ("id" serial primary key, "descricao" varchar(120) not null, "operacao" varchar(60) not null, "permissoes" jsonb null, "sub_operacoes" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "permissao_operacao_descricao_trgm_index" on "permissao_operacao" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "permissao_operacao_operacao_trgm_index" on "permissao_operacao" using gin ("operacao" gin_trgm_ops);`);
    this.addSql(`create index "permissao_operacao_descricao_id_sort_index" on "permissao_operacao" ("descricao", "id");`);
    this.addSql(`alter table "permissao_operacao" add constraint "permissao_operacao_operacao_unique" unique ("operacao");`);

    this.addSql(`create table "programa" ("id" serial primary key, "descricao" varchar(120) not null, "rota" varchar(200) not null, "modulo" int not null, "grupo" int null, "permissoes" jsonb null, "ordem" int null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "programa_modulo_index" on "programa" ("modulo");`);
    this.addSql(`create index "programa_grupo_index" on "programa" ("grupo");`);
    this.addSql(`create index "programa_descricao_trgm_index" on "programa" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "programa_rota_trgm_index" on "programa" using gin ("rota" gin_trgm_ops);`);
    this.addSql(`create index "programa_descricao_id_sort_index" on "programa" ("descricao", "id");`);
    this.addSql(`alter table "programa" add constraint "programa_rota_unique" unique ("rota");`);

    this.addSql(`create table "menu" ("id" serial primary key, "descricao" varchar(120) not null, "aplicacao" int not null, "menu_superior" int null, "programa" int null, "icone" varchar(60) null, "ordem" int null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "menu_aplicacao_index" on "menu" ("aplicacao");`);
    this.addSql(`create index "menu_menu_superior_index" on "menu" ("menu_superior");`);
    this.addSql(`create index "menu_programa_index" on "menu" ("programa");`);
    this.addSql(`create index "menu_descricao_trgm_index" on "menu" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "menu_descricao_id_sort_index" on "menu" ("descricao", "id");`);

    this.addSql(`create table "rotina" ("id" serial primary key, "descricao" varchar(120) not null, "codigo" varchar(60) not null, "programa" int null, "agendamento" varchar(60) null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "rotina_programa_index" on "rotina" ("programa");`);
    this.addSql(`create index "rotina_descricao_trgm_index" on "rotina" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "rotina_codigo_trgm_index" on "rotina" using gin ("codigo" gin_trgm_ops);`);
    this.addSql(`create index "rotina_descricao_id_sort_index" on "rotina" ("descricao", "id");`);
    this.addSql(`alter table "rotina" add constraint "rotina_descricao_unique" unique ("descricao");`);
    this.addSql(`alter table "rotina" add constraint "rotina_codigo_unique" unique ("codigo");`);

    this.addSql(`create table "situacao_passageiro" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "situacao_passageiro_empresa_id_index" on "situacao_passageiro" ("empresa_id");`);
    this.addSql(`create index "situacao_passageiro_descricao_trgm_index" on "situacao_passageiro" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "situacao_passageiro_empresa_id_descricao_id_sort_index" on "situacao_passageiro" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "situacao_passageiro" add constraint "situacao_passageiro_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "template" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "tipo" text not null default 'email', "assunto" varchar(200) null, "corpo" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "template_empresa_id_index" on "template" ("empresa_id");`);
    this.addSql(`create index "template_descricao_trgm_index" on "template" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "template_assunto_trgm_index" on "template" using gin ("assunto" gin_trgm_ops);`);
    this.addSql(`create index "template_empresa_id_descricao_id_sort_index" on "template" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "template" add constraint "template_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "tipo_contato" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tipo_contato_empresa_id_index" on "tipo_contato" ("empresa_id");`);
    this.addSql(`create index "tipo_contato_descricao_trgm_index" on "tipo_contato" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "tipo_contato_empresa_id_descricao_id_sort_index" on "tipo_contato" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "tipo_contato" add constraint "tipo_contato_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "tipo_email" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tipo_email_empresa_id_index" on "tipo_email" ("empresa_id");`);
    this.addSql(`create index "tipo_email_descricao_trgm_index" on "tipo_email" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "tipo_email_empresa_id_descricao_id_sort_index" on "tipo_email" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "tipo_email" add constraint "tipo_email_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "tipo_script" ("id" serial primary key, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tipo_script_descricao_trgm_index" on "tipo_script" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "tipo_script_descricao_id_sort_index" on "tipo_script" ("descricao", "id");`);
    this.addSql(`alter table "tipo_script" add constraint "tipo_script_descricao_unique" unique ("descricao");`);

    this.addSql(`create table "script" ("id" serial primary key, "descricao" varchar(120) not null, "tipo" int not null, "conteudo" text not null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "script_tipo_index" on "script" ("tipo");`);
    this.addSql(`create index "script_descricao_trgm_index" on "script" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "script_descricao_id_sort_index" on "script" ("descricao", "id");`);
    this.addSql(`alter table "script" add constraint "script_descricao_unique" unique ("descricao");`);

    this.addSql(`create table "tipo_telefone" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tipo_telefone_empresa_id_index" on "tipo_telefone" ("empresa_id");`);
    this.addSql(`create index "tipo_telefone_descricao_trgm_index" on "tipo_telefone" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "tipo_telefone_empresa_id_descricao_id_sort_index" on "tipo_telefone" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "tipo_telefone" add constraint "tipo_telefone_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "contato" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(120) not null, "cargo" varchar(80) null, "tipo_contato" int null, "tipo_fone" int null, "fone" varchar(20) null, "servicos" varchar(200) null, "tipo_email" int null, "email" varchar(160) null, "email_permissoes" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "contato_empresa_id_index" on "contato" ("empresa_id");`);
    this.addSql(`create index "contato_tipo_contato_index" on "contato" ("tipo_contato");`);
    this.addSql(`create index "contato_tipo_fone_index" on "contato" ("tipo_fone");`);
    this.addSql(`create index "contato_tipo_email_index" on "contato" ("tipo_email");`);
    this.addSql(`create index "contato_nome_trgm_index" on "contato" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "contato_cargo_trgm_index" on "contato" using gin ("cargo" gin_trgm_ops);`);
    this.addSql(`create index "contato_email_trgm_index" on "contato" using gin ("email" gin_trgm_ops);`);
    this.addSql(`create index "contato_fone_trgm_index" on "contato" using gin ("fone" gin_trgm_ops);`);
    this.addSql(`create index "contato_empresa_id_nome_id_sort_index" on "contato" ("empresa_id", "nome", "id");`);

    this.addSql(`create table "unidade_medida" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "sigla" varchar(10) not null, "categoria" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "unidade_medida_empresa_id_index" on "unidade_medida" ("empresa_id");`);
    this.addSql(`create index "unidade_medida_categoria_index" on "unidade_medida" ("categoria");`);
    this.addSql(`create index "unidade_medida_descricao_trgm_index" on "unidade_medida" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "unidade_medida_sigla_trgm_index" on "unidade_medida" using gin ("sigla" gin_trgm_ops);`);
    this.addSql(`create index "unidade_medida_empresa_id_descricao_id_sort_index" on "unidade_medida" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "unidade_medida" add constraint "unidade_medida_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`alter table "centro_custo" add constraint "centro_custo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "centro_custo" enable row level security;`);
    this.addSql(`create policy "centro_custo_empresa" on "centro_custo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "centro_custo_ingest" on "centro_custo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "celular" add constraint "celular_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "celular" enable row level security;`);
    this.addSql(`create policy "celular_empresa" on "celular" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "celular_ingest" on "celular" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "categoria_de_cerca" add constraint "categoria_de_cerca_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "categoria_de_cerca" enable row level security;`);
    this.addSql(`create policy "categoria_de_cerca_empresa" on "categoria_de_cerca" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "categoria_de_cerca_ingest" on "categoria_de_cerca" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "calendario" add constraint "calendario_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "calendario" add constraint "calendario_tipo_check" check ("tipo" in ('feriado_nacional', 'feriado_estadual', 'feriado_municipal', 'ponto_facultativo', 'evento'));`);
    this.addSql(`alter table "calendario" enable row level security;`);
    this.addSql(`create policy "calendario_empresa" on "calendario" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "calendario_ingest" on "calendario" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "fornecedor" add constraint "fornecedor_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "fornecedor" enable row level security;`);
    this.addSql(`create policy "fornecedor_empresa" on "fornecedor" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "fornecedor_ingest" on "fornecedor" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "grupo_alerta" add constraint "grupo_alerta_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "grupo_alerta" enable row level security;`);
    this.addSql(`create policy "grupo_alerta_empresa" on "grupo_alerta" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "grupo_alerta_ingest" on "grupo_alerta" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "modulo" add constraint "modulo_aplicacao_foreign" foreign key ("aplicacao") references "aplicacao" ("id") on delete no action;`);

    this.addSql(`alter table "estado" add constraint "estado_pais_foreign" foreign key ("pais") references "pais" ("id") on delete no action;`);

    this.addSql(`alter table "municipio" add constraint "municipio_estado_foreign" foreign key ("estado") references "estado" ("id") on delete no action;`);

    this.addSql(`alter table "parametro" add constraint "parametro_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "parametro" enable row level security;`);
    this.addSql(`create policy "parametro_empresa" on "parametro" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "parametro_ingest" on "parametro" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "periodo_padrao" add constraint "periodo_padrao_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "periodo_padrao" enable row level security;`);
    this.addSql(`create policy "periodo_padrao_empresa" on "periodo_padrao" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "periodo_padrao_ingest" on "periodo_padrao" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "programa" add constraint "programa_modulo_foreign" foreign key ("modulo") references "modulo" ("id") on delete no action;`);
    this.addSql(`alter table "programa" add constraint "programa_grupo_foreign" foreign key ("grupo") references "grupo_programa" ("id") on delete no action;`);

    this.addSql(`alter table "menu" add constraint "menu_aplicacao_foreign" foreign key ("aplicacao") references "aplicacao" ("id") on delete no action;`);
    this.addSql(`alter table "menu" add constraint "menu_menu_superior_foreign" foreign key ("menu_superior") references "menu" ("id") on delete set null;`);
    this.addSql(`alter table "menu" add constraint "menu_programa_foreign" foreign key ("programa") references "programa" ("id") on delete set null;`);

    this.addSql(`alter table "rotina" add constraint "rotina_programa_foreign" foreign key ("programa") references "programa" ("id") on delete no action;`);

    this.addSql(`alter table "situacao_passageiro" add constraint "situacao_passageiro_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "situacao_passageiro" enable row level security;`);
    this.addSql(`create policy "situacao_passageiro_empresa" on "situacao_passageiro" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "situacao_passageiro_ingest" on "situacao_passageiro" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "template" add constraint "template_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "template" add constraint "template_tipo_check" check ("tipo" in ('email', 'sms', 'notificacao'));`);
    this.addSql(`alter table "template" enable row level security;`);
    this.addSql(`create policy "template_empresa" on "template" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "template_ingest" on "template" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "tipo_contato" add constraint "tipo_contato_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "tipo_contato" enable row level security;`);
    this.addSql(`create policy "tipo_contato_empresa" on "tipo_contato" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "tipo_contato_ingest" on "tipo_contato" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "tipo_email" add constraint "tipo_email_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "tipo_email" enable row level security;`);
    this.addSql(`create policy "tipo_email_empresa" on "tipo_email" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "tipo_email_ingest" on "tipo_email" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "script" add constraint "script_tipo_foreign" foreign key ("tipo") references "tipo_script" ("id") on delete no action;`);

    this.addSql(`alter table "tipo_telefone" add constraint "tipo_telefone_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "tipo_telefone" enable row level security;`);
    this.addSql(`create policy "tipo_telefone_empresa" on "tipo_telefone" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "tipo_telefone_ingest" on "tipo_telefone" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "contato" add constraint "contato_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "contato" add constraint "contato_tipo_contato_foreign" foreign key ("tipo_contato") references "tipo_contato" ("id") on delete no action;`);
    this.addSql(`alter table "contato" add constraint "contato_tipo_fone_foreign" foreign key ("tipo_fone") references "tipo_telefone" ("id") on delete no action;`);
    this.addSql(`alter table "contato" add constraint "contato_tipo_email_foreign" foreign key ("tipo_email") references "tipo_email" ("id") on delete no action;`);
    this.addSql(`alter table "contato" enable row level security;`);
    this.addSql(`create policy "contato_empresa" on "contato" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "contato_ingest" on "contato" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "unidade_medida" add constraint "unidade_medida_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "unidade_medida" add constraint "unidade_medida_categoria_foreign" foreign key ("categoria") references "categoria_unidade_medida" ("id") on delete no action;`);
    this.addSql(`alter table "unidade_medida" enable row level security;`);
    this.addSql(`create policy "unidade_medida_empresa" on "unidade_medida" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "unidade_medida_ingest" on "unidade_medida" to "rastro_ingest" using (true) with check (true);`);
  }

}
