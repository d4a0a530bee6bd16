import { Migration } from '@mikro-orm/migrations';

// Session cache, across processes, without a race: LISTEN/NOTIFY delivery is asynchronous (a notification
// committed just before a request may reach another process after it), so every change the triggers notify also
// bumps one committed counter. A process reads it (one round trip, shared by concurrent requests) before it uses a
// cached session and drops its cache when the counter moved: a change committed before a request is never missed.
// Hand-written: the table is outside the entity diff (schemaGenerator.skipTables).
export class Migration20261123160000_sessao_versao extends Migration {

  override name = 'Migration20261123160000_sessao_versao';

  override up(): void | Promise<void> {
    this.addSql(`create table if not exists "rastro_sessao_versao" ("id" int primary key check ("id" = 1), "v" bigint not null);`);
    this.addSql(`insert into "rastro_sessao_versao" ("id", "v") values (1, 0) on conflict do nothing;`);
    this.addSql(`create or replace function "rastro_sessao_notify"() returns trigger language plpgsql as $$
declare rid bigint;
begin
  if TG_OP = 'DELETE' then rid := old."id"; else rid := new."id"; end if;
  update "rastro_sessao_versao" set "v" = "v" + 1 where "id" = 1;
  perform pg_notify('rastro_sessao', TG_ARGV[0] || ':' || rid);
  return null;
end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function "rastro_sessao_notify"() returns trigger language plpgsql as $$
declare rid bigint;
begin
  if TG_OP = 'DELETE' then rid := old."id"; else rid := new."id"; end if;
  perform pg_notify('rastro_sessao', TG_ARGV[0] || ':' || rid);
  return null;
end $$;`);
    this.addSql(`drop table if exists "rastro_sessao_versao";`);
  }

}
