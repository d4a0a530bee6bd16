import { Migration } from '@mikro-orm/migrations';

export class Migration20261123174120_uploads_request_time extends Migration {

  override name = 'Migration20261123174120_uploads_request_time';

  override up(): void | Promise<void> {
    this.addSql(`create table "requisicao_lenta" ("id" serial primary key, "empresa_id" int not null, "duracao" int not null, "url" varchar(2000) not null, "method" varchar(10) not null, "parametros" text null, "usuario" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "requisicao_lenta_empresa_id_index" on "requisicao_lenta" ("empresa_id");`);
    this.addSql(`create index "requisicao_lenta_usuario_index" on "requisicao_lenta" ("usuario");`);
    this.addSql(`create index "requisicao_lenta_url_trgm_index" on "requisicao_lenta" using gin ("url" gin_trgm_ops);`);
    this.addSql(`create index "requisicao_lenta_empresa_id_created_at_id_sort_index" on "requisicao_lenta" ("empresa_id", "created_at", "id");`);

    this.addSql(`create table "arquivo" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(255) not null, "chave" varchar(80) not null, "miniatura" varchar(80) null, "mime" varchar(100) not null, "tamanho" int not null, "largura" int null, "altura" int null, "usuario" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "arquivo_empresa_id_index" on "arquivo" ("empresa_id");`);
    this.addSql(`create index "arquivo_usuario_index" on "arquivo" ("usuario");`);
    this.addSql(`create index "arquivo_nome_trgm_index" on "arquivo" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "arquivo_mime_trgm_index" on "arquivo" using gin ("mime" gin_trgm_ops);`);
    this.addSql(`create index "arquivo_empresa_id_nome_id_sort_index" on "arquivo" ("empresa_id", "nome", "id");`);
    this.addSql(`alter table "arquivo" add constraint "arquivo_chave_unique" unique ("chave");`);
    this.addSql(`alter table "arquivo" add constraint "arquivo_miniatura_unique" unique ("miniatura");`);

    this.addSql(`alter table "empresa" add "logo" varchar(200) null;`);

    this.addSql(`alter table "requisicao_lenta" add constraint "requisicao_lenta_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "requisicao_lenta" add constraint "requisicao_lenta_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "requisicao_lenta" enable row level security;`);
    this.addSql(`create policy "requisicao_lenta_empresa" on "requisicao_lenta" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "requisicao_lenta_ingest" on "requisicao_lenta" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "arquivo" add constraint "arquivo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "arquivo" add constraint "arquivo_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "arquivo" enable row level security;`);
    this.addSql(`create policy "arquivo_empresa" on "arquivo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "arquivo_ingest" on "arquivo" to "rastro_ingest" using (true) with check (true);`);
  }

}
