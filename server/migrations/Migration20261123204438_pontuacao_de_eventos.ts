import { Migration } from '@mikro-orm/migrations';

export class Migration20261123204438_pontuacao_de_eventos extends Migration {

  override name = 'Migration20261123204438_pontuacao_de_eventos';

  override up(): void | Promise<void> {
    this.addSql(`create table "analise_de_risco" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "hora_inicio" int not null, "hora_fim" int not null, "fator_risco" double precision not null default 1, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "analise_de_risco_empresa_id_index" on "analise_de_risco" ("empresa_id");`);
    this.addSql(`create index "analise_de_risco_descricao_trgm_index" on "analise_de_risco" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "analise_de_risco_empresa_id_descricao_id_sort_index" on "analise_de_risco" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "analise_de_risco" add constraint "analise_de_risco_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "pontuacao_avancada" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "evento" varchar(60) not null, "velocidade_minima" int not null default 0, "velocidade_maxima" int null, "multiplicador" double precision not null default 1, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "pontuacao_avancada_empresa_id_index" on "pontuacao_avancada" ("empresa_id");`);
    this.addSql(`create index "pontuacao_avancada_descricao_trgm_index" on "pontuacao_avancada" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "pontuacao_avancada_evento_trgm_index" on "pontuacao_avancada" using gin ("evento" gin_trgm_ops);`);
    this.addSql(`create index "pontuacao_avancada_empresa_id_descricao_id_sort_index" on "pontuacao_avancada" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "pontuacao_avancada" add constraint "pontuacao_avancada_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "pontuacao_de_eventos" ("id" serial primary key, "empresa_id" int not null, "evento" varchar(60) not null, "descricao" varchar(120) null, "pontos" int not null, "ativo" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "pontuacao_de_eventos_empresa_id_index" on "pontuacao_de_eventos" ("empresa_id");`);
    this.addSql(`create index "pontuacao_de_eventos_evento_trgm_index" on "pontuacao_de_eventos" using gin ("evento" gin_trgm_ops);`);
    this.addSql(`create index "pontuacao_de_eventos_descricao_trgm_index" on "pontuacao_de_eventos" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "pontuacao_de_eventos_empresa_id_evento_id_sort_index" on "pontuacao_de_eventos" ("empresa_id", "evento", "id");`);
    this.addSql(`alter table "pontuacao_de_eventos" add constraint "pontuacao_de_eventos_empresa_id_evento_unique" unique ("empresa_id", "evento");`);

    this.addSql(`create table "pontuacao_rag" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "verde_ate" int not null, "ambar_ate" int not null, "padrao" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "pontuacao_rag_empresa_id_index" on "pontuacao_rag" ("empresa_id");`);
    this.addSql(`create index "pontuacao_rag_descricao_trgm_index" on "pontuacao_rag" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "pontuacao_rag_empresa_id_descricao_id_sort_index" on "pontuacao_rag" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "pontuacao_rag" add constraint "pontuacao_rag_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`alter table "analise_de_risco" add constraint "analise_de_risco_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "analise_de_risco" enable row level security;`);
    this.addSql(`create policy "analise_de_risco_empresa" on "analise_de_risco" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "analise_de_risco_ingest" on "analise_de_risco" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "pontuacao_avancada" add constraint "pontuacao_avancada_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "pontuacao_avancada" enable row level security;`);
    this.addSql(`create policy "pontuacao_avancada_empresa" on "pontuacao_avancada" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "pontuacao_avancada_ingest" on "pontuacao_avancada" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "pontuacao_de_eventos" add constraint "pontuacao_de_eventos_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "pontuacao_de_eventos" enable row level security;`);
    this.addSql(`create policy "pontuacao_de_eventos_empresa" on "pontuacao_de_eventos" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "pontuacao_de_eventos_ingest" on "pontuacao_de_eventos" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "pontuacao_rag" add constraint "pontuacao_rag_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "pontuacao_rag" enable row level security;`);
    this.addSql(`create policy "pontuacao_rag_empresa" on "pontuacao_rag" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "pontuacao_rag_ingest" on "pontuacao_rag" to "rastro_ingest" using (true) with check (true);`);
  }

}
