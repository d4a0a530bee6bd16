import { Migration } from '@mikro-orm/migrations';

export class Migration20261127140559 extends Migration {

  override name = 'Migration20261127140559';

  override up(): void | Promise<void> {
    this.addSql(`create table "tarefa" ("id" serial primary key, "empresa_id" int not null, "tipo" varchar(80) not null, "descricao" varchar(200) not null, "estado" text not null default 'na_fila', "progresso" int null default 0, "feito" int null default 0, "total" int null, "mensagem" varchar(300) null, "resultado" text null, "erro" text null, "usuario" int null, "dados" jsonb null, "permissao" varchar(120) null, "fila_id" varchar(64) null, "tentativas" int null default 0, "iniciado_em" timestamptz null, "terminado_em" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "tarefa_empresa_id_index" on "tarefa" ("empresa_id");`);
    this.addSql(`create index "tarefa_usuario_index" on "tarefa" ("usuario");`);
    this.addSql(`create index "tarefa_descricao_trgm_index" on "tarefa" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "tarefa_empresa_id_created_at_id_sort_index" on "tarefa" ("empresa_id", "created_at", "id");`);

    this.addSql(`alter table "tarefa" add constraint "tarefa_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "tarefa" add constraint "tarefa_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "tarefa" add constraint "tarefa_estado_check" check ("estado" in ('na_fila', 'executando', 'concluido', 'falhou', 'cancelado'));`);
    this.addSql(`alter table "tarefa" enable row level security;`);
    this.addSql(`create policy "tarefa_empresa" on "tarefa" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "tarefa_ingest" on "tarefa" to "rastro_ingest" using (true) with check (true);`);
  }

}
