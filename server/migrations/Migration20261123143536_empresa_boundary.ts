import { Migration } from '@mikro-orm/migrations';

// Company boundary (issue 6 §2), reviewed by hand over the generated diff:
//  - cargo and permissao move from the ambiente to one company (the generated "rename ambiente_id to
//    empresa_id" would have kept ambiente ids as company ids). A role goes to the first company of its
//    ambiente and is copied into every other company whose users hold it (those users get the copy too:
//    a role's keys apply in its own company). A profile is copied into every company of its ambiente.
//    Roles of an ambiente without companies are deleted (and taken off their users).
//  - logins unique without letter case: existing look-alikes (same lower(login)) keep the oldest account's
//    login; the others become {login}.{id}.
//  - a tracker serial is unique on the whole platform: the oldest registration keeps it; later duplicates
//    become DUP{id, 17 digits} and are switched off (ativado = false) for their company to review.
export class Migration20261123143536_empresa_boundary extends Migration {

  override name = 'Migration20261123143536_empresa_boundary';

  override up(): void | Promise<void> {
    // ---- cargo: ambiente -> empresa
    this.addSql(`alter table "cargo" drop constraint "cargo_ambiente_id_foreign";`);
    this.addSql(`drop index "cargo_ambiente_id_descricao_id_sort_index";`);
    this.addSql(`alter table "cargo" drop constraint "cargo_ambiente_id_descricao_unique";`);
    this.addSql(`drop index "cargo_ambiente_id_index";`);
    this.addSql(`alter table "cargo" add column "empresa_id" int null;`);
    this.addSql(`update "cargo" c set "empresa_id" = (select min(e."id") from "empresa" e where e."ambiente_id" = c."ambiente_id");`);
    this.addSql(`do $$
declare r record; novo int;
begin
  for r in
    select c."id", c."descricao", c."permissoes", e."id" as emp
    from "cargo" c join "empresa" e on e."ambiente_id" = c."ambiente_id"
    where c."empresa_id" is not null and e."id" <> c."empresa_id"
      and exists (select 1 from "usuario" u where c."id" = any(u."cargos") and e."id" = any(u."empresas"))
    order by c."id", e."id"
  loop
    insert into "cargo" ("ambiente_id", "empresa_id", "descricao", "permissoes", "created_at", "updated_at")
      select "ambiente_id", r.emp, r."descricao", r."permissoes", now(), now() from "cargo" where "id" = r."id"
      returning "id" into novo;
    update "usuario" set "cargos" = array_append("cargos", novo) where r."id" = any("cargos") and r.emp = any("empresas");
  end loop;
end $$;`);
    this.addSql(`update "usuario" u set "cargos" = array(select x from unnest(u."cargos") x where x not in (select "id" from "cargo" where "empresa_id" is null)) where u."cargos" && array(select "id" from "cargo" where "empresa_id" is null);`);
    this.addSql(`delete from "cargo" where "empresa_id" is null;`);
    this.addSql(`alter table "cargo" alter column "empresa_id" set not null;`);
    this.addSql(`alter table "cargo" drop column "ambiente_id";`);
    this.addSql(`alter table "cargo" add constraint "cargo_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`create index "cargo_empresa_id_index" on "cargo" ("empresa_id");`);
    this.addSql(`create index "cargo_empresa_id_descricao_id_sort_index" on "cargo" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "cargo" add constraint "cargo_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    // ---- permissao: ambiente -> empresa (a copy in every company of the ambiente)
    this.addSql(`alter table "permissao" drop constraint "permissao_ambiente_id_foreign";`);
    this.addSql(`drop index "permissao_ambiente_id_descricao_id_sort_index";`);
    this.addSql(`alter table "permissao" drop constraint "permissao_ambiente_id_descricao_unique";`);
    this.addSql(`drop index "permissao_ambiente_id_index";`);
    this.addSql(`alter table "permissao" add column "empresa_id" int null;`);
    this.addSql(`update "permissao" p set "empresa_id" = (select min(e."id") from "empresa" e where e."ambiente_id" = p."ambiente_id");`);
    this.addSql(`insert into "permissao" ("ambiente_id", "empresa_id", "descricao", "permissoes", "created_at", "updated_at")
      select p."ambiente_id", e."id", p."descricao", p."permissoes", now(), now()
      from "permissao" p join "empresa" e on e."ambiente_id" = p."ambiente_id"
      where p."empresa_id" is not null and e."id" <> p."empresa_id";`);
    this.addSql(`delete from "permissao" where "empresa_id" is null;`);
    this.addSql(`alter table "permissao" alter column "empresa_id" set not null;`);
    this.addSql(`alter table "permissao" drop column "ambiente_id";`);
    this.addSql(`alter table "permissao" add constraint "permissao_empresa_id_foreign" foreign key ("empresa_id") references "empresa" ("id") on delete no action;`);
    this.addSql(`create index "permissao_empresa_id_index" on "permissao" ("empresa_id");`);
    this.addSql(`create index "permissao_empresa_id_descricao_id_sort_index" on "permissao" ("empresa_id", "descricao", "id");`);
    this.addSql(`alter table "permissao" add constraint "permissao_empresa_id_descricao_unique" unique ("empresa_id", "descricao");`);

    // ---- equipamento.serial unique on the platform
    this.addSql(`update "equipamento" q set "serial" = 'DUP' || lpad(q."id"::text, 17, '0'), "ativado" = false
      where exists (select 1 from "equipamento" o where o."serial" = q."serial" and o."id" < q."id");`);
    this.addSql(`alter table "equipamento" drop constraint "equipamento_empresa_id_serial_unique";`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_serial_unique" unique ("serial");`);

    // ---- usuario.login unique without letter case
    this.addSql(`update "usuario" u set "login" = left(u."login", 59 - length(u."id"::text)) || '.' || u."id"
      where exists (select 1 from "usuario" o where lower(o."login") = lower(u."login") and o."id" < u."id");`);
    this.addSql(`alter table "usuario" drop constraint "usuario_login_unique";`);
    this.addSql(`create unique index "usuario_login_lower_unique" on "usuario" (lower("login"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "cargo" drop constraint "cargo_empresa_id_foreign";`);
    this.addSql(`drop index "cargo_empresa_id_index";`);
    this.addSql(`drop index "cargo_empresa_id_descricao_id_sort_index";`);
    this.addSql(`alter table "cargo" drop constraint "cargo_empresa_id_descricao_unique";`);
    this.addSql(`alter table "cargo" add column "ambiente_id" int null;`);
    this.addSql(`update "cargo" c set "ambiente_id" = (select e."ambiente_id" from "empresa" e where e."id" = c."empresa_id");`);
    this.addSql(`alter table "cargo" alter column "ambiente_id" set not null;`);
    this.addSql(`alter table "cargo" drop column "empresa_id";`);
    // Copies of a role in several companies would clash on (ambiente, descricao): suffixed by id.
    this.addSql(`update "cargo" c set "descricao" = left(c."descricao", 110) || ' #' || c."id" where exists (select 1 from "cargo" o where o."ambiente_id" = c."ambiente_id" and o."descricao" = c."descricao" and o."id" < c."id");`);
    this.addSql(`alter table "cargo" add constraint "cargo_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);
    this.addSql(`create index "cargo_ambiente_id_descricao_id_sort_index" on "cargo" ("ambiente_id", "descricao", "id");`);
    this.addSql(`alter table "cargo" add constraint "cargo_ambiente_id_descricao_unique" unique ("ambiente_id", "descricao");`);
    this.addSql(`create index "cargo_ambiente_id_index" on "cargo" ("ambiente_id");`);

    this.addSql(`alter table "equipamento" drop constraint "equipamento_serial_unique";`);
    this.addSql(`alter table "equipamento" add constraint "equipamento_empresa_id_serial_unique" unique ("empresa_id", "serial");`);

    this.addSql(`alter table "permissao" drop constraint "permissao_empresa_id_foreign";`);
    this.addSql(`drop index "permissao_empresa_id_index";`);
    this.addSql(`drop index "permissao_empresa_id_descricao_id_sort_index";`);
    this.addSql(`alter table "permissao" drop constraint "permissao_empresa_id_descricao_unique";`);
    this.addSql(`alter table "permissao" add column "ambiente_id" int null;`);
    this.addSql(`update "permissao" p set "ambiente_id" = (select e."ambiente_id" from "empresa" e where e."id" = p."empresa_id");`);
    this.addSql(`delete from "permissao" p where exists (select 1 from "permissao" o where o."ambiente_id" = p."ambiente_id" and o."descricao" = p."descricao" and o."id" < p."id");`);
    this.addSql(`alter table "permissao" alter column "ambiente_id" set not null;`);
    this.addSql(`alter table "permissao" drop column "empresa_id";`);
    this.addSql(`alter table "permissao" add constraint "permissao_ambiente_id_foreign" foreign key ("ambiente_id") references "ambiente" ("id");`);
    this.addSql(`create index "permissao_ambiente_id_descricao_id_sort_index" on "permissao" ("ambiente_id", "descricao", "id");`);
    this.addSql(`alter table "permissao" add constraint "permissao_ambiente_id_descricao_unique" unique ("ambiente_id", "descricao");`);
    this.addSql(`create index "permissao_ambiente_id_index" on "permissao" ("ambiente_id");`);

    this.addSql(`drop index "usuario_login_lower_unique";`);
    this.addSql(`alter table "usuario" add constraint "usuario_login_unique" unique ("login");`);
  }

}
