// Row-level security on the company-scoped tables (issue 7; design in server/db/rls.ts).
// Written by `npm run migration:create -- --name rls` (policies from the metadata); the roles and grants were
// added by hand above them: roles are cluster-wide, so they are created only when missing.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261123153100_rls extends Migration {

  override name = 'Migration20261123153100_rls';

  override up(): void | Promise<void> {
    // rastro_app: every query of a request with an active company; rastro_ingest: the gateway writer.
    // Neither may log in, be superuser or bypass RLS. The connecting (system) role must be able to SET ROLE to them.
    this.addSql(`do $$
declare r text;
begin
  foreach r in array array['rastro_app', 'rastro_ingest'] loop
    if not exists (select from pg_roles where rolname = r) then
      begin
        execute format('create role %I nologin nosuperuser nobypassrls nocreatedb nocreaterole noinherit', r);
      exception when duplicate_object or unique_violation then null; -- created meanwhile by another database's migration
      end;
    end if;
    if not pg_has_role(current_user, r, 'member') then
      execute format('grant %I to %I', r, current_user);
    end if;
  end loop;
end $$;`);
    this.addSql(`grant usage on schema public to rastro_app, rastro_ingest;`);
    this.addSql(`grant select, insert, update, delete on all tables in schema public to rastro_app;`);
    this.addSql(`grant usage, select, update on all sequences in schema public to rastro_app;`);
    // The gateway writer reads the registers and writes devices, pending devices and the command queue of every company.
    this.addSql(`grant select, insert, update, delete on all tables in schema public to rastro_ingest;`);
    this.addSql(`grant usage, select, update on all sequences in schema public to rastro_ingest;`);
    // Tables created by later migrations (run by this same role).
    this.addSql(`alter default privileges in schema public grant select, insert, update, delete on tables to rastro_app;`);
    this.addSql(`alter default privileges in schema public grant usage, select, update on sequences to rastro_app;`);
    this.addSql(`alter default privileges in schema public grant select, insert, update, delete on tables to rastro_ingest;`);
    this.addSql(`alter default privileges in schema public grant usage, select, update on sequences to rastro_ingest;`);

    this.addSql(`alter table "categoria_de_ativo" enable row level security;`);
    this.addSql(`create policy "categoria_de_ativo_empresa" on "categoria_de_ativo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "categoria_de_ativo_ingest" on "categoria_de_ativo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "cargo" enable row level security;`);
    this.addSql(`create policy "cargo_empresa" on "cargo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "cargo_ingest" on "cargo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "equipamento" enable row level security;`);
    this.addSql(`create policy "equipamento_empresa" on "equipamento" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "equipamento_ingest" on "equipamento" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "fabricante_de_ativo" enable row level security;`);
    this.addSql(`create policy "fabricante_de_ativo_empresa" on "fabricante_de_ativo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "fabricante_de_ativo_ingest" on "fabricante_de_ativo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "fila_processamento" enable row level security;`);
    this.addSql(`create policy "fila_processamento_empresa" on "fila_processamento" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "fila_processamento_ingest" on "fila_processamento" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "garagem" enable row level security;`);
    this.addSql(`create policy "garagem_empresa" on "garagem" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "garagem_ingest" on "garagem" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "modelo_de_ativo" enable row level security;`);
    this.addSql(`create policy "modelo_de_ativo_empresa" on "modelo_de_ativo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "modelo_de_ativo_ingest" on "modelo_de_ativo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "motorista" enable row level security;`);
    this.addSql(`create policy "motorista_empresa" on "motorista" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "motorista_ingest" on "motorista" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "permissao" enable row level security;`);
    this.addSql(`create policy "permissao_empresa" on "permissao" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "permissao_ingest" on "permissao" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "situacao_do_ativo" enable row level security;`);
    this.addSql(`create policy "situacao_do_ativo_empresa" on "situacao_do_ativo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "situacao_do_ativo_ingest" on "situacao_do_ativo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "ativo" enable row level security;`);
    this.addSql(`create policy "ativo_empresa" on "ativo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "ativo_ingest" on "ativo" to "rastro_ingest" using (true) with check (true);`);

    this.addSql(`alter table "equipamento_ativo" enable row level security;`);
    this.addSql(`create policy "equipamento_ativo_empresa" on "equipamento_ativo" to "rastro_app" using (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer) with check (empresa_id = nullif(current_setting('rastro.empresa', true), '')::integer);`);
    this.addSql(`create policy "equipamento_ativo_ingest" on "equipamento_ativo" to "rastro_ingest" using (true) with check (true);`);
  }

}
