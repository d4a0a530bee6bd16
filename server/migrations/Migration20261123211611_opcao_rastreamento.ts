import { Migration } from '@mikro-orm/migrations';

export class Migration20261123211611_opcao_rastreamento extends Migration {

  override name = 'Migration20261123211611_opcao_rastreamento';

  override up(): void | Promise<void> {
    this.addSql(`create table "opcao_rastreamento" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(120) not null, "padrao" boolean not null default false, "intervalo_atualizacao" int not null default 30, "tempo_sem_comunicacao" int not null default 60, "velocidade_maxima" int null default 0, "exibir_rastro" boolean not null default true, "tamanho_rastro" int not null default 50, "agrupar_marcadores" boolean not null default true, "seguir_veiculo" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "opcao_rastreamento_empresa_id_index" on "opcao_rastreamento" ("empresa_id");`);
    this.addSql(`create index "opcao_rastreamento_descricao_trgm_index" on "opcao_rastreamento" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "opcao_rastreamento_empresa_id_descricao_id_sort_index" on "opcao_rastreamento" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "opcao_rastreamento" add constraint "opcao_rastreamento_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    this.addSql(`alter table "opcao_rastreamento" add constraint "opcao_rastreamento_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "opcao_rastreamento" enable row level security;`);
    this.addSql(`create policy "opcao_rastreamento_empresa" on "opcao_rastreamento" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "opcao_rastreamento_ingest" on "opcao_rastreamento" to "rastro_ingest" using (true) with check (true);`);
  }

}
