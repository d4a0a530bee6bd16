import { Migration } from '@mikro-orm/migrations';

export class Migration20261127145757 extends Migration {

  override name = 'Migration20261127145757';

  override up(): void | Promise<void> {
    this.addSql(`create table "itinerario_ponto" ("id" serial primary key, "empresa_id" int not null, "itinerario" int not null, "ordem" int not null, "descricao" varchar(120) not null, "direcao" text not null default 'ida', "horario" varchar(5) not null, "raio" double precision null default 100, "posicao" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "itinerario_ponto_empresa_id_index" on "itinerario_ponto" ("empresa_id");`);
    this.addSql(`create index "itinerario_ponto_itinerario_index" on "itinerario_ponto" ("itinerario");`);
    this.addSql(`create index "itinerario_ponto_descricao_trgm_index" on "itinerario_ponto" using gin ("descricao" gin_trgm_ops);`);
    this.addSql(`create index "itinerario_ponto_empresa_id_ordem_id_sort_index" on "itinerario_ponto" ("empresa_id", "ordem", "id");`);

    this.addSql(`alter table "linha" add "largura" double precision null default 100;`);

    this.addSql(`alter table "itinerario_ponto" add constraint "itinerario_ponto_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`alter table "itinerario_ponto" add constraint "itinerario_ponto_itinerario_foreign" foreign key ("itinerario") references "itinerario" ("id") on delete cascade;`);
    this.addSql(`alter table "itinerario_ponto" add constraint "itinerario_ponto_direcao_check" check ("direcao" in ('ida', 'volta'));`);
    this.addSql(`alter table "itinerario_ponto" enable row level security;`);
    this.addSql(`create policy "itinerario_ponto_empresa" on "itinerario_ponto" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "itinerario_ponto_ingest" on "itinerario_ponto" to "rastro_ingest" using (true) with check (true);`);
  }

}
