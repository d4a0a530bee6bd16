import { Migration } from '@mikro-orm/migrations';

export class Migration20261123174336_cercas_itinerarios extends Migration {

  override name = 'Migration20261123174336_cercas_itinerarios';

  override up(): void | Promise<void> {
    this.addSql(`create table "cerca" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "tipo" text not null default 'poligono', "categoria" int null, "geometria" jsonb null, "raio" double precision null, "velocidade_maxima" int null, "cor" varchar(7) null, "ativo" boolean null default true, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "cerca_empresa_id_index" on "cerca" ("empresa_id");`);
    this.addSql(`create index "cerca_categoria_index" on "cerca" ("categoria");`);
    this.addSql(`create index "cerca_descricao_trgm_index" on "cerca" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "cerca_empresa_id_descricao_id_sort_index" on "cerca" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "cerca" add constraint "cerca_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "prestadora" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(120) not null, "razao_social" varchar(160) null, "cnpj" varchar(18) null, "contato" varchar(120) null, "telefone" varchar(20) null, "email" varchar(160) null, "ativo" boolean null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "prestadora_empresa_id_index" on "prestadora" ("empresa_id");`);
    this.addSql(`create index "prestadora_nome_trgm_index" on "prestadora" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "prestadora_razao_social_trgm_index" on "prestadora" using gin ("razao_social" gin_trgm_ops);`);
    this.addSql(`create index "prestadora_cnpj_trgm_index" on "prestadora" using gin ("cnpj" gin_trgm_ops);`);
    this.addSql(`create index "prestadora_empresa_id_nome_id_sort_index" on "prestadora" ("empresa_id", "nome", "id");`);
    this.addSql(`alter table "prestadora" add constraint "prestadora_empresa_id_nome_unique" unique ("empresa_id", "nome");`);
    this.addSql(`alter table "prestadora" add constraint "prestadora_empresa_id_cnpj_unique" unique ("empresa_id", "cnpj");`);

    this.addSql(`create table "linha" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "codigo" varchar(30) null, "prestadora" int null, "distancia" double precision null, "ativo" boolean null default true, "trajeto" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "linha_empresa_id_index" on "linha" ("empresa_id");`);
    this.addSql(`create index "linha_prestadora_index" on "linha" ("prestadora");`);
    this.addSql(`create index "linha_descricao_trgm_index" on "linha" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "linha_codigo_trgm_index" on "linha" using gin ("codigo" gin_trgm_ops);`);
    this.addSql(`create index "linha_empresa_id_descricao_id_sort_index" on "linha" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "linha" add constraint "linha_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);
    this.addSql(`alter table "linha" add constraint "linha_empresa_id_codigo_unique" unique ("empresa_id", "codigo");`);

    this.addSql(`create table "itinerario" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "linha" int not null, "prestadora" int null, "dias_semana" jsonb null, "inicio_ida" varchar(5) null, "fim_ida" varchar(5) null, "inicio_volta" varchar(5) null, "fim_volta" varchar(5) null, "ativos" integer[] null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "itinerario_empresa_id_index" on "itinerario" ("empresa_id");`);
    this.addSql(`create index "itinerario_linha_index" on "itinerario" ("linha");`);
    this.addSql(`create index "itinerario_prestadora_index" on "itinerario" ("prestadora");`);
    this.addSql(`create index "itinerario_descricao_trgm_index" on "itinerario" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "itinerario_empresa_id_descricao_id_sort_index" on "itinerario" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "itinerario" add constraint "itinerario_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "itinerario_passageiro" ("id" serial primary key, "empresa_id" int not null, "itinerario" int not null, "passageiro" int not null, "horario" varchar(5) null, "ponto_embarque" varchar(160) null, "direcao" text not null default 'ida', "criado_auto" boolean null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "itinerario_passageiro_empresa_id_index" on "itinerario_passageiro" ("empresa_id");`);
    this.addSql(`create index "itinerario_passageiro_itinerario_index" on "itinerario_passageiro" ("itinerario");`);
    this.addSql(`create index "itinerario_passageiro_passageiro_index" on "itinerario_passageiro" ("passageiro");`);
    this.addSql(`create index "itinerario_passageiro_ponto_embarque_trgm_index" on "itinerario_passageiro" using gin ("ponto_embarque" gin_trgm_ops);`);
    this.addSql(`create index "itinerario_passageiro_empresa_id_horario_id_sort_index" on "itinerario_passageiro" ("empresa_id", "horario", "id");`);

    this.addSql(`alter table "cerca" add constraint "cerca_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "cerca" add constraint "cerca_categoria_foreign" foreign key ("categoria") references "categoria_de_cerca" ("id") on delete no action;`);
    this.addSql(`alter table "cerca" add constraint "cerca_tipo_check" check ("tipo" in ('poligono', 'circulo', 'rota'));`);
    this.addSql(`alter table "cerca" enable row level security;`);
    this.addSql(`create policy "cerca_empresa" on "cerca" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "cerca_ingest" on "cerca" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "prestadora" add constraint "prestadora_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "prestadora" enable row level security;`);
    this.addSql(`create policy "prestadora_empresa" on "prestadora" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "prestadora_ingest" on "prestadora" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "linha" add constraint "linha_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "linha" add constraint "linha_prestadora_foreign" foreign key ("prestadora") references "prestadora" ("id") on delete no action;`);
    this.addSql(`alter table "linha" enable row level security;`);
    this.addSql(`create policy "linha_empresa" on "linha" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "linha_ingest" on "linha" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "itinerario" add constraint "itinerario_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "itinerario" add constraint "itinerario_linha_foreign" foreign key ("linha") references "linha" ("id") on delete no action;`);
    this.addSql(`alter table "itinerario" add constraint "itinerario_prestadora_foreign" foreign key ("prestadora") references "prestadora" ("id") on delete no action;`);
    this.addSql(`alter table "itinerario" enable row level security;`);
    this.addSql(`create policy "itinerario_empresa" on "itinerario" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "itinerario_ingest" on "itinerario" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "itinerario_passageiro" add constraint "itinerario_passageiro_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "itinerario_passageiro" add constraint "itinerario_passageiro_itinerario_foreign" foreign key ("itinerario") references "itinerario" ("id") on delete cascade;`);
    this.addSql(`alter table "itinerario_passageiro" add constraint "itinerario_passageiro_passageiro_foreign" foreign key ("passageiro") references "passageiro" ("id") on delete cascade;`);
    this.addSql(`alter table "itinerario_passageiro" add constraint "itinerario_passageiro_direcao_check" check ("direcao" in ('ida', 'volta'));`);
    this.addSql(`alter table "itinerario_passageiro" enable row level security;`);
    this.addSql(`create policy "itinerario_passageiro_empresa" on "itinerario_passageiro" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "itinerario_passageiro_ingest" on "itinerario_passageiro" to "rastro_ingest" using (true) with check (true);`);
  }

}
