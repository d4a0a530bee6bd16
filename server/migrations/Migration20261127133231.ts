import { Migration } from '@mikro-orm/migrations';

export class Migration20261127133231 extends Migration {

  override name = 'Migration20261127133231';

  override up(): void | Promise<void> {
    this.addSql(`create table "tratamento_alarme" ("id" serial primary key, "empresa_id" int not null, "alarme" varchar(200) not null, "serial" varchar(80) not null, "data_evento" timestamptz not null, "codigo" varchar(80) not null, "evento" varchar(80) not null, "descricao" varchar(200) null, "risco" text null, "ativo" int null, "situacao" text not null, "assumido_por" int null, "assumido_por_nome" varchar(120) null, "assumido_em" timestamptz not null, "tratamento" varchar(2000) null, "encerrado_por" int null, "encerrado_em" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tratamento_alarme_empresa_id_index" on "tratamento_alarme" ("empresa_id");`);
    this.addSql(`create index "tratamento_alarme_ativo_index" on "tratamento_alarme" ("ativo");`);
    this.addSql(`create index "tratamento_alarme_assumido_por_index" on "tratamento_alarme" ("assumido_por");`);
    this.addSql(`create index "tratamento_alarme_encerrado_por_index" on "tratamento_alarme" ("encerrado_por");`);
    this.addSql(`create index "tratamento_alarme_serial_trgm_index" on "tratamento_alarme" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "tratamento_alarme_descricao_trgm_index" on "tratamento_alarme" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "tratamento_alarme_evento_trgm_index" on "tratamento_alarme" using gin ("evento" gin_trgm_ops);`);
    this.addSql(`create index "tratamento_alarme_tratamento_trgm_index" on "tratamento_alarme" using gin ("tratamento" gin_trgm_ops);`);
    this.addSql(`create index "tratamento_alarme_empresa_id_assumido_em_id_sort_index" on "tratamento_alarme" ("empresa_id", "assumido_em", "id");`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_empresa_id_alarme_unique" unique ("empresa_id", "alarme");`);

    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete set null;`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_assumido_por_foreign" foreign key ("assumido_por") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_encerrado_por_foreign" foreign key ("encerrado_por") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_risco_check" check ("risco" in ('baixo', 'médio', 'alto'));`);
    this.addSql(`alter table "tratamento_alarme" add constraint "tratamento_alarme_situacao_check" check ("situacao" in ('assumido', 'encerrado'));`);
    this.addSql(`alter table "tratamento_alarme" enable row level security;`);
    this.addSql(`create policy "tratamento_alarme_empresa" on "tratamento_alarme" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "tratamento_alarme_ingest" on "tratamento_alarme" to "rastro_ingest" using (true) with check (true);`);
  }

}
