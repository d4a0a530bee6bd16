import { Migration } from '@mikro-orm/migrations';

export class Migration20261127143623 extends Migration {

  override name = 'Migration20261127143623';

  override up(): void | Promise<void> {
    this.addSql(`create table "relatorio_gerado" ("id" serial primary key, "empresa_id" int not null, "usuario" int null, "titulo" varchar(200) not null, "familia" varchar(60) not null, "tipo" varchar(60) not null, "parametros" text not null, "formato" text not null, "tamanho" int not null, "linhas" int not null, "situacao" text not null default 'disponivel', "arquivo" varchar(80) not null, "nome_arquivo" varchar(120) not null, "tarefa" int null, "compartilhado_por" int null, "gerado_em" timestamptz not null, "expira_em" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "relatorio_gerado_empresa_id_index" on "relatorio_gerado" ("empresa_id");`);
    this.addSql(`create index "relatorio_gerado_usuario_index" on "relatorio_gerado" ("usuario");`);
    this.addSql(`create index "relatorio_gerado_compartilhado_por_index" on "relatorio_gerado" ("compartilhado_por");`);
    this.addSql(`create index "relatorio_gerado_titulo_trgm_index" on "relatorio_gerado" using gin ("titulo" gin_trgm_ops);`);
    this.addSql(`create index "relatorio_gerado_empresa_id_gerado_em_id_sort_index" on "relatorio_gerado" ("empresa_id", "gerado_em", "id");`);

    this.addSql(`create table "agendamento_relatorio" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "familia" varchar(60) not null default 'viagem', "tipo" varchar(60) not null default 'resumido_ativo', "parametros" jsonb null, "periodo" text not null default 'ontem', "formato" text not null default 'xlsx', "frequencia" text not null default 'diario', "hora_envio" varchar(5) not null default '07:00', "dia_semana" int null default 1, "dia_mes" int null default 1, "assunto_email" varchar(160) not null, "destinatario" text not null, "ativo" boolean not null default true, "usuario" int null, "data_envio" timestamptz null, "ultimo_envio" timestamptz null, "ultimo_erro" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "agendamento_relatorio_empresa_id_index" on "agendamento_relatorio" ("empresa_id");`);
    this.addSql(`create index "agendamento_relatorio_usuario_index" on "agendamento_relatorio" ("usuario");`);
    this.addSql(`create index "agendamento_relatorio_descricao_trgm_index" on "agendamento_relatorio" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "agendamento_relatorio_assunto_email_trgm_index" on "agendamento_relatorio" using gin ("assunto_email" gin_trgm_ops);`);
    this.addSql(`create index "agendamento_relatorio_empresa_id_descricao_id_sort_index" on "agendamento_relatorio" ("empresa_id", "descricao", "id");`);

    this.addSql(`alter table "relatorio_gerado" add constraint "relatorio_gerado_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "relatorio_gerado" add constraint "relatorio_gerado_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete cascade;`);
    this.addSql(`alter table "relatorio_gerado" add constraint "relatorio_gerado_compartilhado_por_foreign" foreign key ("compartilhado_por") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "relatorio_gerado" add constraint "relatorio_gerado_formato_check" check ("formato" in ('xlsx', 'csv', 'pdf'));`);
    this.addSql(`alter table "relatorio_gerado" add constraint "relatorio_gerado_situacao_check" check ("situacao" in ('disponivel', 'compartilhado'));`);
    this.addSql(`alter table "relatorio_gerado" enable row level security;`);
    this.addSql(`create policy "relatorio_gerado_empresa" on "relatorio_gerado" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "relatorio_gerado_ingest" on "relatorio_gerado" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "agendamento_relatorio" add constraint "agendamento_relatorio_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "agendamento_relatorio" add constraint "agendamento_relatorio_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "agendamento_relatorio" add constraint "agendamento_relatorio_periodo_check" check ("periodo" in ('ontem', 'hoje', 'semana_passada', 'ultimos_7_dias', 'mes_passado'));`);
    this.addSql(`alter table "agendamento_relatorio" add constraint "agendamento_relatorio_formato_check" check ("formato" in ('xlsx', 'csv', 'pdf'));`);
    this.addSql(`alter table "agendamento_relatorio" add constraint "agendamento_relatorio_frequencia_check" check ("frequencia" in ('diario', 'semanal', 'mensal'));`);
    this.addSql(`alter table "agendamento_relatorio" enable row level security;`);
    this.addSql(`create policy "agendamento_relatorio_empresa" on "agendamento_relatorio" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "agendamento_relatorio_ingest" on "agendamento_relatorio" to "rastro_ingest" using (true) with check (true);`);
  }

}
