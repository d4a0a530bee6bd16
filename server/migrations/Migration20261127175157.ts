import { Migration } from '@mikro-orm/migrations';

export class Migration20261127175157 extends Migration {

  override name = 'Migration20261127175157';

  override up(): void | Promise<void> {
    this.addSql(`create table "topico_mensagem" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(60) not null, "descricao" varchar(200) null, "padrao" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "topico_mensagem_empresa_id_index" on "topico_mensagem" ("empresa_id");`);
    this.addSql(`create index "topico_mensagem_nome_trgm_index" on "topico_mensagem" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "topico_mensagem_descricao_trgm_index" on "topico_mensagem" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "topico_mensagem_empresa_id_nome_id_sort_index" on "topico_mensagem" ("empresa_id", "nome", "id");`);
    this.addSql(`alter table "topico_mensagem" add constraint "topico_mensagem_empresa_id_nome_unique" unique ("empresa_id", "nome");`);

    this.addSql(`create table "inscricao_push" ("id" serial primary key, "empresa_id" int not null, "usuario" int null, "endpoint" varchar(1000) not null, "p256dh" varchar(200) not null, "auth" varchar(100) not null, "navegador" varchar(400) null, "topicos" jsonb null, "ultimo_envio" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "inscricao_push_empresa_id_index" on "inscricao_push" ("empresa_id");`);
    this.addSql(`create index "inscricao_push_usuario_index" on "inscricao_push" ("usuario");`);
    this.addSql(`create index "inscricao_push_navegador_trgm_index" on "inscricao_push" using gin ("navegador" gin_trgm_ops);`);
    this.addSql(`create index "inscricao_push_empresa_id_created_at_id_sort_index" on "inscricao_push" ("empresa_id", "created_at", "id");`);
    this.addSql(`alter table "inscricao_push" add constraint "inscricao_push_empresa_id_endpoint_unique" unique ("empresa_id", "endpoint");`);

    this.addSql(`alter table "topico_mensagem" add constraint "topico_mensagem_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "topico_mensagem" enable row level security;`);
    this.addSql(`create policy "topico_mensagem_empresa" on "topico_mensagem" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "topico_mensagem_ingest" on "topico_mensagem" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "inscricao_push" add constraint "inscricao_push_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "inscricao_push" add constraint "inscricao_push_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete cascade;`);
    this.addSql(`alter table "inscricao_push" enable row level security;`);
    this.addSql(`create policy "inscricao_push_empresa" on "inscricao_push" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "inscricao_push_ingest" on "inscricao_push" to "rastro_ingest" using (true) with check (true);`);
  }

}
