import { Migration } from '@mikro-orm/migrations';

export class Migration20261123204506_atualizacao_firmware extends Migration {

  override name = 'Migration20261123204506_atualizacao_firmware';

  override up(): void | Promise<void> {
    this.addSql(`create table "atualizacao_firmware" ("id" serial primary key, "empresa_id" int not null, "equipamento" int not null, "firmware" int not null, "observacao" text null, "versao_origem" varchar(60) null, "versao_destino" varchar(60) null, "tamanho" int null, "sequencia" int null, "comando" int null, "tecnologia" varchar(40) not null, "modelo" varchar(40) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "atualizacao_firmware_empresa_id_index" on "atualizacao_firmware" ("empresa_id");`);
    this.addSql(`create index "atualizacao_firmware_equipamento_index" on "atualizacao_firmware" ("equipamento");`);
    this.addSql(`create index "atualizacao_firmware_firmware_index" on "atualizacao_firmware" ("firmware");`);
    this.addSql(`create index "atualizacao_firmware_comando_index" on "atualizacao_firmware" ("comando");`);
    this.addSql(`create index "atualizacao_firmware_versao_destino_trgm_index" on "atualizacao_firmware" using gin ("versao_destino" gin_trgm_ops);`);
    this.addSql(`create index "atualizacao_firmware_versao_origem_trgm_index" on "atualizacao_firmware" using gin ("versao_origem" gin_trgm_ops);`);
    this.addSql(`create index "atualizacao_firmware_empresa_id_tecnologia_modelo_crea_f3e68139" on "atualizacao_firmware" ("empresa_id", "tecnologia", "modelo", "created_at", "id");`);

    this.addSql(`alter table "equipamento" drop constraint "equipamento_modelo_check";`);
    this.addSql(`alter table "equipamento" drop constraint "equipamento_tecnologia_check";`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_modelo_check" check ("modelo" in ('gv50cg', 'gv58cg', 'gv350ceu', 'gv300', 'gv310lau', 'gv350m', 'gv55', 'gv55w', 'gv56', 'gv600m', 'gl300', 'gl300m', 'cv100lg', 'legacy', 'osmand', 'vdo_telemetria', 'vdo_compact', 'mix'));`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_tecnologia_check" check ("tecnologia" in ('queclink', 'legacy', 'osmand', 'vdo'));`);

    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_event_check";`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_event_check" check ("event" in ('reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock', 'firmwareUpdate'));`);

    this.addSql(`alter table "firmware" add "tamanho" int null;`);

    this.addSql(`alter table "atualizacao_firmware" add constraint "atualizacao_firmware_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "atualizacao_firmware" add constraint "atualizacao_firmware_equipamento_foreign" foreign key ("equipamento") references "equipamento" ("id") on delete no action;`);
    this.addSql(`alter table "atualizacao_firmware" add constraint "atualizacao_firmware_firmware_foreign" foreign key ("firmware") references "firmware" ("id") on delete no action;`);
    this.addSql(`alter table "atualizacao_firmware" add constraint "atualizacao_firmware_comando_foreign" foreign key ("comando") references "fila_processamento" ("id") on delete set null;`);
    this.addSql(`alter table "atualizacao_firmware" enable row level security;`);
    this.addSql(`create policy "atualizacao_firmware_empresa" on "atualizacao_firmware" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "atualizacao_firmware_ingest" on "atualizacao_firmware" to "rastro_ingest" using (true) with check (true);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "equipamento" drop constraint "equipamento_tecnologia_check";`);
    this.addSql(`alter table "equipamento" drop constraint "equipamento_modelo_check";`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_tecnologia_check" check ("tecnologia" in ('queclink', 'legacy', 'osmand'));`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_modelo_check" check ("modelo" in ('gv50cg', 'gv58cg', 'gv350ceu', 'gv300', 'gv310lau', 'gv350m', 'gv55', 'gv55w', 'gv56', 'gv600m', 'gl300', 'gl300m', 'cv100lg', 'legacy', 'osmand'));`);

    this.addSql(`alter table "fila_processamento" drop constraint "fila_processamento_event_check";`);
    this.addSql(`alter table "fila_processamento" add constraint "fila_processamento_event_check" check ("event" in ('reboot', 'sync', 'readConfig', 'writeConfig', 'engineBlock', 'engineUnblock'));`);
  }

}
