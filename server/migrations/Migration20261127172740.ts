import { Migration } from '@mikro-orm/migrations';

export class Migration20261127172740 extends Migration {

  override name = 'Migration20261127172740';

  override up(): void | Promise<void> {
    this.addSql(`create table "log_tacografo" ("id" serial primary key, "empresa_id" int not null, "serial" varchar(20) not null, "ativo" int null, "evento" text not null, "descricao" varchar(200) not null, "time" timestamptz not null, "arquivo_vdr" varchar(120) null, "mensagem" text null, "transferencia" varchar(10) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "log_tacografo_empresa_id_index" on "log_tacografo" ("empresa_id");`);
    this.addSql(`create index "log_tacografo_ativo_index" on "log_tacografo" ("ativo");`);
    this.addSql(`create index "log_tacografo_serial_trgm_index" on "log_tacografo" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "log_tacografo_descricao_trgm_index" on "log_tacografo" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "log_tacografo_arquivo_vdr_trgm_index" on "log_tacografo" using gin ("arquivo_vdr" gin_trgm_ops);`);
    this.addSql(`create index "log_tacografo_empresa_id_time_id_sort_index" on "log_tacografo" ("empresa_id", "time", "id");`);

    this.addSql(`create table "arquivo_tacografo" ("id" serial primary key, "empresa_id" int not null, "ativo" int null, "motorista" int null, "serial" varchar(20) not null, "tipo_arquivo" text not null, "data_referencia" date not null, "tamanho" int not null, "nome_arquivo" varchar(120) not null, "chave" varchar(80) not null, "transferencia" varchar(10) null, "recebido_em" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "arquivo_tacografo_empresa_id_index" on "arquivo_tacografo" ("empresa_id");`);
    this.addSql(`create index "arquivo_tacografo_ativo_index" on "arquivo_tacografo" ("ativo");`);
    this.addSql(`create index "arquivo_tacografo_motorista_index" on "arquivo_tacografo" ("motorista");`);
    this.addSql(`create index "arquivo_tacografo_serial_trgm_index" on "arquivo_tacografo" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "arquivo_tacografo_nome_arquivo_trgm_index" on "arquivo_tacografo" using gin ("nome_arquivo" gin_trgm_ops);`);
    this.addSql(`create index "arquivo_tacografo_empresa_id_recebido_em_id_sort_index" on "arquivo_tacografo" ("empresa_id", "recebido_em", "id");`);

    this.addSql(`create table "transferencia_tacografo" ("id" serial primary key, "empresa_id" int not null, "serial" varchar(20) not null, "transferencia" varchar(10) not null, "ativo" int null, "tipo_arquivo" text not null, "data_referencia" date not null, "situacao" text not null default 'recebendo', "blocos_recebidos" int not null default 0, "ultimo_bloco" int null, "duplicados" int not null default 0, "motivo" text null, "iniciada_em" timestamptz not null, "ultimo_quadro_em" timestamptz not null, "arquivo" int null, "blocos" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "transferencia_tacografo_empresa_id_index" on "transferencia_tacografo" ("empresa_id");`);
    this.addSql(`create index "transferencia_tacografo_ativo_index" on "transferencia_tacografo" ("ativo");`);
    this.addSql(`create index "transferencia_tacografo_arquivo_index" on "transferencia_tacografo" ("arquivo");`);
    this.addSql(`create index "transferencia_tacografo_serial_trgm_index" on "transferencia_tacografo" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "transferencia_tacografo_transferencia_trgm_index" on "transferencia_tacografo" using gin ("transferencia" gin_trgm_ops);`);
    this.addSql(`create index "transferencia_tacografo_empresa_id_ultimo_quadro_em_id_af386cef" on "transferencia_tacografo" ("empresa_id", "ultimo_quadro_em", "id");`);

    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_event_check";`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_event_check" check ("event" in ('reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock', 'firmwareUpdate', 'mensagemSatelite', 'tacografoUpload', 'tacografoDownload', 'tacografoInterrupt'));`);

    this.addSql(`alter table "log_tacografo" add constraint "log_tacografo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "log_tacografo" add constraint "log_tacografo_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete set null;`);
    this.addSql(`alter table "log_tacografo" add constraint "log_tacografo_evento_check" check ("evento" in ('transferencia_iniciada', 'arquivo_recebido', 'transferencia_falhou', 'comando_enfileirado'));`);
    this.addSql(`alter table "log_tacografo" enable row level security;`);
    this.addSql(`create policy "log_tacografo_empresa" on "log_tacografo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "log_tacografo_ingest" on "log_tacografo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "arquivo_tacografo" add constraint "arquivo_tacografo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "arquivo_tacografo" add constraint "arquivo_tacografo_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete set null;`);
    this.addSql(`alter table "arquivo_tacografo" add constraint "arquivo_tacografo_motorista_foreign" foreign key ("motorista") references "motorista" ("id") on delete set null;`);
    this.addSql(`alter table "arquivo_tacografo" add constraint "arquivo_tacografo_tipo_arquivo_check" check ("tipo_arquivo" in ('24h', '7d', '90d_supressao', '24h_dia_atual'));`);
    this.addSql(`alter table "arquivo_tacografo" enable row level security;`);
    this.addSql(`create policy "arquivo_tacografo_empresa" on "arquivo_tacografo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "arquivo_tacografo_ingest" on "arquivo_tacografo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "transferencia_tacografo" add constraint "transferencia_tacografo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "transferencia_tacografo" add constraint "transferencia_tacografo_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete set null;`);
    this.addSql(`alter table "transferencia_tacografo" add constraint "transferencia_tacografo_arquivo_foreign" foreign key ("arquivo") references "arquivo_tacografo" ("id") on delete set null;`);
    this.addSql(`alter table "transferencia_tacografo" add constraint "transferencia_tacografo_tipo_arquivo_check" check ("tipo_arquivo" in ('24h', '7d', '90d_supressao', '24h_dia_atual'));`);
    this.addSql(`alter table "transferencia_tacografo" add constraint "transferencia_tacografo_situacao_check" check ("situacao" in ('recebendo', 'concluida', 'falhou'));`);
    this.addSql(`alter table "transferencia_tacografo" enable row level security;`);
    this.addSql(`create policy "transferencia_tacografo_empresa" on "transferencia_tacografo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "transferencia_tacografo_ingest" on "transferencia_tacografo" to "rastro_ingest" using (true) with check (true);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_event_check";`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_event_check" check ("event" in ('reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock', 'firmwareUpdate', 'mensagemSatelite'));`);
  }

}
