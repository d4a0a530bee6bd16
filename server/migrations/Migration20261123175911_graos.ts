import { Migration } from '@mikro-orm/migrations';

export class Migration20261123175911_graos extends Migration {

  override name = 'Migration20261123175911_graos';

  override up(): void | Promise<void> {
    this.addSql(`create table "cultura" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "umidade_ideal" double precision null, "temperatura_maxima" double precision null, "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "cultura_empresa_id_index" on "cultura" ("empresa_id");`);
    this.addSql(`create index "cultura_descricao_trgm_index" on "cultura" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "cultura_empresa_id_descricao_id_sort_index" on "cultura" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "cultura" add constraint "cultura_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "produto" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "cultura" int null, "unidade" text not null default 't', "umidade_padrao" double precision null, "impureza_padrao" double precision null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "produto_empresa_id_index" on "produto" ("empresa_id");`);
    this.addSql(`create index "produto_cultura_index" on "produto" ("cultura");`);
    this.addSql(`create index "produto_descricao_trgm_index" on "produto" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "produto_empresa_id_descricao_id_sort_index" on "produto" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "produto" add constraint "produto_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "propriedade" ("id" serial primary key, "empresa_id" int not null, "nome" varchar(120) not null, "responsavel" varchar(120) null, "telefone" varchar(20) null, "endereco" varchar(255) null, "municipio" int null, "area_hectares" double precision null, "localizacao" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "propriedade_empresa_id_index" on "propriedade" ("empresa_id");`);
    this.addSql(`create index "propriedade_municipio_index" on "propriedade" ("municipio");`);
    this.addSql(`create index "propriedade_nome_trgm_index" on "propriedade" using gin ("nome" gin_trgm_ops);`);
    this.addSql(`create index "propriedade_responsavel_trgm_index" on "propriedade" using gin ("responsavel" gin_trgm_ops);`);
    this.addSql(`create index "propriedade_empresa_id_nome_id_sort_index" on "propriedade" ("empresa_id", "nome", "id");`);
    this.addSql(`alter table "propriedade" add constraint "propriedade_empresa_id_nome_unique" unique ("empresa_id", "nome");`);

    this.addSql(`create table "armazem" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "propriedade" int not null, "tipo" text not null default 'silo', "ativo" int null, "cultura" int null, "capacidade" double precision null, "status" text not null default 'vazio', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "armazem_empresa_id_index" on "armazem" ("empresa_id");`);
    this.addSql(`create index "armazem_propriedade_index" on "armazem" ("propriedade");`);
    this.addSql(`create index "armazem_ativo_index" on "armazem" ("ativo");`);
    this.addSql(`create index "armazem_cultura_index" on "armazem" ("cultura");`);
    this.addSql(`create index "armazem_descricao_trgm_index" on "armazem" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "armazem_empresa_id_descricao_id_sort_index" on "armazem" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "armazem" add constraint "armazem_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`create table "sensor" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "serial" varchar(40) not null, "armazem" int not null, "tipo" text not null default 'temperatura', "ponto" varchar(60) null, "limite_minimo" double precision null, "limite_maximo" double precision null, "status" text not null default 'ativo', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "sensor_empresa_id_index" on "sensor" ("empresa_id");`);
    this.addSql(`create index "sensor_armazem_index" on "sensor" ("armazem");`);
    this.addSql(`create index "sensor_descricao_trgm_index" on "sensor" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "sensor_serial_trgm_index" on "sensor" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "sensor_empresa_id_descricao_id_sort_index" on "sensor" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "sensor" add constraint "sensor_empresa_id_serial_unique" unique ("empresa_id", "serial");`);

    this.addSql(`create table "lote" ("id" serial primary key, "empresa_id" int not null, "codigo" varchar(40) not null, "armazem" int not null, "produto" int not null, "safra" varchar(9) null, "data_inicio" date not null, "data_fim" date null, "quantidade" double precision null default 0, "situacao" text not null default 'aberto', "observacao" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "lote_empresa_id_index" on "lote" ("empresa_id");`);
    this.addSql(`create index "lote_armazem_index" on "lote" ("armazem");`);
    this.addSql(`create index "lote_produto_index" on "lote" ("produto");`);
    this.addSql(`create index "lote_codigo_trgm_index" on "lote" using gin ("codigo" gin_trgm_ops);`);
    this.addSql(`create index "lote_safra_trgm_index" on "lote" using gin ("safra" gin_trgm_ops);`);
    this.addSql(`create index "lote_empresa_id_data_inicio_id_sort_index" on "lote" ("empresa_id", "data_inicio", "id");`);
    this.addSql(`alter table "lote" add constraint "lote_empresa_id_codigo_unique" unique ("empresa_id", "codigo");`);

    this.addSql(`create table "carga" ("id" serial primary key, "empresa_id" int not null, "tipo" text not null default 'entrada', "data" timestamptz not null, "armazem" int not null, "produto" int not null, "lote" int null, "ativo" int null, "motorista" int null, "peso_bruto" double precision not null, "tara" double precision null, "umidade" double precision null, "impureza" double precision null, "nota_fiscal" varchar(60) null, "situacao" text not null default 'pendente', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "carga_empresa_id_index" on "carga" ("empresa_id");`);
    this.addSql(`create index "carga_armazem_index" on "carga" ("armazem");`);
    this.addSql(`create index "carga_produto_index" on "carga" ("produto");`);
    this.addSql(`create index "carga_lote_index" on "carga" ("lote");`);
    this.addSql(`create index "carga_ativo_index" on "carga" ("ativo");`);
    this.addSql(`create index "carga_motorista_index" on "carga" ("motorista");`);
    this.addSql(`create index "carga_nota_fiscal_trgm_index" on "carga" using gin ("nota_fiscal" gin_trgm_ops);`);
    this.addSql(`create index "carga_empresa_id_data_id_sort_index" on "carga" ("empresa_id", "data", "id");`);

    this.addSql(`alter table "cultura" add constraint "cultura_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "cultura" enable row level security;`);
    this.addSql(`create policy "cultura_empresa" on "cultura" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "cultura_ingest" on "cultura" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "produto" add constraint "produto_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "produto" add constraint "produto_cultura_foreign" foreign key ("cultura") references "cultura" ("id") on delete no action;`);
    this.addSql(`alter table "produto" add constraint "produto_unidade_check" check ("unidade" in ('kg', 't', 'sc'));`);
    this.addSql(`alter table "produto" enable row level security;`);
    this.addSql(`create policy "produto_empresa" on "produto" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "produto_ingest" on "produto" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "propriedade" add constraint "propriedade_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "propriedade" add constraint "propriedade_municipio_foreign" foreign key ("municipio") references "municipio" ("id") on delete no action;`);
    this.addSql(`alter table "propriedade" enable row level security;`);
    this.addSql(`create policy "propriedade_empresa" on "propriedade" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "propriedade_ingest" on "propriedade" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "armazem" add constraint "armazem_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "armazem" add constraint "armazem_propriedade_foreign" foreign key ("propriedade") references "propriedade" ("id") on delete no action;`);
    this.addSql(`alter table "armazem" add constraint "armazem_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete no action;`);
    this.addSql(`alter table "armazem" add constraint "armazem_cultura_foreign" foreign key ("cultura") references "cultura" ("id") on delete no action;`);
    this.addSql(`alter table "armazem" add constraint "armazem_tipo_check" check ("tipo" in ('silo', 'graneleiro', 'silo_bolsa', 'veiculo'));`);
    this.addSql(`alter table "armazem" add constraint "armazem_status_check" check ("status" in ('vazio', 'carregando', 'armazenando', 'descarregando', 'manutencao'));`);
    this.addSql(`alter table "armazem" enable row level security;`);
    this.addSql(`create policy "armazem_empresa" on "armazem" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "armazem_ingest" on "armazem" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "sensor" add constraint "sensor_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "sensor" add constraint "sensor_armazem_foreign" foreign key ("armazem") references "armazem" ("id") on delete no action;`);
    this.addSql(`alter table "sensor" add constraint "sensor_tipo_check" check ("tipo" in ('temperatura', 'umidade', 'co2', 'nivel'));`);
    this.addSql(`alter table "sensor" add constraint "sensor_status_check" check ("status" in ('ativo', 'inativo', 'alarme', 'manutencao'));`);
    this.addSql(`alter table "sensor" enable row level security;`);
    this.addSql(`create policy "sensor_empresa" on "sensor" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "sensor_ingest" on "sensor" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "lote" add constraint "lote_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "lote" add constraint "lote_armazem_foreign" foreign key ("armazem") references "armazem" ("id") on delete no action;`);
    this.addSql(`alter table "lote" add constraint "lote_produto_foreign" foreign key ("produto") references "produto" ("id") on delete no action;`);
    this.addSql(`alter table "lote" add constraint "lote_situacao_check" check ("situacao" in ('aberto', 'encerrado'));`);
    this.addSql(`alter table "lote" enable row level security;`);
    this.addSql(`create policy "lote_empresa" on "lote" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "lote_ingest" on "lote" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "carga" add constraint "carga_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "carga" add constraint "carga_armazem_foreign" foreign key ("armazem") references "armazem" ("id") on delete no action;`);
    this.addSql(`alter table "carga" add constraint "carga_produto_foreign" foreign key ("produto") references "produto" ("id") on delete no action;`);
    this.addSql(`alter table "carga" add constraint "carga_lote_foreign" foreign key ("lote") references "lote" ("id") on delete no action;`);
    this.addSql(`alter table "carga" add constraint "carga_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete no action;`);
    this.addSql(`alter table "carga" add constraint "carga_motorista_foreign" foreign key ("motorista") references "motorista" ("id") on delete no action;`);
    this.addSql(`alter table "carga" add constraint "carga_tipo_check" check ("tipo" in ('entrada', 'saida'));`);
    this.addSql(`alter table "carga" add constraint "carga_situacao_check" check ("situacao" in ('pendente', 'confirmada'));`);
    this.addSql(`alter table "carga" enable row level security;`);
    this.addSql(`create policy "carga_empresa" on "carga" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "carga_ingest" on "carga" to "rastro_ingest" using (true) with check (true);`);
  }

}
