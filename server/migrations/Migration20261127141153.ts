import { Migration } from '@mikro-orm/migrations';

export class Migration20261127141153 extends Migration {

  override name = 'Migration20261127141153';

  override up(): void | Promise<void> {
    this.addSql(`create table "parametro_viagem" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "ativo" int null, "distancia_minima" int not null default 500, "duracao_minima" int not null default 300, "parada_minima" int not null default 300, "intervalo_sem_dados" int not null default 3600, "usar_ignicao" boolean not null default true, "velocidade_movimento" double precision not null default 3, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "parametro_viagem_empresa_id_index" on "parametro_viagem" ("empresa_id");`);
    this.addSql(`create index "parametro_viagem_ativo_index" on "parametro_viagem" ("ativo");`);
    this.addSql(`create index "parametro_viagem_descricao_trgm_index" on "parametro_viagem" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "parametro_viagem_empresa_id_descricao_id_sort_index" on "parametro_viagem" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "parametro_viagem" add constraint "parametro_viagem_empresa_id_ativo_unique" unique ("empresa_id", "ativo");`);

    this.addSql(`alter table "parametro_viagem" add constraint "parametro_viagem_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "parametro_viagem" add constraint "parametro_viagem_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete no action;`);
    this.addSql(`alter table "parametro_viagem" enable row level security;`);
    this.addSql(`create policy "parametro_viagem_empresa" on "parametro_viagem" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "parametro_viagem_ingest" on "parametro_viagem" to "rastro_ingest" using (true) with check (true);`);
  }

}
