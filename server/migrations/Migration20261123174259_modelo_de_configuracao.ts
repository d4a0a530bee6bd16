import { Migration } from '@mikro-orm/migrations';

export class Migration20261123174259_modelo_de_configuracao extends Migration {

  override name = 'Migration20261123174259_modelo_de_configuracao';

  override up(): void | Promise<void> {
    this.addSql(`create table "modelo_de_configuracao" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "tecnologia" varchar(40) not null, "modelo" varchar(40) not null, "intervalo_ignicao_ligada" int null default 60, "intervalo_ignicao_desligada" int null default 3600, "tempo_antifurto" int null default 0, "periodo_sono" int null default 30, "alarme_mudanca_direcao" boolean null default false, "angulo_mudanca_direcao" int null default 30, "velocidade_mudanca_direcao" int null default 20, "intervalo_snapshot" int null default 0, "amostras_por_registro" int null default 1, "mensagem_gateway" varchar(227) null, "dop_maximo" int null default 15, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "modelo_de_configuracao_empresa_id_index" on "modelo_de_configuracao" ("empresa_id");`);
    this.addSql(`create index "modelo_de_configuracao_descricao_trgm_index" on "modelo_de_configuracao" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "modelo_de_configuracao_empresa_id_tecnologia_modelo_de_3b98f8d6" on "modelo_de_configuracao" ("empresa_id", "tecnologia", "modelo", "descricao", "id");`);

    this.addSql(`alter table "modelo_de_configuracao" add constraint "modelo_de_configuracao_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "modelo_de_configuracao" enable row level security;`);
    this.addSql(`create policy "modelo_de_configuracao_empresa" on "modelo_de_configuracao" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "modelo_de_configuracao_ingest" on "modelo_de_configuracao" to "rastro_ingest" using (true) with check (true);`);
  }

}
