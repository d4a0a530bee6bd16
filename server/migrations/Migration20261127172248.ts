import { Migration } from '@mikro-orm/migrations';

export class Migration20261127172248 extends Migration {

  override name = 'Migration20261127172248';

  override up(): void | Promise<void> {
    this.addSql(`create table "bug" ("id" serial primary key, "empresa_id" int not null, "fingerprint" varchar(64) not null, "tipo" text not null, "mensagem" varchar(500) not null, "stack" text null, "rota" varchar(500) null, "navegador" varchar(400) null, "usuario" int null, "ocorrencias" int not null default 1, "primeira_ocorrencia" timestamptz not null, "ultima_ocorrencia" timestamptz not null, "situacao" text not null default 'novo', "reconhecido_por" int null, "reconhecido_em" timestamptz null, "resolvido_por" int null, "resolvido_em" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "bug_empresa_id_index" on "bug" ("empresa_id");`);
    this.addSql(`create index "bug_usuario_index" on "bug" ("usuario");`);
    this.addSql(`create index "bug_reconhecido_por_index" on "bug" ("reconhecido_por");`);
    this.addSql(`create index "bug_resolvido_por_index" on "bug" ("resolvido_por");`);
    this.addSql(`create index "bug_mensagem_trgm_index" on "bug" using gin ("mensagem" gin_trgm_ops);`);
    this.addSql(`create index "bug_rota_trgm_index" on "bug" using gin ("rota" gin_trgm_ops);`);
    this.addSql(`create index "bug_empresa_id_ultima_ocorrencia_id_sort_index" on "bug" ("empresa_id", "ultima_ocorrencia", "id");`);
    this.addSql(`alter table "bug" add constraint "bug_empresa_id_fingerprint_unique" unique ("empresa_id", "fingerprint");`);

    this.addSql(`alter table "bug" add constraint "bug_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "bug" add constraint "bug_usuario_foreign" foreign key ("usuario") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "bug" add constraint "bug_reconhecido_por_foreign" foreign key ("reconhecido_por") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "bug" add constraint "bug_resolvido_por_foreign" foreign key ("resolvido_por") references "usuario" ("id") on delete set null;`);
    this.addSql(`alter table "bug" add constraint "bug_tipo_check" check ("tipo" in ('erro', 'rejeicao', 'componente', 'chunk', 'css_chunk'));`);
    this.addSql(`alter table "bug" add constraint "bug_situacao_check" check ("situacao" in ('novo', 'reconhecido', 'resolvido'));`);
    this.addSql(`alter table "bug" enable row level security;`);
    this.addSql(`create policy "bug_empresa" on "bug" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "bug_ingest" on "bug" to "rastro_ingest" using (true) with check (true);`);
  }

}
