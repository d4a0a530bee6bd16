import { Migration } from '@mikro-orm/migrations';

export class Migration20261127172433 extends Migration {

  override name = 'Migration20261127172433';

  override up(): void | Promise<void> {
    this.addSql(`create table "solicitacao_video" ("id" serial primary key, "empresa_id" int not null, "descricao" varchar(200) not null, "ativo" int null, "serial" varchar(40) not null, "canal" int not null, "tipo" text not null, "inicio" timestamptz not null, "fim" timestamptz not null, "arquivo" varchar(300) null, "tamanho" int null, "situacao" text not null, "mensagem" varchar(300) null, "usuario" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "solicitacao_video_empresa_id_index" on "solicitacao_video" ("empresa_id");`);
    this.addSql(`create index "solicitacao_video_ativo_index" on "solicitacao_video" ("ativo");`);
    this.addSql(`create index "solicitacao_video_usuario_index" on "solicitacao_video" ("usuario");`);
    this.addSql(`create index "solicitacao_video_descricao_trgm_index" on "solicitacao_video" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "solicitacao_video_serial_trgm_index" on "solicitacao_video" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "solicitacao_video_empresa_id_created_at_id_sort_index" on "solicitacao_video" ("empresa_id", "created_at", "id");`);

    this.addSql(`alter table "solicitacao_video" add constraint "solicitacao_video_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "solicitacao_video" add constraint "solicitacao_video_ativo_foreign" foreign key ("ativo") references "ativo" ("id") on delete set null;`);
    this.addSql(`alter table "solicitacao_video" add constraint "solicitacao_video_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "solicitacao_video" add constraint "solicitacao_video_tipo_check" check ("tipo" in ('gravacao', 'clipe'));`);
    this.addSql(`alter table "solicitacao_video" add constraint "solicitacao_video_situacao_check" check ("situacao" in ('solicitado', 'disponivel', 'falhou'));`);
    this.addSql(`alter table "solicitacao_video" enable row level security;`);
    this.addSql(`create policy "solicitacao_video_empresa" on "solicitacao_video" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "solicitacao_video_ingest" on "solicitacao_video" to "rastro_ingest" using (true) with check (true);`);
  }

}
