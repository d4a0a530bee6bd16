import { Migration } from '@mikro-orm/migrations';

export class Migration20261123215207_formularios extends Migration {

  override name = 'Migration20261123215207_formularios';

  override up(): void | Promise<void> {
    this.addSql(`create table "formulario" ("id" serial primary key, "empresa_id" int not null, "titulo" varchar(160) not null, "descricao" text null, "data_inicio" date null, "data_fim" date null, "questoes" jsonb not null, "criado_por" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "formulario_empresa_id_index" on "formulario" ("empresa_id");`);
    this.addSql(`create index "formulario_criado_por_index" on "formulario" ("criado_por");`);
    this.addSql(`create index "formulario_titulo_trgm_index" on "formulario" using gin ("titulo" gin_trgm_ops);`);
    this.addSql(`create index "formulario_descricao_trgm_index" on "formulario" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "formulario_empresa_id_titulo_id_sort_index" on "formulario" ("empresa_id", "titulo", "id");`);

    this.addSql(`create table "resposta_formulario" ("id" serial primary key, "empresa_id" int not null, "formulario" int not null, "motorista" int null, "respostas" jsonb null, "observacao" text null, "usuario" int null, "data_resposta" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "resposta_formulario_empresa_id_index" on "resposta_formulario" ("empresa_id");`);
    this.addSql(`create index "resposta_formulario_formulario_index" on "resposta_formulario" ("formulario");`);
    this.addSql(`create index "resposta_formulario_motorista_index" on "resposta_formulario" ("motorista");`);
    this.addSql(`create index "resposta_formulario_usuario_index" on "resposta_formulario" ("usuario");`);
    this.addSql(`create index "resposta_formulario_empresa_id_data_resposta_id_sort_index" on "resposta_formulario" ("empresa_id", "data_resposta", "id");`);

    this.addSql(`alter table "formulario" add constraint "formulario_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "formulario" add constraint "formulario_criado_por_foreign" foreign key ("criado_por") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "formulario" enable row level security;`);
    this.addSql(`create policy "formulario_empresa" on "formulario" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "formulario_ingest" on "formulario" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "resposta_formulario" add constraint "resposta_formulario_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "resposta_formulario" add constraint "resposta_formulario_formulario_foreign" foreign key ("formulario") references "formulario" ("id") on delete cascade;`);
    this.addSql(`alter table "resposta_formulario" add constraint "resposta_formulario_motorista_foreign" foreign key ("motorista") references "motorista" ("id") on delete set null;`);
    this.addSql(`alter table "resposta_formulario" add constraint "resposta_formulario_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "resposta_formulario" enable row level security;`);
    this.addSql(`create policy "resposta_formulario_empresa" on "resposta_formulario" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "resposta_formulario_ingest" on "resposta_formulario" to "rastro_ingest" using (true) with check (true);`);
  }

}
